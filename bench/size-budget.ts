/**
 * `npm run size` (after `npm run build`): the JavaScript each client route loads, read from the built client
 * (dist/client and its Vite manifest, dist/client/.vite/manifest.json), gzip level 9, checked against the
 * budgets of issue 13 item 2. Deterministic (no browser, no server, no clock), so CI gates on it
 * (.ci/test-all.sh runs it right after the build). Exits 1, naming the route and its chunks, when a route
 * is over its budget.
 *
 * What a route loads (1 KB = 1000 B):
 * - the entry (index.html's script) and every chunk it imports statically (the browser gets them through
 *   the page's `<link rel=modulepreload>`), and the engine's `Screen` (renderer/engine/screen.tsx) with its
 *   static imports;
 * - for each `widget_type` named in the route's screen definition (bff/screens/<screen_id>.json and the
 *   fragments it uses, every branch counted) whose widget is a chunk of its own: that chunk, its static
 *   imports and what it imports dynamically (a map loads with its widget);
 * - on a route that needs a session, the validators: the `screen` validator (schemas/generated/validators.js)
 *   and the contents validator (schemas/generated/validators/<widget_type>.js) of each widget type of the
 *   screen (loaded with its payload; the page no longer preloads the sign-in widgets' validators). A public
 *   route (sign-in) opened without a query needs none: the server puts its first screen in index.html,
 *   checked (bff/plugins/external/static.ts), and the renderer draws it without validators (with a query,
 *   e.g. a password reset link, the screen is fetched and validated as on other routes);
 * - on a route that needs a session, also the shell's own lazy parts (the support chat), except those the
 *   server turns on (browser tracing), which are listed with what loads on first use.
 *
 * `npm run size -- --detail [route]` prints where the bytes of a route (default sign_up) come from: the
 * minified bytes of each source package or folder, attributed through the chunks' source maps, and the
 * gzip size of those bytes alone. The engine line (renderer/engine without widgets, React and MUI: the
 * engine's own modules, attributed the same way) is printed with its goal of issue 13 item 3.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { APP_ROUTES } from '../renderer/shell/route-table';
import { readDefinition } from '../bff/screens/composer';
import { ALL_CONTENTS_CODE, CONTENTS_CODE } from '../schemas/app/widget-types';
import {
  ENGINE_GOAL,
  attribute,
  clientDir,
  engineSize,
  entryKeys,
  readManifest,
  root,
  type Manifest,
} from './built-client';

const screensDir = join(root, 'bff/screens');

/**
 * Budget of the sign-in route (sign_up and login, signed out), gzip bytes: what the route weighs today and
 * 0.5 KB of slack, so that it cannot grow unnoticed. 192.7 KB in 2 files: everything the page imports
 * statically is one chunk (22 files and 202.4 KB summed per file before), the first screen comes in
 * index.html checked by the server so no validator is loaded (−16 KB), MUI's CSS-variables theme engine is
 * not built in and react-router is its production build (−8 KB), the right-to-left styles load only for
 * Arabic (−2.4 KB). 229.0 KB before those, 324.4 KB before issue 13. The goal of issue 13 item 2 is
 * {@link SIGN_IN_GOAL}; what is left is mostly the stack itself (react-dom 63.6 KB, MUI with emotion and
 * stylis ≈50 KB, i18next 18 KB, react-router 12.7 KB: `npm run size -- --detail sign_up`). 194.1 KB after
 * the first page gained the error-report listeners and analytics blocks (issue 15), the widget-types header
 * (issue 16) and two widgets in the registry; 194.7 KB with the banner logo (issue 15), the `track` action and
 * the sign-out's push endpoint. 193.0 KB after sign-out and the photo upload manager became chunks of their
 * own (loaded on the tap, and with the uploader widgets: `WIDGET_COMPANIONS`); 193.3 KB with the phone
 * field's deferred country list and the texts that arrive as transitions (issue 13 item 4); 193.7 KB with the
 * autofocus after the first paint, the countries named by the server (`provideRegionNames`: ≈45 ms of
 * `Intl.DisplayNames` less in the first draw) and the signed-in pages' embedded screens; 194.0 KB with the page's
 * global info, the preloaded code counted as a first try (`pagePreloads`) and `footerShown` (issue 13 item 4).
 * 191.5 KB once the left-to-right emotion cache used emotion's own prefixer (stylis came twice, ≈2 KB) and
 * hoist-non-react-statics, imported by @emotion/react for nothing but its side effects, which it has none of,
 * was left out (≈0.7 KB); 189.3 KB with the language chooser's list variant (MUI's radio parts) a chunk of its
 * own, fetched before a screen with it is drawn (`ContentsCode`), the sign-in pages drawing the compact one.
 * 184.7 KB once react-router's `forwardRef` components were marked pure and their `displayName` writes left
 * out (vite.config.ts `reactRouterPureComponents`): Link, NavLink and Form, which nothing here draws, had kept
 * form submission, fetchers and route prefetching in the page (react-router 11.8 → 7.4 KB). 182.7 KB without
 * the built-in en-GB `errors` area, the server's messages, which the client never reads (renderer/i18n);
 * 182.5 KB with React's own useSyncExternalStore for react-i18next instead of the React 17 shim. 174.3 KB once
 * the engine's interaction code (the dispatcher, the field checks and KYC identifier checks, the draft saver)
 * and MUI's TouchRipple are fetched at the owner's first touch or key instead of with the page
 * ({@link FIRST_INPUT_PARTS}, −8.2 KB), without the modulepreload polyfill (−0.3 KB) and with the sign-in
 * buttons' message drawn without MUI's Alert (−0.7 KB). 169.8 KB once the one-time-code field comes at the
 * phone field's first keystroke, the multiline, number and identifier fields (with the identifier helpers) with
 * the screens that draw them, the desktop message on a desktop and the validators' loaders with a payload to
 * check, each a chunk of its own, and the loading placeholders are drawn without MUI's Skeleton. 170.0 KB with
 * the hydration of a page the server drew (`hydrateRoot`, renderer/shell/app.tsx `InteractiveOnceHydrated`);
 * 169.6 KB once the user cookie's restore (renderer/shell/sso.ts) is fetched only by a browser signed in without
 * the user's details; 169.8 KB with the entry's evaluation in stages (renderer/shell/entry-stages: four
 * top-level awaits in the chunk), 169.9 KB with eight; 169.2 KB once the analytics queue comes after the first
 * paint (renderer/shell/app-analytics.ts) — but Chromium still loaded it before the page was idle, in two files
 * (a re-export of the chunk browser tracing shared with it), so the bench measured 170.6 KB: the analytics
 * queue is now counted on every route ({@link AFTER_FIRST_PAINT_PARTS}), one file. 168.9 KB with it, once
 * tracing no longer imports the analytics module, MUI's NativeSelect takes OutlinedInput for its default input
 * instead of the standard Input (vite.config.ts `nativeSelectOutlined`), the engine's error card is drawn with
 * Paper and Box instead of Card, CardContent and CardActions, and MUI's TextareaAutosize, which only multiline
 * fields draw, is a chunk of its own (`lazyTextareaAutosize`). The route is under the goal: the budget is the
 * goal itself, so what the route gains must be paid for.
 */
