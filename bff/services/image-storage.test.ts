import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle } from '../db';
import { buildApp } from '../app';
import { buildTestApp, sharedDatabase, testConfig } from '../test-helpers';
import { createDatabaseImageStorage, etagOf, importUploadsDir, type ImageStorage } from './image-storage';

let handle: DatabaseHandle;
let storage: ImageStorage;
const dirs: string[] = [];

beforeAll(async () => {
  handle = await sharedDatabase();
  // Migrated by the first app (the database plugin migrates a given handle).
  await buildTestApp();
  storage = createDatabaseImageStorage(handle.db);
});

afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'onboard-storage-'));
  dirs.push(d);
  return d;
};

const rowOf = (key: string) =>
  handle.db.selectFrom('stored_files').selectAll().where('key', '=', key).executeTakeFirst();

describe(`storage in the database (${process.env.TEST_DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('keeps the bytes with their type, size and SHA-256, replaces them, and deletes them', async () => {
    const key = `${randomUUID()}/${randomUUID()}-display.jpg`;
    const bytes = Buffer.from([0xff, 0xd8, 0xff, 0x00, 0x01, 0x02, 0xfe]);
    await storage.put(key, bytes);
    expect((await storage.get(key))!.equals(bytes)).toBe(true);
    const info = await storage.head(key);
    expect(info).toMatchObject({ contentType: 'image/jpeg', byteLength: 7 });
    expect(info!.etag).toMatch(/^"[0-9a-f]{64}"$/);
    expect(info!.etag).toBe(etagOf(createHash('sha256').update(bytes).digest('hex')));
    const row = await rowOf(key);
    expect(row).toMatchObject({ content_type: 'image/jpeg', byte_length: 7 });
    expect(etagOf(row!.sha256)).toBe(info!.etag);

    const other = Buffer.from('%PDF-1.7 other bytes');
    await storage.put(key, other);
    expect((await storage.get(key))!.equals(other)).toBe(true);
    expect((await storage.head(key))!.etag).not.toBe(info!.etag);

    await storage.delete(key);
    expect(await storage.get(key)).toBeUndefined();
    expect(await storage.head(key)).toBeUndefined();
    await storage.delete(key);
  });

  it('writes in the given transaction: a rollback after the write leaves no row', async () => {
    const key = `${randomUUID()}/${randomUUID()}-thumb.jpg`;
    await expect(
      handle.db.transaction().execute(async (trx) => {
        await storage.put(key, Buffer.from('half of an upload'), trx);
        throw new Error('the metadata insert failed');
      }),
    ).rejects.toThrow('the metadata insert failed');
    expect(await rowOf(key)).toBeUndefined();
    expect(await storage.get(key)).toBeUndefined();
  });

  it('keeps every byte value exactly, from a view into a larger buffer, an empty file and 1 MB alike', async () => {
    const everyByte = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    // A view that does not start at its buffer's first byte (as Buffer's small-allocation pool hands out).
    const view = Buffer.concat([Buffer.from('before'), everyByte, Buffer.from('after')]).subarray(6, 6 + 256);
    const large = randomBytes(1024 * 1024);
    for (const bytes of [view, Buffer.alloc(0), large]) {
      const key = `${randomUUID()}/${randomUUID()}-display.jpg`;
      await storage.put(key, bytes);
      expect((await storage.get(key))!.equals(bytes)).toBe(true);
      // The database holds the bytes themselves (not their text): its own length and SHA-256 agree.
      const row = await handle.db
        .selectFrom('stored_files')
        .select([
          sql<number>`length(bytes)`.as('length'),
          sql<string>`encode(sha256(bytes), 'hex')`.as('sha'),
        ])
        .where('key', '=', key)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ length: bytes.length, sha: createHash('sha256').update(bytes).digest('hex') });
    }
  });

  it('refuses a key that is not a storage key', async () => {
    await expect(storage.put('../etc/passwd', Buffer.from('x'))).rejects.toThrow('invalid storage key');
    await expect(storage.get('A/B.jpg')).rejects.toThrow('invalid storage key');
  });
});

describe('the import of DATA_DIR/uploads', () => {
  it('moves every file into the table, leaves temporaries alone, and does nothing the second time', async () => {
    const dataDir = tempDir();
    const lead = randomUUID();
    const image = randomUUID();
    const files: Record<string, Buffer> = {
      [`${lead}/${image}-display.jpg`]: Buffer.from('display bytes'),
      [`${lead}/${image}-thumb.jpg`]: Buffer.from('thumb bytes'),
      [`kyc/${lead}/${randomUUID()}-display.jpg`]: Buffer.from('document bytes'),
      [`contracts/${lead}/${randomUUID()}.pdf`]: Buffer.from('%PDF-1.7'),
    };
    for (const [key, bytes] of Object.entries(files)) {
      const path = join(dataDir, 'uploads', ...key.split('/'));
      mkdirSync(join(path, '..'), { recursive: true });
      writeFileSync(path, bytes);
    }
    const tmp = join(dataDir, 'uploads', lead, `${image}-display.jpg.${randomUUID()}.tmp`);
    writeFileSync(tmp, 'half');

    const first = await importUploadsDir(handle.db, dataDir);
    expect(first.imported).toBe(4);
    expect(first.skipped).toHaveLength(1);
    for (const [key, bytes] of Object.entries(files)) {
      expect((await storage.get(key))!.equals(bytes), key).toBe(true);
      expect(existsSync(join(dataDir, 'uploads', ...key.split('/'))), key).toBe(false);
    }
    expect((await rowOf(Object.keys(files).at(-1)!))!.content_type).toBe('application/pdf');
    expect(readFileSync(tmp, 'utf8')).toBe('half');
    expect(existsSync(join(dataDir, 'uploads', 'kyc')), 'emptied folders are removed').toBe(false);

    const again = await importUploadsDir(handle.db, dataDir);
    expect(again.imported).toBe(0);
    expect(await importUploadsDir(handle.db, tempDir())).toEqual({ imported: 0, skipped: [] });
  });

  it('keeps what the table holds when a run was interrupted after the insert', async () => {
    const dataDir = tempDir();
    const key = `${randomUUID()}/${randomUUID()}-display.jpg`;
    await storage.put(key, Buffer.from('already imported'));
    const path = join(dataDir, 'uploads', ...key.split('/'));
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, 'already imported');
    expect((await importUploadsDir(handle.db, dataDir)).imported).toBe(1);
    expect(existsSync(path)).toBe(false);
    expect((await storage.get(key))!.toString()).toBe('already imported');
  });

  it.skipIf(!!process.env.TEST_DATABASE_URL)(
    'runs at start, after the migrations, on the database of DATA_DIR',
    async () => {
      const dataDir = tempDir();
      const key = `${randomUUID()}/${randomUUID()}-thumb.jpg`;
      const path = join(dataDir, 'uploads', ...key.split('/'));
      mkdirSync(join(path, '..'), { recursive: true });
      writeFileSync(path, 'a photo from before');
      const app = await buildApp({
        config: testConfig({ dataDir, databaseUrl: null }),
        logger: false,
        clientDir: '/nonexistent-client-dir',
        // As the server starts: the database opens and migrates in the background.
        waitForDatabase: false,
      });
      try {
        await app.ready();
        await app.dbReadiness.whenReady;
        const row = await app.db
          .selectFrom('stored_files')
          .select('bytes')
          .where('key', '=', key)
          .executeTakeFirstOrThrow();
        expect(Buffer.from(row.bytes).toString()).toBe('a photo from before');
        expect(existsSync(path)).toBe(false);
      } finally {
        await app.close();
      }
    },
    60_000,
  );
});
