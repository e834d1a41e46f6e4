import { randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';

/**
 * Where the photos' files live (SPEC §3 image; issue "stored under DATA_DIR outside any served folder").
 * Keys are made by the server from its own ids (`<lead uuid>/<image uuid>-display.jpg`), never from what
 * the client sent.
 */
export interface ImageStorage {
  /** Stores `bytes` under `key`, replacing what was there; the file appears whole or not at all. */
  put(key: string, bytes: Buffer): Promise<void>;
  /** The bytes under `key`, or undefined when there are none. */
  get(key: string): Promise<Buffer | undefined>;
  /** Removes `key`; nothing happens when it does not exist. */
  delete(key: string): Promise<void>;
}

/** A storage key: lower-case path segments of letters, digits, `-` and `.`, without `..`. */
const KEY = /^[a-z0-9][a-z0-9-]*(\/[a-z0-9][a-z0-9.-]*)*$/;

/**
 * Checks a key before it touches the file system.
 * @throws Error when `key` is not a storage key (a programming error: keys come from server ids).
 */
function checkKey(key: string): string {
  if (!KEY.test(key) || key.includes('..')) throw new Error(`invalid storage key ${JSON.stringify(key)}`);
  return key;
}

/**
 * Storage on the local file system under `<dataDir>/uploads/` (created on the first write). Writes go to a
 * temporary file renamed into place, so a reader never sees half a photo.
 */
export function createFileImageStorage(dataDir: string): ImageStorage {
  const root = join(resolve(dataDir), 'uploads');
  const pathOf = (key: string) => join(root, ...checkKey(key).split('/'));
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
    async get(key) {
      try {
        return await readFile(pathOf(key));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw err;
      }
    },
    async delete(key) {
      await rm(pathOf(key), { force: true });
    },
  };
}
