import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PGlite, types as pgliteTypes } from '@electric-sql/pglite';
import {
  Kysely,
  Migrator,
  PostgresAdapter,
  PostgresDialect,
  PostgresIntrospector,
  PostgresQueryCompiler,
  sql,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type Driver,
  type Migration,
  type MigrationProvider,
  type TransactionSettings,
} from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import type { Pool } from 'pg';
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
import * as m0018 from './migrations/0018-analytics-events';
import * as m0019 from './migrations/0019-screen-versions';
import * as m0021 from './migrations/0021-live-photos-programs';
import * as m0023 from './migrations/0023-utm';
import * as m0020 from './migrations/0020-analytics-partitions-error-groups';
import * as m0022 from './migrations/0022-push-subscriptions';
import { withDriver } from './dialect-with-driver';
import { cachedReadsDialect, type ReadCacheStats } from './cached-reads';
import {
  extractPgliteImage,
  isEmptyDataDir,
  isNewDataDir,
  isPgliteImageCurrent,
  pgliteImage,
  pgliteImagePath,
} from './pglite-image';
import { preparedStatementName } from './prepared';
import { tracedDialect } from './traced-dialect';
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
  '0018-analytics-events': m0018,
  '0019-screen-versions': m0019,
  '0021-live-photos-programs': m0021,
  '0023-utm': m0023,
  '0020-analytics-partitions-error-groups': m0020,
  '0022-push-subscriptions': m0022,
};

/** The in-code migration provider (no directory scanning, so it works from tsx and bundles alike). */
export const migrationProvider: MigrationProvider = {
  getMigrations: async () => migrations,
};

/** Where the data lives: PGlite (a folder, or memory) or PostgreSQL (a URL). */
export type DatabaseTarget =
  | {
      kind: 'pglite';
      dataDir: string | null;
      /** A client span per query (issue 15 item 4: tracing on; PostgreSQL's `pg` has its own instrumentation). */
      traced?: boolean;
    }
  | { kind: 'postgres'; url: string; schema?: string };

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
  /**
   * Runs every pending migration without the query timeout of {@link DatabaseLimits} (a migration that
   * moves data may take long). Absent: migrate `db` with {@link migrateToLatest}.
   */
  migrate?: () => Promise<void>;
  /**
   * How a PGlite database was opened: `image` (an empty folder, or memory, filled from the pre-initialised
   * image of `npm run build`), `initdb` (an empty folder and no current image: PGlite creates the database,
   * 7–9 s of CPU, issue 13 item 5) or `existing` (a folder that already held a database). Absent: PostgreSQL.
   */
  origin?: 'image' | 'initdb' | 'existing';
  /** PGlite: the counters of its read cache (`cached-reads.ts`). Absent: PostgreSQL, which has none. */
  readCache?: () => ReadCacheStats;
  close(): Promise<void>;
}

/**
 * Bounds on the database's answers (issue 14 item 4: the database unreachable is a 503, never a hang).
 * PostgreSQL: `connectTimeoutMs` bounds a new connection and the wait for a free one in the pool
 * (`connectionTimeoutMillis`); `queryTimeoutMs` bounds every statement on the server (`statement_timeout`)
 * and the wait for its answer on the client (`query_timeout`). PGlite (in-process, one connection):
 * `connectTimeoutMs` bounds the wait for that connection while other work holds it, failing with
 * {@link DatabaseTimeoutError}; a query itself runs on the process's own thread and cannot be bounded.
 */
export interface DatabaseLimits {
  connectTimeoutMs: number;
  queryTimeoutMs: number;
}

/** A PGlite call that did not get the connection in time (see {@link DatabaseLimits}). */
export class DatabaseTimeoutError extends Error {
  /** Node's code for a timed-out operation, so the error handler treats it as the database unreachable. */
  readonly code = 'ETIMEDOUT';
  constructor(what: 'connection', ms: number) {
    super(`database ${what} timed out after ${ms} ms`);
    this.name = 'DatabaseTimeoutError';
  }
}

/** `promise`, or a {@link DatabaseTimeoutError} after `ms`; `onLate` gets the value if it arrives after that. */
function within<T>(promise: Promise<T>, ms: number, what: 'connection', onLate?: (value: T) => void) {
  return new Promise<T>((resolve, reject) => {
    let late = false;
    const timer = setTimeout(() => {
      late = true;
      reject(new DatabaseTimeoutError(what, ms));
    }, ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        if (late) onLate?.(value);
        else resolve(value);
      },
      (err: unknown) => {
        clearTimeout(timer);
        if (!late) reject(err as Error);
      },
    );
  });
}

