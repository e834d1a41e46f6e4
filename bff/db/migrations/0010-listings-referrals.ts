import type { Kysely } from 'kysely';

/**
 * Listings and referrals (issue 6, SPEC §3 referralDetails, §4 inactive properties):
 * `leads.inactive_since` — when a live listing was switched off (status INACTIVE; set by staff or tests);
 * `leads.removed_at` — when the owner removed an inactive listing (status REMOVED);
 * `leads.referral_code` / `referral_name` / `referral_updated_at` — the verified referral code of the
 * property, the referrer's name as verified, and when it was last saved (null until one is added).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('leads')
    .addColumn('inactive_since', 'timestamptz')
    .addColumn('removed_at', 'timestamptz')
    .addColumn('referral_code', 'text')
    .addColumn('referral_name', 'text')
    .addColumn('referral_updated_at', 'timestamptz')
    .execute();
}

/** Drops what {@link up} added. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('leads')
    .dropColumn('inactive_since')
    .dropColumn('removed_at')
    .dropColumn('referral_code')
    .dropColumn('referral_name')
    .dropColumn('referral_updated_at')
    .execute();
}
