import type { Kysely } from 'kysely';

/**
 * Campaign attribution (issue 15 item 6, SPEC §3 utm_source, utm_medium, utm_campaign): `users.utm` is the
 * campaign the person arrived with when they first signed in (set once, never overwritten), `leads.utm` the
 * campaign of the visit in which the lead was created. Both `{ utm_source?, utm_medium?, utm_campaign? }`
 * (strings of at most 100 characters) or null without a campaign.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('utm', 'jsonb').execute();
  await db.schema.alterTable('leads').addColumn('utm', 'jsonb').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('leads').dropColumn('utm').execute();
  await db.schema.alterTable('users').dropColumn('utm').execute();
}
