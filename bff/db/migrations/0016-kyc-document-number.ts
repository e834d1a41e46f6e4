import type { Kysely } from 'kysely';

/**
 * The number read on a KYC document (issue 12 item 9): `lead_kyc_documents.number_sha256` is the SHA-256
 * (hex) of the identifier number of the chosen ID type found in the recognised text, normalised (upper
 * case, no separators); null when none could be read, and for documents recognised before this migration.
 * Only the digest is kept: the final KYC save compares it with the number the owner typed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('lead_kyc_documents').addColumn('number_sha256', 'text').execute();
}

/** Drops what {@link up} added. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('lead_kyc_documents').dropColumn('number_sha256').execute();
}
