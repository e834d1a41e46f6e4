/**
 * `npm run build:server` (part of `npm run build`, issue 13 item 5): what `npm run serve` starts without
 * compiling TypeScript at start.
 * 1. `dist/server/server.js`: bff/server.ts and every module of the repository it imports, bundled by
 *    esbuild into ES modules for Node 20 (code loaded on first use, e.g. the contract PDF engine, stays in
 *    chunks of its own). npm packages are not bundled (native and WebAssembly ones such as sharp and PGlite
 *    load from node_modules as they are). Each module's `import.meta.url` keeps the address of its source
 *    file, so the files it reads beside itself (screen definitions, locales, schemas, fonts) are found as
 *    under tsx.
 *    `dist/server/instrument.js` (+ `tracing.js`): the tracing preload of `npm run serve` (issue 15 item 4).
 * 2. The check of the screen definitions (`dist/server/screens-checked`), so the server need not repeat it
 *    at start on the same files.
 * 3. `dist/server/pglite-<version>.tar.gz`: the pre-initialised PGlite database (initdb done, migrations
 *    applied) that an empty data folder starts from (`bff/db/pglite-image.ts`).
 */
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions, type Plugin } from 'esbuild';
import { loadDefaultScreenCatalogue } from './app';
import { migrateToLatest } from './db';
import { createTranslations } from './services/translations';
import { isPgliteImageCurrent, pgliteImagePath, writePgliteImage } from './db/pglite-image';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const outdir = join(root, 'dist', 'server');

/**
 * Replaces `import.meta.url` in the repository's own modules by the URL of their source file, written
 * relative to the bundle (`new URL('../../bff/app.ts', import.meta.url).href`), so it holds wherever the
 * folder is moved.
 */
const keepSourceUrls: Plugin = {
  name: 'keep-source-urls',
  setup(b) {
    b.onLoad({ filter: /\.(ts|tsx|js|mjs)$/ }, async (args) => {
      if (args.path.includes(`${'/'}node_modules${'/'}`)) return undefined;
      const text = await readFile(args.path, 'utf8');
      if (!text.includes('import.meta.url')) return undefined;
      const rel = relative(outdir, args.path).split('\\').join('/');
      return {
        contents: text.replaceAll('import.meta.url', `new URL(${JSON.stringify(rel)}, import.meta.url).href`),
        loader: args.path.endsWith('.tsx') ? 'tsx' : args.path.endsWith('.ts') ? 'ts' : 'js',
      };
    });
  },
};

const started = performance.now();
/**
 * What every server bundle shares: ES modules for Node 20 directly in dist/server, npm packages left in
 * node_modules. One self-contained file per entry: `keepSourceUrls` writes each module's source address
 * relative to that folder, which a module moved into a shared chunk (dist/server/chunks) would resolve from
 * the wrong place (the PGlite image was not found, and an empty folder ran initdb).
 */
const serverBundle = {
  outdir,
  bundle: true,
  splitting: false,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  sourcemap: 'linked',
} as const satisfies BuildOptions;

await build({
  ...serverBundle,
  entryPoints: { server: join(root, 'bff', 'server.ts'), migrate: join(root, 'bff', 'migrate.ts') },
  logLevel: 'warning',
  plugins: [keepSourceUrls],
});
// The tracing preload (issue 15 item 4): `node --import ./dist/server/instrument.js` runs it before the
// server, and it loads tracing.js (OpenTelemetry) only when tracing is on. Built without `keepSourceUrls`:
// instrument.js finds tracing.js beside itself.
await build({
  ...serverBundle,
  entryPoints: {
    instrument: join(root, 'bff', 'telemetry', 'instrument.ts'),
    tracing: join(root, 'bff', 'telemetry', 'tracing.ts'),
  },
  logLevel: 'error',
});
const bundled = performance.now();
console.log(`server bundle in ${Math.round(bundled - started)} ms`);

loadDefaultScreenCatalogue(createTranslations().translate);
console.log('screen definitions checked');

// The image is made again only when PGlite's version or a migration changed (it costs ≈10 s of CPU).
const imagePath = pgliteImagePath(outdir);
if (isPgliteImageCurrent(imagePath)) {
  console.log(`${relative(root, imagePath)} is up to date`);
} else {
  const bytes = await writePgliteImage(imagePath, (db) => migrateToLatest(db));
  console.log(
    `${relative(root, imagePath)} (${(bytes / 1e6).toFixed(1)} MB) in ${Math.round(performance.now() - bundled)} ms`,
  );
}
