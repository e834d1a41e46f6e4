import { Suspense, useEffect, useState, type ReactElement, type ReactNode } from 'react';
import { ErrorBoundary } from 'react-error-boundary';
import { ModuleLoadFallback } from '../engine/module-load-fallback';
import { DESKTOP_BREAKPOINT_PX } from './config';
import { lazyWithRetry } from './lazy-screen';

/** The desktop message (./desktop-message.tsx), a chunk of its own: a phone never draws it (issue 13 item 2). */
const DesktopMessage = lazyWithRetry(() =>
  import('./desktop-message').then((m) => ({ default: m.DesktopMessage })),
);

/** What desktop detection reads: the window width in px and the browser's navigator. */
export interface DesktopProbe {
  width: number;
  userAgent: string;
  /** navigator.userAgentData?.mobile (Chromium); undefined elsewhere. */
  uaMobile?: boolean;
}

/**
 * Desktop (SPEC §1, §9): wider than 1280 px, or a desktop browser — navigator.userAgentData.mobile === false
 * where the browser tells, else a user agent without Mobi, Android, iPhone or iPad.
 */
export function isDesktopEnvironment(probe: DesktopProbe): boolean {
  if (probe.width > DESKTOP_BREAKPOINT_PX) return true;
  if (probe.uaMobile === false) return true;
  if (probe.uaMobile === true) return false;
  return !/Mobi|Android|iPhone|iPad/.test(probe.userAgent);
}

/** Reads the current window and navigator. */
export function probeWindow(): DesktopProbe {
  const nav = navigator as Navigator & { userAgentData?: { mobile?: boolean } };
  return { width: window.innerWidth, userAgent: nav.userAgent, uaMobile: nav.userAgentData?.mobile };
}

/** True while the app runs on a desktop; re-evaluated on every window resize. */
export function useIsDesktop(probe: () => DesktopProbe = probeWindow): boolean {
  const [desktop, setDesktop] = useState(() => isDesktopEnvironment(probe()));
  useEffect(() => {
    const update = () => setDesktop(isDesktopEnvironment(probe()));
    update();
    window.addEventListener('resize', update);
    return () => window.removeEventListener('resize', update);
  }, [probe]);
  return desktop;
}

/**
 * Renders `children` on mobile; on desktop only the desktop message (./desktop-message.tsx, fetched then;
 * nothing else renders).
 */
export function DesktopGate({
  children,
  probe = probeWindow,
}: {
  children: ReactNode;
  probe?: () => DesktopProbe;
}): ReactElement {
  const desktop = useIsDesktop(probe);
  if (!desktop) return <>{children}</>;
  return (
    <ErrorBoundary fallback={<ModuleLoadFallback />}>
      <Suspense fallback={null}>
        <DesktopMessage />
      </Suspense>
    </ErrorBoundary>
  );
}
