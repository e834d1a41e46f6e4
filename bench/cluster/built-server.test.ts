import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, SERVER, waitFor200 } from './topology';

/**
 * The built server (dist/server/server.js, as `npm run serve` starts it) opens an empty data folder from the
 * pre-initialised PGlite image that `npm run build` ships beside it (issue 13 item 5), and an existing folder
 * as it is. A bundle that cannot find its image (as when a module moved into a shared chunk resolved its
 * address from the wrong folder) would run initdb: seconds of CPU and hundreds of MB at every first start.
 * Needs no PostgreSQL: this is the embedded default.
 */
describe('the built server and its PGlite image', () => {
  let child: ChildProcess | null = null;
  const dataDir = mkdtempSync(join(tmpdir(), 'built-server-'));

  afterEach(async () => {
    if (child && child.exitCode === null) {
      const done = new Promise((resolve) => child?.once('exit', resolve));
      child.kill('SIGTERM');
      await done;
    }
    child = null;
  });

  /** Starts the built server on `dataDir` and resolves with the `origin` of its 'database ready' log line. */
  async function startAndReadOrigin(): Promise<unknown> {
    const port = await freePort();
    const started = spawn(process.execPath, [SERVER], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        NODE_ENV: 'test',
        LOG_LEVEL: 'info',
        DATA_DIR: dataDir,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child = started;
    let out = '';
    const ready = new Promise<unknown>((resolve) => {
      started.stdout?.on('data', (chunk: Buffer) => {
        out += chunk.toString('utf8');
        for (const line of out.split('\n')) {
          try {
            const entry = JSON.parse(line) as { msg?: string; origin?: unknown };
            if (entry.msg === 'database ready') resolve(entry.origin);
          } catch {
            // a partial line
          }
        }
      });
    });
    await waitFor200(`http://127.0.0.1:${port}/readyz`, 90_000, () => started.exitCode === null);
    return ready;
  }

  it('fills an empty folder from the image, then opens the same folder as it is', async () => {
    expect(await startAndReadOrigin()).toBe('image');
    const done = new Promise((resolve) => child?.once('exit', resolve));
    child?.kill('SIGTERM');
    await done;
    child = null;
    expect(await startAndReadOrigin()).toBe('existing');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('does not import at start the packages that only some requests use (issue 13 item 5)', () => {
    // The bundle's static imports (esbuild writes each `import … from "<package>";` at the start of a line):
    // what Node loads before the server can listen, besides the packages bundled into it (bff/build-server.ts
    // `bundledPackages`, each module under a `// node_modules/<package>/…` line). These packages are imported
    // on first use (onFirstUse): neither imported at start nor bundled, but asked for with `import("…")`.
    const bundle = readFileSync(SERVER, 'utf8');
    const imported = new Set([...bundle.matchAll(/^import\s[^;]*?from\s*"([^"]+)"/gm)].map((m) => m[1]));
    expect(imported).toContain('@electric-sql/pglite');
    for (const onFirstUse of [
      'sharp',
      'sharp-phash',
      'file-type',
      'tesseract.js',
      'ioredis',
      'web-push',
      'nodemailer',
      'pg',
      'pg-boss',
    ]) {
      expect(imported, onFirstUse).not.toContain(onFirstUse);
      expect(bundle, onFirstUse).not.toContain(`// node_modules/${onFirstUse}/`);
      expect(bundle, onFirstUse).toContain(`import("${onFirstUse}")`);
    }
  });
});
