import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../test-helpers';
import { ensureAnalyticsPartitions, partitionName } from './analytics-store';
import type { TrackMessage } from './analytics-sink';

/** A loopback stand-in of a Segment / RudderStack batch endpoint: records what it receives, fails on demand. */
interface SinkRequest {
  authorization: string | undefined;
  body: { batch: TrackMessage[]; sentAt: string };
}
const received: SinkRequest[] = [];
let failNext = 0;
let server: Server;
let sinkUrl: string;

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    let text = '';
    req.on('data', (c: Buffer) => (text += c.toString('utf8')));
    req.on('end', () => resolve(text));
  });

let clock = Date.parse('2026-11-24T10:00:00.000Z');
let app: FastifyInstance;

beforeAll(async () => {
  server = createServer((req, res) => {
    void readBody(req).then((text) => {
      if (failNext > 0) {
        failNext -= 1;
        res.writeHead(503).end('busy');
        return;
      }
      received.push({ authorization: req.headers.authorization, body: JSON.parse(text) });
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"success":true}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  sinkUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/batch`;
  app = await buildTestApp({
    now: () => clock,
    config: {
      analyticsSink: {
        url: sinkUrl,
        writeKey: 'wk_test',
        batchSize: 500,
        // The timer stays out of the way: the tests call tick() themselves.
        intervalMs: 3600_000,
        timeoutMs: 5000,
        maxAttempts: 3,
      },
    },
  });
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const post = (events: object[]) =>
  app.inject({ method: 'POST', url: '/hms_ms/api/v1/analytics/events', payload: { events } });

const mine = (sessionId: string) =>
  received.flatMap((r) => r.body.batch).filter((m) => m.anonymousId === sessionId);

describe('the analytics sink forwarder', () => {
  it('sends stored events as a track batch with the write key, once, and marks them forwarded', async () => {
    const sid = randomUUID();
    const res = await post([
      { event: 'screen_view', at: '2026-11-24T09:59:00.000Z', session_id: sid, screen_id: 'task' },
      {
        event: 'footer_account_click',
        at: '2026-11-24T09:59:01.000Z',
        session_id: sid,
        properties: { from: '/dashboard' },
      },
    ]);
    expect(res.statusCode, res.body).toBe(202);
    const forwarder = app.analytics.forwarder!;
    expect((await forwarder.tick()).sent).toBeGreaterThanOrEqual(2);
    const messages = mine(sid);
    expect(messages).toHaveLength(2);
    expect(messages.find((m) => m.event === 'footer_account_click')).toMatchObject({
      type: 'track',
      event: 'footer_account_click',
      anonymousId: sid,
      properties: { from: '/dashboard' },
      timestamp: '2026-11-24T09:59:01.000Z',
      messageId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      context: { source: 'browser' },
    });
    expect(messages.find((m) => m.event === 'screen_view')?.context.screen_id).toBe('task');
    expect(received.at(-1)?.authorization).toBe(`Basic ${Buffer.from('wk_test:').toString('base64')}`);
    const rows = await app.db
      .selectFrom('analytics_events')
      .selectAll()
      .where('session_id', '=', sid)
      .execute();
    expect(rows.every((r) => r.forwarded_at !== null)).toBe(true);
    // Nothing is sent twice.
    await forwarder.tick();
    expect(mine(sid)).toHaveLength(2);
  });

  it('keeps a batch the sink refused and sends it again, with the same message ids, after the back-off', async () => {
    const sid = randomUUID();
    await post([{ event: 'screen_view', at: '2026-11-24T10:00:00.000Z', session_id: sid }]);
    failNext = 1;
    const forwarder = app.analytics.forwarder!;
    expect((await forwarder.tick()).failed).toBeGreaterThanOrEqual(1);
    expect(mine(sid)).toHaveLength(0);
    const [row] = await app.db
      .selectFrom('analytics_events')
      .selectAll()
      .where('session_id', '=', sid)
      .execute();
    expect(row?.forwarded_at).toBeNull();
    expect(row?.forward_attempts).toBe(1);
    // Before the back-off has passed, it is not tried again.
    expect((await forwarder.tick()).sent).toBe(0);
    clock += 3600_000 + 1;
    await forwarder.tick();
    expect(mine(sid).map((m) => m.messageId)).toEqual([row!.id]);
  });

  it('gives an event up after ANALYTICS_SINK_MAX_ATTEMPTS refused tries', async () => {
    const sid = randomUUID();
    await post([{ event: 'screen_view', at: '2026-11-24T10:00:00.000Z', session_id: sid }]);
    failNext = 3;
    for (let i = 0; i < 4; i += 1) {
      await app.analytics.forwarder!.tick();
      clock += 4 * 3600_000;
    }
    expect(mine(sid)).toHaveLength(0);
    const [row] = await app.db
      .selectFrom('analytics_events')
      .selectAll()
      .where('session_id', '=', sid)
      .execute();
    expect(row?.forward_attempts).toBe(3);
    expect(row?.forwarded_at).toBeNull();
    failNext = 0;
  });

  it('sends a server event with the user id', async () => {
    const userId = randomUUID();
    await app.analytics.record(
      { user: null, log: app.log } as never,
      'publish_success',
      { property_unique_id: 'PO1234567890' },
      userId,
    );
    await app.analytics.forwarder!.tick();
    const message = received.flatMap((r) => r.body.batch).find((m) => m.userId === userId);
    expect(message).toMatchObject({ event: 'publish_success', context: { source: 'server' } });
    expect(message?.anonymousId).toBeUndefined();
  });
});

describe('day partitions of analytics_events', () => {
  it('creates the partitions of today and the next two days, and an event of today lands in its own', async () => {
    const day = Date.parse('2031-03-05T12:00:00.000Z');
    const { created } = await ensureAnalyticsPartitions(app.db, day);
    expect(created).toEqual([
      'analytics_events_p20310305',
      'analytics_events_p20310306',
      'analytics_events_p20310307',
    ]);
    expect((await ensureAnalyticsPartitions(app.db, day)).created).toEqual([]);
    const sid = randomUUID();
    await post([{ event: 'screen_view', at: '2031-03-06T23:59:59.000Z', session_id: sid }]);
    await post([{ event: 'screen_view', at: '2031-04-01T00:00:00.000Z', session_id: sid }]);
    const where = await sql<{ partition: string; occurred_at: Date }>`
      SELECT tableoid::regclass::text AS partition, occurred_at FROM analytics_events
      WHERE session_id = ${sid} ORDER BY occurred_at`.execute(app.db);
    expect(where.rows.map((r) => r.partition.replace(/^.*\./, ''))).toEqual([
      partitionName(new Date('2031-03-06T00:00:00Z')),
      'analytics_events_default',
    ]);
  });

  it('skips a day whose events already sit in the default partition', async () => {
    const sid = randomUUID();
    await post([{ event: 'screen_view', at: '2032-07-01T08:00:00.000Z', session_id: sid }]);
    const { created, skipped } = await ensureAnalyticsPartitions(
      app.db,
      Date.parse('2032-07-01T09:00:00Z'),
      0,
    );
    expect(created).toEqual([]);
    expect(skipped).toEqual(['analytics_events_p20320701']);
  });
});
