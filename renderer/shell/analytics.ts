/**
 * Analytics in the browser (SPEC §9 analytics, issue 15 item 1): events are queued and sent in batches to
 * the BFF's first-party endpoint of the build variant ({@link ANALYTICS_ENDPOINT}; standard
 * `POST /hms_ms/api/v1/analytics/events`, api/analytics-events.schema.json),
 * every {@link FLUSH_INTERVAL_MS} and when the page is hidden or left (`visibilitychange` to hidden,
 * `pagehide`), with `navigator.sendBeacon` (a JSON Blob) or, when that is missing or refuses,
 * `fetch(…, { keepalive: true })`. The server adds the signed-in user from the session cookie; the browser
 * only keeps a random analytics session id, replaced on sign-out ({@link clearAnalyticsUser}, SPEC §8).
 *
 * No personal data: properties are scalars under snake_case keys, and a key the server would refuse as
 * personal (phone, mobile, email, mail, name, address, password, otp: common.schema.json
 * AnalyticsPropertyName, read through schemas/generated/analytics-keys.ts) is dropped here, with a warning
 * and an `invalid_event` error report, so that one careless call site cannot make the server refuse a
 * whole batch.
 */

import { PERSONAL_KEY_PATTERN, PROPERTY_KEY_PATTERN } from '../../schemas/generated/analytics-keys';

/**
 * The BFF endpoint events are sent to: the build variant's analytics target (SPEC §9, issue 15 item 7),
 * set at build time from schemas/app/build-variants.ts (standard: /hms_ms/api/v1/analytics/events).
 */
export const ANALYTICS_ENDPOINT: string = import.meta.env.VITE_ANALYTICS_ENDPOINT;
/** How often queued events are sent, in ms. */
export const FLUSH_INTERVAL_MS = 5000;
/** Events per request (the endpoint's maxItems). */
export const MAX_BATCH = 50;
/** Events kept while the endpoint cannot be reached; older ones are dropped first. */
export const MAX_QUEUED = 500;
/** Properties per event (the endpoint's maxProperties). */
const MAX_PROPERTIES = 20;
/** Longest string property value (the endpoint's maxLength). */
const MAX_VALUE_LENGTH = 200;

const EVENT_NAME = /^[a-z][a-z0-9_]{0,63}$/;

/** A scalar property value. */
export type AnalyticsValue = string | number | boolean | null;

/** One event as sent on the wire (snake_case). */
export interface AnalyticsEvent {
  event: string;
  properties?: Record<string, AnalyticsValue>;
  /** ISO 8601 date-time by the browser's clock. */
  at: string;
  screen_id?: string;
  session_id: string;
}

/** What a queue needs from the browser; each defaults to the global of the same name. */
export interface AnalyticsQueueOptions {
  endpoint?: string;
  intervalMs?: number;
  /** The clock (default `Date.now`), in ms since the epoch. */
  now?: () => number;
  /** Makes an analytics session id (default `crypto.randomUUID`). */
  newSessionId?: () => string;
  win?: Window;
}

/** A batching queue of analytics events; see the module comment. */
export interface AnalyticsQueue {
  /**
   * Queues an event; starts the timer and page listeners on first use. Invalid names are dropped. `at`: when
   * it happened, ms since the epoch (default: now).
   */
  log(event: string, properties?: Record<string, unknown>, screenId?: string, at?: number): void;
  /** Sends everything queued now (sendBeacon, else fetch keepalive), in batches of {@link MAX_BATCH}. */
  flush(): void;
  /** Sends what is queued (still under the old session), then starts a new analytics session (SPEC §8). */
  clearUser(): void;
  /** The current analytics session id. */
  sessionId(): string;
  /** Events not sent yet. */
  pending(): readonly AnalyticsEvent[];
  /** Stops the timer and removes the page listeners (tests). */
  stop(): void;
}

/**
 * A call site sent what the endpoint would refuse: said on the console and reported as an `invalid_event`
 * error (issue 15 item 3), so that staff see it in the error groups, not only a developer's console.
 */
function dropped(what: string): void {
  const message = `analytics dropped ${what}`;
  console.warn(message);
  // Error reporting (./error-reports) listens for it; analytics does not depend on it.
  window.dispatchEvent(new CustomEvent('analytics-dropped', { detail: message }));
}

