import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A BFF started for a benchmark on a fresh, empty data directory. */
export interface BenchServer {
  url: string;
  /** ms from spawn until GET /readyz answered 200 (database migrated and reachable). */
  readyAfterMs: number;
  /** Process id of the server (to read its memory from /proc). */
  pid: number;
  stop(): Promise<void>;
}

/** Starts `node --import tsx bff/server.ts` with an empty DATA_DIR and waits for /readyz. */
export async function startServer(port: number, env: Record<string, string> = {}): Promise<BenchServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'onboard-bench-'));
  const started = performance.now();
  // node itself (not npx) so that stopping the child stops the server and frees the port.
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'bff/server.ts'], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      const res = await fetch(`${url}/readyz`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const readyAfterMs = performance.now() - started;
  return {
    url,
    readyAfterMs,
    pid: child.pid!,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
