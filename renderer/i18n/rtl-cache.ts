import createCache, { type EmotionCache } from '@emotion/cache';
import { prefixer } from 'stylis';
import rtlPlugin from 'stylis-plugin-rtl';

/**
 * Emotion cache for right-to-left pages: stylis-plugin-rtl (with cssjanus) flips every style (SPEC §1
 * Arabic). A module of its own, loaded only for a right-to-left language (renderer/i18n/direction.ts
 * `loadRtlCache`): ≈2 KB gzip that left-to-right pages do not carry (issue 13).
 */
export const rtlCache: EmotionCache = createRtlCache();

/**
 * A new right-to-left emotion cache, as {@link rtlCache} (key `muirtl`): the server draws each right-to-left
 * page with one of its own (renderer/server-render.tsx), whose `<style data-emotion="muirtl …">` elements the
 * page's {@link rtlCache} takes over.
 */
export function createRtlCache(): EmotionCache {
  return createCache({ key: 'muirtl', stylisPlugins: [prefixer, rtlPlugin] });
}
