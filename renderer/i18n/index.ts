/**
 * renderer/i18n: i18next + react-i18next with the 19 locales of SPEC §1, default and fallback en-GB, RTL for
 * Arabic (emotion cache with stylis-plugin-rtl, `<html dir="rtl">`).
 */
export { i18n, detectLanguage, currentLocale, BUILT_IN_MESSAGES } from './instance';
export {
  LOCALES,
  DEFAULT_LOCALE,
  directionOf,
  isLocale,
  mapBrowserLanguage,
  preferredBrowserLocale,
} from './languages';
export type { Direction } from './languages';
export { loadRtlCache, ltrCache, cacheFor, applyDocumentLanguage } from './direction';
export { loadTranslations, setLanguage } from './translations';
export type { ClientMessages } from './translations';
