import { sql, type Kysely } from 'kysely';

/**
 * Contracts of the terms-of-service task (SPEC §2 'terms of service v2', §3 finalContractInfo and
 * termsOfServiceInfo, §5 'Contract consent checkbox required'): one `lead_contracts` row per PDF the
 * server generated for a lead. `revision` counts the lead's contracts (1, 2, …): a new one is made when the
 * property's details or the commercial terms changed (`inputs_sha256` differs). `sha256` is the digest
 * of the stored PDF's bytes. The accepted_* columns record who accepted, when and from where.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('lead_contracts')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('lead_id', 'uuid', (c) => c.notNull().references('leads.id').onDelete('cascade'))
    .addColumn('revision', 'integer', (c) => c.notNull())
    .addColumn('contract_version', 'text', (c) => c.notNull())
    .addColumn('inputs_sha256', 'text', (c) => c.notNull())
    .addColumn('terms', 'jsonb', (c) => c.notNull())
    .addColumn('sha256', 'text', (c) => c.notNull())
    .addColumn('bytes', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('accepted_at', 'timestamptz')
    .addColumn('accepted_by', 'uuid')
    .addColumn('accepted_ip', 'text')
    .addColumn('accepted_user_agent', 'text')
    .addUniqueConstraint('lead_contracts_lead_revision_key', ['lead_id', 'revision'])
    .execute();
}

/** Drops what {@link up} created. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('lead_contracts').execute();
}
