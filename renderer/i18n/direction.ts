import createCache, { type EmotionCache } from '@emotion/cache';
import { prefixer } from 'stylis';
import rtlPlugin from 'stylis-plugin-rtl';
import type { Locale } from '../../schemas/generated/types';
import { directionOf, type Direction } from './languages';

/** Emotion cache for right-to-left pages: stylis-plugin-rtl flips every style (SPEC §1 Arabic). */
export const rtlCache: EmotionCache = createCache({ key: 'muirtl', stylisPlugins: [prefixer, rtlPlugin] });

/** Emotion cache for left-to-right pages. */
export const ltrCache: EmotionCache = createCache({ key: 'mui', stylisPlugins: [prefixer] });

/** The emotion cache matching a direction. */
export function cacheFor(direction: Direction): EmotionCache {
  return direction === 'rtl' ? rtlCache : ltrCache;
}

/** Sets `<html lang dir>` for a locale (dir="rtl" for Arabic). No-op outside a browser. */
export function applyDocumentLanguage(locale: Locale): void {
  if (typeof document === 'undefined') return;
  document.documentElement.lang = locale;
  document.documentElement.dir = directionOf(locale);
}