export const SIGN_IN_BUDGET = 170_000;
/** The goal of issue 13 item 2 for the sign-in route, gzip bytes (printed beside the budget). */
export const SIGN_IN_GOAL = 170_000;
/** Budget of every other route, gzip bytes. Issue 13 item 2: 350 KB. */
export const ROUTE_BUDGET = 350_000;
/** Routes whose budget is {@link SIGN_IN_BUDGET}. */
const SIGN_IN_SCREENS: ReadonlySet<string> = new Set(['sign_up', 'login']);

const ENGINE_SCREEN = 'engine/screen.tsx';
/** Modules a widget's registry entry loads with the widget's own chunk (renderer/engine/registry.ts). */
const WIDGET_COMPANIONS: Readonly<Record<string, readonly string[]>> = {
  image_uploader: ['api/uploads.ts'],
  document_uploader: ['api/uploads.ts'],
};
const COMPANIONS = new Set([...Object.values(WIDGET_COMPANIONS).flat(), ...ALL_CONTENTS_CODE]);

/**
 * Manifest keys of `keys` and everything they import statically, and with `dynamic` what they import
 * dynamically too — except the dynamic imports of the chunks in `base` (the entry and the engine, which
 * import every lazy widget: a widget that imports them does not load the others).
 */
function closure(
  manifest: Manifest,
  keys: Iterable<string>,
  dynamic: boolean,
  base: ReadonlySet<string> = new Set(),
): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`manifest has no chunk ${key}`);
    seen.add(key);
    for (const next of chunk.imports ?? []) visit(next);
    if (dynamic && !base.has(key)) for (const next of chunk.dynamicImports ?? []) visit(next);
  };
  for (const key of keys) visit(key);
  return seen;
}

