/**
 * `npm run serve`: loadConfig → buildApp → listen; closes gracefully on SIGINT/SIGTERM (within
 * SHUTDOWN_TIMEOUT_MS, then exit 0). The server listens
 * before the database is open and migrated (issue 13 item 5): /healthz answers at once, /readyz 503 until
 * the database is ready; a database that cannot be opened or migrated stops the process (exit code 1).
 */
import { buildApp } from './app';
import { loadConfig } from './config';
import { flushTraces } from './telemetry/flush';

const config = loadConfig();
// `--watch-screens` (`npm run dev`): a saved screen definition or fragment is served without a restart.
const app = await buildApp({
  config,
  waitForDatabase: false,
  watchScreens: process.argv.includes('--watch-screens'),
});

// Graceful shutdown (issue 14 item 4): the listening socket closes at once (new connections are refused),
// idle keep-alive connections are closed, requests in flight — uploads included — are finished, support chat
// streams are ended, then the database is closed and the process exits 0. Past SHUTDOWN_TIMEOUT_MS it exits 1.
let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    if (closing) return;
    closing = true;
    app.log.info({ signal, timeoutMs: config.shutdownTimeoutMs }, 'closing');
    const force = setTimeout(() => {
      app.log.error(
        { timeoutMs: config.shutdownTimeoutMs },
        'requests still in flight at the shutdown bound',
      );
      process.exit(1);
    }, config.shutdownTimeoutMs);
    force.unref();
    app
      .close()
      .then(flushTraces)
      .then(
        () => {
          app.log.info('closed');
          process.exit(0);
        },
        (err: unknown) => {
          app.log.error({ err }, 'close failed');
          process.exit(1);
        },
      );
  });
}

try {
  await app.listen({ port: config.port, host: config.host });
  const port = (app.server.address() as { port: number } | null)?.port ?? config.port;
  app.log.info(`open http://localhost:${port}/propertyOnboard`);
  if (app.transport.kind === 'dev') {
    app.log.info(`development transport: one-time codes appear at http://localhost:${port}/__dev/outbox`);
  }
  await app.dbReadiness.whenReady;
  app.log.info({ origin: app.dbReadiness.origin }, 'database ready');
} catch (err) {
  app.log.error({ err }, 'could not start');
  await app.close();
  process.exit(1);
}
