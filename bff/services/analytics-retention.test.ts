// @vitest-environment node
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildTestApp, sharedDatabase } from '../test-helpers';
import { dropOldAnalyticsPartitions, ensureAnalyticsPartitions, partitionName } from './analytics-store';

/**
 * Removing old day partitions of analytics_events (ANALYTICS_RETENTION_DAYS, ours) and making the next
 * days' ahead, on the job runner of the reminders: pg-boss when the tests run on PostgreSQL
 * (TEST_DATABASE_URL), the in-process timer on PGlite.
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const DAY = 24 * 3600_000;
const day = (iso: string) => Date.parse(`${iso}T00:00:00.000Z`);
const name = (at: number) => partitionName(new Date(at));

let app: FastifyInstance;
const others: FastifyInstance[] = [];

beforeAll(async () => {
  app = await buildTestApp();
});

afterAll(async () => {
  for (const a of others) await a.close();
  await app.close();
  const handle = await sharedDatabase();
  if (onPostgres && handle.schema && process.env.TEST_DATABASE_URL) {
    const c = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await c.connect();
    await c.query(`drop schema if exists ${handle.schema}_pgboss cascade`);
    await c.end();
  }
});

const partitions = async () =>
  (
    await sql<{ name: string }>`
      SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent = to_regclass('analytics_events')`.execute(app.db)
  ).rows
    .map((r) => r.name)
    .sort();

async function insertEvent(at: number): Promise<string> {
  const id = randomUUID();
  await app.db
    .insertInto('analytics_events')
    .values({
      id,
      user_id: null,
      session_id: null,
      event: 'lead_created',
      properties: '{}',
      screen_id: null,
      occurred_at: new Date(at),
      source: 'server',
    })
    .execute();
  return id;
}
const eventExists = async (id: string) =>
  (await app.db.selectFrom('analytics_events').select('id').where('id', '=', id).execute()).length === 1;

describe('dropping old day partitions of analytics_events', () => {
  it('drops the days before the retention whole, deletes their rows from the default partition, and keeps the rest', async () => {
    const today = day('2040-06-15') + 13 * 3600_000;
    const old = day('2040-05-06'); // 40 days before
    const edge = day('2040-05-16'); // exactly 30 days before: kept
    await ensureAnalyticsPartitions(app.db, old, 0);
    await ensureAnalyticsPartitions(app.db, edge, 0);
    const inOld = await insertEvent(old + 3600_000);
    const inEdge = await insertEvent(edge + 3600_000);
    // Days without a partition of their own: their rows are in the default partition.
    const oldDefault = await insertEvent(day('2040-05-01') + 60_000);
    const recentDefault = await insertEvent(day('2040-06-05') + 60_000);

    // 0 keeps everything.
    expect(await dropOldAnalyticsPartitions(app.db, today, 0)).toEqual({ dropped: [], deleted: 0 });
    expect(await partitions()).toContain(name(old));

    const { dropped, deleted } = await dropOldAnalyticsPartitions(app.db, today, 30);
    // Also the days made when the app started (the real today): all before the cutoff.
    expect(dropped).toContain(name(old));
    expect(dropped.every((n) => n < name(edge))).toBe(true);
    expect(deleted).toBe(1);
    expect(await partitions()).not.toContain(name(old));
    expect(await partitions()).toContain(name(edge));
    expect(await eventExists(inOld)).toBe(false);
    expect(await eventExists(oldDefault)).toBe(false);
    expect(await eventExists(inEdge)).toBe(true);
    expect(await eventExists(recentDefault)).toBe(true);
    // Again: nothing left to drop.
    expect(await dropOldAnalyticsPartitions(app.db, today, 30)).toEqual({ dropped: [], deleted: 0 });
  });
});

describe('the analytics partitions job', () => {
  it(`runs on ${onPostgres ? 'pg-boss (PostgreSQL)' : 'an in-process timer (PGlite)'}: makes the next days and drops the old ones`, async () => {
    const today = day('2041-01-20') + 8 * 3600_000;
    const older = day('2040-11-01');
    await ensureAnalyticsPartitions(app.db, older, 0);
    const server = await buildTestApp({
      config: { analyticsRetentionDays: 30, analyticsMaintenanceMs: 300 },
      now: () => today,
    });
    others.push(server);
    await server.ready();
    expect(server.analyticsMaintenance?.kind).toBe(onPostgres ? 'pg-boss' : 'in-process');
    await vi.waitFor(
      async () => {
        const names = await partitions();
        expect(names).not.toContain(name(older));
        for (let i = 0; i <= 2; i += 1) expect(names).toContain(name(day('2041-01-20') + i * DAY));
      },
      { timeout: 15_000, interval: 100 },
    );
    // A later run of the job (not the one at start) drops a day that has just fallen out.
    const later = day('2040-12-01');
    await ensureAnalyticsPartitions(app.db, later, 0);
    expect(await partitions()).toContain(name(later));
    await vi.waitFor(async () => expect(await partitions()).not.toContain(name(later)), {
      timeout: 15_000,
      interval: 100,
    });
  });
});
