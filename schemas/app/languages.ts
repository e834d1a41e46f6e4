/**
 * The languages of the app (SPEC §1): supported locales, their writing direction, and how a browser's
 * languages map to them. Pure TypeScript, shared by the client (renderer/i18n/languages.ts) and the BFF
 * (the language of a first screen put in index.html, bff/plugins/external/static.ts).
 */
import type { Locale } from '../generated/types';

/** Writing direction of each supported locale (SPEC §1: Arabic is right to left). Typed so a new Locale must be added here. */
const DIRECTIONS = {
  'en-GB': 'ltr',
  id: 'ltr',
  zh: 'ltr',
  vi: 'ltr',
  th: 'ltr',
  pt: 'ltr',
  nl: 'ltr',
  ja: 'ltr',
  it: 'ltr',
  hi: 'ltr',
  'fr-FR': 'ltr',
  'fr-CA': 'ltr',
  'es-MX': 'ltr',
  'es-ES': 'ltr',
  de: 'ltr',
  ar: 'rtl',
  el: 'ltr',
  hr: 'ltr',
  pl: 'ltr',
} as const satisfies Record<Locale, 'ltr' | 'rtl'>;

/** The 19 supported locales of SPEC §1, in the order of the schema. */
export const LOCALES = Object.keys(DIRECTIONS) as Locale[];

/** Default and fallback locale (SPEC §1, §9). */
export const DEFAULT_LOCALE: Locale = 'en-GB';

/** Writing direction of a text in this locale. */
export type Direction = 'ltr' | 'rtl';

/** 'rtl' for Arabic, 'ltr' for the rest (SPEC §1). */
export function directionOf(locale: Locale): Direction {
  return DIRECTIONS[locale];
}

/** True when `value` is one of the 19 supported locale codes (exact spelling). */
export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && Object.hasOwn(DIRECTIONS, value);
}

/** Which locale a bare language (primary subtag) maps to when no exact match exists. */
const BY_LANGUAGE: Record<string, Locale> = {
  en: 'en-GB',
  fr: 'fr-FR',
  es: 'es-ES',
  pt: 'pt',
  zh: 'zh',
  ar: 'ar',
  id: 'id',
  in: 'id',
  ms: 'id',
  vi: 'vi',
  th: 'th',
  nl: 'nl',
  ja: 'ja',
  it: 'it',
  hi: 'hi',
  de: 'de',
  el: 'el',
  hr: 'hr',
  pl: 'pl',
};

/**
 * Maps a browser language tag (BCP 47, e.g. 'ar-EG', 'fr', 'es-419', 'zh-Hant-TW') to a supported locale, or
 * null. Exact matches win case-insensitively (fr-ca → fr-CA); Latin-American Spanish goes to es-MX; any other
 * region of a language goes to that language's locale (ar-EG → ar, pt-BR → pt, en-US → en-GB).
 */
export function mapBrowserLanguage(tag: string): Locale | null {
  const clean = tag.trim().replace(/_/g, '-').toLowerCase();
  if (!clean) return null;
  const exact = LOCALES.find((locale) => locale.toLowerCase() === clean);
  if (exact) return exact;
  const [language, ...rest] = clean.split('-');
  if (language === 'es' && rest.some((part) => part === '419' || /^(mx|ar|co|cl|pe|ve|us)$/.test(part))) {
    return 'es-MX';
  }
  return (language && BY_LANGUAGE[language]) || null;
}

/**
 * The first supported locale among the browser's preferred languages (navigator.languages, then
 * navigator.language), or null.
 */
export function preferredBrowserLocale(
  nav: Pick<Navigator, 'languages' | 'language'> | undefined,
): Locale | null {
  if (!nav) return null;
  const tags = nav.languages && nav.languages.length > 0 ? nav.languages : [nav.language];
  for (const tag of tags) {
    if (!tag) continue;
    const locale = mapBrowserLanguage(tag);
    if (locale) return locale;
  }
  return null;
}
