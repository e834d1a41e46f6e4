/**
 * The first screen in index.html (issue 13 items 2 and 4): a signed-out GET of a public page answers the
 * built index.html with that screen's payload in it, the same payload GET /screens/:id answers, only when
 * it passes the renderer's checks.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DrawFirstScreen, EmbeddedScreen } from '../../../schemas/app/first-screen';
import type { ScreenPayload } from '../../../schemas/generated/types';
import type { ScreenCatalogue } from '../../screens/composer';
import { buildTestApp, makePropertyManager, sharedDatabase, signInNewOwner } from '../../test-helpers';
import {
  brandLogoPath,
  embedFirstScreen,
  lazyCodeFiles,
  localeOfAcceptLanguage,
  withPreloadedImage,
  withPreloadedCode,
  withServerDrawing,
} from './static';

const indexHtml =
  '<!doctype html><html><head><title>app</title></head><body><div id="root"></div>' +
  '<script type="module" src="/propertyOnboard/assets/index-3f9a1c.js"></script></body></html>';

function builtClientDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'client-first-screen-'));
  writeFileSync(join(dir, 'index.html'), indexHtml);
  mkdirSync(join(dir, '.vite'));
  writeFileSync(
    join(dir, '.vite', 'manifest.json'),
    JSON.stringify({
      'index.html': {
        file: 'assets/index-3f9a1c.js',
        isEntry: true,
        imports: ['_runtime.js'],
        assets: ['assets/logo-9Xa1.svg'],
      },
      '_runtime.js': { file: 'assets/runtime-77.js' },
      'brand/logo.svg': { file: 'assets/logo-9Xa1.svg', src: 'brand/logo.svg' },
      // The text widget as a lazy chunk here, with a shared chunk of its own and one the entry loads.
      '../widgets/text/index.ts': {
        file: 'assets/text-b1.js',
        isDynamicEntry: true,
        imports: ['_Ripple.js', '_runtime.js'],
      },
      '_Ripple.js': { file: 'assets/Ripple-r2.js' },
      'shell/footer.tsx': { file: 'assets/footer-f4.js', isDynamicEntry: true, imports: ['_Ripple.js'] },
      'engine/interaction-code.ts': { file: 'assets/interaction-code-i5.js', isDynamicEntry: true },
      '../widgets/input/kinds.tsx': {
        file: 'assets/kinds-k6.js',
        isDynamicEntry: true,
        imports: ['_Ripple.js'],
      },
    }),
  );
  return dir;
}

/**
 * sign_up and login public, task not; login's button has no actions (breaks the button schema). Each
 * composition is counted.
 */
function catalogue(): ScreenCatalogue & { composed: () => number } {
  const defs: Record<string, boolean> = { sign_up: true, login: true, task: false, account: false };
  let count = 0;
  return {
    has: (id) => Object.hasOwn(defs, id),
    isPublic: (id) => defs[id] === true,
    ids: () => Object.keys(defs).sort(),
    compose: (id, ctx) => {
      count += 1;
      return {
        screen_id: id,
        schema_version: 1,
        title: `${id} ${ctx.locale}`,
        widget_list: [
          { id: 'country', widget_type: 'text', contents: { text: ctx.global_info.country_code } },
          { id: 'tricky', widget_type: 'text', contents: { text: '</script><!-- & "quotes"' } },
          ...(id === 'login' ? [{ id: 'b', widget_type: 'button', contents: { label: 'Go' } }] : []),
        ],
        // A screen that keeps the owner's unsaved values in the browser.
        ...(id === 'account'
          ? {
              form: {
                draft: {
                  endpoint: '/hms_ms/api/v1/account',
                  fields: ['a'],
                  version: 1,
                  version_field: 'v',
                  storage_key: 'k',
                },
              },
            }
          : {}),
      };
    },
    composed: () => count,
  };
}

/** The embedded first screen of an index.html answer, or null. */
function embeddedOf(html: string): EmbeddedScreen | null {
  const found = /<script type="application\/json" id="first-screen">(.*?)<\/script>/s.exec(html);
  return found ? (JSON.parse(found[1]!) as EmbeddedScreen) : null;
}

let app: FastifyInstance;
let screens: ReturnType<typeof catalogue>;
beforeAll(async () => {
  await sharedDatabase();
  screens = catalogue();
  app = await buildTestApp({ clientDir: builtClientDir(), screens });
});

