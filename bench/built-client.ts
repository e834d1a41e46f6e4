/**
 * The built client as the bench and the size budget read it: dist/client, its Vite manifest
 * (dist/client/.vite/manifest.json) and the chunks' source maps, through which the minified bytes of each
 * chunk are attributed to the source file they came from. Read by `npm run size` (bench/size-budget.ts) and
 * `npm run bench` (bench/run.ts), both after `npm run build`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** The repository root (absolute, with a trailing slash). */
export const root = fileURLToPath(new URL('..', import.meta.url));
/** The built client (`npm run build`). */
export const clientDir = join(root, 'dist/client');
const manifestPath = join(clientDir, '.vite/manifest.json');

/** One chunk of the Vite manifest (only the fields read here). */
export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

/**
 * The Vite manifest of the built client, keyed by source path (e.g. `renderer/engine/screen.tsx`).
 * Throws when there is none (`npm run build` has not run).
 */
export function readManifest(): Manifest {
  if (!existsSync(manifestPath)) throw new Error(`${manifestPath} is missing; run \`npm run build\` first.`);
  return JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
}

/** Goal of renderer/engine without widgets, React and MUI, gzip bytes (issue 13 item 3: 12 KB). */
export const ENGINE_GOAL = 12_000;

// ---- source attribution through source maps ----

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Decodes one line of source-map mappings into segments [generated column, source index?]. */
function decodeLine(line: string, state: { source: number }): Array<[number, number | undefined]> {
  const segments: Array<[number, number | undefined]> = [];
  let column = 0;
  for (const segment of line.split(',')) {
    if (segment === '') continue;
    const fields: number[] = [];
    let value = 0;
    let shift = 0;
    for (const char of segment) {
      const digit = BASE64.indexOf(char);
      value += (digit & 31) << shift;
      if (digit & 32) shift += 5;
      else {
        fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
        value = 0;
        shift = 0;
      }
    }
    column += fields[0] ?? 0;
    if (fields.length >= 4) {
      state.source += fields[1] ?? 0;
      segments.push([column, state.source]);
    } else segments.push([column, undefined]);
  }
  return segments;
}

/** The text of a built file cut into pieces per original source (repository-relative path, or '(unmapped)'). */
function piecesBySource(file: string): Map<string, string> {
  const code = readFileSync(join(clientDir, file), 'utf8');
  if (!existsSync(join(clientDir, `${file}.map`))) return new Map([['(unmapped)', code]]);
  const map = JSON.parse(readFileSync(join(clientDir, `${file}.map`), 'utf8')) as {
    sources: string[];
    mappings: string;
  };
  const sources = map.sources.map((s) => {
    const abs = join(clientDir, 'assets', s);
    return abs.startsWith(root) ? abs.slice(root.length) : s;
  });
  const out = new Map<string, string>();
  const add = (source: string, text: string) => out.set(source, (out.get(source) ?? '') + text);
  const lines = code.split('\n');
  const state = { source: 0 };
  map.mappings.split(';').forEach((mapping, index) => {
    const text = lines[index] ?? '';
    const segments = decodeLine(mapping, state);
    if (segments.length === 0) {
      add('(unmapped)', text);
      return;
    }
    add('(unmapped)', text.slice(0, segments[0]![0]));
    segments.forEach(([column, source], i) => {
      const end = segments[i + 1]?.[0] ?? text.length;
      add(source === undefined ? '(unmapped)' : (sources[source] ?? '(unmapped)'), text.slice(column, end));
    });
  });
  return out;
}

/** Raw and gzip bytes of the code of each group across `files`. */
export function attribute(
  files: Iterable<string>,
  group: (source: string) => string | undefined,
): Map<string, { raw: number; gzip: number }> {
  const texts = new Map<string, string>();
  for (const file of files) {
    for (const [source, text] of piecesBySource(file)) {
      const name = group(source);
      if (name !== undefined) texts.set(name, (texts.get(name) ?? '') + text);
    }
  }
  return new Map(
    [...texts].map(([name, text]) => [
      name,
      { raw: Buffer.byteLength(text), gzip: gzipSync(text, { level: 9 }).length },
    ]),
  );
}

/**
 * Raw and gzip (level 9) bytes of renderer/engine's own code as the built client ships it: the minified text
 * of every chunk that the source maps attribute to a file under renderer/engine/ (no widget, React, MUI or
 * other package; an import between chunks is the chunk's own, not the engine's), concatenated and gzipped
 * alone. Issue 13 item 3's figure ({@link ENGINE_GOAL}).
 */
export function engineSize(manifest: Manifest): { raw: number; gzip: number } {
  const files = Object.values(manifest)
    .map((chunk) => chunk.file)
    .filter((file) => file.endsWith('.js'));
  const sizes = attribute(files, (source) => (source.startsWith('renderer/engine/') ? 'engine' : undefined));
  return sizes.get('engine') ?? { raw: 0, gzip: 0 };
}
