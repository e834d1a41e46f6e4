import { sql, type Kysely } from 'kysely';

/**
 * Table `analytics_events` (issue 15 item 1, SPEC §9 analytics): one row per event sent by the browser to
 * `POST /hms_ms/api/v1/analytics/events`. `user_id` is the signed-in user of the request's session (null
 * signed out; kept as text without a foreign key, so events outlive an account's removal as anonymous
 * counts once the id is erased); `session_id` the browser's analytics session (a random UUID);
 * `occurred_at` the browser's clock, `received_at` the server's. No personal data: properties are ids,
 * flags and counts only (the route refuses personal keys).
 *
 * The index on (event, occurred_at) serves counts of an event over a time range (the funnel of issue 15
 * item 2). Partitioning by day is left for when the volume asks for it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('analytics_events')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('user_id', 'text')
    .addColumn('session_id', 'uuid', (c) => c.notNull())
    .addColumn('event', 'text', (c) => c.notNull())
    .addColumn('properties', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('screen_id', 'text')
    .addColumn('occurred_at', 'timestamptz', (c) => c.notNull())
    .addColumn('received_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('analytics_events_event_occurred_idx')
    .on('analytics_events')
    .columns(['event', 'occurred_at'])
    .execute();
}

/** Drops what {@link up} created (the stored events are lost). */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('analytics_events').execute();
}
