import { invalid, screenCharacters, type IdentifierResult } from './result';

/**
 * Checks an Indian passport number (SPEC §3 KYC ID types; issue 5): 8 characters, the series letter (never
 * Q, X or Z) then 7 digits, the first of them 1–9. The Ministry of External Affairs publishes no formal
 * rule; this is the layout of passports issued through Passport Seva and the rule in common use. The
 * machine-readable zone carries an ICAO 9303 check digit, but the number printed on the data page does not,
 * so none is checked.
 * Input may have white space around it and lower-case letters; no separators inside.
 * Returns `{ valid: true, normalised }` (upper case) or the reason: empty, length (not 8), pattern.
 */
export function checkPassport(value: string): IdentifierResult {
  const screened = screenCharacters(value, { separators: 'none', minLength: 8 });
  if (!('text' in screened)) return screened;
  return /^[A-PR-WY][1-9][0-9]{6}$/.test(screened.text)
    ? { valid: true, normalised: screened.text }
    : invalid('pattern');
}