describe('index.html with the first screen in it', () => {
  it('carries the payload GET /screens/:id answers, for the language of Accept-Language', async () => {
    const page = await app.inject({
      url: '/propertyOnboard/sign_up',
      headers: { 'accept-language': 'ar-EG,en;q=0.5' },
    });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(String(page.headers.vary)).toContain('accept-language');
    const embedded = embeddedOf(page.body);
    expect(embedded).toMatchObject({ screen_id: 'sign_up', locale: 'ar', country: null });
    const api = await app.inject({ url: '/hms_ms/api/v1/screens/sign_up', headers: { httpxoyolang: 'ar' } });
    expect(embedded!.payload).toEqual(api.json().data);
    // The page's own script is still there, after the root element.
    expect(page.body.indexOf('<div id="root"></div>')).toBeLessThan(page.body.indexOf('first-screen'));
    expect(page.body).toContain('src="/propertyOnboard/assets/index-3f9a1c.js"');
  });

  it("carries the client's texts of its language as GET /translations answers them; en-GB's are built in", async () => {
    const page = await app.inject({ url: '/propertyOnboard/sign_up', headers: { 'accept-language': 'de' } });
    const api = await app.inject({ url: '/hms_ms/api/v1/translations/de' });
    const { shell, widgets } = api.json().data.clientMessages;
    expect(embeddedOf(page.body)!.texts).toEqual({ shell, widgets });
    const english = await app.inject({
      url: '/propertyOnboard/sign_up',
      headers: { 'accept-language': 'en-GB' },
    });
    expect(embeddedOf(english.body)).not.toHaveProperty('texts');
  });

  it("is composed for the path's country, as the page asks with user_url_country", async () => {
    const page = await app.inject({ url: '/propertyOnboard/ae/sign_up' });
    const embedded = embeddedOf(page.body);
    expect(embedded).toMatchObject({ screen_id: 'sign_up', locale: 'en-GB', country: 'AE' });
    const api = await app.inject({
      url: '/hms_ms/api/v1/screens/sign_up',
      headers: { user_url_country: 'AE' },
    });
    expect(embedded!.payload).toEqual(api.json().data);
    // With the country's global info: the page does not ask for it before drawing (issue 13 item 4).
    const info = await app.inject({ url: '/hms_ms/api/v1/global_info', headers: { user_url_country: 'AE' } });
    expect(embedded!.global_info).toEqual(info.json().data);
    expect(embedded!.global_info).toMatchObject({ country_code: 'AE' });
  });

  it("names the brand's logo, drawn above the public pages, for preloading in the page's head", async () => {
    const page = await app.inject({ url: '/propertyOnboard/sign_up' });
    const head = page.body.slice(0, page.body.indexOf('</head>'));
    expect(head).toContain('<link rel="preload" as="image" href="/propertyOnboard/assets/logo-9Xa1.svg" />');
  });

  it('no text of a screen can close the element: every < is escaped, the JSON reads back the same', async () => {
    const page = await app.inject({ url: '/propertyOnboard/sign_up' });
    const element = page.body.slice(page.body.indexOf('id="first-screen">'));
    expect(element.slice(0, element.indexOf('</script>'))).not.toContain('<');
    const tricky = embeddedOf(page.body)!.payload.widget_list.find((w) => w.id === 'tricky');
    expect(tricky?.contents).toEqual({ text: '</script><!-- & "quotes"' });
  });

  it('is kept: the same page again is not composed again; its ETag answers 304; brotli when accepted', async () => {
    const first = await app.inject({ url: '/propertyOnboard/sign_up', headers: { 'accept-language': 'de' } });
    const count = screens.composed();
    const again = await app.inject({
      url: '/propertyOnboard/sign_up',
      headers: { 'accept-language': 'de', 'accept-encoding': 'br, gzip' },
    });
    expect(screens.composed()).toBe(count);
    expect(again.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(again.rawPayload).toString()).toBe(first.body);
    expect(again.headers.etag).toBe(first.headers.etag);
    const revalidated = await app.inject({
      url: '/propertyOnboard/sign_up',
      headers: { 'accept-language': 'de', 'if-none-match': first.headers.etag! },
    });
    expect(revalidated.statusCode).toBe(304);
  });

  it('is left out when the payload breaks a schema the renderer checks (the page fetches it as usual)', async () => {
    const page = await app.inject({ url: '/propertyOnboard/login' });
    expect(page.statusCode).toBe(200);
    expect(embeddedOf(page.body)).toBeNull();
    expect(page.body).toBe(indexHtml);
  });

  it('is left out for a page with a query, a page that needs a session, and a signed-in visitor', async () => {
    const withQuery = await app.inject({ url: '/propertyOnboard/sign_up?ref=x' });
    expect(embeddedOf(withQuery.body)).toBeNull();
    const signedInPage = await app.inject({ url: '/propertyOnboard/task' });
    expect(embeddedOf(signedInPage.body)).toBeNull();
    const cookie = await signInNewOwner(app);
    const signedIn = await app.inject({ url: '/propertyOnboard/sign_up', headers: { cookie } });
    expect(signedIn.statusCode).toBe(200);
    expect(embeddedOf(signedIn.body)).toBeNull();
  });
});

