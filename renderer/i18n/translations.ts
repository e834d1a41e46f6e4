import { startTransition } from 'react';
import type { Locale } from '../../schemas/generated/types';
import { apiRequest } from '../api/client';
import { STORAGE_KEYS, readStorage, writeStorage } from '../state/storage-keys';
import { applyDocumentLanguage, loadRtlCache } from './direction';
import { DEFAULT_LOCALE, directionOf } from './languages';
import { BUILT_IN_MESSAGES, i18n } from './instance';

/** Texts of one language as GET /hms_ms/api/v1/translations/:language answers them (per area). */
export type ClientMessages = Record<string, unknown>;

function readCache(): Record<string, ClientMessages> {
  const raw = readStorage(STORAGE_KEYS.messages);
  if (!raw) return {};
  try {
    const parsed: unknown = JSON.parse(raw);
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, ClientMessages>) : {};
  } catch {
    return {};
  }
}

function addBundle(locale: Locale, messages: ClientMessages): void {
  i18n.addResourceBundle(locale, 'translation', messages, true, true);
}

/**
 * Adds the areas of `messages` (shell, widgets, screens…) whose texts differ from what i18next holds
 * for `locale`, as a transition: every component that translates re-renders when texts are added, and as a
 * transition React draws that in slices instead of one long task (issue 13 item 4: TBT). Areas that are
 * already there as they are (the built-in en-GB texts, a cached copy) are not added again, so an unchanged
 * language draws nothing twice.
 */
function addChangedAreas(locale: Locale, messages: ClientMessages): void {
  const held = (i18n.getResourceBundle(locale, 'translation') ?? {}) as ClientMessages;
  const changed: ClientMessages = {};
  for (const [area, texts] of Object.entries(messages)) {
    if (JSON.stringify(held[area]) !== JSON.stringify(texts)) changed[area] = texts;
  }
  if (Object.keys(changed).length > 0) startTransition(() => addBundle(locale, changed));
}

/**
 * The areas of the texts the app draws from itself (the built-in en-GB ones: shell, widgets). The `screens`
 * area comes composed in every screen's payload; only the staff preview, which names screens, reads it
 * ({@link PREVIEW_AREAS}). `errors` is the server's: its messages come translated in its answers.
 */
export const CLIENT_AREAS: readonly string[] = Object.keys(BUILT_IN_MESSAGES);

/** The areas the staff preview reads (renderer/preview): the app's and `screens`. */
export const PREVIEW_AREAS: readonly string[] = [...CLIENT_AREAS, 'screens'];

/** The areas of `messages` named in `areas`. */
function pick(messages: ClientMessages, areas: readonly string[]): ClientMessages {
  return Object.fromEntries(Object.entries(messages).filter(([area]) => areas.includes(area)));
}

/**
 * Loads the texts of `locale` (SPEC §3 translations, §8): first the copy cached in localStorage 'messages'
 * (so a reload shows the language at once), then GET /hms_ms/api/v1/translations/:language, which replaces
 * it and refreshes the cache. Resolves true when the server's texts were added, false on failure (the
 * built-in en-GB texts then stand in for every missing key). Never rejects.
 *
 * Only the `areas` the page draws from are added and cached ({@link CLIENT_AREAS} by default): adding an area
 * draws every translating component again, and the app does not read `screens` (≈29 KB in en-GB).
 *
 * `later`: when the page already has texts for `locale` — en-GB is built in, another language cached or
 * brought by the page — the request waits until `later` calls the function it is given (main.tsx: once the
 * first screen has painted, shell/first-paint.ts), so that it is not on the way of the first draw (issue 13
 * item 4: Lighthouse counts every request made before the largest paint). A language with none is asked for
 * at once.
 *
 * `fromPage`: the texts of `locale` the page carries with its first screen (schemas/app/first-screen.ts
 * `texts`), the server's of this very moment: added at once, before the first draw (which a page the server
 * drew hydrates with these same texts), in place of the cached copy.
 */
export async function loadTranslations(
  locale: Locale,
  later?: (request: () => void) => void,
  areas: readonly string[] = CLIENT_AREAS,
  fromPage?: ClientMessages,
): Promise<boolean> {
  const cached = fromPage ? undefined : readCache()[locale];
  if (fromPage) addBundle(locale, pick(fromPage, areas));
  else if (cached) addChangedAreas(locale, pick(cached, areas));
  if (later && (fromPage || cached || locale === DEFAULT_LOCALE)) {
    await new Promise<void>((resolve) => later(resolve));
  }
  try {
    const data = await apiRequest<{ language?: string; clientMessages?: ClientMessages }>(
      `/hms_ms/api/v1/translations/${encodeURIComponent(locale)}`,
    );
    const all = data?.clientMessages;
    if (!all || typeof all !== 'object') return false;
    const messages = pick(all, areas);
    addChangedAreas(locale, messages);
    const latest = readCache();
    const kept = latest[locale] ?? {};
    if (JSON.stringify(pick(kept, areas)) !== JSON.stringify(messages)) {
      writeStorage(STORAGE_KEYS.messages, JSON.stringify({ ...latest, [locale]: { ...kept, ...messages } }));
    }
    return true;
  } catch {
    return false;
  }
}

/**
 * Switches the app's language (SPEC §1): remembers it in localStorage 'language', starts loading the
 * right-to-left styles for a right-to-left language (Arabic), sets `<html lang dir>`, changes i18next's
 * language at once (built-in or cached texts), then loads the server's texts.
 * Unsupported values are not accepted by the type; en-GB is the fallback for missing keys.
 */
export async function setLanguage(locale: Locale): Promise<void> {
  writeStorage(STORAGE_KEYS.language, locale);
  // The right-to-left styles start loading now; `<html dir>` and the page (renderer/shell/app.tsx) flip once
  // they are there.
  if (directionOf(locale) === 'rtl') {
    loadRtlCache().then(
      () => {
        if (i18n.language === locale) applyDocumentLanguage(locale);
      },
      () => undefined,
    );
  }
  applyDocumentLanguage(locale);
  const cached = readCache()[locale];
  if (cached) addBundle(locale, cached);
  await i18n.changeLanguage(locale);
  // Components re-render when the bundle is added (react-i18next bindI18nStore 'added').
  await loadTranslations(locale);
}
