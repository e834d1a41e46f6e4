import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, Migrator, PostgresDialect, sql, type Migration, type MigrationProvider } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import pg from 'pg';
import * as m0001 from './migrations/0001-initial';
import * as m0002 from './migrations/0002-leads';
import * as m0003 from './migrations/0003-lead-location';
import * as m0004 from './migrations/0004-images';
import * as m0005 from './migrations/0005-contact-verification';
import * as m0006 from './migrations/0006-kyc-documents';
import * as m0007 from './migrations/0007-image-room-category';
import * as m0008 from './migrations/0008-contracts';
import * as m0009 from './migrations/0009-publish';
import * as m0010 from './migrations/0010-listings-referrals';
import * as m0011 from './migrations/0011-support-chat';
import * as m0012 from './migrations/0012-passwords';
import * as m0013 from './migrations/0013-social-identities';
import * as m0014 from './migrations/0014-sso-tokens';
import * as m0015 from './migrations/0015-section-live-data';
import * as m0016 from './migrations/0016-kyc-document-number';
import * as m0017 from './migrations/0017-stored-files-idempotency';
import { isEmptyDataDir, pgliteImage } from './pglite-image';
import type { Database } from './schema';

export type { Database } from './schema';

/** Every migration, in order; names are stable (they are recorded in the database). */
const migrations: Record<string, Migration> = {
  '0001-initial': m0001,
  '0002-leads': m0002,
  '0003-lead-location': m0003,
  '0004-images': m0004,
  '0005-contact-verification': m0005,
  '0006-kyc-documents': m0006,
  '0007-image-room-category': m0007,
  '0008-contracts': m0008,
  '0009-publish': m0009,
  '0010-listings-referrals': m0010,
  '0011-support-chat': m0011,
  '0012-passwords': m0012,
  '0013-social-identities': m0013,
  '0014-sso-tokens': m0014,
  '0015-section-live-data': m0015,
  '0016-kyc-document-number': m0016,
  '0017-stored-files-idempotency': m0017,
};

/** The in-code migration provider (no directory scanning, so it works from tsx and bundles alike). */
export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};

/** Where the data lives: PGlite (a folder, or memory) or PostgreSQL (a URL). */
export type DatabaseTarget =
  | { kind: 'pglite'; dataDir: string | null }
  | {
      kind: 'postgres';
      url: string;
      schema?: string;
      /** Told when PostgreSQL ends an idle pooled connection (the pool drops it and carries on). */
      onIdleError?: (err: Error) => void;
    };

/** An open database handle; `close()` ends the connection(s). */
export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: DatabaseTarget['kind'];
  /** The PostgreSQL schema every query uses, when one was given. */
  schema?: string;
  /** The PostgreSQL URL (kind postgres): the support chat opens its own LISTEN connection with it. */
  url?: string;
  /**
   * Resolves once the database can answer (PGlite: its files opened, or created by initdb on an empty
   * folder, which takes seconds); rejects when it cannot be opened. Absent: already open.
   */
  opened?: Promise<void>;
  close(): Promise<void>;
}

/**
 * Connects without waiting (issue 13 item 5): the handle is usable at once (queries wait for PGlite to be
 * ready), and `opened` says when the database is open. For PGlite with a folder, the folder is created,
 * and an empty folder is filled from the pre-initialised image when the build made one (`pglite-image.ts`).
 * For PostgreSQL with `schema`, every connection uses that schema first in its search path. Does not
 * migrate: call {@link migrateToLatest}.
 */
export function connectDatabase(target: DatabaseTarget): DatabaseHandle & { opened: Promise<void> } {
  if (target.kind === 'pglite') {
    if (target.dataDir) mkdirSync(target.dataDir, { recursive: true });
    // An empty folder (or memory) starts from the image `npm run build` made (issue 13 item 5): no initdb.
    const image = !target.dataDir || isEmptyDataDir(target.dataDir) ? pgliteImage() : undefined;
    const options = image ? { loadDataDir: image } : {};
    const client = target.dataDir ? new PGlite(target.dataDir, options) : new PGlite(options);
    const db = new Kysely<Database>({ dialect: new PGliteDialect(client) });
    const opened = client.waitReady;
    // Handled here too, so a failure is not an unhandled rejection before someone awaits `opened`.
    opened.catch(() => {});
    return {
      db,
      kind: 'pglite',
      opened,
      close: async () => {
        await opened.catch(() => {});
        await db.destroy();
        if (!client.closed) await client.close();
      },
    };
  }
  const pool = new pg.Pool({
    connectionString: target.url,
    max: 10,
    ...(target.schema ? { options: `-c search_path=${target.schema}` } : {}),
  });
  // An idle connection that PostgreSQL ends (a restart, a failover, pg_terminate_backend) is an 'error'
  // event of the pool; without a listener Node treats it as uncaught and the whole instance exits (seen in
  // bench/cluster/cluster.test.ts). pg-pool has already dropped that connection and the next query opens a
  // new one; errors of queries themselves still reach their callers.
  pool.on('error', (err) => target.onIdleError?.(err));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return {
    db,
    kind: 'postgres',
    url: target.url,
    opened: Promise.resolve(),
    ...(target.schema ? { schema: target.schema } : {}),
    close: () => db.destroy(),
  };
}

/**
 * Picks the target from the configuration (DESIGN "bff/"): `DATABASE_URL` → PostgreSQL through `pg`;
 * unset → PGlite with files under `<DATA_DIR>/pglite`.
 */
export function targetFromConfig(config: { databaseUrl: string | null; dataDir: string }): DatabaseTarget {
  return config.databaseUrl
    ? { kind: 'postgres', url: config.databaseUrl }
    : { kind: 'pglite', dataDir: join(resolve(config.dataDir), 'pglite') };
}

/**
 * Opens the database. For PGlite with a folder, the folder is created. For PostgreSQL with `schema`,
 * every connection uses that schema first in its search path (tests use a fresh schema per file).
 * Does not migrate: call {@link migrateToLatest}.
 */
export async function openDatabase(target: DatabaseTarget): Promise<DatabaseHandle> {
  const { opened, ...handle } = connectDatabase(target);
  await opened;
  return handle;
}

/**
 * Runs every pending migration. Throws the first migration error (the database is left as it was).
 * `schema` keeps Kysely's bookkeeping tables in that schema (otherwise it may see another schema's).
 */
export async function migrateToLatest(db: Kysely<Database>, schema?: string): Promise<void> {
  // Up to date already (every start but the first): one query instead of the migrator's table checks,
  // lock and transaction, which cost ≈1 s on PGlite (issue 13 item 5).
  const table = schema ? sql.table(`${schema}.kysely_migration`) : sql.table('kysely_migration');
  const done = await sql<{ name: string }>`select name from ${table}`.execute(db).then(
    (r) => new Set(r.rows.map((row) => row.name)),
    () => null,
  );
  if (done && Object.keys(migrations).every((name) => done.has(name))) return;
  const migrator = new Migrator({
    db,
    provider: migrationProvider,
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(`database migration ${failed ?? ''} failed: ${String(error)}`, { cause: error });
  }
}
