import { sql, type Kysely } from 'kysely';

/**
 * Reminders by web push (issue 15 item 5, SPEC §9 web push).
 *
 * - `push_subscriptions`: one row per browser that accepted reminders (its PushSubscription: the push
 *   service's `endpoint`, unique, and the keys `p256dh` / `auth` the payload is encrypted with), owned by
 *   `user_id`; removed with the user, and when the push service answers 404 / 410 (expired).
 * - `push_reminders`: at most one row per owner, when the last reminder was sent and about which property,
 *   so an owner gets at most one reminder per `REMINDER_PERIOD_MS` whichever server instance sends it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('push_subscriptions')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('endpoint', 'text', (c) => c.notNull().unique())
    .addColumn('p256dh', 'text', (c) => c.notNull())
    .addColumn('auth', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('push_subscriptions_user_idx')
    .on('push_subscriptions')
    .column('user_id')
    .execute();
  await db.schema
    .createTable('push_reminders')
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('last_sent_at', 'timestamptz', (c) => c.notNull())
    .addColumn('property_unique_id', 'text', (c) => c.notNull())
    .execute();
}

/** Drops what {@link up} created (subscriptions are lost: owners turn reminders on again). */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('push_reminders').execute();
  await db.schema.dropTable('push_subscriptions').execute();
}
