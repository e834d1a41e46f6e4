import { sql, type Kysely } from 'kysely';

/**
 * Shared storage of files and idempotency keys (issue 14 items 1 and 5), so several BFF instances on one
 * PostgreSQL see the same photos, documents and retries.
 *
 * - `stored_files`: one row per stored file (every variant of a photo, of a KYC document, contract PDFs),
 *   keyed by the server-made storage key (`<lead uuid>/<image uuid>-display.jpg`). Written in the same
 *   transaction as the metadata row that names it, so a crash leaves neither an orphan nor a missing file.
 *   `sha256` (hex of the bytes) is the strong ETag.
 * - `idempotency_keys`: the first answer of a request sent with an `Idempotency-Key` header, per user;
 *   `fingerprint` (hex SHA-256 of the method, route, parameters and body) tells a retry from another
 *   request reusing the key. `response_status` null: claimed by a transaction that ended without an
 *   answer to keep (a refusal), free to be taken again.
 *
 * Files under `DATA_DIR/uploads` are moved in by the import step run after migrations
 * (`importUploadsDir` of bff/services/image-storage.ts): a migration cannot see the data folder.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('stored_files')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('bytes', 'bytea', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('byte_length', 'integer', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('idempotency_keys')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('fingerprint', 'text', (c) => c.notNull())
    .addColumn('response_status', 'integer')
    .addColumn('response_body', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('idempotency_keys_pkey', ['user_id', 'key'])
    .execute();
  // Keys past their lifetime are removed by age.
  await db.schema
    .createIndex('idempotency_keys_created_idx')
    .on('idempotency_keys')
    .column('created_at')
    .execute();
}

/** Drops what {@link up} created (files moved in are lost: export them first). */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('idempotency_keys').execute();
  await db.schema.dropTable('stored_files').execute();
}