describe("a signed-in owner's page with its screen in it", () => {
  it('carries what GET /screens/:id answers them, for the query and language of the page; never kept', async () => {
    const cookie = await signInNewOwner(app);
    const page = await app.inject({
      url: '/propertyOnboard/task?utm_source=mail',
      headers: { cookie, 'accept-language': 'de' },
    });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers.etag).toBeUndefined();
    const embedded = embeddedOf(page.body);
    expect(embedded).toMatchObject({
      screen_id: 'task',
      locale: 'de',
      country: null,
      query: { utm_source: 'mail' },
    });
    const api = await app.inject({
      url: '/hms_ms/api/v1/screens/task?utm_source=mail',
      headers: { cookie, httpxoyolang: 'de' },
    });
    expect(embedded!.payload).toEqual(api.json().data);
    expect(embedded!.payload.title).toBe('task de');
    // A page that needs a session waits for global info before drawing: it comes with the screen.
    const info = await app.inject({ url: '/hms_ms/api/v1/global_info' });
    expect(embedded!.global_info).toEqual(info.json().data);
    // The logo is drawn on public pages only: not preloaded here.
    expect(page.body).not.toContain('rel="preload"');
  });

  it("is left out for a property that is not the owner's: the page asks, and shows the answer's error", async () => {
    const cookie = await signInNewOwner(app);
    const url = '?property_unique_id=PNOTTHEIRS01';
    const page = await app.inject({ url: `/propertyOnboard/task${url}`, headers: { cookie } });
    expect(page.statusCode).toBe(200);
    expect(embeddedOf(page.body)).toBeNull();
    const api = await app.inject({ url: `/hms_ms/api/v1/screens/task${url}`, headers: { cookie } });
    expect(api.statusCode).toBe(404);
    expect(api.json<{ error: { code: string } }>().error.code).toBe('ONB_LEAD_NOT_FOUND');
  });

  it('is left out for a PropertyManager: the checklist is not theirs to see (SPEC §6), the page shows not found', async () => {
    const cookie = await signInNewOwner(app);
    await makePropertyManager(app, cookie);
    const page = await app.inject({ url: '/propertyOnboard/task', headers: { cookie } });
    expect(page.statusCode).toBe(200);
    expect(embeddedOf(page.body)).toBeNull();
    expect(page.body).toContain('<div id="root"></div>');
    const api = await app.inject({ url: '/hms_ms/api/v1/screens/task', headers: { cookie } });
    expect(api.statusCode).toBe(403);
    expect(api.json<{ error: { code: string } }>().error.code).toBe('ONB_ROLE_FORBIDDEN');
  });
});

describe('localeOfAcceptLanguage', () => {
  it('takes the first supported language by preference, as the browser maps navigator.languages', () => {
    expect(localeOfAcceptLanguage('fr-CA;q=0.4, de;q=0.9')).toBe('de');
    expect(localeOfAcceptLanguage('xx, pt-BR;q=0.8')).toBe('pt');
    expect(localeOfAcceptLanguage('es-419')).toBe('es-MX');
    expect(localeOfAcceptLanguage('ar;q=0, en-US')).toBe('en-GB');
    expect(localeOfAcceptLanguage(undefined)).toBe('en-GB');
    expect(localeOfAcceptLanguage('*')).toBe('en-GB');
  });
});

describe('embedFirstScreen', () => {
  it('needs the root element', () => {
    const embedded = {
      screen_id: 'sign_up',
      locale: 'en-GB' as const,
      country: null,
      payload: { screen_id: 'sign_up', schema_version: 1 as const, widget_list: [] },
    };
    expect(embedFirstScreen('<html><body></body></html>', embedded)).toBeNull();
    expect(embedFirstScreen(indexHtml, embedded)).toContain('id="first-screen"');
  });
});

