import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Locale } from '../../schemas/generated/types';
import { STORAGE_KEYS, readStorage } from '../state/storage-keys';
import { DEFAULT_LOCALE, LOCALES, isLocale, preferredBrowserLocale } from './languages';
import shell from './locales/en-GB/shell.json';
import widgets from './locales/en-GB/widgets.json';

/**
 * Built-in texts: the en-GB files of the areas the client itself draws, addressed as `<area>.<key path>`.
 * Used until the server's translations arrive and whenever they fail (SPEC §8 translation fetch failure).
 * Two areas are the server's and are not built in (issue 13 item 2): `screens` (the server composes screens
 * with their texts already translated; ≈6 KB gzip) and `errors` (its error messages, which come translated in
 * its answers, and its e-mail and SMS texts; ≈2 KB gzip). The client's own error texts are `shell.errors`.
 */
export const BUILT_IN_MESSAGES = { shell, widgets };

/**
 * The language to start in (SPEC §1): localStorage 'language' when it is a supported locale, else the
 * browser's preferred languages mapped to a supported locale, else en-GB.
 */
export function detectLanguage(
  nav: Pick<Navigator, 'languages' | 'language'> | undefined = globalThis.navigator,
): Locale {
  const stored = readStorage(STORAGE_KEYS.language);
  if (isLocale(stored)) return stored;
  return preferredBrowserLocale(nav) ?? DEFAULT_LOCALE;
}

/**
 * The app's one i18next instance, initialised synchronously (`initAsync: false`) with the built-in en-GB
 * texts in the single namespace 'translation'; en-GB is the fallback for every missing key.
 */
export const i18n: I18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  lng: detectLanguage(),
  fallbackLng: DEFAULT_LOCALE,
  supportedLngs: LOCALES,
  load: 'currentOnly',
  resources: { [DEFAULT_LOCALE]: { translation: BUILT_IN_MESSAGES } },
  initAsync: false,
  interpolation: { escapeValue: false },
  react: { useSuspense: false, bindI18nStore: 'added' },
});

/** The current locale of the app (falls back to en-GB when i18next holds something unsupported). */
export function currentLocale(): Locale {
  const lng = i18n.language;
  return isLocale(lng) ? lng : DEFAULT_LOCALE;
}
