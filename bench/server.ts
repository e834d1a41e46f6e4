import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

/** A BFF started for a benchmark. */
export interface BenchServer {
  url: string;
  /** ms from spawn until GET /healthz first answered 200 (the server listens). */
  liveAfterMs: number;
  /** ms from spawn until GET /readyz answered 200 (database open, migrated and reachable). */
  readyAfterMs: number;
  /** Process id of the server (to read its memory from /proc). */
  pid: number;
  /** The data directory it runs on. */
  dataDir: string;
  /** Stops the server; removes the data directory unless `keepData`. */
  stop(opts?: { keepData?: boolean }): Promise<void>;
}

/** Options of {@link startServer}. */
export interface StartOptions {
  /**
   * Environment variables over the defaults (the bench's own environment, then PORT, HOST 127.0.0.1, a DATA_DIR,
   * LOG_LEVEL warn, and no DATABASE_URL: PGlite in DATA_DIR unless this names one).
   */
  env?: Record<string, string>;
  /** An existing data directory to start on; default: a new, empty one. */
  dataDir?: string;
  /** The built server's folder (`server.js`, `instrument.js`); default `dist/server` (`npm run build`). */
  serverDir?: string;
}

/**
 * Starts `node --import ./dist/server/instrument.js dist/server/server.js` (what `npm run serve` runs; `npm run build` makes it) on `port`, on an empty data
 * directory unless `opts.dataDir` (another build's folder with `opts.serverDir`), and waits for /readyz, polling
 * /healthz and /readyz every 20 ms.
 */
export async function startServer(
  port: number,
  optsOrEnv: StartOptions | Record<string, string> = {},
): Promise<BenchServer> {
  const opts: StartOptions =
    'env' in optsOrEnv || 'dataDir' in optsOrEnv || 'serverDir' in optsOrEnv
      ? (optsOrEnv as StartOptions)
      : { env: optsOrEnv as Record<string, string> };
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'onboard-bench-'));
  const serverDir = resolve(opts.serverDir ?? 'dist/server');
  const started = performance.now();
  // node itself (not npx) so that stopping the child stops the server and frees the port.
  const child: ChildProcess = spawn(
    process.execPath,
    // BENCH_SERVER_NODE_ARGS: extra node options for the server, e.g. `--cpu-prof --cpu-prof-dir=/tmp/prof`.
    [
      ...(process.env.BENCH_SERVER_NODE_ARGS?.split(' ').filter(Boolean) ?? []),
      '--import',
      pathToFileURL(join(serverDir, 'instrument.js')).href,
      join(serverDir, 'server.js'),
    ],
    {
      env: {
        ...process.env,
        // The embedded database unless the caller names another: with `DATABASE_URL` in the bench's own
        // environment (for its PostgreSQL rows), every server inherited it until 2026-12-04, and the cold start,
        // "PGlite" and photo rows ran on PostgreSQL.
        DATABASE_URL: '',
        PORT: String(port),
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: 'warn',
        // As `npm run serve` sets it: two malloc arenas for libvips' threads (issue 13 item 7).
        MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2',
        ...opts.env,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const url = `http://127.0.0.1:${port}`;
  let liveAfterMs = 0;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if (!liveAfterMs && (await fetch(`${url}/healthz`)).ok) liveAfterMs = performance.now() - started;
      const res = await fetch(`${url}/readyz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  const readyAfterMs = performance.now() - started;
  return {
    url,
    liveAfterMs: liveAfterMs || readyAfterMs,
    readyAfterMs,
    pid: child.pid!,
    dataDir,
    stop: async ({ keepData = false } = {}) => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
      if (!keepData) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
