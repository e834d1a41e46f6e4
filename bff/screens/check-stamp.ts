import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * SHA-256 (hex) of every file under `dirs` (recursively, by sorted path, each file's path and bytes): what
 * the check of the screen definitions reads (definitions, fixture contexts, data, the composer's code,
 * the locale files and the schemas). A missing folder counts as empty.
 */
export function screensCheckKey(dirs: readonly string[]): string {
  const hash = createHash('sha256');
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else hash.update(p).update('\0').update(readFileSync(p)).update('\0');
    }
  };
  for (const d of dirs) if (existsSync(d)) walk(d);
  return hash.digest('hex');
}

/**
 * Whether the check of the screen definitions passed before on exactly these inputs (issue 13 item 5:
 * composing every screen against every fixture context and validating it costs ≈3 s of CPU, which a
 * server started on unchanged files need not spend again). `stampPath` holds the key of the last pass.
 */
export function screensCheckedBefore(key: string, stampPath: string): boolean {
  try {
    return readFileSync(stampPath, 'utf8') === key;
  } catch {
    return false;
  }
}

/** Records that the check passed on the inputs of `key`; a folder that cannot be written is not an error. */
export function rememberScreensChecked(key: string, stampPath: string): void {
  try {
    mkdirSync(dirname(stampPath), { recursive: true });
    writeFileSync(stampPath, key);
  } catch {
    // Read-only install: the next start checks again.
  }
}
