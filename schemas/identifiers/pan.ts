import { invalid, screenCharacters, type IdentifierResult } from './result';

/**
 * The status letters a PAN's 4th character may hold (Income Tax Department, "Permanent Account Number"
 * structure): A association of persons, B body of individuals, C company, F firm, G government, H Hindu
 * undivided family, L local authority, J artificial juridical person, P individual, T trust.
 */
export const PAN_HOLDER_TYPES = 'ABCFGHLJPT';

/** A PAN's layout: 5 letters (the 4th the holder's status), 4 digits, 1 letter. */
export const PAN_PATTERN = /^[A-Z]{3}[ABCFGHLJPT][A-Z][0-9]{4}[A-Z]$/;

/**
 * Checks a Permanent Account Number (SPEC §3 KYC 'PAN number'; issue 5) with the rule the Income Tax
 * Department publishes for its structure (incometaxindia.gov.in, PAN): 10 characters, five letters, four
 * digits and a letter; the first three letters are a series AAA–ZZZ, the 4th is the status of the holder
 * (one of {@link PAN_HOLDER_TYPES}), the 5th the initial of the surname or name. The 10th is a check letter
 * whose algorithm is not published, so it is not checked (a PAN is never refused for `checksum`).
 * Input may have white space around it and lower-case letters; no separators inside.
 * Returns `{ valid: true, normalised }` (upper case) or the reason: empty, length (not 10), pattern.
 */
export function checkPan(value: string): IdentifierResult {
  const screened = screenCharacters(value, { separators: 'none', minLength: 10 });
  if (!('text' in screened)) return screened;
  return PAN_PATTERN.test(screened.text) ? { valid: true, normalised: screened.text } : invalid('pattern');
}