describe('lazyCodeFiles and withPreloadedCode', () => {
  it("name a lazy widget's and the footer's chunks and those they import that the entry does not load", () => {
    const files = lazyCodeFiles(builtClientDir());
    expect([...files.widgets]).toEqual([
      ['text', ['/propertyOnboard/assets/text-b1.js', '/propertyOnboard/assets/Ripple-r2.js']],
    ]);
    expect(files.footer).toEqual([
      '/propertyOnboard/assets/footer-f4.js',
      '/propertyOnboard/assets/Ripple-r2.js',
    ]);
    const payload = {
      screen_id: 's',
      schema_version: 1,
      widget_list: [
        { id: 'b', widget_type: 'button', contents: { label: 'Go' } },
        { id: 't1', widget_type: 'text', contents: { text: 'x' } },
        { id: 't2', widget_type: 'text', contents: { text: 'y' } },
      ],
    } as unknown as ScreenPayload;
    expect(withPreloadedCode('<head></head>', payload, files)).toBe(
      '<head><link rel="modulepreload" href="/propertyOnboard/assets/text-b1.js" data-widget-type="text" />' +
        '<link rel="modulepreload" href="/propertyOnboard/assets/Ripple-r2.js" /></head>',
    );
    expect(withPreloadedCode('<head></head>', { ...payload, widget_list: [] }, files, true)).toBe(
      '<head><link rel="modulepreload" href="/propertyOnboard/assets/footer-f4.js" data-shell-part="footer" />' +
        '<link rel="modulepreload" href="/propertyOnboard/assets/Ripple-r2.js" /></head>',
    );
    expect(withPreloadedCode('<head></head>', { ...payload, widget_list: [] }, files)).toBe('<head></head>');
    // A chunk that a widget imports and that is also the footer's own (chunks grouped by the build) is named
    // once, with the footer's attribute: the renderer still finds the footer's first try.
    const shared = { ...files, footer: ['/propertyOnboard/assets/Ripple-r2.js'] };
    expect(withPreloadedCode('<head></head>', payload, shared, true)).toBe(
      '<head><link rel="modulepreload" href="/propertyOnboard/assets/text-b1.js" data-widget-type="text" />' +
        '<link rel="modulepreload" href="/propertyOnboard/assets/Ripple-r2.js" data-shell-part="footer" /></head>',
    );
    // A number field needs the input's lazily loaded kinds (CONTENTS_CODE); a phone field does not.
    expect(files.contents.get('widgets/input/kinds.tsx')).toEqual([
      '/propertyOnboard/assets/kinds-k6.js',
      '/propertyOnboard/assets/Ripple-r2.js',
    ]);
    const fields = (kind: string) =>
      ({
        ...payload,
        widget_list: [{ id: 'f', widget_type: 'input', contents: { field: 'f', kind, label: 'F' } }],
      }) as unknown as ScreenPayload;
    expect(withPreloadedCode('<head></head>', fields('number'), files)).toBe(
      '<head><link rel="modulepreload" href="/propertyOnboard/assets/kinds-k6.js" data-contents-code="widgets/input/kinds.tsx" />' +
        '<link rel="modulepreload" href="/propertyOnboard/assets/Ripple-r2.js" /></head>',
    );
    expect(withPreloadedCode('<head></head>', fields('phone'), files)).toBe('<head></head>');
    // A screen that saves drafts needs the draft saver (the engine's interaction code) before it is drawn.
    expect(files.interaction).toEqual(['/propertyOnboard/assets/interaction-code-i5.js']);
    const drafts = {
      ...payload,
      widget_list: [],
      form: {
        initial: {},
        draft: { endpoint: '/x', fields: ['a'], version: 1, version_field: 'v', storage_key: 'k' },
      },
    } as unknown as ScreenPayload;
    expect(withPreloadedCode('<head></head>', drafts, files)).toBe(
      '<head><link rel="modulepreload" href="/propertyOnboard/assets/interaction-code-i5.js" data-shell-part="interaction" /></head>',
    );
  });

  it('a page that carries its screen names the code of its lazy widgets and of a footer it shows', async () => {
    const link =
      '<link rel="modulepreload" href="/propertyOnboard/assets/text-b1.js" data-widget-type="text" />';
    const footer = 'data-shell-part="footer"';
    const head = (body: string) => body.slice(0, body.indexOf('</head>'));
    const signUp = await app.inject({ url: '/propertyOnboard/sign_up' });
    expect(head(signUp.body)).toContain(link);
    expect(signUp.body).not.toContain(footer);
    const cookie = await signInNewOwner(app);
    // The checklist (task) shows the footer tabs.
    const task = await app.inject({ url: '/propertyOnboard/task', headers: { cookie } });
    expect(embeddedOf(task.body)).not.toBeNull();
    expect(head(task.body)).toContain(link);
    expect(head(task.body)).toContain(footer);
    const withQuery = await app.inject({ url: '/propertyOnboard/sign_up?ref=x' });
    expect(withQuery.body).not.toContain('modulepreload');
  });
});

