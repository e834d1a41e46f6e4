/**
 * `npm run migrate` (issue 14 item 8): runs every pending migration on the configured database
 * (DATABASE_URL, else PGlite under DATA_DIR) once, then exits: 0 when the database is up to date, 1 with the
 * error otherwise. Deployments of several instances run it once before starting them; an instance also
 * migrates at start (a no-op when this ran), so a single instance needs no separate step.
 */
import { loadConfig } from './config';
import { connectDatabase, targetFromConfig } from './db';

const config = loadConfig();
const target = targetFromConfig(config);
const handle = connectDatabase(target, {
  connectTimeoutMs: config.databaseConnectTimeoutMs,
  queryTimeoutMs: config.databaseQueryTimeoutMs,
});
try {
  await handle.opened;
  await handle.migrate?.();
  console.log(`database migrated (${target.kind})`);
  await handle.close();
} catch (err) {
  console.error('migration failed:', err);
  await handle.close().catch(() => {});
  process.exit(1);
}
