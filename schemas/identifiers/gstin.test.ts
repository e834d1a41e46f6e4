import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkGstin, gstinCheckCharacter } from './gstin';
import { asTyped, gstinBody, validGstin } from './test-arbitraries';

const BASE36 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

describe('gstinCheckCharacter (GSTN Luhn mod 36)', () => {
  it('computes the check characters worked out by hand', () => {
    // 27AAPFU0939F1Z: code points 2 7 10 10 25 15 30 0 9 3 9 15 1 35, factors 1 2 1 2 …
    // products 2 14 10 20 25 30 30 0 9 6 9 30 1 70; 70 counts ⌊70/36⌋ + 70 mod 36 = 1 + 34 = 35.
    // Sum 221; 221 mod 36 = 5; (36 − 5) mod 36 = 31 → 'V'.
    expect(gstinCheckCharacter('27AAPFU0939F1Z')).toBe('V');
    // 29AAGCB7383J1Z: code points 2 9 10 10 16 12 11 7 3 8 3 19 1 35;
    // products 2 18 10 20 16 24 11 14 3 16 3 38 1 70 → 38 counts 1 + 2 = 3, 70 counts 35.
    // Sum 176; 176 mod 36 = 32; 36 − 32 = 4 → '4'.
    expect(gstinCheckCharacter('29AAGCB7383J1Z')).toBe('4');
  });

  it('refuses a body that is not 14 characters 0–9 A–Z', () => {
    expect(() => gstinCheckCharacter('27AAPFU0939F1')).toThrow(RangeError);
    expect(() => gstinCheckCharacter('27aapfu0939f1z')).toThrow(RangeError);
  });
});

describe('checkGstin', () => {
  it('accepts the worked examples, upper-cased', () => {
    expect(checkGstin('27AAPFU0939F1ZV')).toEqual({ valid: true, normalised: '27AAPFU0939F1ZV' });
    expect(checkGstin(' 29aagcb7383j1z4 ')).toEqual({ valid: true, normalised: '29AAGCB7383J1Z4' });
  });

  it('tells empty, length, pattern and checksum apart', () => {
    expect(checkGstin('')).toEqual({ valid: false, reason: 'empty' });
    expect(checkGstin('27AAPFU0939F1Z')).toEqual({ valid: false, reason: 'length' });
    expect(checkGstin('27AAPFU0939F1ZVV')).toEqual({ valid: false, reason: 'length' });
    expect(checkGstin('27AAPFU0939F1ZW')).toEqual({ valid: false, reason: 'checksum' });
    expect(checkGstin('27 AAPFU0939F1ZV')).toEqual({ valid: false, reason: 'pattern' });
  });

  it('refuses state codes outside 01–38, 97, 99, a PAN breaking its rule, entity 0 and a 14th character other than Z', () => {
    const withCheck = (body: string) => body + gstinCheckCharacter(body);
    for (const state of ['00', '39', '96', '98']) {
      expect(checkGstin(withCheck(`${state}AAPFU0939F1Z`))).toEqual({ valid: false, reason: 'pattern' });
    }
    for (const state of ['01', '38', '97', '99']) {
      expect(checkGstin(withCheck(`${state}AAPFU0939F1Z`)).valid).toBe(true);
    }
    expect(checkGstin(withCheck('27AAPDU0939F1Z'))).toEqual({ valid: false, reason: 'pattern' });
    expect(checkGstin(withCheck('27AAPFU0939F0Z'))).toEqual({ valid: false, reason: 'pattern' });
    expect(checkGstin(withCheck('27AAPFU0939F1D'))).toEqual({ valid: false, reason: 'pattern' });
  });

  it('accepts a body with its check character and refuses every other character as checksum', () => {
    fc.assert(
      fc.property(gstinBody, (body) => {
        const check = gstinCheckCharacter(body);
        expect(checkGstin(body + check)).toEqual({ valid: true, normalised: body + check });
        for (const other of BASE36) {
          if (other !== check) expect(checkGstin(body + other)).toEqual({ valid: false, reason: 'checksum' });
        }
      }),
    );
  });

  it('accepts every generated GSTIN typed in any case', () => {
    fc.assert(
      fc.property(
        validGstin.chain((gstin) => fc.tuple(fc.constant(gstin), asTyped(gstin))),
        ([gstin, typed]) => {
          expect(checkGstin(typed)).toEqual({ valid: true, normalised: gstin });
        },
      ),
    );
  });
});
