/** The latest a task deferred by {@link afterFirstPaint} waits, in ms (ours): a page that never paints. */
export const FIRST_PAINT_WAIT_MS = 2000;

/** What {@link afterFirstPaint} uses of the window. */
export type PaintWindow = Pick<Window, 'setTimeout' | 'clearTimeout'> & {
  PerformanceObserver?: typeof PerformanceObserver;
  requestIdleCallback?: Window['requestIdleCallback'];
};

/**
 * Runs `task` once, when the main thread is first idle after the page's first contentful paint (the
 * `first-contentful-paint` entry of the Paint Timing API, buffered, so a paint before the call counts), and at
 * the latest {@link FIRST_PAINT_WAIT_MS} from the call (a background tab does not paint; a browser without
 * paint entries waits that long).
 *
 * Where the page starts requests that its first screen does not need (the translations refresh): Lighthouse
 * puts every request that starts before the largest paint on the way to it (issue 13 item 4), and an idle
 * moment between React's slices of the first draw comes before the paint.
 */
export function afterFirstPaint(win: PaintWindow, task: () => void): void {
  let done = false;
  const run = () => {
    if (done) return;
    done = true;
    win.clearTimeout(fallback);
    task();
  };
  const whenIdle = () => {
    if (typeof win.requestIdleCallback === 'function') win.requestIdleCallback(run, { timeout: 500 });
    else win.setTimeout(run, 0);
  };
  const fallback = win.setTimeout(run, FIRST_PAINT_WAIT_MS);
  const Observer = win.PerformanceObserver;
  if (!Observer?.supportedEntryTypes?.includes('paint')) return;
  const observer = new Observer((list) => {
    if (list.getEntriesByName('first-contentful-paint').length === 0) return;
    observer.disconnect();
    whenIdle();
  });
  observer.observe({ type: 'paint', buffered: true });
}
