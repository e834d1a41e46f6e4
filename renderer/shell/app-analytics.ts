import { afterFirstPaint } from './first-paint';

/** What the app calls of the analytics module (./analytics). */
export interface AnalyticsCalls {
  logAnalyticsEvent(name: string, properties?: Record<string, unknown>, screenId?: string, at?: number): void;
  clearAnalyticsUser(): void;
}

/**
 * Calls kept while the analytics code loads: as many as its queue keeps events (./analytics `MAX_QUEUED`,
 * written again here: importing it would bring that module back into the first page).
 */
export const MAX_KEPT_CALLS = 500;

/**
 * The app's analytics calls (SPEC §9) without the analytics code in the first page's JavaScript (issue 13
 * item 2: the sign-in route's budget): the first call schedules `load` (through `schedule`), and every call
 * made until it has loaded is kept and handed to it in order, each event with the time it was logged (`now`,
 * ms since the epoch). A load that failed is tried again at the next call; the calls kept meanwhile stay
 * kept (at most {@link MAX_KEPT_CALLS}, the oldest dropped first, as the queue itself keeps its events).
 */
export function deferredAnalytics(
  load: () => Promise<AnalyticsCalls>,
  schedule: (task: () => void) => void,
  now: () => number = Date.now,
): AnalyticsCalls {
  let loaded: AnalyticsCalls | null = null;
  let loading = false;
  let kept: ((calls: AnalyticsCalls) => void)[] = [];
  const start = () => {
    loading = true;
    schedule(() => {
      load().then(
        (calls) => {
          loaded = calls;
          const pending = kept;
          kept = [];
          for (const call of pending) call(calls);
        },
        () => {
          loading = false;
        },
      );
    });
  };
  const call = (run: (calls: AnalyticsCalls) => void) => {
    if (loaded) return run(loaded);
    kept.push(run);
    if (kept.length > MAX_KEPT_CALLS) kept = kept.slice(-MAX_KEPT_CALLS);
    if (!loading) start();
  };
  return {
    logAnalyticsEvent(name, properties = {}, screenId, at = now()) {
      call((calls) => calls.logAnalyticsEvent(name, properties, screenId, at));
    },
    clearAnalyticsUser() {
      call((calls) => calls.clearAnalyticsUser());
    },
  };
}

/**
 * The app's analytics: ./analytics loaded once the first screen has painted (shell/first-paint.ts), so that
 * its request is not on the way to the largest paint either.
 */
const appAnalytics = deferredAnalytics(
  () => import('./analytics'),
  (task) => afterFirstPaint(window, task),
);

/**
 * Queues an analytics event of the app (SPEC §9; ./analytics `logAnalyticsEvent`): `name` snake_case (≤64),
 * `properties` scalar ids, flags and counts (never personal data), `screenId` the screen it happened on.
 */
export function logAnalyticsEvent(
  name: string,
  properties: Record<string, unknown> = {},
  screenId?: string,
): void {
  appAnalytics.logAnalyticsEvent(name, properties, screenId);
}

/** Clears the analytics user on sign-out (SPEC §8; ./analytics `clearAnalyticsUser`), in order with the events. */
export function clearAnalyticsUser(): void {
  appAnalytics.clearAnalyticsUser();
}
