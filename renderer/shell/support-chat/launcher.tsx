import { Suspense, type ReactElement } from 'react';
import { ErrorBoundary } from 'react-error-boundary';
import { globalInfoAtom, loggedInAtom } from '../../state/atoms';
import { useStoreValue } from '../../state/use-store-value';
import { loadTextareaAutosize } from '../../../widgets/textarea-autosize';
import { lazyWithRetry, ModuleLoadFallback } from '../lazy-screen';

/**
 * The chat module, fetched the first time a signed-in owner may use it (not part of the sign-in bundle),
 * retried 5 times (SPEC §4, §9), with MUI's TextareaAutosize that its message field draws
 * (widgets/textarea-autosize.tsx).
 */
const SupportChat = lazyWithRetry(() =>
  Promise.all([import('./support-chat'), loadTextareaAutosize()]).then(([chat]) => chat),
);

/**
 * The shell's support chat entry (issue 6 item 7): nothing unless the user is signed in and global info
 * says `oyo_360_chat_enabled`; then the floating button and panel, loaded lazily; when its chunk fails every
 * try, the fallback with Refresh (SPEC §4, §8).
 */
export function SupportChatLauncher(): ReactElement | null {
  const loggedIn = useStoreValue(loggedInAtom);
  const enabled = useStoreValue(globalInfoAtom)?.oyo_360_chat_enabled === true;
  if (!loggedIn || !enabled) return null;
  return (
    <ErrorBoundary fallback={<ModuleLoadFallback />}>
      <Suspense fallback={null}>
        <SupportChat />
      </Suspense>
    </ErrorBoundary>
  );
}
