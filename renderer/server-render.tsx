import createCache from '@emotion/cache';
import createEmotionServer from '@emotion/server/create-instance';
import { createStore } from 'jotai';
import type { ReactNode } from 'react';
// The browser build of React's static renderer, not its Node build: the Node build runs each drawing inside an
// AsyncLocalStorage, which turns Node's async hooks on for the rest of the process on its first page, and every
// later request of every route then pays an init hook per promise and tick (a CPU profile of the sign-up screen
// after the bench's Lighthouse phase: `emitInitScript` under every tick, `nextTick` 7 % self; the throughput lost
// there is not all from this). This build keeps its request in a variable while it works, and gives the markup as
// a web ReadableStream of bytes.
import { prerender } from 'react-dom/static.browser';
import { StaticRouter } from 'react-router';
import { DEFAULT_LOCALE, directionOf } from '../schemas/app/languages';
import { parseAppPath } from '../schemas/app/routes';
import {
  DRAWING_LIMIT_MS,
  type DrawFirstScreen,
  type EmbeddedScreen,
  type ServerDrawnScreen,
} from '../schemas/app/first-screen';
import { provideRegionNames } from '../widgets/input/phone-field';
import { forgetPrimedRequests } from './engine/screen';
import { App } from './shell/app';
import type { DesktopProbe } from './shell/desktop-gate';
import { primeFirstScreen } from './shell/first-screen';
import { EMOTION_KEY, loadRtlCache } from './i18n/direction';
import { i18n } from './i18n/instance';
import { globalInfoAtom, globalInfoSettledAtom, loggedInAtom } from './state/atoms';

/** A phone, as the server draws every page (a desktop browser then draws its own, renderer/main.tsx). */
const PHONE = (): DesktopProbe => ({ width: 0, userAgent: 'Mobi', uaMobile: true });

/**
 * Draws the app at `url` (a path with its query, `/propertyOnboard/sign_up`) as a visitor of `embedded.locale`
 * sees it on a phone (signed out, or signed in on the checklist or the dashboard, pages that need a session), with `embedded`
 * (the first screen the server puts in the same page, schemas/app/first-screen.ts) as its screen, its global info
 * and its countries' names, exactly as the browser draws it first from the same page. Lazy widgets are awaited
 * (their modules are this bundle's chunks), so the markup is the screen, never its skeleton.
 *
 * A language is drawn with the texts the client draws its first screen with: en-GB's built in
 * (renderer/i18n/instance.ts), another's those the page carries (`embedded.texts`), so that both draw the same;
 * Arabic with the right-to-left styles (a cache of key `muirtl`, renderer/i18n/rtl-cache.ts), which the client
 * loads before it draws. A language without its texts is left to the client: resolves null then, or when the
 * url is not a route whose screen is `embedded`'s.
 * Rejects when React cannot draw it (the page is then sent without markup, as before).
 *
 * One drawing at a time: the engine keeps the primed screen requests and the countries' names in modules
 * (renderer/engine/screen.tsx, widgets/input/phone-field.tsx), as a browser's one page does. A public page is
 * drawn once and then kept by the server (bff/plugins/external/static.ts); a signed-in owner's checklist or
 * dashboard is drawn for each request (≈25–50 ms), so pages loaded at once wait for each other. A drawing not done
 * within DRAWING_LIMIT_MS, when the server no longer waits for it, is given up ({@link oneAtATime}): the next one
 * starts then.
 */
export const renderFirstScreen: DrawFirstScreen = (url, embedded) => drawInTurn(url, embedded);

/**
 * `draw` made to run one call at a time, each given at most `limitMs` (ms): a call starts once the one before it
 * has settled or has had its `limitMs`, whichever comes first, and its `draw` gets a signal that aborts when its
 * own `limitMs` have passed. So a drawing stuck anywhere (a widget's code that never loads, a render that never
 * ends) holds the next one back by `limitMs` at most, and learns from its signal that nobody waits for it any
 * more. Each call resolves or rejects as its `draw` does.
 */
export function oneAtATime<A extends unknown[], R>(
  draw: (signal: AbortSignal, ...args: A) => Promise<R>,
  limitMs: number,
): (...args: A) => Promise<R> {
  /** When the next call may start: the last call begun has settled, or its time is up. */
  let free: Promise<void> = Promise.resolve();
  return (...args) => {
    const turn = free.then(() => {
      const signal = AbortSignal.timeout(limitMs);
      const drawing = draw(signal, ...args);
      const over = new Promise<void>((resolve) => {
        drawing.then(
          () => resolve(),
          () => resolve(),
        );
        signal.addEventListener('abort', () => resolve(), { once: true });
      });
      return { drawing, over };
    });
    free = turn.then(({ over }) => over);
    return turn.then(({ drawing }) => drawing);
  };
}

