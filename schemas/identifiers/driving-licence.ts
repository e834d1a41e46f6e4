import { invalid, screenCharacters, type IdentifierResult } from './result';

/** The first year a driving licence number may carry. */
const FIRST_YEAR = 1900;

/**
 * Checks an Indian driving licence number in the format of the Ministry of Road Transport and Highways'
 * Sarathi system (SPEC §3 KYC ID types; issue 5): 15 characters — the state code (2 letters), the RTO code
 * (2 digits), the year of issue (4 digits, 1900 to the current year of `today`) and a serial number (7
 * digits). Input may contain white space and hyphens anywhere, as licences print it ('MH-12 2011 0012345').
 * `today` (default: now) sets the latest year allowed; its calendar year is read in local time.
 * Returns `{ valid: true, normalised }` (upper case, no separators) or the reason: empty, pattern (another
 * character, a part of the wrong kind, or a year out of range), length (not 15).
 */
export function checkDrivingLicence(value: string, today: Date = new Date()): IdentifierResult {
  const screened = screenCharacters(value, { separators: 'spaces_and_hyphens', minLength: 15 });
  if (!('text' in screened)) return screened;
  const { text } = screened;
  const parts = /^[A-Z]{2}[0-9]{2}([0-9]{4})[0-9]{7}$/.exec(text);
  if (!parts) return invalid('pattern');
  const year = Number(parts[1]);
  return year >= FIRST_YEAR && year <= today.getFullYear()
    ? { valid: true, normalised: text }
    : invalid('pattern');
}
