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
import { SourceMapConsumer, type RawSourceMap } from 'source-map-js';
import { pageChunkKeys, type Manifest } from '../schemas/app/vite-manifest';

/** The repository root (absolute, with a trailing slash). */
export const root = fileURLToPath(new URL('..', import.meta.url));
/** The built client (`npm run build`). */
export const clientDir = join(root, 'dist/client');
const manifestPath = join(clientDir, '.vite/manifest.json');

export type { Manifest, ManifestChunk } from '../schemas/app/vite-manifest';

/**
 * The Vite manifest of the built client, keyed by source path (e.g. `renderer/engine/screen.tsx`).
 * Throws when there is none (`npm run build` has not run).
 */
export function readManifest(): Manifest {
  if (!existsSync(manifestPath)) throw new Error(`${manifestPath} is missing; run \`npm run build\` first.`);
  return JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest;
}

/** The manifest keys of the chunks the built index.html loads itself (`pageChunkKeys`): the entry's code. */
export function entryKeys(manifest: Manifest): string[] {
  return pageChunkKeys(manifest, readFileSync(join(clientDir, 'index.html'), 'utf8'));
}

/** Goal of renderer/engine without widgets, React and MUI, gzip bytes (issue 13 item 3: 12 KB). */
export const ENGINE_GOAL = 12_000;

// ---- source attribution through source maps ----

/**
 * The text of a built file cut into pieces per original source (repository-relative path, or '(unmapped)'),
 * through its source map (`<file>.map`, read with source-map-js): each mapping's generated text runs to the
 * next mapping on its line.
 */
function piecesBySource(file: string): Map<string, string> {
  const code = readFileSync(join(clientDir, file), 'utf8');
  if (!existsSync(join(clientDir, `${file}.map`))) return new Map([['(unmapped)', code]]);
  const consumer = new SourceMapConsumer(
    JSON.parse(readFileSync(join(clientDir, `${file}.map`), 'utf8')) as RawSourceMap,
  );
  const repositoryPath = (source: string) => {
    const abs = join(clientDir, 'assets', source);
    return abs.startsWith(root) ? abs.slice(root.length) : source;
  };
  // Per generated line (0-based), its mappings in column order: [column, source or undefined].
  const byLine: Array<Array<[number, string | undefined]>> = [];
  consumer.eachMapping(
    (m) => (byLine[m.generatedLine - 1] ??= []).push([m.generatedColumn, m.source ?? undefined]),
    undefined,
    SourceMapConsumer.GENERATED_ORDER,
  );
  const out = new Map<string, string>();
  const add = (source: string, text: string) => out.set(source, (out.get(source) ?? '') + text);
  code.split('\n').forEach((text, index) => {
    const segments = byLine[index] ?? [];
    if (segments.length === 0) {
      add('(unmapped)', text);
      return;
    }
    add('(unmapped)', text.slice(0, segments[0]![0]));
    segments.forEach(([column, source], i) => {
      const end = segments[i + 1]?.[0] ?? text.length;
      add(source === undefined ? '(unmapped)' : repositoryPath(source), text.slice(column, end));
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
 * other package; the import statements between chunks have no mapping and are not counted), concatenated and
 * gzipped alone. Issue 13 item 3's figure ({@link ENGINE_GOAL}).
 */
export function engineSize(manifest: Manifest): { raw: number; gzip: number } {
  const files = Object.values(manifest)
    .map((chunk) => chunk.file)
    .filter((file) => file.endsWith('.js'));
  const sizes = attribute(files, (source) => (source.startsWith('renderer/engine/') ? 'engine' : undefined));
  return sizes.get('engine') ?? { raw: 0, gzip: 0 };
}
