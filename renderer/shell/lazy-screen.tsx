import { lazy, type ComponentType, type LazyExoticComponent, type ReactElement } from 'react';
import { ErrorBoundary } from 'react-error-boundary';
import { ModuleLoadFallback } from '../engine/module-load-fallback';
import { Screen, type ScreenProps } from '../engine/screen';
import { retryImport, type PageTried } from '../../widgets/retry-import';

/**
 * React.lazy whose import is tried once and retried up to 5 times (SPEC §4, §9; widgets/retry-import.ts);
 * put it behind an error boundary with {@link ModuleLoadFallback}. `pageTried`: the page has fetched the
 * chunk itself (its `<link rel="modulepreload">`, `pagePreloads`), which counts as the first fetch.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the same bound as React.lazy's
export function lazyWithRetry<T extends ComponentType<any>>(
  factory: () => Promise<{ default: T }>,
  delayMs?: number,
  pageTried: PageTried = false,
): LazyExoticComponent<T> {
  return lazy(() => retryImport(factory, delayMs, pageTried));
}

export { ModuleLoadFallback };

/**
 * The engine's Screen behind an error boundary with the Refresh fallback. The engine comes with the page
 * (its chunk is preloaded by the page's `<link rel=modulepreload>`) rather than being fetched once the shell
 * has drawn: every route draws a screen, and waiting for it cost a round trip before the screen request
 * could even start (issue 13). What varies per screen — its widgets and their validators — loads lazily.
 */
export function LazyScreen({ screenId, requestHeaders, requestQuery }: ScreenProps): ReactElement {
  return (
    <ErrorBoundary fallback={<ModuleLoadFallback />}>
      <Screen screenId={screenId} requestHeaders={requestHeaders} requestQuery={requestQuery} />
    </ErrorBoundary>
  );
}
