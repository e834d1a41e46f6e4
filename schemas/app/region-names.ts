import { CALLING_CODES } from './calling-codes';

/** Every country of the phone field's country box (ISO 3166-1 alpha-2), as schemas/app/calling-codes.ts lists them. */
export const PHONE_COUNTRIES: readonly string[] = [...new Set(Object.values(CALLING_CODES).flat())];

/**
 * `codes` as `[code, name]` named in `language` (its region names, English where it has none, the code
 * where neither has one) and sorted by the language's collation: what the phone field's country box lists.
 * Uses `Intl.DisplayNames` and `Intl.Collator`: on the server for the page (bff/plugins/external/static.ts),
 * in the browser when the page did not bring them.
 */
export function namedRegions(
  language: string,
  codes: readonly string[] = PHONE_COUNTRIES,
): [string, string][] {
  let names: Intl.DisplayNames | undefined;
  try {
    names = new Intl.DisplayNames([language, 'en'], { type: 'region' });
  } catch {
    names = undefined;
  }
  const collator = new Intl.Collator(language);
  return codes
    .map((code): [string, string] => [code, names?.of(code) ?? code])
    .sort((a, b) => collator.compare(a[1], b[1]));
}