/** Scalar, non-personal, snake_case properties of `properties`, at most {@link MAX_PROPERTIES}. */
function cleanProperties(name: string, properties: Record<string, unknown>): Record<string, AnalyticsValue> {
  const out: Record<string, AnalyticsValue> = {};
  for (const [key, value] of Object.entries(properties)) {
    const scalar =
      value === null || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value))
        ? value
        : typeof value === 'string'
          ? value.slice(0, MAX_VALUE_LENGTH)
          : undefined;
    if (
      key.length > 64 ||
      !PROPERTY_KEY_PATTERN.test(key) ||
      PERSONAL_KEY_PATTERN.test(key) ||
      scalar === undefined
    ) {
      dropped(`property ${name}.${key.slice(0, 64)}`);
      continue;
    }
    if (Object.keys(out).length >= MAX_PROPERTIES) break;
    out[key] = scalar;
  }
  return out;
}

/** Creates a queue (the app uses one, {@link logAnalyticsEvent}; tests make their own). */
export function createAnalyticsQueue(options: AnalyticsQueueOptions = {}): AnalyticsQueue {
  const endpoint = options.endpoint ?? ANALYTICS_ENDPOINT;
  const intervalMs = options.intervalMs ?? FLUSH_INTERVAL_MS;
  const now = options.now ?? Date.now;
  const newSessionId = options.newSessionId ?? (() => crypto.randomUUID());
  const win = options.win ?? window;
  let session = newSessionId();
  let queue: AnalyticsEvent[] = [];
  let timer: ReturnType<typeof setInterval> | null = null;

  const send = (batch: AnalyticsEvent[]) => {
    const body = JSON.stringify({ events: batch });
    const nav = win.navigator;
    try {
      if (typeof nav.sendBeacon === 'function') {
        if (nav.sendBeacon(endpoint, new Blob([body], { type: 'application/json' }))) return;
      }
    } catch {
      // A beacon refused by the browser: fall back to fetch below.
    }
    win
      .fetch(endpoint, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json' },
        keepalive: true,
        credentials: 'same-origin',
      })
      .catch(() => {
        // Analytics never gets in the owner's way: a lost batch is only logged.
        console.debug('[analytics] batch not sent', batch.length);
      });
  };

  const flush = () => {
    while (queue.length > 0) send(queue.splice(0, MAX_BATCH));
  };
  const onVisibility = () => {
    if (win.document.visibilityState === 'hidden') flush();
  };
  const start = () => {
    if (timer !== null) return;
    timer = setInterval(flush, intervalMs);
    win.document.addEventListener('visibilitychange', onVisibility);
    win.addEventListener('pagehide', flush);
  };

  return {
    log(event, properties = {}, screenId, at = now()) {
      if (!EVENT_NAME.test(event)) {
        dropped(`event ${event.slice(0, 64)}`);
        return;
      }
      start();
      const props = cleanProperties(event, properties);
      queue.push({
        event,
        ...(Object.keys(props).length > 0 ? { properties: props } : {}),
        at: new Date(at).toISOString(),
        ...(screenId ? { screen_id: screenId.slice(0, 100) } : {}),
        session_id: session,
      });
      if (queue.length > MAX_QUEUED) queue = queue.slice(-MAX_QUEUED);
    },
    flush,
    clearUser() {
      flush();
      session = newSessionId();
    },
    sessionId: () => session,
    pending: () => queue,
    stop() {
      if (timer !== null) clearInterval(timer);
      timer = null;
      win.document.removeEventListener('visibilitychange', onVisibility);
      win.removeEventListener('pagehide', flush);
    },
  };
}

let appQueue: AnalyticsQueue | null = null;
const queueOfApp = () => (appQueue ??= createAnalyticsQueue());

/**
 * Queues an analytics event of the app (SPEC §9): `name` snake_case (≤64), `properties` scalar ids, flags
 * and counts (never personal data; see the module comment), `screenId` the screen it happened on, `at` when
 * (ms since the epoch; default now). The app calls it through ./app-analytics, which loads this module.
 */
export function logAnalyticsEvent(
  name: string,
  properties: Record<string, unknown> = {},
  screenId?: string,
  at?: number,
): void {
  queueOfApp().log(name, properties, screenId, at);
}

/**
 * Clears the analytics user on sign-out (SPEC §8 'on sign-out the analytics user is cleared'): what was
 * queued is sent, and later events get a new analytics session id, so they cannot be tied to the user
 * who signed out (the server adds no user id without a session).
 */
export function clearAnalyticsUser(): void {
  queueOfApp().clearUser();
}
