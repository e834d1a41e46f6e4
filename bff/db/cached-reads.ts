import type {
  CompiledQuery,
  DatabaseConnection,
  Dialect,
  Driver,
  QueryResult,
  TransactionSettings,
} from 'kysely';
import rfdc from 'rfdc';
import { withDriver } from './dialect-with-driver';

/**
 * Entries the read cache keeps, least recently used dropped first. Ours, not the SPEC's: a signed-in
 * screen reads two rows (session with user, lead with sections), so 500 entries hold the reads of a few
 * hundred owners between two writes.
 */
export const READ_CACHE_ENTRIES = 500;
/** Results with more rows than this are not kept (ours: the per-request reads are one row each). */
export const READ_CACHE_MAX_ROWS = 100;

/**
 * A read the cache may answer: a plain SELECT whose result depends on the tables only, not on the clock,
 * chance, a sequence, locks or settings (`now()`, `random()`, `nextval`, `pg_*` functions, `FOR UPDATE`).
 */
export function isCacheableRead(sql: string): boolean {
  return statementOf(sql).cacheable;
}

/**
 * What is known of a statement's text: whether {@link isCacheableRead}, and a number of its own, which stands
 * for the text in the cache's keys (never given to another text, so a key names one statement).
 */
interface Statement {
  cacheable: boolean;
  id: number;
}

/** The statement of `sql`, worked out on its first use and kept ({@link KNOWN_STATEMENTS}). */
function statementOf(sql: string): Statement {
  let known = statementsKnown.get(sql);
  if (known === undefined) {
    known = { cacheable: readsCacheably(sql), id: nextStatementId++ };
    if (statementsKnown.size >= KNOWN_STATEMENTS)
      statementsKnown.delete(statementsKnown.keys().next().value as string);
    statementsKnown.set(sql, known);
  }
  return known;
}

/**
 * Statements whose {@link Statement} is kept (ours): the app's queries are a few hundred texts (Kysely
 * compiles the same text for every request of a kind), and the two patterns, run over a lead's query of
 * ≈1,500 characters, were ≈2 % of a signed-in screen's CPU; a key holding that text was hashed again on every
 * read (≈2 % more).
 */
const KNOWN_STATEMENTS = 1000;
const statementsKnown = new Map<string, Statement>();
let nextStatementId = 0;

/**
 * A copy of a kept result for the caller, who may change its rows: plain objects, arrays, Dates and scalars,
 * as the drivers answer them (rfdc). structuredClone made the same copy at ≈12 % of a signed-in screen's CPU
 * on PGlite, several times rfdc's cost.
 */
const copyResult = rfdc({ proto: false, circles: false });