/**
 * One drawing at a time (the engine's primed requests, the countries' names and i18next's language are the
 * module's), each given up after DRAWING_LIMIT_MS, when the server stops waiting for it.
 */
const drawInTurn = oneAtATime(draw, DRAWING_LIMIT_MS);

async function draw(
  signal: AbortSignal,
  url: string,
  embedded: EmbeddedScreen,
): Promise<ServerDrawnScreen | null> {
  try {
    return await drawOnce(signal, url, embedded);
  } finally {
    // The screen's request primed for this page (renderer/engine/screen.tsx): a browser's screen takes it in an
    // effect, which a drawing never runs. A drawing given up leaves that to the next one, which may be drawing
    // now from a request it primed itself (and forgets every request primed once it is done).
    if (!signal.aborted) forgetPrimedRequests();
  }
}

async function drawOnce(
  signal: AbortSignal,
  url: string,
  embedded: EmbeddedScreen,
): Promise<ServerDrawnScreen | null> {
  const { locale, texts } = embedded;
  if (locale !== DEFAULT_LOCALE && !texts) return null;
  const rtl = directionOf(locale) === 'rtl';
  // Right to left (Arabic): the app takes the right-to-left styles once they are loaded, as in the browser,
  // which loads them before its first draw (renderer/main.tsx).
  const rtlModule = rtl ? await import('./i18n/rtl-cache') : null;
  if (rtlModule) await loadRtlCache();
  // The module's one i18next instance, as the page's: the built-in en-GB texts, and those the page carries for
  // its language (renderer/main.tsx adds the same before its first draw). Its language is set for each drawing
  // (in Node it detected one at start from no storage and maybe a `navigator` with the machine's language).
  if (texts) i18n.addResourceBundle(locale, 'translation', texts, true, true);
  if (i18n.language !== locale) await i18n.changeLanguage(locale);
  const [pathname = '', search = ''] = url.split('?');
  const store = createStore();
  // A page that needs a session carries its screen only for a signed-in owner (bff/plugins/external/static.ts),
  // whose browser believes it is signed in (the `isLoggedIn` cookie the sign-in set).
  const parsed = parseAppPath(pathname);
  if (parsed.kind === 'route' && !parsed.route.public) store.set(loggedInAtom, true);
  if (embedded.global_info) {
    store.set(globalInfoAtom, embedded.global_info);
    store.set(globalInfoSettledAtom, true);
  }
  if (embedded.regions) provideRegionNames(locale, embedded.regions);
  const primed = primeFirstScreen(store, { pathname, search: search ? `?${search}` : '' }, locale, embedded);
  if (!primed?.embedded) return null;
  await primed.code;
  // Its code came after the server stopped waiting: another page's drawing may have begun meanwhile.
  if (signal.aborted) return null;
  // A cache of this drawing alone: every style it inserts is one of this markup's. In emotion's server mode
  // (`compat`), styles are collected in the cache instead of written beside each element.
  const cache = rtlModule ? rtlModule.createRtlCache() : createCache({ key: EMOTION_KEY });
  const emotion = createEmotionServer(cache);
  const router = ({ children }: { children: ReactNode }) => (
    <StaticRouter location={url}>{children}</StaticRouter>
  );
  // Given up when the server stops waiting for it (DRAWING_LIMIT_MS from the drawing's start).
  const { prelude } = await prerender(
    <App store={store} emotionCache={cache} router={router} probe={PHONE} serverDrawn />,
    { signal },
  );
  let markup = '';
  const decoder = new TextDecoder();
  const reader = prelude.getReader();
  for (let r = await reader.read(); !r.done; r = await reader.read()) {
    markup += decoder.decode(r.value, { stream: true });
  }
  markup += decoder.decode();
  // React puts what it hoists (`<link rel="preload">` of the logo) before the markup when the tree has no
  // <head> of its own: it belongs to the page's head.
  const hoisted = /^(?:<link\b[^>]*\/?>)+/.exec(markup)?.[0] ?? '';
  const html = markup.slice(hoisted.length);
  const styles = emotion.constructStyleTagsFromChunks(emotion.extractCriticalToChunks(html));
  return { html, head: `${hoisted}${styles}` };
}
