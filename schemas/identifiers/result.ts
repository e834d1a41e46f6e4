/**
 * Why an identifier was refused: `empty` (nothing but white space and separators), `length` (the wrong
 * number of characters once separators are removed), `pattern` (a character not allowed at its place, or a
 * part out of range) or `checksum` (well formed, but the check character or digit does not match).
 */
export type IdentifierFailure = 'empty' | 'length' | 'pattern' | 'checksum';

/**
 * The verdict on one identifier: valid with its `normalised` form (upper case, without the spaces and
 * hyphens its format allows in input), or invalid with the first `reason` found, checked in the order
 * empty, pattern of the characters, length, pattern of the parts, checksum.
 */
export type IdentifierResult =
  { valid: true; normalised: string } | { valid: false; reason: IdentifierFailure };

/** Separators an identifier's input may contain anywhere: none, white space, or white space and '-'. */
export type Separators = 'none' | 'spaces' | 'spaces_and_hyphens';

const SEPARATORS: Record<Separators, RegExp | null> = {
  none: null,
  spaces: /\s+/gu,
  spaces_and_hyphens: /[\s-]+/gu,
};

/**
 * The candidate text of an identifier: `value` with white space around it trimmed, the allowed separators
 * removed and ASCII letters upper-cased. Other characters are kept (so that they fail the pattern): upper-
 * casing is limited to a–z because `toUpperCase` turns some non-ASCII letters into ASCII ones ('ı' → 'I',
 * 'ſ' → 'S') or into two letters ('ß' → 'SS').
 */
export function compact(value: string, separators: Separators): string {
  const pattern = SEPARATORS[separators];
  const text = pattern ? value.replace(pattern, '') : value.trim();
  return upperCaseAscii(text);
}

/** `value` with its ASCII letters a–z upper-cased and every other character unchanged (same length). */
export function upperCaseAscii(value: string): string {
  return value.replace(/[a-z]+/g, (letters) => letters.toUpperCase());
}

/** What {@link screenCharacters} checks: the separators allowed, the characters allowed, the length range. */
export interface ScreenOptions {
  separators: Separators;
  /** Characters allowed once separators are removed (default: ASCII upper-case letters and digits). */
  alphabet?: RegExp;
  minLength: number;
  /** Default: `minLength` (a fixed length). */
  maxLength?: number;
}

/**
 * The first checks every identifier shares, on its {@link compact} form: `empty` when nothing is left,
 * `pattern` when a character is outside `alphabet` (so that a letter in a number is a pattern failure
 * however long the input), `length` when the length is outside `[minLength, maxLength]`. Returns the
 * compact text when it passes, else the failure.
 */
export function screenCharacters(
  value: string,
  { separators, alphabet = /^[A-Z0-9]+$/, minLength, maxLength = minLength }: ScreenOptions,
): { text: string } | { valid: false; reason: IdentifierFailure } {
  const text = compact(value, separators);
  if (text === '') return { valid: false, reason: 'empty' };
  if (!alphabet.test(text)) return { valid: false, reason: 'pattern' };
  if (text.length < minLength || text.length > maxLength) return { valid: false, reason: 'length' };
  return { text };
}

/** Shorthand for an invalid result. */
export function invalid(reason: IdentifierFailure): IdentifierResult {
  return { valid: false, reason };
}
