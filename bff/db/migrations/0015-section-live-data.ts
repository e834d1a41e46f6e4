import { sql, type Kysely } from 'kysely';

/**
 * Edits of a published listing are drafts until the owner submits them (issue 12 item 2):
 * `lead_sections.live_data` (jsonb, null until the lead is published) is the section as the live listing
 * shows it. Publishing copies `data` into it; after that, saves change `data` only, and submitting the
 * changes (`publishChanges`) copies them again through the publish checks. Leads published before this
 * migration get their current data as the live one.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('lead_sections').addColumn('live_data', 'jsonb').execute();
  await sql`update lead_sections set live_data = data
    where lead_id in (select id from leads where published_at is not null)`.execute(db);
}

/** Drops what {@link up} added. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('lead_sections').dropColumn('live_data').execute();
}
