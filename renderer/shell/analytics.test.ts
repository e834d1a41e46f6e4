import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ANALYTICS_ENDPOINT,
  createAnalyticsQueue,
  FLUSH_INTERVAL_MS,
  MAX_BATCH,
  type AnalyticsEvent,
  type AnalyticsQueue,
} from './analytics';

/** Bodies the mocked browser APIs were given, parsed. */
let beacons: { url: string; type: string; events: AnalyticsEvent[] }[];
let fetches: { url: string; init: RequestInit; events: AnalyticsEvent[] }[];
let beaconAnswer: boolean;
const pendingReads: Promise<void>[] = [];
let queue: AnalyticsQueue;
let sessions: string[];

function newQueue() {
  let n = 0;
  sessions = [];
  queue = createAnalyticsQueue({
    now: () => Date.UTC(2026, 10, 24, 9, 0, 0, n++),
    newSessionId: () => {
      const id = `00000000-0000-4000-8000-00000000000${sessions.length}`;
      sessions.push(id);
      return id;
    },
  });
  return queue;
}

/** Waits until every Blob the beacon got has been read. */
async function settled() {
  await Promise.all(pendingReads);
}

beforeEach(() => {
  vi.useFakeTimers();
  beacons = [];
  fetches = [];
  beaconAnswer = true;
  Object.defineProperty(navigator, 'sendBeacon', {
    configurable: true,
    value: vi.fn((url: string, data: Blob) => {
      pendingReads.push(
        data.text().then((text) => {
          beacons.push({
            url,
            type: data.type,
            events: (JSON.parse(text) as { events: AnalyticsEvent[] }).events,
          });
        }),
      );
      return beaconAnswer;
    }),
  });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      fetches.push({
        url,
        init,
        events: (JSON.parse(init.body as string) as { events: AnalyticsEvent[] }).events,
      });
      return new Response(null, { status: 202 });
    }),
  );
});

afterEach(() => {
  queue.stop();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  Reflect.deleteProperty(navigator, 'sendBeacon');
  pendingReads.length = 0;
});

describe('analytics queue', () => {
  it('collects events and sends them in one batch when the interval passes', async () => {
    const q = newQueue();
    q.log('screen_view', {}, 'dashboard');
    q.log('footer_account_click', { from: '/dashboard' });
    expect(navigator.sendBeacon).not.toHaveBeenCalled();
    vi.advanceTimersByTime(FLUSH_INTERVAL_MS);
    await settled();
    expect(beacons).toEqual([
      {
        url: ANALYTICS_ENDPOINT,
        type: 'application/json',
        events: [
          {
            event: 'screen_view',
            at: '2026-11-24T09:00:00.000Z',
            screen_id: 'dashboard',
            session_id: sessions[0],
          },
          {
            event: 'footer_account_click',
            properties: { from: '/dashboard' },
            at: '2026-11-24T09:00:00.001Z',
            session_id: sessions[0],
          },
        ],
      },
    ]);
    expect(q.pending()).toEqual([]);
  });

  it('sends what is queued with sendBeacon on pagehide', async () => {
    const q = newQueue();
    q.log('screen_view', {}, 'account');
    window.dispatchEvent(new Event('pagehide'));
    await settled();
    expect(beacons.map((b) => b.events.map((e) => e.screen_id))).toEqual([['account']]);
    expect(q.pending()).toEqual([]);
  });

  it('sends on visibilitychange to hidden', async () => {
    const q = newQueue();
    q.log('screen_view', {}, 'task');
    const visibility = vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
    document.dispatchEvent(new Event('visibilitychange'));
    visibility.mockRestore();
    await settled();
    expect(beacons).toHaveLength(1);
  });

  it('splits more than 50 events into batches of 50', async () => {
    const q = newQueue();
    for (let i = 0; i < MAX_BATCH + 3; i++) q.log('screen_view', { i });
    q.flush();
    await settled();
    expect(beacons.map((b) => b.events.length)).toEqual([MAX_BATCH, 3]);
  });

  it('falls back to fetch keepalive when the beacon is refused', async () => {
    beaconAnswer = false;
    const q = newQueue();
    q.log('screen_view', {}, 'dashboard');
    window.dispatchEvent(new Event('pagehide'));
    expect(fetches).toHaveLength(1);
    expect(fetches[0]!.url).toBe(ANALYTICS_ENDPOINT);
    expect(fetches[0]!.init).toMatchObject({ method: 'POST', keepalive: true });
    expect(fetches[0]!.events.map((e) => e.event)).toEqual(['screen_view']);
  });

  it('drops personal and non-scalar properties and badly named events', async () => {
    const q = newQueue();
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    q.log('NotSnake');
    q.log('checklist_submit', {
      phone: '+919800000000',
      owner_name: 'A',
      lead: { id: 1 },
      task_id: 't1',
      n: 2,
    });
    expect(q.pending().map((e) => [e.event, e.properties])).toEqual([
      ['checklist_submit', { task_id: 't1', n: 2 }],
    ]);
  });

  it('clearing the analytics user sends the queue and starts a new session', async () => {
    const q = newQueue();
    q.log('screen_view', {}, 'account');
    q.clearUser();
    q.log('screen_view', {}, 'sign_up');
    q.flush();
    await settled();
    expect(beacons.map((b) => b.events.map((e) => e.session_id))).toEqual([[sessions[0]], [sessions[1]]]);
    expect(sessions[0]).not.toBe(sessions[1]);
  });
});
