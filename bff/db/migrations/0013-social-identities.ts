import { sql, type Kysely } from 'kysely';

/**
 * Sign-in through Google, Facebook, Apple and Truecaller (issue 11 items 2–3, SPEC §1, §2, §4, §7):
 * - `users.phone` may be null: an account created through a provider may have no number yet (harmless when
 *   migration 0012 does the same).
 * - `social_identities`: one row per provider account (`provider`, `subject` = the provider's `sub` / id),
 *   linked to one user. Unique `(provider, subject)`; a user may hold one identity per provider.
 * - `social_login_attempts`: the server-side half of an authorization request in progress — `state`,
 *   `nonce`, PKCE `code_verifier` — keyed by the SHA-256 of `state`, bound to the browser by the SHA-256 of
 *   the HttpOnly `onboard_oauth` cookie, single use (`consumed_at`), short-lived (`expires_at`).
 * - `truecaller_requests`: one row per Truecaller verification (the `request_nonce` of the deep link), bound
 *   to the browser the same way; the callback stores the verified number; the poll consumes it once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users alter column phone drop not null`.execute(db);

  await db.schema
    .createTable('social_identities')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('email', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('social_identities_provider_subject_key', ['provider', 'subject'])
    .addUniqueConstraint('social_identities_user_provider_key', ['user_id', 'provider'])
    .execute();

  await db.schema
    .createTable('social_login_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('browser_hash', 'text', (c) => c.notNull())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('code_verifier', 'text', (c) => c.notNull())
    .addColumn('link_user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('consumed_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('truecaller_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('browser_hash', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('phone', 'text')
    .addColumn('country_code', 'text')
    .addColumn('email', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('consumed_at', 'timestamptz')
    .execute();
}
