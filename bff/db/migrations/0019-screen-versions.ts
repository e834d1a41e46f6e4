import { sql, type Kysely } from 'kysely';

/**
 * Screen definitions versioned in the database (issue 16 item 3): product staff upload, publish and roll
 * back a screen's definition without a deploy. The definition files of bff/screens/ stay the baseline,
 * version 0 ("deployed"), which is never stored here.
 *
 * - `screen_versions`: one row per uploaded version of a screen (`version` 1, 2, … per screen), with the
 *   checked definition document, who uploaded it, when, and a note.
 * - `screen_releases`: at most one row per screen, what owners get: `version` (0: the file), and during a
 *   rollout the version everyone else keeps (`previous_version`) and who gets the new one
 *   (`rollout_percent` of owners, stable per owner, or owners while `rollout_flag` is on). No row: the file.
 * - `screen_audit`: every upload, publish and rollback, with who and when. Its id also serves the server
 *   instances as the catalogue's change counter: an instance that sees a higher `max(id)` reloads the
 *   releases.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('screen_versions')
    .addColumn('screen_id', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('definition', 'jsonb', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('screen_versions_pk', ['screen_id', 'version'])
    .addCheckConstraint('screen_versions_version_positive', sql`version > 0`)
    .execute();
  await db.schema
    .createTable('screen_releases')
    .addColumn('screen_id', 'text', (c) => c.primaryKey())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('previous_version', 'integer')
    .addColumn('rollout_percent', 'integer')
    .addColumn('rollout_flag', 'text')
    .addColumn('updated_by', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable('screen_audit')
    .addColumn('id', 'bigserial', (c) => c.primaryKey())
    .addColumn('screen_id', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('detail', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('screen_audit_screen_idx')
    .on('screen_audit')
    .columns(['screen_id', 'id'])
    .execute();
}

/** Drops what {@link up} created (every uploaded version and the audit log are lost). */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('screen_audit').execute();
  await db.schema.dropTable('screen_releases').execute();
  await db.schema.dropTable('screen_versions').execute();
}
