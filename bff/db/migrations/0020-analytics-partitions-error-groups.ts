import { sql, type Kysely } from 'kysely';

/**
 * Issue 15 items 1 and 3.
 *
 * `analytics_events` becomes a table partitioned by day (RANGE on `occurred_at`), on PostgreSQL and PGlite
 * alike (PGlite is PostgreSQL): a `analytics_events_default` partition takes any day without its own, and
 * the BFF creates the partitions of today and the next days (`ensureAnalyticsPartitions`,
 * bff/services/analytics-store.ts), so that old days can be detached or dropped whole. The primary key
 * becomes (id, occurred_at), as a partitioned table's keys must hold the partition key. New columns:
 * - `source`: `browser` (POST /analytics/events) or `server` (recorded by the BFF where the state changes:
 *   sign-in, lead created, checklist task submitted, photo, contract, publish);
 * - `session_id` may be null (server events have no browser analytics session);
 * - `forwarded_at`, `forward_attempts`, `forward_after`: the sink forwarder's bookkeeping (sent when, how
 *   many tries, not before when). The rows of 0018 are copied over.
 *
 * Table `error_groups`: client error reports grouped by fingerprint (kind, normalised message and top
 * frame): how many, first and last seen, and the last report's scrubbed details and request id.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE analytics_events RENAME TO analytics_events_0018`.execute(db);
  await sql`ALTER TABLE analytics_events_0018 RENAME CONSTRAINT analytics_events_pkey TO analytics_events_0018_pkey`.execute(
    db,
  );
  await sql`ALTER INDEX analytics_events_event_occurred_idx RENAME TO analytics_events_0018_event_occurred_idx`.execute(
    db,
  );
  await sql`
    CREATE TABLE analytics_events (
      id uuid NOT NULL,
      user_id text,
      session_id uuid,
      event text NOT NULL,
      properties jsonb NOT NULL DEFAULT '{}'::jsonb,
      screen_id text,
      occurred_at timestamptz NOT NULL,
      received_at timestamptz NOT NULL DEFAULT now(),
      source text NOT NULL DEFAULT 'browser' CHECK (source IN ('browser', 'server')),
      forwarded_at timestamptz,
      forward_attempts integer NOT NULL DEFAULT 0,
      forward_after timestamptz,
      PRIMARY KEY (id, occurred_at)
    ) PARTITION BY RANGE (occurred_at)`.execute(db);
  await sql`CREATE TABLE analytics_events_default PARTITION OF analytics_events DEFAULT`.execute(db);
  await sql`CREATE INDEX analytics_events_event_occurred_idx ON analytics_events (event, occurred_at)`.execute(
    db,
  );
  await sql`CREATE INDEX analytics_events_user_idx ON analytics_events (user_id, event) WHERE user_id IS NOT NULL`.execute(
    db,
  );
  await sql`CREATE INDEX analytics_events_unforwarded_idx ON analytics_events (received_at) WHERE forwarded_at IS NULL`.execute(
    db,
  );
  await sql`
    INSERT INTO analytics_events (id, user_id, session_id, event, properties, screen_id, occurred_at, received_at)
    SELECT id, user_id, session_id, event, properties, screen_id, occurred_at, received_at FROM analytics_events_0018`.execute(
    db,
  );
  await sql`DROP TABLE analytics_events_0018`.execute(db);

  await db.schema
    .createTable('error_groups')
    .addColumn('fingerprint', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('top_frame', 'text')
    .addColumn('count', 'bigint', (c) => c.notNull().defaultTo(1))
    .addColumn('first_seen', 'timestamptz', (c) => c.notNull())
    .addColumn('last_seen', 'timestamptz', (c) => c.notNull())
    .addColumn('last_details', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('last_request_id', 'text')
    .execute();
  await db.schema.createIndex('error_groups_last_seen_idx').on('error_groups').column('last_seen').execute();
}

/** Back to 0018's plain table (events copied back; server events keep a null session, so they are dropped). */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('error_groups').execute();
  await sql`ALTER TABLE analytics_events RENAME TO analytics_events_0020`.execute(db);
  await sql`ALTER INDEX analytics_events_event_occurred_idx RENAME TO analytics_events_0020_event_occurred_idx`.execute(
    db,
  );
  await sql`ALTER TABLE analytics_events_0020 RENAME CONSTRAINT analytics_events_pkey TO analytics_events_0020_pkey`.execute(
    db,
  );
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
  await sql`
    INSERT INTO analytics_events (id, user_id, session_id, event, properties, screen_id, occurred_at, received_at)
    SELECT id, user_id, session_id, event, properties, screen_id, occurred_at, received_at
    FROM analytics_events_0020 WHERE session_id IS NOT NULL`.execute(db);
  await sql`DROP TABLE analytics_events_0020`.execute(db);
}
