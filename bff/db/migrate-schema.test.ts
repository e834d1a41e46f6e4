import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  connectDatabase,
  migrateToLatest,
  openDatabase,
  schemaIntrospector,
  type DatabaseHandle,
} from './index';

/**
 * Kysely's Migrator asked PostgreSQL for every table of every schema, calling a function on each by name,
 * so a schema or table dropped meanwhile by another connection failed the migration ('schema "t_…" does
 * not exist', seen in CI when test files ran side by side). The Migrator now looks at its own schema alone.
 */
describe.runIf(process.env.TEST_DATABASE_URL)('migrations on PostgreSQL beside other schemas', () => {
  const url = process.env.TEST_DATABASE_URL!;
  const ours = `t_${randomBytes(6).toString('hex')}`;
  const other = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: url });
  let handle: DatabaseHandle;

  beforeAll(async () => {
    await admin.connect();
    await admin.query(`create schema ${ours}`);
    await admin.query(`create schema ${other}`);
    await admin.query(`create table ${other}.elsewhere (id serial primary key)`);
    handle = await openDatabase({ kind: 'postgres', url, schema: ours });
  });
  afterAll(async () => {
    await handle?.close();
    await admin.query(`drop schema if exists ${ours} cascade`);
    await admin.query(`drop schema if exists ${other} cascade`);
    await admin.end();
  });

  it("lists the tables of its schema alone, and every schema's name", async () => {
    const introspector = schemaIntrospector(handle.db, ours);
    await sql`create table if not exists probe (id int)`.execute(handle.db);
    const tables = await introspector.getTables();
    expect(tables.map((t) => `${t.schema}.${t.name}`)).toContain(`${ours}.probe`);
    expect(tables.every((t) => t.schema === ours)).toBe(true);
    const schemas = (await introspector.getSchemas()).map((s) => s.name);
    expect(schemas).toEqual(expect.arrayContaining([ours, other]));
    // Without a schema: the connection's current one (the first of its search path: ours).
    expect((await schemaIntrospector(handle.db, null).getTables()).every((t) => t.schema === ours)).toBe(
      true,
    );
  });

  it('answers and migrates while another connection keeps dropping and creating a schema with tables', async () => {
    // Kysely's own introspector failed ≈1 in 300 reads against this churn ('schema "t_…" does not exist').
    let stop = false;
    const churn = (async () => {
      while (!stop) {
        await admin.query(`drop schema if exists ${other} cascade`);
        await admin.query(`create schema ${other}`);
        for (let t = 0; t < 5; t += 1) {
          await admin.query(`create table ${other}.elsewhere_${t} (id serial primary key, name text)`);
        }
      }
    })();
    try {
      const introspector = schemaIntrospector(handle.db, ours);
      for (let i = 0; i < 300; i += 1) await introspector.getTables();
      const fresh = `t_${randomBytes(6).toString('hex')}`;
      await admin.query(`create schema ${fresh}`);
      const migrating = connectDatabase({ kind: 'postgres', url, schema: fresh });
      try {
        await migrateToLatest(migrating.db, fresh);
        const { rows } = await sql<{ n: number }>`select count(*)::int as n from kysely_migration`.execute(
          migrating.db,
        );
        expect(rows[0]!.n).toBeGreaterThan(20);
      } finally {
        await migrating.close();
        await admin.query(`drop schema ${fresh} cascade`);
      }
    } finally {
      stop = true;
      await churn;
    }
  });
});
