import { sql, type Kysely } from 'kysely';

/**
 * Two additions to published listings.
 *
 * Photo changes of a published property are drafts until the owner submits them (issue 12 item 2), as
 * section edits are since migration 0015: `lead_images.is_live` says whether a photo is on the live
 * listing. Publishing and submitting changes set it to the photo's `is_active`; until then an upload is
 * not live, and a deleted photo that is live stays on the listing (its files are kept) until the owner
 * submits. The images task's section data lists the active photo ids (`image_ids`, sorted) so its
 * `live_data` tells what the listing shows, the way the other sections do. Photos of leads published
 * before this migration are live as they are.
 *
 * The provider's program of a listing (SPEC §4 'Programs: EWB/OTA, flexible/crystal types'):
 * `leads.program` (EWB | OTA) and `leads.program_type` (flexible | crystal), both null until the
 * provider's staff put the listing on a program. SPEC does not say who chooses; the owner sees it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('lead_images')
    .addColumn('is_live', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  await sql`update lead_images set is_live = true
    where is_active and status = 'accepted'
      and lead_id in (select id from leads where published_at is not null)`.execute(db);
  // uuid order is the order of the lowercase text, as the image service sorts them.
  await sql`update lead_sections s set
      data = s.data || jsonb_build_object('image_ids', ids.list),
      live_data = s.data || jsonb_build_object('image_ids', ids.list)
    from (
      select l.id as lead_id,
        coalesce((select jsonb_agg(i.id::text order by i.id) from lead_images i
          where i.lead_id = l.id and i.is_active), '[]'::jsonb) as list
      from leads l where l.published_at is not null
    ) ids
    where s.lead_id = ids.lead_id and s.section = 'images'`.execute(db);

  await db.schema
    .alterTable('leads')
    .addColumn('program', 'text', (c) => c.check(sql`program in ('EWB', 'OTA')`))
    .addColumn('program_type', 'text', (c) => c.check(sql`program_type in ('flexible', 'crystal')`))
    .execute();
}

/** Drops what {@link up} added (the images sections keep their `image_ids`). */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('leads').dropColumn('program').dropColumn('program_type').execute();
  await db.schema.alterTable('lead_images').dropColumn('is_live').execute();
}
