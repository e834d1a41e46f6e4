import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, rmdir, writeFile } from 'node:fs/promises';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from '../db/schema';

/** What is known of a stored file without reading its bytes. */
export interface StoredFileInfo {
  /** Strong entity tag, quoted: `"<hex SHA-256 of the bytes>"`. */
  etag: string;
  /** MIME type given when it was stored (from the key's extension). */
  contentType: string;
  /** Size in bytes. */
  byteLength: number;
}

/** A stored file to serve: its tag, type and size, and its bytes read on demand (not for a 304). */
export interface ServedFile extends StoredFileInfo {
  /** The bytes; undefined when the file went away since its tag was read. */
  bytes(): Promise<Buffer | undefined>;
}

/**
 * Where the stored files live: photos (display copy and thumbnail), KYC documents and contract PDFs
 * (SPEC §3 image; issue 14 item 1). Keys are made by the server from its own ids
 * (`<lead uuid>/<image uuid>-display.jpg`, `kyc/…`, `contracts/…`), never from what the client sent.
 *
 * The default implementation keeps the bytes in the database ({@link createDatabaseImageStorage}), so
 * every instance sees them and a file is written in the same transaction as the row that names it: pass
 * that transaction as `trx`. An implementation that cannot join the transaction (an object store) writes
 * at once and ignores `trx`; its callers then remove what a rolled-back transaction left (see README
 * "Storage of photos and documents").
 */
export interface ImageStorage {
  /**
   * Stores `bytes` under `key`, replacing what was there; the file appears whole or not at all, and with
   * `trx` only when that transaction commits.
   */
  put(key: string, bytes: Buffer, trx?: Transaction<Database>): Promise<void>;
  /** The bytes under `key`, or undefined when there are none. */
  get(key: string): Promise<Buffer | undefined>;
  /** The entity tag, type and size of `key` without its bytes, or undefined when there is no file. */
  head(key: string): Promise<StoredFileInfo | undefined>;
  /** Removes `key` (with `trx`: when it commits); nothing happens when it does not exist. */
  delete(key: string, trx?: Transaction<Database>): Promise<void>;
}

/** A storage key: lower-case path segments of letters, digits, `-` and `.`, without `..`. */
const KEY = /^[a-z0-9][a-z0-9-]*(\/[a-z0-9][a-z0-9.-]*)*$/;

/**
 * Checks a key before it is used.
 * @throws Error when `key` is not a storage key (a programming error: keys come from server ids).
 */
function checkKey(key: string): string {
  if (!KEY.test(key) || key.includes('..')) throw new Error(`invalid storage key ${JSON.stringify(key)}`);
  return key;
}

/** MIME type of a key by its extension: .jpg → image/jpeg, .png → image/png, .pdf → application/pdf. */
export function contentTypeOf(key: string): string {
  const ext = extname(key).toLowerCase();
  if (ext === '.jpg' || ext === '.jpeg') return 'image/jpeg';
  if (ext === '.png') return 'image/png';
  if (ext === '.pdf') return 'application/pdf';
  return 'application/octet-stream';
}

const sha256Of = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** The strong ETag of a file whose bytes have this hex SHA-256. */
export const etagOf = (sha256: string) => `"${sha256}"`;

/** `pg` answers bytea as Buffer, PGlite as Uint8Array: a Buffer over the same memory either way. */
const toBuffer = (bytes: Uint8Array) =>
  Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * Storage in table `stored_files` (migration 0017) of `db`, PGlite or PostgreSQL: one `bytea` row per
 * key with its type, size and SHA-256. `put` and `delete` with `trx` run in that transaction.
 */
export function createDatabaseImageStorage(db: Kysely<Database>): ImageStorage {
  return {
    async put(key, bytes, trx) {
      const row = {
        key: checkKey(key),
        bytes,
        content_type: contentTypeOf(key),
        byte_length: bytes.length,
        sha256: sha256Of(bytes),
      };
      await (trx ?? db)
        .insertInto('stored_files')
        .values(row)
        .onConflict((oc) =>
          // The new row's values as `excluded`: the bytes go to the database once, not twice.
          oc.column('key').doUpdateSet({
            bytes: sql`excluded.bytes`,
            content_type: sql`excluded.content_type`,
            byte_length: sql`excluded.byte_length`,
            sha256: sql`excluded.sha256`,
          }),
        )
        .execute();
    },
    async get(key) {
      const row = await db
        .selectFrom('stored_files')
        .select('bytes')
        .where('key', '=', checkKey(key))
        .executeTakeFirst();
      return row ? toBuffer(row.bytes) : undefined;
    },
    async head(key) {
      const row = await db
        .selectFrom('stored_files')
        .select(['sha256', 'content_type', 'byte_length'])
        .where('key', '=', checkKey(key))
        .executeTakeFirst();
      return row
        ? { etag: etagOf(row.sha256), contentType: row.content_type, byteLength: row.byte_length }
        : undefined;
    },
    async delete(key, trx) {
      await (trx ?? db).deleteFrom('stored_files').where('key', '=', checkKey(key)).execute();
    },
  };
}

