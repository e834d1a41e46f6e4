import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { Kysely } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import type { Database } from './schema';

/** The repository's root (this file is bff/db/pglite-image.ts; the server bundle keeps that address). */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The pinned PGlite version (its data folder's format is tied to it), read from its package.json. */
export function pgliteVersion(): string {
  const pkg = join(dirname(fileURLToPath(import.meta.resolve('@electric-sql/pglite'))), '..', 'package.json');
  return (JSON.parse(readFileSync(pkg, 'utf8')) as { version: string }).version;
}

/**
 * Where the pre-initialised database image of this PGlite version lives: `dist/server/pglite-<version>.tar.gz`
 * (written by `npm run build`, issue 13 item 5).
 */
export function pgliteImagePath(dir = join(root, 'dist', 'server')): string {
  return join(dir, `pglite-${pgliteVersion()}.tar.gz`);
}

/**
 * What the image depends on: SHA-256 (hex) of the PGlite version and every file of bff/db/migrations (name
 * and bytes). An image made under another key is not used.
 */
export function pgliteImageKey(): string {
  const dir = join(root, 'bff', 'db', 'migrations');
  const hash = createHash('sha256').update(pgliteVersion());
  for (const f of readdirSync(dir).sort())
    hash
      .update(f)
      .update('\0')
      .update(readFileSync(join(dir, f)));
  return hash.digest('hex');
}

/** Whether the image at `path` exists and was made for the current {@link pgliteImageKey}. */
export function isPgliteImageCurrent(path = pgliteImagePath()): boolean {
  try {
    return existsSync(path) && readFileSync(`${path}.key`, 'utf8') === pgliteImageKey();
  } catch {
    return false;
  }
}

/**
 * The image to start an EMPTY PGlite data folder (or an in-memory database) from, or undefined when there
 * is none for this PGlite version and these migrations (the database is then created by PGlite's initdb,
 * 7–9 s of CPU). The image is a gzip tar of a data folder made by {@link writePgliteImage}: initdb done and
 * every migration applied, so a new database opens in about a second.
 */
export function pgliteImage(path = pgliteImagePath()): Blob | undefined {
  if (!isPgliteImageCurrent(path)) return undefined;
  return new Blob([readFileSync(path)]);
}

/**
 * The worker thread that extracts an image (CommonJS, given as text so that it runs alike under tsx, Vitest and
 * the built server): node-tar's synchronous extraction of `workerData.file` into `workerData.cwd`, node-tar
 * loaded from `workerData.tar`. It posts `{ problems }`: node-tar's warnings but TAR_ENTRY_INFO (the image's
 * entries are absolute, `/PG_VERSION` in PGlite's dump, and node-tar makes them relative to `cwd` and says so),
 * or the error it threw.
 */
const EXTRACT_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const problems = [];
try {
  require(workerData.tar).extract({
    file: workerData.file,
    cwd: workerData.cwd,
    sync: true,
    onwarn: (code, message) => {
      if (code !== 'TAR_ENTRY_INFO') problems.push(code + ': ' + String(message));
    },
  });
} catch (err) {
  problems.push(String(err));
}
parentPort.postMessage({ problems });
`;

/** Extracts the gzip tar `file` into the folder `cwd` in a worker thread ({@link EXTRACT_WORKER}). */
function extractInWorker(file: string, cwd: string): Promise<void> {
  const tar = createRequire(import.meta.url).resolve('tar');
  return new Promise((resolvePromise, reject) => {
    const worker = new Worker(EXTRACT_WORKER, { eval: true, workerData: { tar, file, cwd } });
    worker.once('message', ({ problems }: { problems: string[] }) =>
      problems.length > 0
        ? reject(new Error(`the database image could not be extracted: ${problems.join('; ')}`))
        : resolvePromise(),
    );
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the image's extraction stopped (exit code ${code})`)));
  });
}

/**
 * Fills the empty folder `dataDir` with the image at `path` (issue 13 item 5): the gzip tar is extracted by
 * node-tar into `<dataDir>.image-tmp` beside it, which then replaces the empty folder in one rename, so the
 * folder is never seen half filled (a start cut short leaves the folder empty and the temporary one, removed by
 * the next try). Handing the image to PGlite (`loadDataDir`) instead unpacks it inside its WebAssembly
 * process, through JavaScript copies of the whole 42 MB tar: measured on this machine, the server's resident
 * memory 5 s after it was ready was 403–410 MB that way and 301–318 MB from a folder filled by tar.
 *
 * The extraction is node-tar's synchronous one, in a worker thread, so the server answers /healthz meanwhile:
 * its 1,144 files took 1.2–1.3 s that way on this machine, and 2.2–2.7 s with its streamed extraction on the
 * main thread (every write a trip through libuv's thread pool).
 * @throws Error when the image cannot be read or written out, or when `dataDir` is not empty (rename's ENOTEMPTY).
 */
export async function extractPgliteImage(path: string, dataDir: string): Promise<void> {
  const tmp = `${dataDir}.image-tmp`;
  await rm(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  try {
    await extractInWorker(path, tmp);
    await rename(tmp, dataDir);
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
}

/** True when `dataDir` holds nothing at all (a new folder), so {@link extractPgliteImage} may fill it. */
export function isNewDataDir(dataDir: string): boolean {
  return readdirSync(dataDir).length === 0;
}

/** True when `dataDir` holds no database yet (no `PG_VERSION`): the image may be copied in. */
export function isEmptyDataDir(dataDir: string): boolean {
  return !existsSync(join(dataDir, 'PG_VERSION'));
}

/**
 * Creates the image at `path` (build time): an in-memory PGlite is created (initdb), `migrate` runs on it,
 * and its data folder is dumped as a gzip tar, beside its key (`<path>.key`, {@link pgliteImageKey}).
 * Written to temporary names, then renamed, so a reader never sees half a file. Returns the image's size
 * in bytes.
 */
export async function writePgliteImage(
  path: string,
  migrate: (db: Kysely<Database>) => Promise<void>,
): Promise<number> {
  const client = new PGlite();
  const db = new Kysely<Database>({ dialect: new PGliteDialect(client) });
  try {
    await client.waitReady;
    await migrate(db);
    await client.query('checkpoint');
    const dump = await client.dumpDataDir('gzip');
    const bytes = Buffer.from(await dump.arrayBuffer());
    mkdirSync(dirname(path), { recursive: true });
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, bytes);
    renameSync(tmp, path);
    writeFileSync(`${tmp}.key`, pgliteImageKey());
    renameSync(`${tmp}.key`, `${path}.key`);
    return bytes.length;
  } finally {
    await db.destroy();
    if (!client.closed) await client.close();
  }
}
