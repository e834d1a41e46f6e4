import type { GlobalInfo, Locale, ScreenPayload } from '../generated/types';

/** Id of the `<script type="application/json">` element that carries the first screen in index.html. */
export const FIRST_SCREEN_ELEMENT_ID = 'first-screen';

/**
 * The first screen as the server puts it in index.html (bff/plugins/external/static.ts, issue 13): the
 * payload GET /hms_ms/api/v1/screens/:screen_id answers for `locale`, `country` (the `user_url_country`
 * header the page sends, upper case; null for a path without a country) and `query`: without a session and
 * without a query on a public page, or for the signed-in owner on a page that needs a session.
 * The server puts it there only when it passes every check the renderer makes (the `screen` schema and each
 * widget's contents schema), so the renderer draws it without loading the validators.
 */
export interface EmbeddedScreen {
  screen_id: string;
  locale: Locale;
  country: string | null;
  payload: ScreenPayload;
  /**
   * The page's query the payload was composed with (a signed-in page: e.g. `property_unique_id`); absent
   * for a public page, which is embedded only without a query.
   */
  query?: Record<string, string>;
  /**
   * When the screen has a phone field: every country of its country box (schemas/app/calling-codes.ts) as
   * `[ISO 3166-1 alpha-2, name in locale]`, in the locale's collation order, as the browser's
   * `Intl.DisplayNames` and `Intl.Collator` would give them. The box is drawn from these without the
   * browser's first `Intl.DisplayNames`, which costs ≈45 ms of one task on a phone (issue 13 item 4).
   */
  regions?: [string, string][];
  /**
   * What GET /hms_ms/api/v1/global_info answers for `country` (SPEC §3, §7): the same for everyone of the
   * country, so the page need not ask for it before its first draw. A page that needs a session waits for
   * global info before drawing (renderer/shell/access.ts), so without it the request was on the way of the
   * first screen; a public page asked for it while drawing (issue 13 item 4: Lighthouse counts every request
   * made before the largest paint).
   */
  global_info?: GlobalInfo;
  /**
   * The texts of `locale` the client draws from itself ({@link CLIENT_TEXT_AREAS}), as GET
   * /hms_ms/api/v1/translations/:language answers them; absent for en-GB, which the client carries built in.
   * The page's first draw is in its language without a request for them (issue 13 item 4), and the server
   * draws the page with the same texts (renderer/server-render.tsx).
   */
  texts?: Record<string, unknown>;
}

/**
 * The areas of the translations the client draws from itself (its built-in en-GB texts: renderer/i18n
 * `CLIENT_AREAS`); `screens` come composed in the payloads, `errors` translated in the server's answers.
 */
export const CLIENT_TEXT_AREAS: readonly string[] = ['shell', 'widgets'];

/**
 * The first screen drawn on the server (renderer/server-render.tsx, issue 13 item 4): `html` goes inside the
 * page's root element, `head` (the markup's styles as `<style data-emotion>` elements, and what React hoists,
 * such as the logo's preload) at the end of its `<head>`.
 */
export interface ServerDrawnScreen {
  html: string;
  head: string;
}

/**
 * Draws the page at `url` (path and query) with `embedded` as its first screen; null when that page is not
 * drawn on the server (see renderer/server-render.tsx `renderFirstScreen`). Rejects when React cannot draw it.
 */
export type DrawFirstScreen = (url: string, embedded: EmbeddedScreen) => Promise<ServerDrawnScreen | null>;

/**
 * The longest the server waits for its drawing of a page's first screen, in ms (ours; issue 13 item 4): a first
 * drawing of a process took 0.5 s, later ones 20–50 ms. One that has not come by then (a loaded machine, a
 * drawing stuck) is not waited for (bff/plugins/external/static.ts: the page goes out as the browser alone draws
 * it), and is given up (renderer/server-render.tsx: the next drawing starts, React's prerender is aborted), so that
 * the next page's drawing does not wait behind it.
 */
export const DRAWING_LIMIT_MS = 5000;

/**
 * The attribute of the root element of a page drawn on the server (`data-server-drawn`): the locale it was
 * drawn in. The browser hydrates that markup only when it starts in the same locale, else draws afresh.
 */
export const SERVER_DRAWN_ATTRIBUTE = 'data-server-drawn';
