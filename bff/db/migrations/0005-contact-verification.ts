import { sql, type Kysely } from 'kysely';

/**
 * Verifying an owner's e-mail address and phone number by code, and switching profile (SPEC §3
 * kycDetails is_mail_verified / is_another_user_present, §4 OTP, §6 'Switching profile is possible when a
 * mobile number or e-mail is linked to another profile'):
 * - `otp_codes.phone` becomes `destination`: a code goes to an E.164 number or to an e-mail address;
 * - `contact_verifications`: one row per (user, channel, destination) proven by a code;
 * - `profile_switches`: at most one pending switch per session, to the account the proven destination
 *   belongs to, valid for a few minutes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('otp_codes').renameColumn('phone', 'destination').execute();
  await sql`alter index otp_codes_phone_created_idx rename to otp_codes_destination_created_idx`.execute(db);

  await db.schema
    .createTable('contact_verifications')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('channel', 'text', (c) => c.notNull().check(sql`channel in ('email', 'phone')`))
    .addColumn('destination', 'text', (c) => c.notNull())
    .addColumn('verified_at', 'timestamptz', (c) => c.notNull())
    .addUniqueConstraint('contact_verifications_user_channel_destination_key', [
      'user_id',
      'channel',
      'destination',
    ])
    .execute();
  // The conflict check looks a destination up across users.
  await db.schema
    .createIndex('contact_verifications_channel_destination_idx')
    .on('contact_verifications')
    .columns(['channel', 'destination'])
    .execute();
  // …and finds an account whose e-mail is the address (stored in any case by staff).
  await db.schema
    .createIndex('users_email_lower_idx')
    .on('users')
    .expression(sql`lower(email)`)
    .execute();

  await db.schema
    .createTable('profile_switches')
    .addColumn('session_id', 'text', (c) => c.primaryKey().references('sessions.id').onDelete('cascade'))
    .addColumn('target_user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('channel', 'text', (c) => c.notNull().check(sql`channel in ('email', 'phone')`))
    .addColumn('destination', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
}

/** Undoes {@link up}. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('profile_switches').execute();
  await db.schema.dropIndex('users_email_lower_idx').execute();
  await db.schema.dropTable('contact_verifications').execute();
  await sql`alter index otp_codes_destination_created_idx rename to otp_codes_phone_created_idx`.execute(db);
  await db.schema.alterTable('otp_codes').renameColumn('destination', 'phone').execute();
}