/**
 * A driver whose `acquireConnection` waits at most `connectTimeoutMs` (PGlite's one connection held by
 * other work); everything else is the inner driver's.
 */
class BoundedDriver implements Driver {
  constructor(
    private readonly inner: Driver,
    private readonly limits: DatabaseLimits,
  ) {}
  init() {
    return this.inner.init();
  }
  acquireConnection(): Promise<DatabaseConnection> {
    // A connection that arrives after the caller gave up is handed back at once.
    return within(this.inner.acquireConnection(), this.limits.connectTimeoutMs, 'connection', (late) => {
      void this.inner.releaseConnection(late);
    });
  }
  beginTransaction(conn: DatabaseConnection, settings: TransactionSettings) {
    return this.inner.beginTransaction(conn, settings);
  }
  commitTransaction(conn: DatabaseConnection) {
    return this.inner.commitTransaction(conn);
  }
  rollbackTransaction(conn: DatabaseConnection) {
    return this.inner.rollbackTransaction(conn);
  }
  releaseConnection(conn: DatabaseConnection) {
    return this.inner.releaseConnection(conn);
  }
  destroy() {
    return this.inner.destroy();
  }
}

/** `dialect` with its driver bounded by `limits` (see {@link DatabaseLimits}). */
function boundedDialect(dialect: Dialect, limits: DatabaseLimits): Dialect {
  return withDriver(dialect, (inner) => new BoundedDriver(inner, limits));
}

/**
 * PGlite's start parameters: its defaults, with `shared_buffers` 32 MB instead of initdb's 128 MB (issue 13
 * item 5: idle memory under 400 MB). The buffers sit in PGlite's WebAssembly memory, which never shrinks, so
 * they end up resident: measured on this machine, RSS of a PGlite alone after 200 catalogue queries 440 MB →
 * 290 MB. One owner's data is small, and the operating system's cache still holds the files.
 */
export const PGLITE_START_PARAMS: readonly string[] = [
  ...PGlite.defaultStartParams,
  '-c',
  'shared_buffers=32MB',
];

/**
 * PGlite's `bytea` serializer and parser (issue 13 item 7). PGlite's own go byte by byte through JavaScript
 * strings (`Array.from(bytes).map(…)` to hex text on the way in, `parseInt` per byte on the way out):
 * measured on this machine, storing the 0.7 MB display copy and the thumbnail of a 10 MB photo took 0.9–1.7 s
 * of CPU, most of a 1.2 s upload. Here the bytes are handed to the protocol as they are: a Bind value that is
 * an ArrayBufferView goes in binary format (PGlite's protocol `LegalValue`), which PostgreSQL copies as it is
 * (≈30 ms for the same two files; ≈70 ms as hex text through Buffer). Values come back in the hex output
 * format (`bytea_output`'s default, which PGlite's parser reads too), decoded by Buffer's native hex codec.
 * @throws Error from the serializer when the value is not a Uint8Array (as PGlite's own).
 */
export const PGLITE_BYTEA = {
  serializers: {
    // PGlite types a serializer as answering text; its Bind takes binary values too (see above).
    [pgliteTypes.BYTEA]: (value: unknown): string => {
      if (!(value instanceof Uint8Array)) throw new Error('Invalid input for bytea type');
      return value as unknown as string;
    },
  },
  parsers: {
    [pgliteTypes.BYTEA]: (text: string): Uint8Array => {
      // An array of its own (not a view of Buffer's shared pool), as PGlite's parser answers.
      const bytes = new Uint8Array((text.length - 2) >>> 1);
      Buffer.from(bytes.buffer).write(text.slice(2), 'hex');
      return bytes;
    },
  },
};

/**
 * Kysely's dialect for the PGlite `client` once it exists: PostgreSQL's adapter, compiler and introspector, and
 * kysely-pglite-dialect's driver, made when Kysely first initialises its driver (its first query), after the
 * client is there. A client that failed fails every query with its error.
 */
