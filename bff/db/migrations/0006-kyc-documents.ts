import { sql, type Kysely } from 'kysely';

/**
 * Identity documents of the KYC task (SPEC §3 KYC ID types, §5 'Uploaded Image is of different IdType'):
 * one `lead_kyc_documents` row per photo the server kept, with the type the owner chose and what text
 * recognition decided in the background. The recognised text is not stored. `(lead_id,
 * client_upload_id)` is unique so a retried upload never makes a second document.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('lead_kyc_documents')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('lead_id', 'uuid', (c) => c.notNull().references('leads.id').onDelete('cascade'))
    .addColumn('client_upload_id', 'uuid', (c) => c.notNull())
    .addColumn('id_type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('detected_id_type', 'text')
    .addColumn('confidence', 'real')
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('bytes', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('recognised_at', 'timestamptz')
    .addUniqueConstraint('lead_kyc_documents_lead_client_upload_key', ['lead_id', 'client_upload_id'])
    .execute();
  // The latest document of a lead, and the documents still waiting for recognition after a restart.
  await db.schema
    .createIndex('lead_kyc_documents_lead_created_idx')
    .on('lead_kyc_documents')
    .columns(['lead_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('lead_kyc_documents_status_idx')
    .on('lead_kyc_documents')
    .column('status')
    .execute();
}

/** Drops what {@link up} created. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('lead_kyc_documents').execute();
}
