import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { basename, dirname, join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { sendError } from '../app/errors';
import { onboardError } from '../../errors';
import {
  CLIENT_TEXT_AREAS,
  FIRST_SCREEN_ELEMENT_ID,
  DRAWING_LIMIT_MS,
  SERVER_DRAWN_ATTRIBUTE,
  type DrawFirstScreen,
  type EmbeddedScreen,
  type ServerDrawnScreen,
} from '../../../schemas/app/first-screen';
import { ssrOutDirOf } from '../../../schemas/app/build-variants';
import { DEFAULT_LOCALE, directionOf, preferredBrowserLocale } from '../../../schemas/app/languages';
import { namedRegions } from '../../../schemas/app/region-names';
import { footerShown, parseAppPath } from '../../../schemas/app/routes';
import { ALL_CONTENTS_CODE, contentsCodeOf, widgetTypesOf } from '../../../schemas/app/widget-types';
import { pageChunkKeys, type Manifest } from '../../../schemas/app/vite-manifest';
import type { GlobalInfo, Locale, ScreenPayload } from '../../../schemas/generated/types';
import { passesClientChecks, type ScreenCatalogue } from '../../screens/composer';
import { keptAnswer, preferredEncoding, sendKept, type KeptAnswer } from '../../routes/kept-answer';
import { screenParams, type signedInScreens } from '../../routes/screens';
import { parseCapabilities } from '../../screens/capabilities';
import { isChecked, type PublicScreens } from '../../routes/screens/public-screens';
import type { ScreenVersions } from '../../services/screen-versions';

/** Base path of the client (SPEC §2). */
export const BASE_PATH = '/propertyOnboard';

/** Paths that belong to the server, never to the client's router. */
const serverPrefixes = ['/hms_ms/', '/owner_ms/', '/__dev/', '/healthz', '/readyz', `${BASE_PATH}/assets/`];

/** The auth pages of SPEC §2 served at the top level (exact paths; the client's route-table TOP_LEVEL_ROUTES). */
const topLevelAuthPages = new Set([
  '/login',
  '/login-through-otp',
  '/forgot-password-mail',
  '/forgot-password-phone',
  '/reset-password',
  '/privacy-policy',
  '/terms',
]);

/** Whether a path asks for a source map (`….map`): never a page, and not served at all in production. */
export function isSourceMapPath(path: string): boolean {
  return path.endsWith('.map');
}

/**
 * The URL paths (`/propertyOnboard/assets/index-abc.js`, …) of every file of the built client under
 * `clientDir`, read once at start (the build does not change while the server runs); empty when there is
 * no build. Source maps are left out when `production` (they are not served then). The rate limiter does
 * not count requests for these paths (issue 13 item 8).
 */
export function clientFilePaths(clientDir: string, production: boolean): Set<string> {
  const paths = new Set<string>();
  if (!existsSync(clientDir)) return paths;
  for (const entry of readdirSync(clientDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const rel = relative(clientDir, join(entry.parentPath, entry.name)).split(sep).join('/');
    if (production && isSourceMapPath(rel)) continue;
    paths.add(`${BASE_PATH}/${rel}`);
  }
  return paths;
}

/**
 * True for paths the client's router owns: /propertyOnboard/…, /404, the redirect entry and the top-level
 * auth pages (SPEC §2), and
 * any other page a browser asks for as HTML, so that the client shows its not-found page for an unknown
 * path ("any unmatched path", SPEC §2). API paths and missing build assets are never answered with HTML.
 */
export function isClientRoute(url: string, accept = ''): boolean {
  const path = url.split('?')[0] ?? '';
  if (serverPrefixes.some((p) => path.startsWith(p)) || isSourceMapPath(path)) return false;
  return (
    path === BASE_PATH ||
    path.startsWith(`${BASE_PATH}/`) ||
    path === '/404' ||
    topLevelAuthPages.has(path.replace(/\/+$/, '')) ||
    path === '/route/redirect/propertyOnboard' ||
    path.startsWith('/route/redirect/propertyOnboard/') ||
    accept.includes('text/html')
  );
}

/** Cache-Control of the content-hashed files under `assets/`: their name changes with their content. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';

/**
 * The locale a browser that has not chosen one starts in, from its `Accept-Language` header: the first
 * supported locale among its languages by preference (q-values, q=0 refused), mapped as the client maps
 * `navigator.languages` (schemas/app/languages.ts `preferredBrowserLocale`); en-GB when none is supported.
 */
export function localeOfAcceptLanguage(header: string | undefined): Locale {
  const tags = (header ?? '')
    .split(',')
    .map((part, index) => {
      const [tag = '', ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((entry) => entry.tag !== '' && entry.tag !== '*' && entry.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index)
    .map((entry) => entry.tag);
  return preferredBrowserLocale({ languages: tags, language: tags[0] ?? '' }) ?? DEFAULT_LOCALE;
}

/** Whether `payload` has a phone field anywhere (an `input` of kind `phone`, nested widgets included). */
export function hasPhoneField(payload: unknown): boolean {
  if (Array.isArray(payload)) return payload.some(hasPhoneField);
  if (!payload || typeof payload !== 'object') return false;
  const node = payload as Record<string, unknown>;
  if (node.widget_type === 'input' && (node.contents as { kind?: unknown } | undefined)?.kind === 'phone')
    return true;
  return Object.values(node).some(hasPhoneField);
}

/** The phone field's countries named and sorted per locale ({@link namedRegions}), made once per locale. */
const regionsByLocale = new Map<string, [string, string][]>();

/**
 * `embedded` with the countries of the phone field named in its locale (`regions`), when its screen has a
 * phone field: the browser then draws the country box without its first `Intl.DisplayNames` (issue 13 item 4).
 */
export function withRegions(embedded: EmbeddedScreen): EmbeddedScreen {
  if (!hasPhoneField(embedded.payload.widget_list)) return embedded;
  let regions = regionsByLocale.get(embedded.locale);
  if (!regions) {
    regions = namedRegions(embedded.locale);
    regionsByLocale.set(embedded.locale, regions);
  }
  return { ...embedded, regions };
}

/**
 * Brotli quality of a signed-in page (made per request): 5 compresses ≈15 KB of page in well under a
 * millisecond, within a few per cent of quality 11's size (ours).
 */
const SIGNED_IN_PAGE_BROTLI_QUALITY = 5;

/** Most index.html pages with an embedded first screen kept in memory, oldest out first. */
export const EMBEDDED_PAGE_CACHE_SIZE = 200;

/** A page kept: index.html with a first screen in it, its ETag, and its compressed copies once asked for. */
type EmbeddedPage = KeptAnswer;

/**
 * The signed-in pages the server draws too, for each request (issue 13 item 4): the pages an owner comes back to,
 * where the screen is mostly to read — the checklist, and the dashboard of their properties (My Properties, the
 * footer's first tab, SPEC §2). A page whose screen keeps drafts never is (the browser restores the
 * owner's unsaved values into its first draw, renderer/engine/drafts.ts, which the server does not know); the
 * others are left to the browser (each drawing costs the server 20–50 ms).
 */
export const DRAWN_SIGNED_IN_SCREENS: ReadonlySet<string> = new Set(['task', 'dashboard']);

/** Where the first screen goes in the built index.html: right after the root element. */
const ROOT_ELEMENT = '<div id="root"></div>';

/**
 * index.html with `embedded` in it, as `<script type="application/json" id="first-screen">` after the root
 * element (data, never run: no Content-Security-Policy change). Every `<` of the JSON is written `\u003c`,
 * so no text of a screen can close the element. Null when the page has no root element.
 */
export function embedFirstScreen(indexHtml: string, embedded: EmbeddedScreen): string | null {
  const at = indexHtml.indexOf(ROOT_ELEMENT);
  if (at < 0) return null;
  const json = JSON.stringify(embedded).replace(/</g, '\\u003c');
  const end = at + ROOT_ELEMENT.length;
  const page = `${indexHtml.slice(0, end)}<script type="application/json" id="${FIRST_SCREEN_ELEMENT_ID}">${json}</script>${indexHtml.slice(end)}`;
  // The page is in the screen's language from its first byte (what a screen reader reads before the script).
  return page.replace(
    /^(<!doctype html>\s*<html) lang="[^"]*" dir="[^"]*">/i,
    `$1 lang="${embedded.locale}" dir="${directionOf(embedded.locale)}">`,
  );
}

/**
 * `html` (a page with its root element empty) with the first screen the server drew: its markup inside the root
 * element, marked with the locale it was drawn in ({@link SERVER_DRAWN_ATTRIBUTE}), and its styles at the end of
 * the head. Null when the page has no empty root element.
 */
export function withServerDrawing(html: string, drawn: ServerDrawnScreen, locale: Locale): string | null {
  const at = html.indexOf(ROOT_ELEMENT);
  if (at < 0) return null;
  const root = `<div id="root" ${SERVER_DRAWN_ATTRIBUTE}="${locale}">${drawn.html}</div>`;
  // A resource the page's head already names (the logo's preload) is not named twice.
  const head = html.slice(0, html.indexOf('</head>'));
  const tags = drawn.head.replace(/<link\b[^>]*\bhref="([^"]*)"[^>]*>/g, (tag, href: string) =>
    head.includes(`href="${href}"`) ? '' : tag,
  );
  return atHeadEnd(`${html.slice(0, at)}${root}${html.slice(at + ROOT_ELEMENT.length)}`, tags);
}

/**
 * The server's drawing of the first screen for the client built in `clientDir` (issue 13 item 4): the module
 * `vite build --ssr server-render.tsx` writes beside it (schemas/app/build-variants.ts `ssrOutDirOf`), imported
 * on the first page that asks for it (not at start: it loads React, MUI and every widget; the first page of a
 * process took 0.5 s with its first drawing, later drawings 20–50 ms, and the server's memory grew by 23 MB),
 * then kept. Undefined when that module was not built (`npm run dev`, tests without
 * a build): pages are then drawn by the browser alone. The import rejects when the module cannot be loaded.
 */
export function serverDrawingOf(clientDir: string): DrawFirstScreen | undefined {
  const entry = join(dirname(clientDir), ssrOutDirOf(basename(clientDir)), 'server-render.js');
  if (!existsSync(entry)) return undefined;
  let loading: Promise<DrawFirstScreen> | null = null;
  return (url, embedded) => {
    loading ??= import(pathToFileURL(entry).href).then(
      (module: { renderFirstScreen: DrawFirstScreen }) => module.renderFirstScreen,
    );
    return loading.then((draw) => draw(url, embedded));
  };
}

/** A built client's Vite manifest, or an empty one when it has none. */
function readManifest(clientDir: string): Manifest {
  try {
    return JSON.parse(readFileSync(join(clientDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  } catch {
    return {};
  }
}

/** A built client's index.html, or '' when it has none. */
function readIndexHtml(clientDir: string): string {
  try {
    return readFileSync(join(clientDir, 'index.html'), 'utf8');
  } catch {
    return '';
  }
}

/** The code a page may name for preloading, as addresses (see {@link lazyCodeFiles}). */
export interface LazyCodeFiles {
  /** `widget_type` → its chunk first, then the chunks it imports. */
  widgets: Map<string, string[]>;
  /** The footer tabs (renderer/shell/footer.tsx, loaded by the shell when a route shows them): the same. */
  footer: string[];
  /**
   * The engine's interaction code (renderer/engine/interaction-code.ts: the dispatcher, the field checks, the
   * draft saver), which a screen that saves drafts (`form.draft`) needs before it is drawn: the same.
   */
  interaction: string[];
  /**
   * The modules some widgets' contents need (schemas/app/widget-types.ts `CONTENTS_CODE`: the language list,
   * the input's multiline, number and identifier fields), by their path from the repository root: the same.
   */
  contents: Map<string, string[]>;
}

/**
 * The code a page loads on demand in a built client, read from its Vite manifest: for each lazily loaded
 * widget (built from widgets/<widget-type>/index.ts, which renderer/engine/registry.ts imports on demand) and
 * for the footer tabs, the addresses of its chunk first, then of the chunks it imports statically, less those
 * the page's entry loads anyway. A widget that comes with the entry (the sign-in screens' widgets) has none.
 */
export function lazyCodeFiles(clientDir: string): LazyCodeFiles {
  const manifest = readManifest(clientDir);
  const closure = (keys: string[]): string[] => {
    const seen = new Set<string>();
    const visit = (key: string) => {
      if (seen.has(key) || !manifest[key]) return;
      seen.add(key);
      for (const inner of manifest[key]!.imports ?? []) visit(inner);
    };
    keys.forEach(visit);
    return [...seen];
  };
  const withEntry = new Set(closure(pageChunkKeys(manifest, readIndexHtml(clientDir))));
  const filesOf = (key: string) =>
    closure([key])
      .filter((inner) => !withEntry.has(inner))
      .map((inner) => `${BASE_PATH}/${manifest[inner]!.file}`);
  const widgets = new Map<string, string[]>();
  for (const [key, chunk] of Object.entries(manifest)) {
    const type = /(?:^|\/)widgets\/([a-z-]+)\/index\.tsx?$/.exec(key)?.[1];
    if (type && chunk.isDynamicEntry) widgets.set(type.replaceAll('-', '_'), filesOf(key));
  }
  const dynamicEntry = (pattern: RegExp) => {
    const key = Object.keys(manifest).find((inner) => pattern.test(inner));
    return key && manifest[key]!.isDynamicEntry ? filesOf(key) : [];
  };
  const contents = new Map<string, string[]>();
  for (const module of ALL_CONTENTS_CODE) {
    const key = Object.keys(manifest).find((inner) => inner === module || inner.endsWith(`/${module}`));
    if (key && manifest[key]!.isDynamicEntry) contents.set(module, filesOf(key));
  }
  return {
    widgets,
    contents,
    footer: dynamicEntry(/(?:^|\/)shell\/footer\.tsx$/),
    interaction: dynamicEntry(/(?:^|\/)engine\/interaction-code\.ts$/),
  };
}

/**
 * `html` with `<link rel="modulepreload">` at the end of its head for the code of every lazily loaded widget
 * `payload` draws and of the modules its widgets' contents need, for the footer tabs when `footer`, and for the
 * engine's interaction code when the screen saves drafts ({@link lazyCodeFiles}): the browser fetches it while
 * it loads the page's script, instead of once the script has run (issue 13 item 4). The chunk of a widget, of a
 * contents module and of a shell part is named (`data-widget-type`, `data-contents-code`, `data-shell-part`):
 * the renderer counts that fetch as the first
 * of its tries (SPEC §4: the first and up to 5 more).
 */
export function withPreloadedCode(
  html: string,
  payload: ScreenPayload,
  files: LazyCodeFiles,
  footer = false,
): string {
  // One link per file, in the order named; a file that two parts share (a chunk imported by a widget that is
  // also the footer's own) carries the attribute of each on its one link.
  const links = new Map<string, string[]>();
  const add = ([own, ...imported]: readonly string[], attribute: string) => {
    if (!own) return;
    const attributes = links.get(own) ?? [];
    const name = attribute.slice(0, attribute.indexOf('='));
    if (attributes.some((a) => a.startsWith(`${name}=`))) return;
    links.set(own, [...attributes, attribute]);
    for (const file of imported) if (!links.has(file)) links.set(file, []);
  };
  for (const type of widgetTypesOf(payload.widget_list)) {
    add(files.widgets.get(type) ?? [], `data-widget-type="${type}"`);
  }
  for (const module of contentsCodeOf(payload.widget_list)) {
    add(files.contents.get(module) ?? [], `data-contents-code="${module}"`);
  }
  if (footer) add(files.footer, 'data-shell-part="footer"');
  if (payload.form?.draft) add(files.interaction, 'data-shell-part="interaction"');
  const tags = [...links].map(
    ([href, attributes]) =>
      `<link rel="modulepreload" href="${href}"${attributes.map((a) => ` ${a}`).join('')} />`,
  );
  return atHeadEnd(html, tags.join(''));
}

/**
 * The address of the brand's logo in a built client (`clientDir`), read from its Vite manifest: the file built
 * from `brand/logo*.svg` (the build variant's logo, drawn above the signed-out pages by renderer/shell/routes.tsx).
 * Null without a manifest or a logo.
 */
export function brandLogoPath(clientDir: string): string | null {
  const manifest = readManifest(clientDir);
  const key = Object.keys(manifest).find((k) => /^brand\/logo[\w-]*\.svg$/.test(k));
  const file = key ? manifest[key]?.file : undefined;
  return file ? `${BASE_PATH}/${file}` : null;
}

/**
 * `html` with `<link rel="preload" as="image" href="…">` for `href` at the end of its head: the browser fetches
 * the image while it loads the page's script, instead of after the script has drawn the `<img>` (issue 13 item
 * 4: Lighthouse counts that request on the way of the largest paint). `html` as it is when it has no head.
 */
export function withPreloadedImage(html: string, href: string): string {
  return atHeadEnd(html, `<link rel="preload" as="image" href="${href}" />`);
}

/** `html` with `tags` just before `</head>`; as it is when it has no head or `tags` is empty. */
function atHeadEnd(html: string, tags: string): string {
  const at = html.indexOf('</head>');
  if (!tags || at < 0) return html;
  return `${html.slice(0, at)}${tags}${html.slice(at)}`;
}

/**
 * Serves the built client (dist/client) under /propertyOnboard/ with an SPA fallback: any GET of a client
 * route that is not a file answers index.html (no-cache); hashed assets are cached for a year
 * ({@link IMMUTABLE_CACHE}), other files (index.html, icons) are `no-cache` (revalidated with their
 * ETag / Last-Modified). Files are sent precompressed (issue 13 item 1): the build writes `.br` and `.gz`
 * beside every text asset, and `preCompressed` picks the one the request's `Accept-Encoding` allows
 * (brotli first), with `Vary: Accept-Encoding` on every file answer. In `production`, source maps answer
 * 404 ONB_NOT_FOUND. `/` → 302 /propertyOnboard.
 *
 * The first screen in the page (issue 13 items 2 and 4): a GET without a session and without a query of a
 * public route (sign-in) answers index.html with that screen's payload in it ({@link embedFirstScreen}),
 * composed as GET /screens/:id composes it for the path's country and the locale of `Accept-Language`
 * ({@link localeOfAcceptLanguage}), from the same kept copy (`publicScreens`), and only when it passes the
 * renderer's checks (`passesClientChecks`): the browser draws it without a request for the payload and
 * without loading the widgets' validators (schemas/app/first-screen.ts). Such a page is `no-cache`
 * with its own ETag (304 to a matching If-None-Match), `Vary: accept-language, cookie, accept-encoding`,
 * sent brotli or gzip as accepted.
 *
 * A signed-in owner's page of a route that needs a session carries its screen too, composed for them by
 * `signedIn` (the composer GET /screens/:id uses), checked the same way, made per request and sent
 * `no-store`. A first screen with a phone field comes with the field's countries named in its language
 * ({@link withRegions}); in a language other than en-GB with the client's texts of it (`messages`, `texts`);
 * its page's `<html lang dir>` are its language's. Every first screen comes with its country's global info
 * (`globalInfo`), and its page's head names the code of the screen's lazy widgets and of the footer tabs the
 * shell draws under it ({@link withPreloadedCode}); a public page's head also names the brand's logo
 * ({@link withPreloadedImage}).
 *
 * A page with its screen is also drawn (`drawFirstScreen`, {@link withServerDrawing}): its screen's markup in the
 * root element, its styles in the head; a public page once with the rest of the kept page (kept by its address
 * too), a signed-in owner's checklist and dashboard for each request ({@link DRAWN_SIGNED_IN_SCREENS}).
 *
 * Any other client route answers the built index.html as it is. Without a build, client routes answer 503
 * text asking for `npm run build`. A path a route answers with another method → 405 ONB_METHOD_NOT_ALLOWED with
 * `Allow` (plugins/app/allowed-methods.ts). Other unknown paths → 404 ONB_NOT_FOUND; the not-found handler is rate
 * limited when the limiter is on.
 */
export default fp<{
  clientDir: string;
  production?: boolean;
  screens?: ScreenCatalogue;
  publicScreens?: PublicScreens;
  /** The published versions (issue 16 item 3): the page embeds the version a signed-out visitor gets. */
  versions?: ScreenVersions;
  /** Feature flags (a version rolled out by flag). */
  flags?: Record<string, unknown>;
  /** The composer of signed-in screens (bff/routes/screens `signedInScreens`): a signed-in page embeds its screen. */
  signedIn?: ReturnType<typeof signedInScreens>;
  /**
   * Global info for a page's country (upper-case ISO2, null for a path without one), as GET global_info
   * answers it (bff/routes/global `globalInfoFor`): a page with its first screen carries it too.
   */
  globalInfo?: (country: string | null) => GlobalInfo;
  /**
   * The server's drawing of a public page's first screen (issue 13 item 4; {@link serverDrawingOf}): the page
   * then shows the screen before its script has run. Without it, the browser alone draws it.
   */
  drawFirstScreen?: DrawFirstScreen;
  /**
   * The longest a page waits for its drawing, in ms (default {@link DRAWING_LIMIT_MS}); then it goes out as the
   * browser alone draws it.
   */
  drawingLimitMs?: number;
  /**
   * Every text of a locale per area, as GET /translations answers them (`app.translations.messages`): a page
   * in another language than en-GB carries the client's areas of it ({@link withTexts}).
   */
  messages?: (locale: Locale) => Record<string, unknown>;
}>(
  async (
    app,
    {
      clientDir,
      production = false,
      screens,
      publicScreens,
      versions,
      flags = {},
      signedIn,
      globalInfo,
      drawFirstScreen,
      drawingLimitMs = DRAWING_LIMIT_MS,
      messages,
    },
  ) => {
    /** `embedded` with its country's global info, when the plugin was given it. */
    const withGlobalInfo = (embedded: EmbeddedScreen): EmbeddedScreen =>
      globalInfo ? { ...embedded, global_info: globalInfo(embedded.country) } : embedded;
    const textsByLocale = new Map<Locale, Record<string, unknown>>();
    /**
     * `embedded` with the texts of its locale that the client draws from (`texts`), when it is not en-GB (built
     * into the client) and the plugin was given the messages; made once per locale.
     */
    const withTexts = (embedded: EmbeddedScreen): EmbeddedScreen => {
      if (!messages || embedded.locale === DEFAULT_LOCALE) return embedded;
      let texts = textsByLocale.get(embedded.locale);
      if (!texts) {
        const all = messages(embedded.locale);
        texts = Object.fromEntries(CLIENT_TEXT_AREAS.map((area) => [area, all[area]]));
        textsByLocale.set(embedded.locale, texts);
      }
      return { ...embedded, texts };
    };
    const built = existsSync(join(clientDir, 'index.html'));
    const indexHtml = built ? readFileSync(join(clientDir, 'index.html'), 'utf8') : '';
    // A public page (sign-in) draws the brand's logo above its screen: its page names it for preloading.
    const logo = built ? brandLogoPath(clientDir) : null;
    const publicIndexHtml = logo ? withPreloadedImage(indexHtml, logo) : indexHtml;
    const codeFiles: LazyCodeFiles = built
      ? lazyCodeFiles(clientDir)
      : { widgets: new Map(), footer: [], interaction: [], contents: new Map() };
    const pages = new Map<string, Promise<EmbeddedPage | null>>();
    /** A page kept by `key`, made from `html` (null: none) on first use; one making at a time per key. */
    const keptPage = (key: string, html: () => Promise<string | null>): Promise<EmbeddedPage | null> => {
      const kept = pages.get(key);
      if (kept) return kept;
      const page = html().then((text) => (text === null ? null : keptAnswer(text)));
      if (pages.size >= EMBEDDED_PAGE_CACHE_SIZE) pages.delete(pages.keys().next().value!);
      pages.set(key, page);
      return page;
    };
    /**
     * `html` with the first screen `embedded` drawn into it by `drawFirstScreen`, when the plugin has one and it
     * draws this page; `html` as it is otherwise, or when the drawing failed (logged: the browser draws it).
     */
    const drawnOnServer = async (
      request: FastifyRequest,
      html: string,
      embedded: EmbeddedScreen,
    ): Promise<string> => {
      if (!drawFirstScreen) return html;
      let timer: NodeJS.Timeout | undefined;
      const limit = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`not drawn within ${drawingLimitMs} ms`)), drawingLimitMs);
      });
      try {
        const drawn = await Promise.race([drawFirstScreen(request.url, embedded), limit]);
        return (drawn && withServerDrawing(html, drawn, embedded.locale)) ?? html;
      } catch (error) {
        request.log.warn(
          { err: error, screenId: embedded.screen_id },
          'first screen not drawn on the server',
        );
        return html;
      } finally {
        clearTimeout(timer);
      }
    };

    /** index.html with the first screen of `request`'s page in it, or null (see the plugin's TSDoc). */
    const pageWithFirstScreen = async (request: FastifyRequest): Promise<EmbeddedPage | null> => {
      if (!screens || !publicScreens || request.user || request.url.includes('?')) return null;
      const parsed = parseAppPath(request.url);
      if (parsed.kind !== 'route' || !parsed.route.public) return null;
      const screenId = parsed.route.screenId;
      if (!screens.has(screenId) || !screens.isPublic(screenId)) return null;
      const locale = localeOfAcceptLanguage(request.headers['accept-language']);
      const country = parsed.countryCode ? parsed.countryCode.toUpperCase() : null;
      // The version a visitor without a session gets now (read after `versions.refresh()` by the caller).
      const pick = versions?.pick(screenId, null, flags);
      // The path too: the server draws the page for its address (`/login` and `/propertyOnboard/login`).
      const key = JSON.stringify([
        request.url,
        screenId,
        screens.revision?.(screenId) ?? 0,
        pick?.version ?? 0,
        locale,
        country,
      ]);
      return keptPage(key, async () => {
        let embedded: EmbeddedScreen;
        let html: string | null;
        try {
          const entry = publicScreens.get(
            screenId,
            locale,
            country ?? undefined,
            {},
            pick ? { version: { number: pick.version, compose: pick.compose } } : {},
          );
          if (!isChecked(entry)) return null;
          embedded = withTexts(
            withGlobalInfo(withRegions({ screen_id: screenId, locale, country, payload: entry.payload })),
          );
          html = embedFirstScreen(withPreloadedCode(publicIndexHtml, entry.payload, codeFiles), embedded);
        } catch (error) {
          // A screen that does not compose is left to GET /screens/:id, which answers its error.
          request.log.warn({ err: error, screenId }, 'first screen not embedded');
          return null;
        }
        return html === null ? null : drawnOnServer(request, html, embedded);
      });
    };
    /**
     * index.html with the screen of a signed-in owner's page in it (one that needs a session: the checklist,
     * the dashboard…), composed as GET /screens/:id composes it for them — their lead of the page's
     * `property_unique_id`, the page's query, the path's country, the language of `Accept-Language` — and only
     * when it passes the renderer's checks. Null otherwise, or when it does not compose (another owner's
     * property, ONB_LEAD_NOT_FOUND: the page asks and shows the error; a PropertyManager, ONB_ROLE_FORBIDDEN:
     * the page is not found for them, SPEC §6).
     * Made per request and never kept: it is the owner's own data.
     */
    const pageWithSignedInScreen = async (request: FastifyRequest): Promise<Buffer | null> => {
      if (!signedIn || !screens || !request.user) return null;
      const parsed = parseAppPath(request.url.split('?')[0] ?? '');
      if (parsed.kind !== 'route' || parsed.route.public) return null;
      const screenId = parsed.route.screenId;
      if (!screens.has(screenId)) return null;
      const locale = localeOfAcceptLanguage(request.headers['accept-language']);
      const country = parsed.countryCode ? parsed.countryCode.toUpperCase() : null;
      const query = screenParams(request.query);
      try {
        const drawn = await signedIn(
          request,
          screenId,
          {
            params: query,
            locale,
            country: country ?? undefined,
            caps: parseCapabilities(undefined, undefined),
          },
          (answer) => JSON.stringify(answer),
        );
        const payload = (JSON.parse(drawn.body) as { data: ScreenPayload }).data;
        if (!passesClientChecks(payload)) return null;
        const embedded = withTexts(
          withGlobalInfo(withRegions({ screen_id: screenId, locale, country, payload, query })),
        );
        // The shell draws the footer tabs under this screen: their code is named too.
        const footer = footerShown(
          parsed.route,
          payload.hide_footer === true,
          embedded.global_info?.enable_oyo360_l1_revamp === true,
        );
        const html = embedFirstScreen(withPreloadedCode(indexHtml, payload, codeFiles, footer), embedded);
        if (html === null) return null;
        return Buffer.from(
          DRAWN_SIGNED_IN_SCREENS.has(screenId) && !payload.form?.draft
            ? await drawnOnServer(request, html, embedded)
            : html,
        );
      } catch (error) {
        request.log.debug({ err: error, screenId }, 'signed-in screen not embedded');
        return null;
      }
    };

    if (built) {
      await app.register(fastifyStatic, {
        root: clientDir,
        prefix: `${BASE_PATH}/`,
        wildcard: true,
        index: false,
        preCompressed: true,
        ...(production ? { allowedPath: (path: string) => !isSourceMapPath(path) } : {}),
        setHeaders: (reply, path) => {
          const rel = relative(clientDir, path).split(sep).join('/');
          reply.header('cache-control', rel.startsWith('assets/') ? IMMUTABLE_CACHE : 'no-cache');
        },
      });
    }

    app.get('/', { schema: { hide: true } }, async (_request, reply) => reply.redirect(BASE_PATH, 302));

    const notFound = async (request: FastifyRequest, reply: FastifyReply) => {
      if (
        (request.method === 'GET' || request.method === 'HEAD') &&
        isClientRoute(request.url, request.headers.accept)
      ) {
        if (!built) {
          return reply
            .code(503)
            .type('text/plain; charset=utf-8')
            .send('The client is not built yet: run `npm run build`, then reload this page.\n');
        }
        // A version published since the last look is what the page embeds (at most one cheap check a second).
        if (versions && !request.user && !request.url.includes('?')) await versions.refresh();
        const own = await pageWithSignedInScreen(request);
        if (own) {
          reply
            .header('cache-control', 'no-store')
            .header('vary', 'accept-language, cookie, accept-encoding')
            .type('text/html; charset=utf-8');
          const encoding = preferredEncoding(request.headers['accept-encoding']);
          if (encoding === 'br') {
            const br = brotliCompressSync(own, {
              params: { [constants.BROTLI_PARAM_QUALITY]: SIGNED_IN_PAGE_BROTLI_QUALITY },
            });
            return reply.header('content-encoding', 'br').send(br);
          }
          if (encoding === 'gzip') return reply.header('content-encoding', 'gzip').send(gzipSync(own));
          return reply.send(own);
        }
        const page = await pageWithFirstScreen(request);
        if (!page) return reply.header('cache-control', 'no-cache').sendFile('index.html', clientDir);
        return sendKept(request, reply, page, {
          cacheControl: 'no-cache',
          vary: 'accept-language, cookie, accept-encoding',
          type: 'text/html; charset=utf-8',
        });
      }
      // A route that took the request and found nothing (a missing asset) leaves it not found.
      const allowed = app.allowedMethods(request.url.split('?', 1)[0] ?? '');
      if (allowed.length > 0 && !allowed.includes(request.method)) {
        reply.header('allow', allowed.join(', '));
        return sendError(reply, onboardError('ONB_METHOD_NOT_ALLOWED'));
      }
      return sendError(reply, onboardError('ONB_NOT_FOUND'));
    };
    // Unknown paths are counted by the rate limit's own onRequest hook, like every request.
    app.setNotFoundHandler(notFound);
  },
  { name: 'static', dependencies: ['errors'] },
);
