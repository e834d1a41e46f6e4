import createCache, { type EmotionCache } from '@emotion/cache';
import type { Locale } from '../../schemas/generated/types';
import { retryImport } from '../../widgets/retry-import';
import { directionOf, type Direction } from './languages';

/** The right-to-left emotion cache once loaded ({@link loadRtlCache}). */
let rtlCache: EmotionCache | null = null;
let rtlLoading: Promise<EmotionCache> | null = null;

/**
 * Loads the emotion cache for right-to-left pages (renderer/i18n/rtl-cache.ts: stylis-plugin-rtl flips every
 * style, SPEC §1 Arabic), once, retrying the module as other lazy modules are (SPEC §4). The app waits for it
 * before its first render in a right-to-left language; a switch to one draws left to right until it is
 * loaded, then flips the page and `<html dir>` together.
 * Rejects when every try failed (the page is then drawn with the left-to-right styles).
 */
export function loadRtlCache(): Promise<EmotionCache> {
  rtlLoading ??= retryImport(() => import('./rtl-cache')).then(
    (module) => (rtlCache = module.rtlCache),
    (error: unknown) => {
      rtlLoading = null;
      throw error;
    },
  );
  return rtlLoading;
}

/**
 * The key of the left-to-right emotion cache: its class names and `<style data-emotion="mui …">` elements. A
 * page the server drew (renderer/server-render.tsx) carries its styles under this key, which the cache takes
 * over when it is created instead of inserting them again.
 */
export const EMOTION_KEY = 'mui';

/**
 * Emotion cache for left-to-right pages, with emotion's default plugins (its own vendor prefixer). Naming
 * stylis's `prefixer` here instead brought a second copy of stylis into the sign-in route (≈2 KB gzip,
 * issue 13 item 2); the right-to-left cache, a chunk of its own, still needs it beside its plugin.
 */
export const ltrCache: EmotionCache = createCache({ key: EMOTION_KEY });

/**
 * The emotion cache matching a direction; for 'rtl', the right-to-left cache once {@link loadRtlCache} has
 * loaded it (the left-to-right one until then).
 */
export function cacheFor(direction: Direction): EmotionCache {
  return direction === 'rtl' && rtlCache ? rtlCache : ltrCache;
}

/** Whether a locale can be drawn now: left to right, or right to left with its cache loaded. */
export function directionReady(locale: Locale): boolean {
  return directionOf(locale) === 'ltr' || rtlCache !== null;
}

/**
 * Sets `<html lang dir>` for a locale (dir="rtl" for Arabic once its styles are loaded, see
 * {@link loadRtlCache}; "ltr" until then, like the page). No-op outside a browser.
 */
export function applyDocumentLanguage(locale: Locale): void {
  if (typeof document === 'undefined') return;
  document.documentElement.lang = locale;
  document.documentElement.dir = directionReady(locale) ? directionOf(locale) : 'ltr';
}
