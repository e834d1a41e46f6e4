import createCache, { type EmotionCache } from '@emotion/cache';
import { prefixer } from 'stylis';
import rtlPlugin from 'stylis-plugin-rtl';

/**
 * Emotion cache for right-to-left pages: stylis-plugin-rtl (with cssjanus) flips every style (SPEC §1
 * Arabic). A module of its own, loaded only for a right-to-left language (renderer/i18n/direction.ts
 * `loadRtlCache`): ≈2 KB gzip that left-to-right pages do not carry (issue 13).
 */
export const rtlCache: EmotionCache = createCache({ key: 'muirtl', stylisPlugins: [prefixer, rtlPlugin] });