function pgliteDialect(client: Promise<PGlite>): Dialect {
  const driver = client.then((c) => new PGliteDialect(c).createDriver());
  // Handled here too: the failure reaches the caller through `opened` and through each query.
  driver.catch(() => {});
  let inner: Driver | null = null;
  const ready = () => {
    if (!inner) throw new Error('PGlite driver used before init');
    return inner;
  };
  return {
    createAdapter: () => new PostgresAdapter(),
    createQueryCompiler: () => new PostgresQueryCompiler(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createDriver: () => ({
      init: async () => {
        inner = await driver;
        await inner.init();
      },
      acquireConnection: () => ready().acquireConnection(),
      beginTransaction: (conn, settings) => ready().beginTransaction(conn, settings),
      commitTransaction: (conn) => ready().commitTransaction(conn),
      rollbackTransaction: (conn) => ready().rollbackTransaction(conn),
      releaseConnection: (conn) => ready().releaseConnection(conn),
      destroy: async () => {
        await (inner ?? (await driver.catch(() => null)))?.destroy();
      },
    }),
  };
}

/**
 * Connects without waiting (issue 13 item 5): the handle is usable at once (queries wait for PGlite to be
 * ready), and `opened` says when the database is open. For PGlite with a folder, the folder is created,
 * and an empty folder is filled from the pre-initialised image when the build made one (`pglite-image.ts`).
 * For PostgreSQL with `schema`, every connection uses that schema first in its search path. Does not
 * migrate: call {@link migrateToLatest}.
 */
export function connectDatabase(
  target: DatabaseTarget,
  limits?: DatabaseLimits,
): DatabaseHandle & { opened: Promise<void> } {
  if (target.kind === 'pglite') {
    const { dataDir } = target;
    if (dataDir) mkdirSync(dataDir, { recursive: true });
    // An empty folder (or memory) starts from the image `npm run build` made (issue 13 item 5): no initdb. A new
    // folder is filled by extracting the image into it before PGlite opens it; memory, or a folder that holds
    // files but no database, gets the image through PGlite's own `loadDataDir`.
    const empty = !dataDir || isEmptyDataDir(dataDir);
    const current = empty && isPgliteImageCurrent();
    const extracted = current && dataDir && isNewDataDir(dataDir) ? dataDir : null;
    const image = current && !extracted ? pgliteImage() : undefined;
    const options = {
      startParams: [...PGLITE_START_PARAMS],
      ...PGLITE_BYTEA,
      ...(image ? { loadDataDir: image } : {}),
    };
    const open = (opts: typeof options) => (dataDir ? new PGlite(dataDir, opts) : new PGlite(opts));
    // A folder that cannot be replaced by a rename (a mount point, or its parent on another file system) is
    // left empty by the failed fill, and gets the image through PGlite, as a folder holding files does.
    const client = extracted
      ? extractPgliteImage(pgliteImagePath(), extracted).then(
          () => open(options),
          () => {
            const blob = pgliteImage();
            return open(blob ? { ...options, loadDataDir: blob } : options);
          },
        )
      : Promise.resolve(open(options));
    // Reads answered from memory until the next write: exact, as this process is PGlite's one writer.
    const { dialect: plain, stats } = cachedReadsDialect(pgliteDialect(client));
    const dialect = target.traced ? tracedDialect(plain) : plain;
    const db = new Kysely<Database>({ dialect: limits ? boundedDialect(dialect, limits) : dialect });
    const opened = client.then((c) => c.waitReady);
    // Handled here too, so a failure is not an unhandled rejection before someone awaits `opened`.
    opened.catch(() => {});
    return {
      db,
      kind: 'pglite',
      opened,
      origin: current ? 'image' : empty ? 'initdb' : 'existing',
      readCache: stats,
      // Migrations run on their own unbounded driver over the same client, before any request is served.
      migrate: async () => {
        const unbounded = new Kysely<Database>({ dialect: new PGliteDialect(await client) });
        await migrateToLatest(unbounded);
      },
      close: async () => {
        await opened.catch(() => {});
        await db.destroy();
        const c = await client.catch(() => null);
        if (c && !c.closed) await c.close();
      },
    };
  }
  // pg loads with the first query (issue 13 item 5: never on the embedded database).
  const db = new Kysely<Database>({
    dialect: new PostgresDialect({ pool: () => postgresPool(target.url, target.schema, limits, 10) }),
  });
  return {
    db,
    kind: 'postgres',
    url: target.url,
    opened: Promise.resolve(),
    ...(target.schema ? { schema: target.schema } : {}),
    migrate: async () => {
      // Up to date already: the one check runs on the bounded pool; else one connection without the
      // query timeout runs the migrations.
      if (await isMigrated(db, target.schema)) return;
      const once = new Kysely<Database>({
        dialect: new PostgresDialect({
          pool: () => postgresPool(target.url, target.schema, limits && { ...limits, queryTimeoutMs: 0 }, 1),
        }),
      });
      try {
        await migrateToLatest(once, target.schema);
      } finally {
        await once.destroy();
      }
    },
    close: () => db.destroy(),
  };
}

/**
 * A `pg` pool of at most `max` connections to `url` (with `schema` first in the search path), bounded by
 * `limits` (a `queryTimeoutMs` of 0: no query bound). A connection that fails, idle in the pool or in use
 * (the server restarted, `pg_terminate_backend`), is reported as a process warning and dropped, never an
 * uncaught error. The SQL of a `preparedQuery` (db/prepared.ts) runs as a named prepared statement.
 */
async function postgresPool(
  url: string,
  schema: string | undefined,
  limits: DatabaseLimits | undefined,
  max: number,
): Promise<Pool> {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({
    connectionString: url,
    max,
    ...(schema ? { options: `-c search_path=${schema}` } : {}),
    ...(limits
      ? {
          connectionTimeoutMillis: limits.connectTimeoutMs,
          ...(limits.queryTimeoutMs > 0
            ? { statement_timeout: limits.queryTimeoutMs, query_timeout: limits.queryTimeoutMs }
            : {}),
        }
      : {}),
  });
  const warn = (err: Error) => {
    process.emitWarning(`database connection failed: ${err.message}`, 'DatabaseWarning');
  };
  pool.on('error', warn);
  // A connection lost while checked out (a query in flight) fails that query, and also emits 'error' on
  // the client, which nobody else listens to: without this, the process would stop on an uncaught error.
  pool.on('connect', (client) => {
    client.on('error', warn);
    // The queries of `preparedQuery` run as named statements: parsed and planned once per connection.
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    client.query = ((config: unknown, values?: unknown, callback?: unknown) => {
      const name = typeof config === 'string' ? preparedStatementName(config) : undefined;
      return name ? query({ name, text: config, values }, callback) : query(config, values, callback);
    }) as typeof client.query;
  });
  return pool;
}

/**
 * Picks the target from the configuration (DESIGN "bff/"): `DATABASE_URL` → PostgreSQL through `pg`;
 * unset → PGlite with files under `<DATA_DIR>/pglite`.
 */
export function targetFromConfig(config: {
  databaseUrl: string | null;
  dataDir: string;
  tracing?: { enabled: boolean };
}): DatabaseTarget {
  return config.databaseUrl
    ? { kind: 'postgres', url: config.databaseUrl }
    : {
        kind: 'pglite',
        dataDir: join(resolve(config.dataDir), 'pglite'),
        ...(config.tracing?.enabled ? { traced: true } : {}),
      };
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

/** Whether every migration has run (false too when the bookkeeping table is missing). */
export async function isMigrated(db: Kysely<Database>, schema?: string): Promise<boolean> {
  const table = schema ? sql.table(`${schema}.kysely_migration`) : sql.table('kysely_migration');
  const done = await sql<{ name: string }>`select name from ${table}`.execute(db).then(
    (r) => new Set(r.rows.map((row) => row.name)),
    () => null,
  );
  return !!done && Object.keys(migrations).every((name) => done.has(name));
}

/**
 * What Kysely's Migrator asks of the database before migrating (which schemas exist, which tables exist),
 * answered from the catalogue for `schema` (null: the connection's `current_schema()`) alone.
 *
 * Kysely's PostgreSQL introspector reads every table of every schema of the database and calls
 * `pg_get_serial_sequence` on each by name; when another connection drops a schema or a table meanwhile
 * (another test file's schema, an analytics partition past its retention, another instance's upkeep), the
 * migration fails with 'schema "…" does not exist' or 'relation "…" does not exist' (SQLSTATE 3F000 and
 * 42P01, seen in CI in `bff/routes/preview/preview.test.ts` and `bff/screens/publish.test.ts`). These queries read
 * only the catalogue's own columns, within one snapshot, so a concurrent drop cannot fail them. Tables are
 * listed without their columns (the Migrator reads only names and schemas).
 */
export function schemaIntrospector(db: Kysely<Database>, schema: string | null): DatabaseIntrospector {
  const getTables = async () => {
    const rows = await sql<{ schema: string; name: string; kind: string }>`
      select n.nspname as schema, c.relname as name, c.relkind as kind
      from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where c.relkind in ('r', 'p', 'v', 'm') and n.nspname = coalesce(${schema}::text, current_schema())
    `.execute(db);
    return rows.rows.map((t) => ({
      name: t.name,
      schema: t.schema,
      isView: t.kind === 'v' || t.kind === 'm',
      columns: [],
    }));
  };
  return {
    async getSchemas() {
      const rows = await sql<{ name: string }>`select nspname as name from pg_catalog.pg_namespace`.execute(
        db,
      );
      return rows.rows;
    },
    getTables,
    async getMetadata() {
      return { tables: await getTables() };
    },
  };
}

/**
 * `db` as Kysely's Migrator sees it: the same instance, whose `introspection` is {@link schemaIntrospector}
 * (every other member is the instance's own, bound to it).
 */
function withSchemaIntrospection(db: Kysely<Database>, schema: string | null): Kysely<Database> {
  const introspection = schemaIntrospector(db, schema);
  return new Proxy(db, {
    get(target, property) {
      if (property === 'introspection') return introspection;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
    },
  });
}

/**
 * Runs every pending migration. Throws the first migration error (the database is left as it was).
 * `schema` keeps Kysely's bookkeeping tables in that schema (otherwise it may see another schema's). The
 * Migrator's own checks look at that schema alone ({@link schemaIntrospector}).
 */
export async function migrateToLatest(db: Kysely<Database>, schema?: string): Promise<void> {
  // Up to date already (every start but the first): one query instead of the migrator's table checks,
  // lock and transaction, which cost ≈1 s on PGlite (issue 13 item 5).
  if (await isMigrated(db, schema)) return;
  const migrator = new Migrator({
    db: withSchemaIntrospection(db, schema ?? null),
    provider: migrationProvider,
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(`database migration ${failed ?? ''} failed: ${String(error)}`, { cause: error });
  }
}

/** Node's codes of a connection that could not be made, or broke. */
const CONNECTION_ERROR_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
]);

/**
 * PostgreSQL SQLSTATEs of a server that cannot answer now: class 08 (connection exception), 57P01–57P03
 * (admin/crash shutdown, cannot connect now: a restart or `pg_terminate_backend`), 57014 (statement_timeout),
 * 53300 (too many connections).
 */
const UNAVAILABLE_SQLSTATES = /^(08...|57P0[1-3]|57014|53300)$/;

/**
 * Messages of `pg` for a connection lost, never made in time, or an answer not received in time; and
 * PostgreSQL's own for a database closed to new connections (`ALLOW_CONNECTIONS false`, SQLSTATE 55000,
 * a class shared with unrelated errors, so the message decides; seen in bench/cluster/cluster.test.ts).
 */
const PG_CONNECTION_MESSAGES =
  /timeout exceeded when trying to connect|Connection terminated|Query read timeout|Client has encountered a connection error|Connection refused|is not currently accepting connections/i;

/**
 * Whether `err` means the database is unreachable or did not answer in time (issue 14 item 4), so the
 * request is answered 503 with Retry-After instead of 500: a {@link DatabaseTimeoutError}, a socket error
 * (ECONNREFUSED, ECONNRESET, ETIMEDOUT…), a SQLSTATE of {@link UNAVAILABLE_SQLSTATES}, or one of `pg`'s
 * connection messages; its `cause` and (AggregateError) `errors` are looked at too.
 */
export function isDatabaseUnavailableError(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 4) return false;
  if (err instanceof DatabaseTimeoutError) return true;
  const e = err as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (
    typeof e.code === 'string' &&
    (CONNECTION_ERROR_CODES.has(e.code) || UNAVAILABLE_SQLSTATES.test(e.code))
  ) {
    return true;
  }
  if (typeof e.message === 'string' && PG_CONNECTION_MESSAGES.test(e.message)) return true;
  if (Array.isArray(e.errors) && e.errors.some((inner) => isDatabaseUnavailableError(inner, depth + 1)))
    return true;
  return isDatabaseUnavailableError(e.cause, depth + 1);
}
