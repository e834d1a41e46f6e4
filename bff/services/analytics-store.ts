import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema';

/** A scalar property value of an event (common.schema.json AnalyticsValue). */
export type EventValue = string | number | boolean | null;

/**
 * Stores an event the BFF itself observed where the state changed (issue 15 item 1: sign-in, lead created,
 * checklist task submitted, photo uploaded, contract accepted, publish success and error), as source
 * `server`, for `userId` (null: not signed in), at `at` (ms since the epoch). Properties are ids, codes and
 * counts only. Resolves when stored.
 */
export async function recordServerEvent(
  db: Kysely<Database>,
  event: { userId: string | null; name: string; properties?: Record<string, EventValue>; at: number },
): Promise<void> {
  await db
    .insertInto('analytics_events')
    .values({
      id: randomUUID(),
      user_id: event.userId,
      session_id: null,
      event: event.name,
      properties: JSON.stringify(event.properties ?? {}),
      screen_id: null,
      occurred_at: new Date(event.at),
      source: 'server',
    })
    .execute();
}

const DAY_MS = 24 * 3600_000;

/** The partition of `analytics_events` that holds the UTC day starting at `dayStart`: analytics_events_pYYYYMMDD. */
export function partitionName(dayStart: Date): string {
  return `analytics_events_p${dayStart.toISOString().slice(0, 10).replaceAll('-', '')}`;
}

/**
 * Creates the day partitions of `analytics_events` (migration 0020) for the UTC day of `now` (ms since the
 * epoch) and the `daysAhead` days after it, when missing. A day whose rows already sit in the default
 * partition (events that arrived before its partition existed) keeps them there: that partition is skipped,
 * reported in the answer. Resolves with the names created and skipped.
 */
export async function ensureAnalyticsPartitions(
  db: Kysely<Database>,
  now: number,
  daysAhead = 2,
): Promise<{ created: string[]; skipped: string[] }> {
  const created: string[] = [];
  const skipped: string[] = [];
  const today = Math.floor(now / DAY_MS) * DAY_MS;
  for (let i = 0; i <= daysAhead; i += 1) {
    const from = new Date(today + i * DAY_MS);
    const to = new Date(today + (i + 1) * DAY_MS);
    const name = partitionName(from);
    // to_regclass follows the search path: another schema's table of the same name does not count.
    const exists = await sql<{ oid: string | null }>`SELECT to_regclass(${name})::text AS oid`.execute(db);
    if (exists.rows[0]?.oid) continue;
    try {
      await sql`CREATE TABLE IF NOT EXISTS ${sql.table(name)} PARTITION OF analytics_events
        FOR VALUES FROM (${sql.lit(from.toISOString())}) TO (${sql.lit(to.toISOString())})`.execute(db);
      created.push(name);
    } catch {
      // The default partition already holds rows of that day: they stay there.
      skipped.push(name);
    }
  }
  return { created, skipped };
}

/** The UTC day a partition named by {@link partitionName} holds (its start), or null for another name. */
function partitionDay(name: string): number | null {
  const m = /^analytics_events_p(\d{4})(\d{2})(\d{2})$/.exec(name);
  return m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : null;
}

/**
 * Removes the analytics events older than `retentionDays` whole UTC days before the day of `now` (ms since
 * the epoch): the day partitions of those days are dropped whole, and rows of those days that sit in the
 * default partition are deleted. `retentionDays` 0 keeps everything. The retention is ours
 * (ANALYTICS_RETENTION_DAYS, default 90), not the SPEC's. Only partitions of `analytics_events` in the
 * connection's search path are touched. Resolves with the partitions dropped and the rows deleted from the
 * default partition.
 */
export async function dropOldAnalyticsPartitions(
  db: Kysely<Database>,
  now: number,
  retentionDays: number,
): Promise<{ dropped: string[]; deleted: number }> {
  if (retentionDays <= 0) return { dropped: [], deleted: 0 };
  const cutoff = Math.floor(now / DAY_MS) * DAY_MS - retentionDays * DAY_MS;
  const partitions = await sql<{ name: string }>`
    SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = to_regclass('analytics_events')`.execute(db);
  const dropped: string[] = [];
  for (const { name } of partitions.rows) {
    const day = partitionDay(name);
    if (day === null || day >= cutoff) continue;
    await sql`DROP TABLE IF EXISTS ${sql.table(name)}`.execute(db);
    dropped.push(name);
  }
  const deleted =
    await sql`DELETE FROM analytics_events_default WHERE occurred_at < ${new Date(cutoff)}`.execute(db);
  dropped.sort();
  return { dropped, deleted: Number(deleted.numAffectedRows ?? 0n) };
}