describe('brandLogoPath and withPreloadedImage', () => {
  it("read the logo's built file from the Vite manifest, and add the preload at the end of the head", () => {
    expect(brandLogoPath(builtClientDir())).toBe('/propertyOnboard/assets/logo-9Xa1.svg');
    expect(brandLogoPath(mkdtempSync(join(tmpdir(), 'no-manifest-')))).toBeNull();
    expect(withPreloadedImage('<html><head><title>x</title></head><body></body></html>', '/a.svg')).toBe(
      '<html><head><title>x</title><link rel="preload" as="image" href="/a.svg" /></head><body></body></html>',
    );
    expect(withPreloadedImage('<p>no head</p>', '/a.svg')).toBe('<p>no head</p>');
  });
});

describe('the first screen drawn on the server (issue 13 item 4)', () => {
  const calls: { url: string; embedded: EmbeddedScreen }[] = [];
  let drawing: FastifyInstance;
  beforeAll(async () => {
    // A drawing as renderer/server-render.tsx's: en-GB only.
    const drawFirstScreen: DrawFirstScreen = async (url, embedded) => {
      calls.push({ url, embedded });
      if (embedded.locale !== 'en-GB') return null;
      return {
        html: `<main data-screen-id="${embedded.screen_id}">${embedded.payload.title}</main>`,
        head: '<style data-emotion="mui abc">.mui-abc{color:red}</style>',
      };
    };
    drawing = await buildTestApp({
      clientDir: builtClientDir(),
      screens: {
        ...catalogue(),
        has: (id) => id === 'sign_up' || id === 'task' || id === 'dashboard' || id === 'account',
        isPublic: (id) => id === 'sign_up',
      },
      drawFirstScreen,
    });
  });

  it('puts its markup in the root element, marked with its locale, and its styles in the head; drawn once', async () => {
    const first = await drawing.inject({ url: '/propertyOnboard/sign_up' });
    expect(first.statusCode).toBe(200);
    expect(first.body).toContain(
      '<div id="root" data-server-drawn="en-GB"><main data-screen-id="sign_up">sign_up en-GB</main></div>',
    );
    const head = first.body.slice(0, first.body.indexOf('</head>'));
    expect(head).toContain('<style data-emotion="mui abc">.mui-abc{color:red}</style>');
    // The screen drawn is the one the page carries, which the browser hydrates with.
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe('/propertyOnboard/sign_up');
    expect(calls[0]!.embedded).toEqual(embeddedOf(first.body));
    const again = await drawing.inject({ url: '/propertyOnboard/sign_up' });
    expect(again.body).toBe(first.body);
    expect(calls).toHaveLength(1);
  });

  it('leaves the root element empty when it does not draw the page (another language)', async () => {
    const page = await drawing.inject({
      url: '/propertyOnboard/sign_up',
      headers: { 'accept-language': 'de' },
    });
    expect(page.statusCode).toBe(200);
    expect(embeddedOf(page.body)).toMatchObject({ screen_id: 'sign_up', locale: 'de' });
    expect(page.body).toContain('<div id="root"></div>');
    expect(page.body).not.toContain('data-server-drawn');
  });

  it('is not asked for a page without an embedded screen', async () => {
    const before = calls.length;
    await drawing.inject({ url: '/propertyOnboard/sign_up?ref=x' });
    expect(calls.length).toBe(before);
  });

  it("draws a signed-in owner's checklist and dashboard for each request, with the screen each carries; not their other pages", async () => {
    const cookie = await signInNewOwner(drawing);
    const before = calls.length;
    const task = await drawing.inject({
      url: '/propertyOnboard/task',
      headers: { cookie },
    });
    expect(task.body).toContain(
      '<div id="root" data-server-drawn="en-GB"><main data-screen-id="task">task en-GB</main></div>',
    );
    expect(calls.slice(before)).toHaveLength(1);
    expect(calls.at(-1)!.url).toBe('/propertyOnboard/task');
    expect(calls.at(-1)!.embedded).toEqual(embeddedOf(task.body));
    await drawing.inject({ url: '/propertyOnboard/task', headers: { cookie } });
    expect(calls.slice(before)).toHaveLength(2);
    const dashboard = await drawing.inject({ url: '/propertyOnboard/dashboard', headers: { cookie } });
    expect(dashboard.body).toContain(
      '<div id="root" data-server-drawn="en-GB"><main data-screen-id="dashboard">dashboard en-GB</main></div>',
    );
    expect(calls.slice(before)).toHaveLength(3);
    expect(calls.at(-1)!.url).toBe('/propertyOnboard/dashboard');
    expect(calls.at(-1)!.embedded).toEqual(embeddedOf(dashboard.body));
    // Another signed-in page (here one whose screen keeps drafts) is left to the browser.
    const account = await drawing.inject({ url: '/propertyOnboard/account', headers: { cookie } });
    expect(embeddedOf(account.body)).toMatchObject({ screen_id: 'account' });
    expect(account.body).toContain('<div id="root"></div>');
    expect(calls.slice(before)).toHaveLength(3);
  });
});

