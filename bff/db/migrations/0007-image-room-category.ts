import type { Kysely } from 'kysely';

/**
 * Photos per room category (issue 4: requirements "rooms per room category"): `lead_images.room_category`
 * holds the name of the lead's room category (section room_categories) a room photo was uploaded for, or
 * null (other categories; room photos uploaded before the owner saved room categories).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('lead_images').addColumn('room_category', 'text').execute();
}

/** Drops what {@link up} added. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('lead_images').dropColumn('room_category').execute();
}
