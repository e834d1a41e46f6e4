/**
 * `npm run build:server` (part of `npm run build`, issue 13 item 5): what `npm run serve` starts without
 * compiling TypeScript at start.
 * 1. `dist/server/server.js`: bff/server.ts and every module of the repository it imports, bundled by
 *    esbuild into ES modules for Node 20, with the npm packages it imports statically ({@link bundledPackages}:
 *    one file for Node to read and compile instead of hundreds to resolve; native, WebAssembly and
 *    hook-instrumented ones, and those loaded on first use, such as sharp, PGlite and the contract PDF engine,
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

/**
 * Packages the server bundle leaves in node_modules although they are imported statically: PGlite (its
 * WebAssembly and data files beside its module) and its Kysely dialect, argon2 (a native addon), pino (its
 * transports run files of their own in worker threads: pino-pretty in development) and OpenTelemetry (its
 * hooks wrap the modules Node loads, issue 15 item 4).
 */
const KEPT_IN_NODE_MODULES: readonly (string | RegExp)[] = [
  '@electric-sql/pglite',
  'kysely-pglite-dialect',
  '@node-rs/argon2',
  'pino',
  'pino-pretty',
  'thread-stream',
  /^@opentelemetry\//,
  '@fastify/otel',
];

/** The npm package of a bare import (`@scope/name` or `name`), without the path inside it. */
const packageOf = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/**
 * The npm packages a server module imports statically, and theirs, bundled into it (issue 13 item 5: Node's
 * resolving, reading and compiling of each package's files took ≈0.4 s of every start before listen, measured:
 * existing folder to /readyz 2.96–3.00 → 2.47–2.72 s). Left to Node: every package imported dynamically (loaded
 * on first use, bff/on-first-use.ts, and found by its own path: fonts, the gazetteer, the OCR data) and
 * {@link KEPT_IN_NODE_MODULES}. Bundled CommonJS calls `require` for Node's built-ins: the banner of
 * `serverBundle` gives the ES module one.
 */
const bundledPackages: Plugin = {
  name: 'bundled-packages',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('node:')) return undefined;
      const name = packageOf(args.path);
      const kept = KEPT_IN_NODE_MODULES.some((k) => (typeof k === 'string' ? k === name : k.test(name)));
      return kept || args.kind === 'dynamic-import' ? { path: args.path, external: true } : undefined;
    });
  },
};

const started = performance.now();
/**
 * What every server bundle shares: ES modules for Node 20 directly in dist/server, npm packages bundled as
 * {@link bundledPackages} says. One self-contained file per entry: `keepSourceUrls` writes each module's source address
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
  sourcemap: 'linked',
  banner: {
    js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);",
  },
} as const satisfies BuildOptions;

await build({
  ...serverBundle,
  entryPoints: { server: join(root, 'bff', 'server.ts'), migrate: join(root, 'bff', 'migrate.ts') },
  logLevel: 'warning',
  plugins: [keepSourceUrls, bundledPackages],
});
// The tracing preload (issue 15 item 4): `node --import ./dist/server/instrument.js` runs it before the
// server, and it loads tracing.js (OpenTelemetry) only when tracing is on. Built without `keepSourceUrls`:
// instrument.js finds tracing.js beside itself. Its packages stay in node_modules: OpenTelemetry's hooks must
// be the ones Node's loader calls.
await build({
  ...serverBundle,
  packages: 'external',
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
