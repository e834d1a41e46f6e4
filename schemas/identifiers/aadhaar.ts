import { invalid, screenCharacters, type IdentifierResult } from './result';
import { verhoeffValid } from './verhoeff';

/**
 * Checks an Aadhaar number (SPEC §3 KYC ID types; issue 5) with UIDAI's published numbering scheme: 12
 * digits, the first 11 assigned at random and never starting with 0 or 1, the 12th a Verhoeff check digit
 * ({@link verhoeffValid}). Input may be grouped with white space as printed on the card ('2345 6789 0124').
 * Returns `{ valid: true, normalised }` (12 digits, no spaces) or the reason: empty, pattern (a letter or
 * other character, or a first digit 0 or 1), length (not 12 digits), checksum (the last digit is not the
 * Verhoeff digit of the first 11).
 */
export function checkAadhaar(value: string): IdentifierResult {
  const screened = screenCharacters(value, { separators: 'spaces', alphabet: /^[0-9]+$/, minLength: 12 });
  if (!('text' in screened)) return screened;
  const { text } = screened;
  if (!/^[2-9][0-9]{11}$/.test(text)) return invalid('pattern');
  return verhoeffValid(text) ? { valid: true, normalised: text } : invalid('checksum');
}