function readsCacheably(sql: string): boolean {
  return (
    /^\s*select\b/i.test(sql) &&
    !/\b(now|random|nextval|setval|currval|clock_timestamp|statement_timestamp|transaction_timestamp|timeofday|gen_random_uuid|txid_current|set_config)\s*\(|\bcurrent_(date|time|timestamp)\b|\blocaltime(stamp)?\b|\bpg_\w+\s*\(|\bfor\s+(update|share|no\s+key|key)\b/i.test(
      sql,
    )
  );
}

/**
 * The cache key of a query (its statement's number and its parameters), or null when a parameter is not a
 * plain value (a Buffer, an object).
 */
function keyOf(statement: Statement, query: CompiledQuery): string | null {
  let key = String(statement.id);
  for (const p of query.parameters) {
    if (p === null || p === undefined) key += '\u0000\u0001null';
    else if (typeof p === 'string') key += `\u0000s${p}`;
    else if (typeof p === 'number' || typeof p === 'boolean' || typeof p === 'bigint')
      key += `\u0000${(typeof p)[0]}${String(p)}`;
    else if (p instanceof Date) key += `\u0000d${p.getTime()}`;
    else return null;
  }
  return key;
}

/**
 * A result the cache may keep: at most {@link READ_CACHE_MAX_ROWS} rows and no binary value. Photos, documents
 * and contract PDFs are `bytea` (up to 10 MB each): kept, they would hold that memory.
 */
function keepable(result: QueryResult<unknown>): boolean {
  if (result.rows.length > READ_CACHE_MAX_ROWS) return false;
  for (const row of result.rows) {
    if (typeof row !== 'object' || row === null) continue;
    for (const value of Object.values(row)) if (ArrayBuffer.isView(value)) return false;
  }
  return true;
}

interface Entry {
  generation: number;
  result: QueryResult<unknown>;
}

/** State shared by the driver and its connections. */
class ReadCache {
  /** Bumped by every statement that is not a cacheable read, and by every commit and rollback. */
  generation = 0;
  /** Connections inside a transaction: nothing is answered from or kept in the cache there. */
  readonly inTransaction = new WeakSet<DatabaseConnection>();
  readonly entries = new Map<string, Entry>();
  hits = 0;
  misses = 0;

  get(key: string): QueryResult<unknown> | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    if (entry.generation !== this.generation) return undefined;
    this.entries.set(key, entry);
    return entry.result;
  }

  set(key: string, result: QueryResult<unknown>, generation: number) {
    if (generation !== this.generation || !keepable(result)) return;
    this.entries.delete(key);
    this.entries.set(key, { generation, result });
    if (this.entries.size > READ_CACHE_ENTRIES) {
      this.entries.delete(this.entries.keys().next().value as string);
    }
  }

  invalidate() {
    this.generation++;
    this.entries.clear();
  }
}

class CachedConnection implements DatabaseConnection {
  constructor(
    readonly inner: DatabaseConnection,
    private readonly cache: ReadCache,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const cache = this.cache;
    const statement = statementOf(query.sql);
    const key = !cache.inTransaction.has(this) && statement.cacheable ? keyOf(statement, query) : null;
    if (key === null) {
      if (!statement.cacheable) cache.invalidate();
      try {
        return await this.inner.executeQuery<R>(query);
      } finally {
        if (!statement.cacheable) cache.invalidate();
      }
    }
    const kept = cache.get(key);
    if (kept) {
      cache.hits++;
      // A copy: callers may change the rows they get.
      return copyResult(kept) as QueryResult<R>;
    }
    cache.misses++;
    const generation = cache.generation;
    const result = await this.inner.executeQuery<R>(query);
    if (keepable(result)) cache.set(key, copyResult(result) as QueryResult<unknown>, generation);
    return result;
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    this.cache.invalidate();
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

class CachedDriver implements Driver {
  private readonly wrapped = new WeakMap<DatabaseConnection, CachedConnection>();
  constructor(
    private readonly inner: Driver,
    readonly cache: ReadCache,
  ) {}
  init() {
    return this.inner.init();
  }
  async acquireConnection(): Promise<DatabaseConnection> {
    const conn = await this.inner.acquireConnection();
    let cached = this.wrapped.get(conn);
    if (!cached) {
      cached = new CachedConnection(conn, this.cache);
      this.wrapped.set(conn, cached);
    }
    return cached;
  }
  private unwrap(conn: DatabaseConnection): DatabaseConnection {
    return conn instanceof CachedConnection ? conn.inner : conn;
  }
  async beginTransaction(conn: DatabaseConnection, settings: TransactionSettings) {
    this.cache.inTransaction.add(conn);
    this.cache.invalidate();
    await this.inner.beginTransaction(this.unwrap(conn), settings);
  }
  async commitTransaction(conn: DatabaseConnection) {
    try {
      await this.inner.commitTransaction(this.unwrap(conn));
    } finally {
      this.cache.inTransaction.delete(conn);
      this.cache.invalidate();
    }
  }
  async rollbackTransaction(conn: DatabaseConnection) {
    try {
      await this.inner.rollbackTransaction(this.unwrap(conn));
    } finally {
      this.cache.inTransaction.delete(conn);
      this.cache.invalidate();
    }
  }
  releaseConnection(conn: DatabaseConnection) {
    return this.inner.releaseConnection(this.unwrap(conn));
  }
  destroy() {
    return this.inner.destroy();
  }
}

/** Counters of a read cache, for tests and the bench. */
export interface ReadCacheStats {
  hits: number;
  misses: number;
  entries: number;
}

/**
 * `dialect` whose plain reads are answered from memory until the next write (issue 13 item 6: on PGlite the
 * session and lead queries of every signed-in request ran on the event loop, ≈56 % of its CPU).
 *
 * Exact only when this process is the database's one writer, as with PGlite (embedded: one process opens
 * its folder, and its driver hands out one connection at a time): every statement that is not a
 * cacheable read ({@link isCacheableRead}), every transaction's start, commit and rollback, drops the whole
 * cache, so a read never answers what an earlier write changed. Reads inside a transaction always go to the
 * database. Never use it over PostgreSQL, where other instances write too.
 *
 * Returns the dialect and a function giving its counters.
 */
export function cachedReadsDialect(dialect: Dialect): { dialect: Dialect; stats: () => ReadCacheStats } {
  const cache = new ReadCache();
  return {
    dialect: withDriver(dialect, (inner) => new CachedDriver(inner, cache)),
    stats: () => ({ hits: cache.hits, misses: cache.misses, entries: cache.entries.size }),
  };
}
