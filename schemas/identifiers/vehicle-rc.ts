import { invalid, screenCharacters, type IdentifierResult } from './result';

/** A registration mark of the state series: state (2 letters), RTO (1–2 digits), series (0–3 letters), number (1–4 digits). */
const STATE_SERIES = /^[A-Z]{2}[0-9]{1,2}[A-Z]{0,3}[0-9]{1,4}$/;

/** A registration mark of the Bharat (BH) series: year (2 digits), 'BH', number (4 digits), series (1–2 letters). */
const BH_SERIES = /^[0-9]{2}BH[0-9]{4}[A-Z]{1,2}$/;

/**
 * Checks the registration number on a vehicle's registration certificate (RC) (SPEC §3 KYC ID types 'vehicle
 * RC'; issue 5) against the registration marks of the Central Motor Vehicles Rules: the state series — state
 * code (2 letters), RTO code (1–2 digits), series (0–3 letters), number (1–4 digits), e.g. 'MH 12 AB 1234',
 * 'DL 3C AB 1234' — or the Bharat series of 2021 — year of registration (2 digits), 'BH', a number (4 digits)
 * and a series (1–2 letters), e.g. '22 BH 1234 AA'. Input may contain white space and hyphens anywhere.
 * Returns `{ valid: true, normalised }` (upper case, no separators) or the reason: empty, pattern, length
 * (fewer than 4 or more than 11 characters).
 */
export function checkVehicleRc(value: string): IdentifierResult {
  const screened = screenCharacters(value, { separators: 'spaces_and_hyphens', minLength: 4, maxLength: 11 });
  if (!('text' in screened)) return screened;
  const { text } = screened;
  return STATE_SERIES.test(text) || BH_SERIES.test(text)
    ? { valid: true, normalised: text }
    : invalid('pattern');
}
