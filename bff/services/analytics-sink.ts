import { sql, type Kysely } from 'kysely';
import type { AnalyticsSinkConfig } from '../config';
import type { Database } from '../db/schema';

/** One event as the Segment / RudderStack batch API takes it (`type: 'track'`). */
export interface TrackMessage {
  type: 'track';
  /** The event's id: the sink drops a message it has seen, so a retried batch is not counted twice. */
  messageId: string;
  event: string;
  /** The user id of the event (null: signed out, then `anonymousId` names the browser's session). */
  userId?: string;
  anonymousId?: string;
  properties: Record<string, unknown>;
  /** When it happened (ISO 8601). */
  timestamp: string;
  context: { screen_id?: string; source: 'browser' | 'server'; library: { name: string } };
}

interface ClaimedRow {
  id: string;
  user_id: string | null;
  session_id: string | null;
  event: string;
  properties: Record<string, unknown> | string;
  screen_id: string | null;
  occurred_at: Date | string;
  source: 'browser' | 'server';
  forward_attempts: number;
}

/** A stored event as a track message. */
export function trackMessage(row: ClaimedRow): TrackMessage {
  const properties = typeof row.properties === 'string' ? JSON.parse(row.properties) : row.properties;
  return {
    type: 'track',
    messageId: row.id,
    event: row.event,
    ...(row.user_id ? { userId: row.user_id } : { anonymousId: row.session_id ?? 'server' }),
    properties: properties as Record<string, unknown>,
    timestamp: new Date(row.occurred_at).toISOString(),
    context: {
      ...(row.screen_id ? { screen_id: row.screen_id } : {}),
      source: row.source,
      library: { name: 'property-onboard-bff' },
    },
  };
}

/** What one {@link AnalyticsForwarder.tick} did. */
export interface ForwardResult {
  /** Events the sink accepted. */
  sent: number;
  /** Events of a refused batch, to be tried again after the back-off. */
  failed: number;
}

/** The forwarder of stored events to the sink; see {@link createAnalyticsForwarder}. */
export interface AnalyticsForwarder {
  /** Sends at most one batch now. Never rejects (failures are logged and retried later). */
  tick(): Promise<ForwardResult>;
  /** Starts the timer (every `intervalMs`); a tick never overlaps the previous one. */
  start(): void;
  /** Stops the timer and waits for a tick in progress. */
  stop(): Promise<void>;
}

/** A try in progress holds its events for this long (ms) before another instance may take them. */
export const CLAIM_LEASE_MS = 60_000;
/** Longest wait between two tries of the same events, in ms. */
export const MAX_BACKOFF_MS = 3600_000;

/**
 * Forwards stored analytics events to the configured sink (issue 15 item 1), away from the request path:
 * every `intervalMs` it claims up to `batchSize` unsent events (oldest received first; `FOR UPDATE SKIP
 * LOCKED` and a lease in `forward_after`, so several BFF instances never send the same event at once and
 * a crashed try is taken again after {@link CLAIM_LEASE_MS}), POSTs them as a Segment/RudderStack batch
 * `{ batch: TrackMessage[], sentAt }` (JSON, HTTP Basic with the write key when set, `timeoutMs`), and
 * marks them `forwarded_at` on a 2xx. On any other answer or no answer, they are tried again after
 * intervalMs × 2^(tries − 1) (at most {@link MAX_BACKOFF_MS}), and given up after `maxAttempts` tries
 * (they stay stored, unsent). The sink deduplicates retries by `messageId` (the event's id).
 */
export function createAnalyticsForwarder(opts: {
  db: Kysely<Database>;
  sink: AnalyticsSinkConfig;
  /** Clock in ms since the epoch. */
  now: () => number;
  log: { warn(obj: object, msg: string): void; info(obj: object, msg: string): void };
  fetch?: typeof fetch;
}): AnalyticsForwarder {
  const { db, sink, now, log } = opts;
  const doFetch = opts.fetch ?? fetch;
  let timer: ReturnType<typeof setInterval> | null = null;
  let running: Promise<ForwardResult> | null = null;

  const claim = async (): Promise<ClaimedRow[]> => {
    const at = new Date(now());
    const lease = new Date(now() + CLAIM_LEASE_MS);
    const result = await sql<ClaimedRow>`
      UPDATE analytics_events SET forward_after = ${lease}, forward_attempts = forward_attempts + 1
      WHERE (id, occurred_at) IN (
        SELECT id, occurred_at FROM analytics_events
        WHERE forwarded_at IS NULL AND forward_attempts < ${sink.maxAttempts}
          AND (forward_after IS NULL OR forward_after <= ${at})
        ORDER BY received_at
        LIMIT ${sink.batchSize}
        FOR UPDATE SKIP LOCKED)
      RETURNING id, user_id, session_id, event, properties, screen_id, occurred_at, source, forward_attempts`.execute(
      db,
    );
    return result.rows;
  };

  const post = async (rows: ClaimedRow[]): Promise<string | null> => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (sink.writeKey) headers.authorization = `Basic ${Buffer.from(`${sink.writeKey}:`).toString('base64')}`;
    try {
      const res = await doFetch(sink.url, {
        method: 'POST',
        headers,
        body: JSON.stringify({ batch: rows.map(trackMessage), sentAt: new Date(now()).toISOString() }),
        signal: AbortSignal.timeout(sink.timeoutMs),
      });
      await res.arrayBuffer().catch(() => undefined);
      return res.ok ? null : `HTTP ${res.status}`;
    } catch (err) {
      return err instanceof Error ? err.message : String(err);
    }
  };

  const once = async (): Promise<ForwardResult> => {
    let rows: ClaimedRow[];
    try {
      rows = await claim();
    } catch (err) {
      log.warn({ err }, 'analytics sink: could not read unsent events');
      return { sent: 0, failed: 0 };
    }
    if (rows.length === 0) return { sent: 0, failed: 0 };
    const ids = rows.map((r) => r.id);
    const failure = await post(rows);
    try {
      if (failure === null) {
        await db
          .updateTable('analytics_events')
          .set({ forwarded_at: new Date(now()), forward_after: null })
          .where('id', 'in', ids)
          .execute();
        return { sent: rows.length, failed: 0 };
      }
      const tries = Math.max(...rows.map((r) => r.forward_attempts));
      const backoff = Math.min(sink.intervalMs * 2 ** Math.max(0, tries - 1), MAX_BACKOFF_MS);
      await db
        .updateTable('analytics_events')
        .set({ forward_after: new Date(now() + backoff) })
        .where('id', 'in', ids)
        .execute();
      log.warn({ failure, events: rows.length, tries, retryInMs: backoff }, 'analytics sink refused a batch');
    } catch (err) {
      log.warn({ err }, 'analytics sink: could not record the outcome of a batch');
    }
    return failure === null ? { sent: rows.length, failed: 0 } : { sent: 0, failed: rows.length };
  };

  const tick = () => {
    running ??= once().finally(() => {
      running = null;
    });
    return running;
  };

  return {
    tick,
    start() {
      if (timer !== null) return;
      timer = setInterval(() => void tick(), sink.intervalMs);
      timer.unref();
    },
    async stop() {
      if (timer !== null) clearInterval(timer);
      timer = null;
      if (running) await running;
    },
  };
}
