import { describe, expect, it, vi } from 'vitest';
import { deferredAnalytics, MAX_KEPT_CALLS, type AnalyticsCalls } from './app-analytics';

/** A load the test resolves or rejects, and a schedule it runs by hand. */
function harness() {
  const calls: unknown[][] = [];
  const module: AnalyticsCalls = {
    logAnalyticsEvent: (...args) => calls.push(['log', ...args]),
    clearAnalyticsUser: () => calls.push(['clear']),
  };
  let settle: { resolve: (m: AnalyticsCalls) => void; reject: (e: Error) => void } | null = null;
  const load = vi.fn(
    () =>
      new Promise<AnalyticsCalls>((resolve, reject) => {
        settle = { resolve, reject };
      }),
  );
  const scheduled: (() => void)[] = [];
  let clock = 1_000;
  const analytics = deferredAnalytics(
    load,
    (task) => scheduled.push(task),
    () => clock,
  );
  return {
    analytics,
    calls,
    load,
    module,
    runScheduled: () => scheduled.splice(0).forEach((task) => task()),
    settle: () => settle!,
    tick: (ms: number) => (clock += ms),
  };
}

describe('deferredAnalytics', () => {
  it('loads nothing before the first call, then loads once it is scheduled to', async () => {
    const h = harness();
    expect(h.load).not.toHaveBeenCalled();
    h.analytics.logAnalyticsEvent('screen_view', {}, 'sign_up');
    expect(h.load).not.toHaveBeenCalled();
    h.runScheduled();
    expect(h.load).toHaveBeenCalledTimes(1);
  });

  it('hands the calls made meanwhile to the module in order, each event with the time it was logged', async () => {
    const h = harness();
    h.analytics.logAnalyticsEvent('screen_view', {}, 'sign_up');
    h.tick(700);
    h.analytics.clearAnalyticsUser();
    h.tick(300);
    h.analytics.logAnalyticsEvent('cta_click', { cta: 'continue' });
    h.runScheduled();
    expect(h.calls).toEqual([]);
    h.settle().resolve(h.module);
    await vi.waitFor(() => expect(h.calls).toHaveLength(3));
    expect(h.calls).toEqual([
      ['log', 'screen_view', {}, 'sign_up', 1_000],
      ['clear'],
      ['log', 'cta_click', { cta: 'continue' }, undefined, 2_000],
    ]);
    // Loaded: later calls go straight through, and nothing loads again.
    h.analytics.logAnalyticsEvent('later');
    expect(h.calls.at(-1)).toEqual(['log', 'later', {}, undefined, 2_000]);
    expect(h.load).toHaveBeenCalledTimes(1);
  });

  it('tries again at the next call after a load that failed, keeping what was called', async () => {
    const h = harness();
    h.analytics.logAnalyticsEvent('first');
    h.runScheduled();
    h.settle().reject(new Error('chunk failed'));
    await vi.waitFor(() => expect(h.load).toHaveBeenCalledTimes(1));
    await Promise.resolve();
    h.analytics.logAnalyticsEvent('second');
    h.runScheduled();
    expect(h.load).toHaveBeenCalledTimes(2);
    h.settle().resolve(h.module);
    await vi.waitFor(() => expect(h.calls.map((c) => c[1])).toEqual(['first', 'second']));
  });

  it(`keeps at most ${MAX_KEPT_CALLS} calls while it loads, the oldest dropped first`, async () => {
    const h = harness();
    for (let i = 0; i < MAX_KEPT_CALLS + 5; i++) h.analytics.logAnalyticsEvent(`e${i}`);
    h.runScheduled();
    h.settle().resolve(h.module);
    await vi.waitFor(() => expect(h.calls).toHaveLength(MAX_KEPT_CALLS));
    expect(h.calls[0]?.[1]).toBe('e5');
  });
});
