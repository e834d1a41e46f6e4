import { invalid, screenCharacters, type IdentifierResult } from './result';

/**
 * Checks a voter ID, the Electors Photo Identity Card number (EPIC) of the Election Commission of India
 * (SPEC §3 KYC ID types; issue 5): 3 letters then 7 digits, as printed on cards issued since the
 * Commission's uniform numbering. It has no published check digit.
 * Input may have white space around it and lower-case letters; no separators inside.
 * Returns `{ valid: true, normalised }` (upper case) or the reason: empty, length (not 10), pattern.
 */
export function checkVoterId(value: string): IdentifierResult {
  const screened = screenCharacters(value, { separators: 'none', minLength: 10 });
  if (!('text' in screened)) return screened;
  return /^[A-Z]{3}[0-9]{7}$/.test(screened.text)
    ? { valid: true, normalised: screened.text }
    : invalid('pattern');
}
