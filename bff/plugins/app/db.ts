import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import {
  migrateToLatest,
  openDatabase,
  targetFromConfig,
  type Database,
  type DatabaseHandle,
} from '../../db';
import type { Config } from '../../config';

declare module 'fastify' {
  interface FastifyInstance {
    /** The Kysely database (PGlite or PostgreSQL). */
    db: Kysely<Database>;
  }
}

/** Options: the configuration, or an already open handle (tests share one per file; not closed here). */
export interface DbPluginOptions {
  config: Config;
  handle?: DatabaseHandle;
}

/** Opens the database chosen by the configuration, migrates it, and closes it with the app. */
export default fp<DbPluginOptions>(
  async (app, opts) => {
    const handle = opts.handle ?? (await openDatabase(targetFromConfig(opts.config)));
    if (!opts.handle) app.addHook('onClose', async () => handle.close());
    await migrateToLatest(handle.db, handle.schema);
    app.decorate('db', handle.db);
    app.log.debug({ kind: handle.kind }, 'database ready');
  },
  { name: 'db' },
);