/**
 * Storage on the local file system under `<dataDir>/uploads/` (created on the first write): how files
 * were kept before issue 14, left for one instance without a shared database. Writes go to a temporary
 * file renamed into place, so a reader never sees half a photo. `trx` is ignored: the file is written at
 * once.
 */
export function createFileImageStorage(dataDir: string): ImageStorage {
  const root = join(resolve(dataDir), 'uploads');
  const pathOf = (key: string) => join(root, ...checkKey(key).split('/'));
  const get = async (key: string) => {
    try {
      return await readFile(pathOf(key));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  };
  return {
    async put(key, bytes) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      const tmp = `${path}.${randomUUID()}.tmp`;
      try {
        await writeFile(tmp, bytes);
        await rename(tmp, path);
      } catch (err) {
        await rm(tmp, { force: true });
        throw err;
      }
    },
    get,
    async head(key) {
      const bytes = await get(key);
      return bytes
        ? { etag: etagOf(sha256Of(bytes)), contentType: contentTypeOf(key), byteLength: bytes.length }
        : undefined;
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}

/** Files found under the uploads folder: path relative to it with `/`, e.g. `kyc/<lead>/<doc>-thumb.jpg`. */
async function filesUnder(root: string): Promise<string[]> {
  let entries;
  try {
    entries = await readdir(root, { recursive: true, withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(root, join(e.parentPath, e.name)).split(sep).join('/'))
    .sort();
}

/** What {@link importUploadsDir} did. */
export interface UploadsImport {
  /** Files now in the table (inserted, or already there from an earlier, interrupted run). */
  imported: number;
  /** Files left in place: half-written temporaries (`*.tmp`) and names that are not storage keys. */
  skipped: string[];
}

/**
 * The one-time import of files stored on disk before issue 14 (run at start, after the migrations):
 * every file under `<dataDir>/uploads/` is inserted into `stored_files` under its relative path as key
 * (a key already there is kept: the database wins), then removed from disk, and emptied folders are
 * removed. Idempotent: a run interrupted anywhere is finished by the next one; with no folder it does
 * nothing; instances starting at once on one folder share the work. Temporaries of an interrupted write
 * (`*.tmp`) and names that are not storage keys are left alone and reported.
 * @throws the database's or file system's error (the start fails; files not yet imported stay on disk).
 */
export async function importUploadsDir(db: Kysely<Database>, dataDir: string): Promise<UploadsImport> {
  const root = join(resolve(dataDir), 'uploads');
  const result: UploadsImport = { imported: 0, skipped: [] };
  const files = await filesUnder(root);
  for (const key of files) {
    if (key.endsWith('.tmp') || !KEY.test(key) || key.includes('..')) {
      result.skipped.push(key);
      continue;
    }
    const path = join(root, ...key.split('/'));
    let bytes: Buffer;
    try {
      bytes = await readFile(path);
    } catch (err) {
      // Moved meanwhile by another instance starting on the same folder.
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw err;
    }
    await db
      .insertInto('stored_files')
      .values({
        key,
        bytes,
        content_type: contentTypeOf(key),
        byte_length: bytes.length,
        sha256: sha256Of(bytes),
      })
      .onConflict((oc) => oc.column('key').doNothing())
      .execute();
    await rm(path, { force: true });
    result.imported += 1;
  }
  if (files.length > 0) await removeEmptyDirs(root);
  return result;
}

/** Removes `dir` and the folders under it that hold nothing (deepest first); keeps any with a file. */
async function removeEmptyDirs(dir: string): Promise<boolean> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw err;
  }
  let empty = true;
  for (const e of entries) {
    if (e.isDirectory() && (await removeEmptyDirs(join(dir, e.name)))) continue;
    empty = false;
  }
  if (empty) await rmdir(dir).catch(() => {});
  return empty;
}
