import { useAtomValue } from 'jotai';
import { lazy, Suspense, type ReactElement } from 'react';
import { globalInfoAtom, loggedInAtom } from '../../state/atoms';

/** The chat module, fetched the first time a signed-in owner may use it (not part of the sign-in bundle). */
const SupportChat = lazy(() => import('./support-chat'));

/**
 * The shell's support chat entry (issue 6 item 7): nothing unless the user is signed in and global info
 * says `oyo_360_chat_enabled`; then the floating button and panel, loaded lazily.
 */
export function SupportChatLauncher(): ReactElement | null {
  const loggedIn = useAtomValue(loggedInAtom);
  const enabled = useAtomValue(globalInfoAtom)?.oyo_360_chat_enabled === true;
  if (!loggedIn || !enabled) return null;
  return (
    <Suspense fallback={null}>
      <SupportChat />
    </Suspense>
  );
}