describe('a drawing that does not come', () => {
  it('is not waited for past the limit: the page is sent as the browser draws it', async () => {
    const app = await buildTestApp({
      clientDir: builtClientDir(),
      screens: catalogue(),
      drawFirstScreen: () => new Promise(() => undefined),
      drawingLimitMs: 50,
    });
    const page = await app.inject({ url: '/propertyOnboard/sign_up' });
    expect(page.statusCode).toBe(200);
    expect(embeddedOf(page.body)).toMatchObject({ screen_id: 'sign_up', locale: 'en-GB' });
    expect(page.body).toContain('<div id="root"></div>');
  });
});

describe('a drawing that fails', () => {
  it('is logged and the page is sent as the browser draws it: its screen embedded, the root element empty', async () => {
    const app = await buildTestApp({
      clientDir: builtClientDir(),
      screens: catalogue(),
      drawFirstScreen: () => Promise.reject(new Error('cannot draw')),
    });
    const page = await app.inject({ url: '/propertyOnboard/sign_up' });
    expect(page.statusCode).toBe(200);
    expect(embeddedOf(page.body)).toMatchObject({ screen_id: 'sign_up', locale: 'en-GB' });
    expect(page.body).toContain('<div id="root"></div>');
  });
});

describe('embedFirstScreen', () => {
  it("writes the screen's language and direction on the page's <html>", () => {
    const page =
      '<!doctype html>\n<html lang="en-GB" dir="ltr"><head></head><body><div id="root"></div></body></html>';
    const screen = {
      screen_id: 'sign_up',
      country: null,
      payload: { screen_id: 'sign_up', widget_list: [] },
    };
    const arabic = embedFirstScreen(page, { ...screen, locale: 'ar' } as unknown as EmbeddedScreen)!;
    expect(arabic.startsWith('<!doctype html>\n<html lang="ar" dir="rtl"><head>')).toBe(true);
    const german = embedFirstScreen(page, { ...screen, locale: 'de' } as unknown as EmbeddedScreen)!;
    expect(german.startsWith('<!doctype html>\n<html lang="de" dir="ltr"><head>')).toBe(true);
  });
});

describe('withServerDrawing', () => {
  const page =
    '<html><head><link rel="preload" as="image" href="/a/logo.svg" /></head><body><div id="root"></div></body></html>';

  it('puts the markup in the root element and what goes to the head at its end, naming nothing twice', () => {
    const html = withServerDrawing(
      page,
      {
        html: '<main>hi</main>',
        head: '<link rel="preload" as="image" href="/a/logo.svg"/><link rel="preload" as="image" href="/a/b.png"/><style data-emotion="mui x">.mui-x{}</style>',
      },
      'en-GB',
    );
    expect(html).toBe(
      '<html><head><link rel="preload" as="image" href="/a/logo.svg" /><link rel="preload" as="image" href="/a/b.png"/>' +
        '<style data-emotion="mui x">.mui-x{}</style></head>' +
        '<body><div id="root" data-server-drawn="en-GB"><main>hi</main></div></body></html>',
    );
  });

  it('is null for a page without an empty root element', () => {
    expect(
      withServerDrawing('<html><head></head><body></body></html>', { html: 'x', head: '' }, 'en-GB'),
    ).toBeNull();
  });
});
