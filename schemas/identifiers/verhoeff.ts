/**
 * The Verhoeff check digit scheme (J. Verhoeff, "Error detecting decimal codes", Mathematical Centre
 * Tracts 29, Amsterdam, 1969), built on the dihedral group D5: it detects every single-digit error and every
 * transposition of two adjacent digits. Aadhaar numbers end with a Verhoeff check digit (UIDAI).
 */

/** The multiplication table of D5: `D[j][k]` is j·k. */
const D: readonly (readonly number[])[] = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
  [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
  [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
  [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
  [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
  [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
  [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
  [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
  [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
];

/** The position permutations: `P[i % 8][n]` is the permutation applied to digit n at position i (from the right). */
const P: readonly (readonly number[])[] = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
  [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
  [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
  [9, 4, 5, 3, 1, 2, 6, 8, 7, 0],
  [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
  [2, 7, 9, 3, 8, 0, 6, 4, 1, 5],
  [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
];

/** The inverse of each element of D5: `D[j][INV[j]]` is 0. */
const INV: readonly number[] = [0, 4, 3, 2, 1, 5, 6, 7, 8, 9];

/** The running value of the scheme over `digits`, the rightmost at position `offset`. */
function fold(digits: string, offset: number): number {
  let c = 0;
  for (let i = 0; i < digits.length; i += 1) {
    const n = digits.charCodeAt(digits.length - 1 - i) - 48;
    c = D[c]![P[(i + offset) % 8]![n]!]!;
  }
  return c;
}

/**
 * The Verhoeff check digit (0–9) to append to `digits`, a non-empty string of ASCII digits 0–9
 * (e.g. '236' → 3).
 * @throws RangeError when `digits` is empty or holds anything but 0–9.
 */
export function verhoeffCheckDigit(digits: string): number {
  if (!/^[0-9]+$/.test(digits)) throw new RangeError('verhoeffCheckDigit expects ASCII digits');
  return INV[fold(digits, 1)]!;
}

/**
 * Whether `digits` (ASCII digits 0–9, the check digit last) satisfies the Verhoeff scheme (e.g. '2363').
 * False for an empty string or any character other than 0–9.
 */
export function verhoeffValid(digits: string): boolean {
  return /^[0-9]+$/.test(digits) && fold(digits, 0) === 0;
}
