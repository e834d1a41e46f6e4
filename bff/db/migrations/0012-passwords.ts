import { sql, type Kysely } from 'kysely';

/**
 * E-mail and password sign-in (SPEC §1 sign-in methods, §4 password change, §5 password rules):
 * - `users.phone` becomes nullable: an account made with an e-mail address need not have a number;
 * - `users.email` is unique in any case where set (the lower-case index of 0005 becomes unique), with
 *   `email_verified_at` (a sign-up's address is proven by a code before it can sign in) and
 *   `password_hash` (argon2id PHC string, never the password);
 * - `password_reset_tokens`: the single-use links of forgot-password by e-mail; `id` is the SHA-256 of
 *   the token the link carries, never the token.
 * Fails with a clear message when two accounts share an address in different case (staff must merge them).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{ email: string }>`
    select lower(email) as email from users where email is not null
    group by lower(email) having count(*) > 1 limit 1`.execute(db);
  if (rows[0]) {
    throw new Error(`two accounts share the e-mail address ${rows[0].email}: merge them before migrating`);
  }
  await db.schema
    .alterTable('users')
    .alterColumn('phone', (c) => c.dropNotNull())
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('email_verified_at', 'timestamptz')
    .addColumn('password_hash', 'text')
    .execute();
  await db.schema.dropIndex('users_email_lower_idx').execute();
  await db.schema
    .createIndex('users_email_lower_key')
    .on('users')
    .unique()
    .expression(sql`lower(email)`)
    .where(sql.ref('email'), 'is not', null)
    .execute();

  await db.schema
    .createTable('password_reset_tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();
  await db.schema
    .createIndex('password_reset_tokens_user_id_idx')
    .on('password_reset_tokens')
    .column('user_id')
    .execute();
}

/** Undoes {@link up} (fails when an account has no phone number). */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('password_reset_tokens').execute();
  await db.schema.dropIndex('users_email_lower_key').execute();
  await db.schema
    .createIndex('users_email_lower_idx')
    .on('users')
    .expression(sql`lower(email)`)
    .execute();
  await db.schema.alterTable('users').dropColumn('password_hash').dropColumn('email_verified_at').execute();
  await db.schema
    .alterTable('users')
    .alterColumn('phone', (c) => c.setNotNull())
    .execute();
}
