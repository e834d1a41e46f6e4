/**
 * fast-check arbitraries of well-formed identifiers, for the tests of schemas/identifiers only (fast-check is
 * a dev dependency; nothing the app ships imports this module).
 */
import fc from 'fast-check';
import { gstinCheckCharacter } from './gstin';
import { PAN_HOLDER_TYPES } from './pan';
import { verhoeffCheckDigit } from './verhoeff';

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const DIGITS = '0123456789';

/** Exactly `length` characters drawn from `alphabet`. */
export function charsOf(alphabet: string, length: number): fc.Arbitrary<string> {
  return fc.string({ unit: fc.constantFrom(...alphabet), minLength: length, maxLength: length });
}

/** `min`–`max` characters drawn from `alphabet`. */
export function charsBetween(alphabet: string, min: number, max: number): fc.Arbitrary<string> {
  return fc.string({ unit: fc.constantFrom(...alphabet), minLength: min, maxLength: max });
}

export const letters = (length: number) => charsOf(LETTERS, length);
export const digits = (length: number) => charsOf(DIGITS, length);

/** A PAN: 3 letters, a holder type, a letter, 4 digits, a letter. */
export const validPan: fc.Arbitrary<string> = fc
  .tuple(letters(3), fc.constantFrom(...PAN_HOLDER_TYPES), letters(1), digits(4), letters(1))
  .map((parts) => parts.join(''));

/** The first 11 digits of an Aadhaar number: a digit 2–9, then 10 digits. */
export const aadhaarBody: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom(...'23456789'), digits(10))
  .map(([first, rest]) => first + rest);

/** A valid Aadhaar number: {@link aadhaarBody} and its Verhoeff digit. */
export const validAadhaar: fc.Arbitrary<string> = aadhaarBody.map((body) => body + verhoeffCheckDigit(body));

/** A GST state code: 01–38, 97 or 99. */
export const stateCode: fc.Arbitrary<string> = fc
  .oneof(fc.integer({ min: 1, max: 38 }), fc.constantFrom(97, 99))
  .map((n) => String(n).padStart(2, '0'));

/** The first 14 characters of a GSTIN: state code, PAN, entity number (1–9, A–Z), 'Z'. */
export const gstinBody: fc.Arbitrary<string> = fc
  .tuple(stateCode, validPan, fc.constantFrom(...('123456789' + LETTERS)))
  .map(([state, pan, entity]) => `${state}${pan}${entity}Z`);

/** A valid GSTIN: {@link gstinBody} and its check character. */
export const validGstin: fc.Arbitrary<string> = gstinBody.map((body) => body + gstinCheckCharacter(body));

/** An EPIC number: 3 letters, 7 digits. */
export const validVoterId: fc.Arbitrary<string> = fc
  .tuple(letters(3), digits(7))
  .map((parts) => parts.join(''));

/** An Indian passport number: a letter other than Q, X, Z, a digit 1–9, 6 digits. */
export const validPassport: fc.Arbitrary<string> = fc
  .tuple(fc.constantFrom(...LETTERS.replace(/[QXZ]/g, '')), fc.constantFrom(...'123456789'), digits(6))
  .map((parts) => parts.join(''));

/** A driving licence number issued between 1900 and `lastYear`: state, RTO, year, 7 digits. */
export function validDrivingLicence(lastYear: number): fc.Arbitrary<string> {
  return fc
    .tuple(letters(2), digits(2), fc.integer({ min: 1900, max: lastYear }), digits(7))
    .map(([state, rto, year, serial]) => `${state}${rto}${year}${serial}`);
}

/** A registration mark: state series (state, RTO, series, number) or Bharat series. */
export const validVehicleRc: fc.Arbitrary<string> = fc.oneof(
  fc
    .tuple(letters(2), charsBetween(DIGITS, 1, 2), charsBetween(LETTERS, 0, 3), charsBetween(DIGITS, 1, 4))
    .map((parts) => parts.join('')),
  fc
    .tuple(digits(2), digits(4), charsBetween(LETTERS, 1, 2))
    .map(([year, n, series]) => `${year}BH${n}${series}`),
);

/**
 * `text` as a person might type it: each ASCII letter in either case and, when `separators` is given, runs
 * of them inserted between characters.
 */
export function asTyped(text: string, separators?: string): fc.Arbitrary<string> {
  const chars = [...text];
  return fc
    .tuple(
      fc.array(fc.boolean(), { minLength: chars.length, maxLength: chars.length }),
      fc.array(separators ? charsBetween(separators, 0, 2) : fc.constant(''), {
        minLength: chars.length,
        maxLength: chars.length,
      }),
    )
    .map(([lower, gaps]) =>
      chars.map((c, i) => (i > 0 ? gaps[i]! : '') + (lower[i] ? c.toLowerCase() : c)).join(''),
    );
}
