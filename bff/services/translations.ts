import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Locale, MessageTree, TranslationsResult } from '../../schemas/generated/types';

/** The supported locales (SPEC §1), in the order of schemas/common.schema.json. */
export const locales: readonly Locale[] = [
  'en-GB',
  'id',
  'zh',
  'vi',
  'th',
  'pt',
  'nl',
  'ja',
  'it',
  'hi',
  'fr-FR',
  'fr-CA',
  'es-MX',
  'es-ES',
  'de',
  'ar',
  'el',
  'hr',
  'pl',
];

/** The fallback language (SPEC §1). */
export const fallbackLocale: Locale = 'en-GB';

/** The four translation areas; each is one file `renderer/i18n/locales/<locale>/<area>.json`. */
export const translationAreas = ['shell', 'widgets', 'screens', 'errors'] as const;

/** A translation area name. */
export type TranslationArea = (typeof translationAreas)[number];

/** All messages of one language: one tree per area (the `clientMessages` of SPEC §3). */
export type ClientMessages = TranslationsResult['clientMessages'];

/** Default folder of the locale files. */
export const defaultLocalesDir = join(
  dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'renderer',
  'i18n',
  'locales',
);

/** True when `value` is a supported locale code. */
export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (locales as readonly string[]).includes(value);
}

/** Translation lookups for the BFF (error messages, SMS text, screen labels). */
export interface Translations {
  /**
   * The text of `key` (`<area>.<key path>`, e.g. `errors.otp_incorrect`) in `locale`, falling back to
   * en-GB, then to the key itself. `{{name}}` placeholders are filled from `values`.
   */
  translate(locale: Locale, key: string, values?: Record<string, unknown>): string;
  /** Every message of `locale`, each area deep-merged over en-GB so missing files and keys fall back. */
  messages(locale: Locale): ClientMessages;
}

function isTree(v: unknown): v is MessageTree {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

function deepMerge(base: MessageTree, over: MessageTree): MessageTree {
  const out: MessageTree = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const b = out[k];
    out[k] = isTree(v) && isTree(b) ? deepMerge(b, v) : v;
  }
  return out;
}

function lookup(tree: MessageTree, path: string[]): string | undefined {
  let node: string | MessageTree | undefined = tree;
  for (const p of path) {
    if (!isTree(node)) return undefined;
    node = node[p];
  }
  return typeof node === 'string' ? node : undefined;
}

/** Fills i18next-style `{{name}}` placeholders; unknown names stay as they are. */
export function interpolate(text: string, values?: Record<string, unknown>): string {
  if (!values) return text;
  return text.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (m, name: string) =>
    values[name] === undefined || values[name] === null ? m : String(values[name]),
  );
}

/**
 * Creates the translations service over `dir` (default renderer/i18n/locales). Files are read once per
 * locale and cached; a missing or unreadable file counts as empty (and is logged through `onError`).
 */
export function createTranslations(
  opts: { dir?: string; onError?: (file: string, err: unknown) => void } = {},
): Translations {
  const dir = opts.dir ?? defaultLocalesDir;
  const raw = new Map<Locale, ClientMessages>();
  const merged = new Map<Locale, ClientMessages>();

  const readLocale = (locale: Locale): ClientMessages => {
    let cached = raw.get(locale);
    if (cached) return cached;
    cached = { shell: {}, widgets: {}, screens: {}, errors: {} };
    for (const area of translationAreas) {
      const file = join(dir, locale, `${area}.json`);
      if (!existsSync(file)) continue;
      try {
        const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
        if (isTree(parsed)) cached[area] = parsed;
      } catch (err) {
        opts.onError?.(file, err);
      }
    }
    raw.set(locale, cached);
    return cached;
  };

  const messages = (locale: Locale): ClientMessages => {
    let m = merged.get(locale);
    if (m) return m;
    const base = readLocale(fallbackLocale);
    const own = locale === fallbackLocale ? base : readLocale(locale);
    m = {
      shell: deepMerge(base.shell, own.shell),
      widgets: deepMerge(base.widgets, own.widgets),
      screens: deepMerge(base.screens, own.screens),
      errors: deepMerge(base.errors, own.errors),
    };
    merged.set(locale, m);
    return m;
  };

  const translate = (locale: Locale, key: string, values?: Record<string, unknown>): string => {
    const [area, ...path] = key.split('.');
    if (!area || !(translationAreas as readonly string[]).includes(area) || path.length === 0) return key;
    const text = lookup(messages(isLocale(locale) ? locale : fallbackLocale)[area as TranslationArea], path);
    return text === undefined ? key : interpolate(text, values);
  };

  return { translate, messages };
}

/** Flattens a message tree into `{ 'a.b': text }` (for feature labels). */
export function flattenMessages(tree: MessageTree, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (typeof v === 'string') out[key] = v;
    else Object.assign(out, flattenMessages(v, key));
  }
  return out;
}
