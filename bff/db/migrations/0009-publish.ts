import { sql, type Kysely } from 'kysely';

/**
 * Publishing (SPEC §1 'Property is live' / 'Under review', §4 publish): `leads.brand` (the brand the lead
 * is listed under, from bff/screens/data/brands.json by property type; existing holiday homes get
 * holiday_home), `leads.published_at` (set once, by the first publish) and `leads.listing_id` (unique: a
 * lead has at most one listing, however often it is published).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('leads')
    .addColumn('brand', 'text', (c) => c.notNull().defaultTo('hotel'))
    .addColumn('published_at', 'timestamptz')
    .addColumn('listing_id', 'uuid', (c) => c.unique())
    .execute();
  await sql`update leads set brand = 'holiday_home' where property_type = 'holiday_home'`.execute(db);
}

/** Drops what {@link up} added. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('leads')
    .dropColumn('listing_id')
    .dropColumn('published_at')
    .dropColumn('brand')
    .execute();
}
