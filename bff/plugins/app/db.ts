import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import {
  connectDatabase,
  migrateToLatest,
  targetFromConfig,
  type Database,
  type DatabaseHandle,
} from '../../db';
import type { Config } from '../../config';
import { onboardError } from '../../errors';
import { importUploadsDir } from '../../services/image-storage';

/** Readiness of the database (issue 13 item 5): open and migrated. */
export interface DatabaseReadiness {
  /** True once the database is open and every migration has run. */
  readonly ready: boolean;
  /** Resolves once ready; rejects with the error when opening or migrating failed. */
  readonly whenReady: Promise<void>;
  /** How PGlite opened the database ({@link DatabaseHandle.origin}); absent for PostgreSQL. */
  readonly origin?: DatabaseHandle['origin'];
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The Kysely database (PGlite or PostgreSQL). */
    db: Kysely<Database>;
    /** Whether the database is open and migrated yet (GET /readyz answers 503 until it is). */
    dbReadiness: DatabaseReadiness;
  }
}

/** How long a request that needs the database waits for it during start-up, in ms, before a 503. */
export const DEFAULT_DATABASE_WAIT_MS = 10_000;
/** Retry-After of the 503 answered while the database is not ready, in seconds. */
export const NOT_READY_RETRY_AFTER_S = 2;

/**
 * Options: the configuration, or an already open handle (tests share one per file; not closed here).
 * `background`: do not wait for the database while registering (the server listens at once; `/healthz`
 * answers, `/readyz` says 503 until the database is open and migrated). `waitMs`: how long a request
 * waits for the database meanwhile (default {@link DEFAULT_DATABASE_WAIT_MS}).
 */
export interface DbPluginOptions {
  config: Config;
  handle?: DatabaseHandle;
  background?: boolean;
  waitMs?: number;
}

/** Paths answered without the database (liveness and readiness). */
const WITHOUT_DATABASE = new Set(['/healthz', '/readyz']);

/**
 * Opens the database chosen by the configuration, migrates it, moves the files of `<DATA_DIR>/uploads`
 * into it (`importUploadsDir`, issue 14 item 1; not for a given `handle`), and closes it with the app. With
 * `background`, opening and migrating run while the server already listens: every request but `/healthz`
 * and `/readyz` (sessions are read from the cookie of any request) then waits for them, at most `waitMs`,
 * and answers 503 ONB_NOT_READY with `Retry-After` past that or when the database could not be opened.
 */
export default fp<DbPluginOptions>(
  async (app, opts) => {
    const handle =
      opts.handle ??
      connectDatabase(targetFromConfig(opts.config), {
        connectTimeoutMs: opts.config.databaseConnectTimeoutMs,
        queryTimeoutMs: opts.config.databaseQueryTimeoutMs,
      });
    if (!opts.handle) app.addHook('onClose', async () => handle.close());
    // A built server that cannot find its image creates the database with initdb: seconds of CPU and
    // hundreds of MB at every first start (issue 13 item 5). Say so, so it is not silent.
    if (handle.origin === 'initdb')
      app.log.warn('no pre-initialised PGlite image for this version and these migrations: running initdb');

    let ready = false;
    const whenReady = (handle.opened ?? Promise.resolve())
      .then(() => (handle.migrate ? handle.migrate() : migrateToLatest(handle.db, handle.schema)))
      // Files kept on disk before issue 14 move into the database once (a database given by the caller,
      // as tests do, is not the data folder's: nothing is imported into it).
      .then(async () => {
        if (opts.handle) return;
        const { imported, skipped } = await importUploadsDir(handle.db, opts.config.dataDir);
        if (imported > 0 || skipped.length > 0)
          app.log.info({ imported, skipped }, 'files of DATA_DIR/uploads moved into the database');
      })
      .then(() => {
        ready = true;
        app.log.debug({ kind: handle.kind, origin: handle.origin }, 'database ready');
      });
    // A failure is reported through `whenReady` (awaited below, or by the server); never unhandled here.
    whenReady.catch(() => {});
    app.decorate('db', handle.db);
    app.decorate('dbReadiness', {
      get ready() {
        return ready;
      },
      whenReady,
      ...(handle.origin ? { origin: handle.origin } : {}),
    });

    if (!opts.background) {
      await whenReady;
      return;
    }
    const waitMs = opts.waitMs ?? DEFAULT_DATABASE_WAIT_MS;
    // Synchronous once the database is ready: no promise per request (issue 13 item 6).
    const waitForReady = async (): Promise<void> => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), waitMs);
      });
      const outcome = await Promise.race([whenReady.then(() => 'ready' as const), late]).catch(
        () => 'failed' as const,
      );
      clearTimeout(timer);
      if (outcome !== 'ready') throw onboardError('ONB_NOT_READY', { retryAfterS: NOT_READY_RETRY_AFTER_S });
    };
    app.addHook('onRequest', (request, _reply, done) => {
      if (ready || WITHOUT_DATABASE.has(request.url.split('?', 1)[0] ?? '')) return done();
      waitForReady().then(() => done(), done);
    });
  },
  { name: 'db' },
);
