import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { rename } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { connectDatabase, isMigrated, migrateToLatest } from '.';
import { isPgliteImageCurrent, pgliteImagePath, writePgliteImage } from './pglite-image';

// The folder cannot be replaced by a rename, as when it is a mount point or its parent is on another file
// system: every rename of node:fs/promises fails as the kernel would say it.
vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...real,
    rename: vi.fn(async () => {
      throw Object.assign(new Error('EXDEV: cross-device link not permitted, rename'), { code: 'EXDEV' });
    }),
  };
});

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('pre-initialised PGlite image, a folder that cannot be replaced (issue 13 item 5)', () => {
  it('leaves the folder as it was and fills it through PGlite instead', async () => {
    if (!isPgliteImageCurrent()) await writePgliteImage(pgliteImagePath(), (db) => migrateToLatest(db));
    const parent = mkdtempSync(join(tmpdir(), 'onboard-image-'));
    dirs.push(parent);
    const dataDir = join(parent, 'pglite');
    const handle = connectDatabase({ kind: 'pglite', dataDir });
    try {
      await handle.opened;
      expect(vi.mocked(rename)).toHaveBeenCalledWith(`${dataDir}.image-tmp`, dataDir);
      expect(existsSync(`${dataDir}.image-tmp`)).toBe(false);
      expect(readdirSync(dataDir)).toContain('PG_VERSION');
      expect(await isMigrated(handle.db)).toBe(true);
    } finally {
      await handle.close();
    }
  }, 180_000);
});
