import type { Kysely } from 'kysely';

/**
 * Where a lead is and why it may be cold (SPEC §3 address/location, §4 cold leads): the confirmed pin,
 * its city and country, and the cold-lead type. The (latitude, longitude) index serves the bounding-box
 * search of 'Is this your property?' (SPEC §2 OTA match).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('leads')
    .addColumn('latitude', 'double precision')
    .addColumn('longitude', 'double precision')
    .addColumn('city', 'text')
    .addColumn('country', 'text')
    .addColumn('cold_lead_type', 'text')
    .execute();
  await db.schema.createIndex('leads_location_idx').on('leads').columns(['latitude', 'longitude']).execute();
}

/** Drops what {@link up} added. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('leads_location_idx').execute();
  await db.schema
    .alterTable('leads')
    .dropColumn('latitude')
    .dropColumn('longitude')
    .dropColumn('city')
    .dropColumn('country')
    .dropColumn('cold_lead_type')
    .execute();
}