/**
 * Every `widget_type` string in a screen definition (all branches: conditions, fallbacks, `$each`), with
 * its fragments in place (`readDefinition`: a task's widgets live in bff/screens/task_details/…), and the
 * modules their contents need (schemas/app/widget-types.ts `CONTENTS_CODE`, manifest key suffixes).
 */
function widgetsOf(screenId: string): { types: Set<string>; contentsCode: Set<string> } {
  const types = new Set<string>();
  const contentsCode = new Set<string>();
  const visit = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(visit);
    else if (value && typeof value === 'object') {
      const { widget_type: type, contents } = value as { widget_type?: unknown; contents?: unknown };
      if (typeof type === 'string') {
        types.add(type);
        const contentsObject = contents && typeof contents === 'object' ? contents : {};
        for (const key of (Object.hasOwn(CONTENTS_CODE, type)
          ? CONTENTS_CODE[type]!(contentsObject as Record<string, unknown>)
          : []) ?? [])
          contentsCode.add(key);
      }
      for (const [key, inner] of Object.entries(value)) if (key !== 'widget_type') visit(inner);
    }
  };
  visit(readDefinition(join(screensDir, `${screenId}.json`)));
  return { types, contentsCode };
}

/** The manifest key of the module at `srcSuffix` (a path from the repository root), if it is a chunk's entry. */
function keyOf(manifest: Manifest, srcSuffix: string): string | undefined {
  return Object.keys(manifest).find((key) => key === srcSuffix || key.endsWith(`/${srcSuffix}`));
}

/**
 * The shell's lazy parts that are not on an owner's way on a phone: browser tracing (issue 15 item 4: only with
 * a collector configured, after the first screen) and the desktop message (drawn on a desktop-wide window
 * only). Listed with what is loaded on first use.
 */
const OPTIONAL_SHELL_PARTS: ReadonlySet<string> = new Set(['shell/tracing.ts', 'shell/desktop-message.tsx']);

/**
 * The shell's lazy parts every page fetches once its first screen has painted, without any input: the analytics
 * queue (renderer/shell/app-analytics.ts loads shell/analytics.ts then). Counted on every route, public ones
 * included: Chromium loads them before the page is idle, so the route's figure in `npm run bench` has them.
 */
const AFTER_FIRST_PAINT_PARTS: readonly string[] = ['shell/analytics.ts'];

/**
 * What a page fetches at the owner's first touch, pointer press or key (renderer/shell/first-input.ts), as
 * manifest key suffixes: the engine's interaction code (the dispatcher, the field checks, the draft saver) and
 * MUI's TouchRipple (renderer/shell/touch-ripple.tsx). Counted in a signed-in route: an owner acts on each of
 * them, and a screen that saves drafts needs the interaction code before it is drawn. On a public route it is
 * not code of the first paint: printed apart, with the sign-in route's figure once it has come.
 */
const FIRST_INPUT_PARTS = ['engine/interaction-code.ts', '@mui/material/ButtonBase/TouchRipple.mjs'];

/** The manifest keys of {@link FIRST_INPUT_PARTS} and what they import statically, less `base`. */
function firstInputChunks(manifest: Manifest, base: ReadonlySet<string>): Set<string> {
  const keys = FIRST_INPUT_PARTS.flatMap((suffix) => keyOf(manifest, suffix) ?? []);
  return new Set([...closure(manifest, keys, false)].filter((key) => !base.has(key)));
}

