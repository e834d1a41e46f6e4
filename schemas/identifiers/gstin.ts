import { PAN_PATTERN } from './pan';
import { invalid, screenCharacters, type IdentifierResult } from './result';

/** The code points of the GSTIN check character: '0'–'9' are 0–9, 'A'–'Z' are 10–35. */
const BASE36 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * The check character of a GSTIN, from its first 14 characters (ASCII digits and upper-case letters), with
 * GSTN's published algorithm, Luhn mod 36: each character's code point (0–9, A–Z = 10–35) is multiplied by
 * 1 and 2 alternately starting with 1 on the first; each product p counts as ⌊p / 36⌋ + p mod 36; the
 * check character is the one whose code point is (36 − sum mod 36) mod 36.
 * @throws RangeError when `body` is not 14 characters of 0–9 and A–Z.
 */
export function gstinCheckCharacter(body: string): string {
  if (!/^[0-9A-Z]{14}$/.test(body)) throw new RangeError('gstinCheckCharacter expects 14 characters 0-9 A-Z');
  let sum = 0;
  for (let i = 0; i < body.length; i += 1) {
    const product = BASE36.indexOf(body[i]!) * (i % 2 === 0 ? 1 : 2);
    sum += Math.floor(product / 36) + (product % 36);
  }
  return BASE36[(36 - (sum % 36)) % 36]!;
}

/**
 * Whether the first two characters are a GST state code: 01–38 (the States and Union Territories, 38
 * Ladakh), 97 (Other Territory) or 99 (Centre Jurisdiction).
 */
function isStateCode(code: string): boolean {
  const n = Number(code);
  return /^[0-9]{2}$/.test(code) && ((n >= 1 && n <= 38) || n === 97 || n === 99);
}

/**
 * Checks a GST Identification Number (SPEC §3 KYC 'GSTIN'; issue 5) with the structure GSTN publishes:
 * 15 characters — a 2-digit state code ({@link isStateCode}: 01–38, 97, 99), the holder's PAN (10
 * characters, checked with the PAN rule, see checkPan), the entity number of that PAN in the state (1–9 then
 * A–Z), 'Z' by default, and a check character ({@link gstinCheckCharacter}). GSTINs of other layouts (tax
 * deductors registered by TAN, non-resident online service providers, UN bodies) are refused: an owner
 * listing a property registers as a regular taxpayer.
 * Input may have white space around it and lower-case letters; no separators inside.
 * Returns `{ valid: true, normalised }` (upper case) or the reason: empty, length (not 15), pattern,
 * checksum (only the 15th character is wrong).
 */
export function checkGstin(value: string): IdentifierResult {
  const screened = screenCharacters(value, { separators: 'none', minLength: 15 });
  if (!('text' in screened)) return screened;
  const { text } = screened;
  const wellFormed =
    isStateCode(text.slice(0, 2)) &&
    PAN_PATTERN.test(text.slice(2, 12)) &&
    /^[1-9A-Z]Z$/.test(text.slice(12, 14));
  if (!wellFormed) return invalid('pattern');
  return gstinCheckCharacter(text.slice(0, 14)) === text[14]
    ? { valid: true, normalised: text }
    : invalid('checksum');
}
