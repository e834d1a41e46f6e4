import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { afterFirstPaint, FIRST_PAINT_WAIT_MS, type PaintWindow } from './first-paint';

/** A PerformanceObserver whose entries the test delivers. */
function fakeObserver() {
  const observers: { callback: PerformanceObserverCallback; connected: boolean }[] = [];
  class FakeObserver {
    static supportedEntryTypes = ['paint', 'largest-contentful-paint'];
    private readonly entry: { callback: PerformanceObserverCallback; connected: boolean };
    constructor(callback: PerformanceObserverCallback) {
      this.entry = { callback, connected: false };
      observers.push(this.entry);
    }
    observe() {
      this.entry.connected = true;
    }
    disconnect() {
      this.entry.connected = false;
    }
  }
  const paint = (name: string) => {
    for (const o of observers.filter((x) => x.connected)) {
      const list = {
        getEntriesByName: (n: string) => (n === name ? [{ name }] : []),
      } as unknown as PerformanceObserverEntryList;
      o.callback(list, o as unknown as PerformanceObserver);
    }
  };
  return { Observer: FakeObserver as unknown as typeof PerformanceObserver, observers, paint };
}

function paintWindow(over: Partial<PaintWindow> = {}): PaintWindow {
  return {
    setTimeout: ((fn: () => void, ms?: number) => setTimeout(fn, ms)) as unknown as Window['setTimeout'],
    clearTimeout: ((id: number) => clearTimeout(id)) as Window['clearTimeout'],
    ...over,
  };
}

describe('afterFirstPaint', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs its task when idle after the first contentful paint, once, and not before', () => {
    const { Observer, observers, paint } = fakeObserver();
    const idle: (() => void)[] = [];
    const task = vi.fn();
    afterFirstPaint(
      paintWindow({
        PerformanceObserver: Observer,
        requestIdleCallback: ((cb: () => void) => idle.push(cb)) as Window['requestIdleCallback'],
      }),
      task,
    );
    paint('first-paint');
    expect(idle).toHaveLength(0);
    paint('first-contentful-paint');
    expect(task).not.toHaveBeenCalled();
    expect(observers[0]!.connected).toBe(false);
    idle[0]!();
    expect(task).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(FIRST_PAINT_WAIT_MS);
    expect(task).toHaveBeenCalledTimes(1);
  });

  it('runs it after the longest wait when the page does not paint', () => {
    const { Observer } = fakeObserver();
    const task = vi.fn();
    afterFirstPaint(paintWindow({ PerformanceObserver: Observer }), task);
    vi.advanceTimersByTime(FIRST_PAINT_WAIT_MS - 1);
    expect(task).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(task).toHaveBeenCalledTimes(1);
  });

  it('runs it after the longest wait without paint entries, and after a paint without idle callbacks', () => {
    const task = vi.fn();
    afterFirstPaint(paintWindow(), task);
    vi.advanceTimersByTime(FIRST_PAINT_WAIT_MS);
    expect(task).toHaveBeenCalledTimes(1);

    const { Observer, paint } = fakeObserver();
    const next = vi.fn();
    afterFirstPaint(paintWindow({ PerformanceObserver: Observer }), next);
    paint('first-contentful-paint');
    vi.advanceTimersByTime(0);
    expect(next).toHaveBeenCalledTimes(1);
  });
});