/** One route's chunks (manifest keys); `entry`: the keys of the entry's chunks (`entryKeys`). */
function routeChunks(
  manifest: Manifest,
  entry: readonly string[],
  screenId: string,
  isPublic: boolean,
): Set<string> {
  const start = [...entry, ENGINE_SCREEN].filter((key) => manifest[key]);
  const base = closure(manifest, start, false);
  const chunks = new Set(base);
  const afterPaint = AFTER_FIRST_PAINT_PARTS.flatMap((suffix) => keyOf(manifest, suffix) ?? []);
  for (const key of closure(manifest, afterPaint, false)) chunks.add(key);
  if (!isPublic) {
    const shellLazy = entry
      .flatMap((key) => manifest[key]!.dynamicImports ?? [])
      .filter((key) => key.startsWith('shell/') && !OPTIONAL_SHELL_PARTS.has(key));
    for (const key of closure(manifest, shellLazy, true, base)) chunks.add(key);
    for (const key of firstInputChunks(manifest, base)) chunks.add(key);
  }
  const { types: screenTypes, contentsCode } = widgetsOf(screenId);
  const contentsKeys = [...contentsCode].flatMap((suffix) => keyOf(manifest, suffix) ?? []);
  for (const key of closure(manifest, contentsKeys, true, base)) chunks.add(key);
  for (const type of screenTypes) {
    const widget = keyOf(manifest, `widgets/${type.replaceAll('_', '-')}/index.ts`);
    if (widget) for (const key of closure(manifest, [widget], true, base)) chunks.add(key);
    const companions = (WIDGET_COMPANIONS[type] ?? []).filter((key) => manifest[key]);
    for (const key of closure(manifest, companions, true, base)) chunks.add(key);
  }
  if (isPublic) return chunks;
  const validators = [
    keyOf(manifest, 'schemas/generated/validators.js'),
    keyOf(manifest, 'schemas/generated/widget-validators.ts'),
    ...[...screenTypes].map((type) => keyOf(manifest, `schemas/generated/validators/${type}.js`)),
  ];
  for (const validator of validators) {
    if (validator) for (const key of closure(manifest, [validator], false)) chunks.add(key);
  }
  return chunks;
}

const gzipCache = new Map<string, { raw: number; gzip: number }>();

/** Raw and gzip (level 9, as the bench measures) bytes of a built file under dist/client. */
function sizeOf(file: string): { raw: number; gzip: number } {
  let size = gzipCache.get(file);
  if (!size) {
    const body = readFileSync(join(clientDir, file));
    size = { raw: body.length, gzip: gzipSync(body, { level: 9 }).length };
    gzipCache.set(file, size);
  }
  return size;
}

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;

/** A source path grouped for reading: a package name, or the repository folder (two levels). */
function groupOf(source: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(source);
  if (pkg) return pkg[1]!;
  if (source.startsWith('(')) return source;
  return source.split('/').slice(0, 2).join('/');
}

// ---- main ----

let manifest: Manifest;
let entry: string[];
try {
  manifest = readManifest();
  entry = entryKeys(manifest);
} catch (err) {
  console.error(`size budget: ${(err as Error).message}`);
  process.exit(2);
}
const args = process.argv.slice(2);
const screenIds = new Set(
  readdirSync(screensDir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.slice(0, -5)),
);
const routes = APP_ROUTES.filter((route) => screenIds.has(route.screenId));

let failed = false;
const rows: string[] = [];
for (const route of routes) {
  const chunks = routeChunks(manifest, entry, route.screenId, route.public);
  const files = [...chunks].map((key) => manifest[key]!.file).filter((file) => file.endsWith('.js'));
  const raw = files.reduce((sum, file) => sum + sizeOf(file).raw, 0);
  const gzip = files.reduce((sum, file) => sum + sizeOf(file).gzip, 0);
  const signIn = SIGN_IN_SCREENS.has(route.screenId);
  const budget = signIn ? SIGN_IN_BUDGET : ROUTE_BUDGET;
  const ok = gzip <= budget;
  if (!ok) failed = true;
  rows.push(
    `${ok ? 'ok  ' : 'OVER'} /propertyOnboard/${route.path.padEnd(14)} ${kb(gzip).padStart(9)} gzip` +
      ` (${kb(raw).padStart(9)} raw, ${String(files.length).padStart(2)} files)  budget ${kb(budget)}` +
      (signIn ? `, goal ${kb(SIGN_IN_GOAL)} (issue 13)` : ''),
  );
  if (!ok) {
    rows.push(`     over by ${kb(gzip - budget)}; its files, largest first:`);
    for (const file of files.sort((a, b) => sizeOf(b).gzip - sizeOf(a).gzip)) {
      rows.push(`       ${file}: ${kb(sizeOf(file).gzip)} gzip`);
    }
  }
}
console.log('JavaScript per route (dist/client, gzip -9; 1 KB = 1000 B):');
for (const row of rows) console.log(`  ${row}`);
// What the page's own code imports dynamically, other than widgets, validators and the shell's lazy parts:
// loaded on first use (libphonenumber-js with the first keystroke, the language menu when it is reached).
const base = closure(
  manifest,
  [...entry, ENGINE_SCREEN].filter((key) => manifest[key]),
  false,
);
const firstInput = firstInputChunks(manifest, base);
const onUse = [...base]
  .flatMap((key) => manifest[key]!.dynamicImports ?? [])
  .filter(
    (key) =>
      !/(^|\/)(widgets\/[a-z-]+\/index\.ts|schemas\/generated\/(validators(\.js$|\/)|widget-validators\.ts$))/.test(
        key,
      ),
  )
  .filter((key) => ![...COMPANIONS].some((companion) => key === companion || key.endsWith(`/${companion}`)))
  .filter((key) => (!key.startsWith('shell/') || OPTIONAL_SHELL_PARTS.has(key)) && !base.has(key))
  .filter((key) => !AFTER_FIRST_PAINT_PARTS.includes(key))
  .filter((key) => !firstInput.has(key));
