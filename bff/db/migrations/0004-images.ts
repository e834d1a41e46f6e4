import { sql, type Kysely } from 'kysely';

/**
 * Photos of a property (SPEC §3 image, §4 image states, §5 photo rules): one `lead_images` row per upload
 * the server kept (accepted or rejected; refused uploads leave no row), with the hashes that find
 * duplicates; and the per-property switch that disables upload and delete (SPEC §5, §6), set by staff.
 * `(lead_id, client_upload_id)` is unique so a retried upload never makes a second image.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('lead_images')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('lead_id', 'uuid', (c) => c.notNull().references('leads.id').onDelete('cascade'))
    .addColumn('client_upload_id', 'uuid', (c) => c.notNull())
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('error_type', 'text')
    .addColumn('is_active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('bytes', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('phash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('deleted_at', 'timestamptz')
    .addUniqueConstraint('lead_images_lead_client_upload_key', ['lead_id', 'client_upload_id'])
    .execute();
  // Listing and the duplicate check read a lead's active images in upload order.
  await db.schema
    .createIndex('lead_images_lead_active_created_idx')
    .on('lead_images')
    .columns(['lead_id', 'is_active', 'created_at'])
    .execute();

  await db.schema
    .alterTable('leads')
    .addColumn('image_upload_disabled', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
}

/** Drops what {@link up} created. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('leads').dropColumn('image_upload_disabled').execute();
  await db.schema.dropTable('lead_images').execute();
}
