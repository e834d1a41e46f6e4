import { sql, type Kysely } from 'kysely';

/**
 * Leads and their sections (SPEC §3 property / lead, §4 checklist): one `leads` row per property being
 * onboarded, owned by a user; one `lead_sections` row per saved checklist section, with a version for
 * optimistic concurrency.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('leads')
    .addColumn('id', 'uuid', (c) => c.primaryKey())
    .addColumn('property_unique_id', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('property_type', 'text', (c) => c.notNull())
    .addColumn('property_sub_type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().defaultTo('IN_PROGRESS'))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex('leads_user_created_idx')
    .on('leads')
    .columns(['user_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('lead_sections')
    .addColumn('lead_id', 'uuid', (c) => c.notNull().references('leads.id').onDelete('cascade'))
    .addColumn('section', 'text', (c) => c.notNull())
    .addColumn('data', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('completed', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('lead_sections_pkey', ['lead_id', 'section'])
    .execute();
}

/** Drops what {@link up} created. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('lead_sections').execute();
  await db.schema.dropTable('leads').execute();
}