const onUseFiles = [...closure(manifest, new Set(onUse), false)]
  .filter((key) => !base.has(key))
  .map((key) => manifest[key]!.file)
  .filter((file) => file.endsWith('.js'));
console.log(
  `  not counted above, loaded on first use by the page's code (${[...new Set(onUse)].join(', ')}): ` +
    `${kb(onUseFiles.reduce((sum, file) => sum + sizeOf(file).gzip, 0))} gzip`,
);
const firstInputGzip = [...firstInput]
  .map((key) => manifest[key]!.file)
  .filter((file) => file.endsWith('.js'))
  .reduce((sum, file) => sum + sizeOf(file).gzip, 0);
const signInGzip = [...routeChunks(manifest, entry, 'sign_up', true)]
  .map((key) => manifest[key]!.file)
  .filter((file) => file.endsWith('.js'))
  .reduce((sum, file) => sum + sizeOf(file).gzip, 0);
console.log(
  `  loaded at the owner's first touch or key, counted above on signed-in routes (${FIRST_INPUT_PARTS.join(', ')}): ` +
    `${kb(firstInputGzip)} gzip; the sign-in route with it: ${kb(signInGzip + firstInputGzip)} gzip`,
);
const engine = engineSize(manifest);
console.log(
  `  renderer/engine without widgets, React and MUI: ${kb(engine.gzip)} gzip (${kb(engine.raw)} raw), goal ${kb(ENGINE_GOAL)} (issue 13 item 3)`,
);

const detailAt = args.indexOf('--detail');
if (detailAt >= 0) {
  const screenId = args[detailAt + 1] ?? 'sign_up';
  const route = routes.find((r) => r.screenId === screenId || r.path === screenId);
  if (!route) throw new Error(`no route ${screenId}`);
  const files = [...routeChunks(manifest, entry, route.screenId, route.public)]
    .map((key) => manifest[key]!.file)
    .filter((file) => file.endsWith('.js'));
  console.log(
    `\nWhere the JavaScript of /propertyOnboard/${route.path} comes from (gzip of each part alone):`,
  );
  for (const file of files)
    console.log(`  ${file}: ${kb(sizeOf(file).gzip)} gzip, ${kb(sizeOf(file).raw)} raw`);
  const parts = [...attribute(files, groupOf)].sort((a, b) => b[1].raw - a[1].raw);
  for (const [name, size] of parts) {
    console.log(`  ${name.padEnd(48)} ${kb(size.raw).padStart(9)} raw ${kb(size.gzip).padStart(9)} gzip`);
  }
}

if (failed) {
  console.error(
    `size budget: a route's JavaScript is over its budget (sign-in ${kb(SIGN_IN_BUDGET)}, every route ${kb(ROUTE_BUDGET)} gzip; ` +
      `issue 13 item 2 asks for ${kb(SIGN_IN_GOAL)} and ${kb(ROUTE_BUDGET)}). ` +
      'Make what the route does not need lazy, or see `npm run size -- --detail <route>`.',
  );
  process.exit(1);
}
