import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Absolute path of the schemas/ folder. */
export const schemasDir = join(dirname(fileURLToPath(import.meta.url)), '..');

/** One schema file: its path relative to schemas/ (also its `$id`) and its parsed JSON. */
export interface SchemaFile {
  id: string;
  path: string;
  schema: Record<string, unknown> & { $id: string; title?: string };
}

/** Every `*.schema.json` under schemas/ (generated/ and tools/ excluded), sorted by id. */
export function listSchemaFiles(dir = schemasDir): SchemaFile[] {
  const out: SchemaFile[] = [];
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'generated' && entry.name !== 'tools') walk(p);
      } else if (entry.name.endsWith('.schema.json')) {
        const schema = JSON.parse(readFileSync(p, 'utf8')) as SchemaFile['schema'];
        const id = relative(dir, p).split('\\').join('/');
        if (schema.$id !== id) throw new Error(`${id}: $id must be "${id}", found "${schema.$id}"`);
        out.push({ id, path: p, schema });
      }
    }
  };
  walk(dir);
  return out.sort((a, b) => a.id.localeCompare(b.id));
}
