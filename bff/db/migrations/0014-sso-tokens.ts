import { sql, type Kysely } from 'kysely';

/**
 * The hand-off from the main app (issue 11 item 4, SPEC §2 /route/redirect/propertyOnboard, §7
 * sso/sign_in/info): one `sso_used_tokens` row per main-app token exchanged for a session. The primary key
 * `(issuer, jti)` makes a token single use across every server instance: a second insert of the same `jti`
 * conflicts. Rows are kept until the token's own expiry (plus clock tolerance), after which it could not
 * be used anyway, and are then purged.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sso_used_tokens')
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('jti', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('used_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addPrimaryKeyConstraint('sso_used_tokens_pkey', ['issuer', 'jti'])
    .execute();
  await db.schema
    .createIndex('sso_used_tokens_expires_idx')
    .on('sso_used_tokens')
    .column('expires_at')
    .execute();
}

/** Drops what {@link up} created. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sso_used_tokens').execute();
}
