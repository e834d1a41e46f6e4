import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { connectDatabase, isMigrated, migrateToLatest, migrationProvider } from '.';
import {
  extractPgliteImage,
  isPgliteImageCurrent,
  pgliteImage,
  pgliteImagePath,
  writePgliteImage,
} from './pglite-image';

const dirs: string[] = [];
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'onboard-image-'));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('pre-initialised PGlite image (issue 13 item 5)', () => {
  it('fills an empty data folder with a database that is already migrated', async () => {
    // Made by `npm run build`; made here when the build has not run (the test helpers make it too, but not
    // when the tests run on PostgreSQL).
    if (!isPgliteImageCurrent()) await writePgliteImage(pgliteImagePath(), (db) => migrateToLatest(db));
    expect(isPgliteImageCurrent()).toBe(true);
    const handle = connectDatabase({ kind: 'pglite', dataDir: join(tempDir(), 'pglite') });
    try {
      await handle.opened;
      // No migration has run on this handle: the rows come from the image.
      const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(
        handle.db,
      );
      expect(rows.map((r) => r.name)).toEqual(Object.keys(await migrationProvider.getMigrations()).sort());
    } finally {
      await handle.close();
    }
  }, 180_000);

  it('is extracted into a new folder in one rename, and a broken image leaves the folder empty', async () => {
    if (!isPgliteImageCurrent()) await writePgliteImage(pgliteImagePath(), (db) => migrateToLatest(db));
    const dataDir = join(tempDir(), 'pglite');
    mkdirSync(dataDir);
    await extractPgliteImage(pgliteImagePath(), dataDir);
    // The image's absolute entries land inside the folder, and the temporary folder is gone.
    expect(existsSync(join(dataDir, 'PG_VERSION'))).toBe(true);
    expect(existsSync(join(dataDir, 'base'))).toBe(true);
    expect(existsSync(`${dataDir}.image-tmp`)).toBe(false);

    const broken = join(tempDir(), 'broken.tar.gz');
    writeFileSync(broken, 'not a gzip tar');
    const empty = join(tempDir(), 'pglite');
    mkdirSync(empty);
    await expect(extractPgliteImage(broken, empty)).rejects.toThrow();
    expect(readdirSync(empty)).toEqual([]);
    expect(existsSync(`${empty}.image-tmp`)).toBe(false);
  }, 180_000);

  it('fills a folder that holds files but no database through PGlite itself', async () => {
    if (!isPgliteImageCurrent()) await writePgliteImage(pgliteImagePath(), (db) => migrateToLatest(db));
    const dataDir = join(tempDir(), 'pglite');
    mkdirSync(dataDir);
    writeFileSync(join(dataDir, 'left-over.txt'), 'from an earlier try');
    const handle = connectDatabase({ kind: 'pglite', dataDir });
    try {
      expect(handle.origin).toBe('image');
      await handle.opened;
      expect(await isMigrated(handle.db)).toBe(true);
    } finally {
      await handle.close();
    }
  }, 180_000);

  it('is not used when it was made for other migrations or another PGlite', () => {
    const path = join(tempDir(), 'pglite-test.tar.gz');
    writeFileSync(path, 'not an image');
    expect(pgliteImage(path)).toBeUndefined();
    writeFileSync(`${path}.key`, 'another key');
    expect(isPgliteImageCurrent(path)).toBe(false);
    expect(pgliteImage(path)).toBeUndefined();
    expect(pgliteImagePath()).toMatch(/dist\/server\/pglite-\d+\.\d+\.\d+\.tar\.gz$/);
  });
});
