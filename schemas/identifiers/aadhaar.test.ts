import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkAadhaar } from './aadhaar';
import { aadhaarBody, asTyped, validAadhaar } from './test-arbitraries';
import { verhoeffCheckDigit } from './verhoeff';

describe('checkAadhaar (UIDAI: 12 digits, first 2–9, Verhoeff check digit)', () => {
  it('accepts a number grouped as on the card and returns its 12 digits', () => {
    // The Verhoeff digit of 23456789012 is 4 (see verhoeff.test.ts for the scheme's literature examples).
    expect(checkAadhaar('2345 6789 0124')).toEqual({ valid: true, normalised: '234567890124' });
    expect(checkAadhaar('234567890124')).toEqual({ valid: true, normalised: '234567890124' });
    expect(checkAadhaar(' 2345\u00a06789\t0124 ')).toEqual({ valid: true, normalised: '234567890124' });
  });

  it('tells empty, length, pattern and checksum apart', () => {
    expect(checkAadhaar('')).toEqual({ valid: false, reason: 'empty' });
    expect(checkAadhaar('    ')).toEqual({ valid: false, reason: 'empty' });
    expect(checkAadhaar('2345 6789 012')).toEqual({ valid: false, reason: 'length' });
    expect(checkAadhaar('2345 6789 01245')).toEqual({ valid: false, reason: 'length' });
    // A letter (however short the value), a hyphen, a first digit 0 or 1.
    expect(checkAadhaar('2345 678A')).toEqual({ valid: false, reason: 'pattern' });
    expect(checkAadhaar('2345-6789-0124')).toEqual({ valid: false, reason: 'pattern' });
    expect(checkAadhaar(`12345678901${verhoeffCheckDigit('12345678901')}`)).toEqual({
      valid: false,
      reason: 'pattern',
    });
    expect(checkAadhaar(`02345678901${verhoeffCheckDigit('02345678901')}`)).toEqual({
      valid: false,
      reason: 'pattern',
    });
    expect(checkAadhaar('2345 6789 0125')).toEqual({ valid: false, reason: 'checksum' });
  });

  it('accepts a body with its Verhoeff digit and refuses every other last digit', () => {
    fc.assert(
      fc.property(aadhaarBody, (body) => {
        const check = verhoeffCheckDigit(body);
        expect(checkAadhaar(`${body}${check}`)).toEqual({ valid: true, normalised: `${body}${check}` });
        for (let d = 0; d <= 9; d += 1) {
          if (d !== check) expect(checkAadhaar(`${body}${d}`)).toEqual({ valid: false, reason: 'checksum' });
        }
      }),
    );
  });

  it('refuses any single-digit substitution of a valid number', () => {
    fc.assert(
      fc.property(
        validAadhaar,
        fc.integer({ min: 0, max: 11 }),
        fc.integer({ min: 1, max: 9 }),
        (number, at, shift) => {
          const digit = (Number(number[at]) + shift) % 10;
          const changed = number.slice(0, at) + digit + number.slice(at + 1);
          expect(checkAadhaar(changed).valid).toBe(false);
        },
      ),
    );
  });

  it('refuses any transposition of two adjacent different digits of a valid number', () => {
    fc.assert(
      fc.property(validAadhaar, fc.integer({ min: 0, max: 10 }), (number, at) => {
        fc.pre(number[at] !== number[at + 1]);
        const swapped = number.slice(0, at) + number[at + 1] + number[at] + number.slice(at + 2);
        expect(checkAadhaar(swapped).valid).toBe(false);
      }),
    );
  });

  it('ignores white space anywhere in the input', () => {
    fc.assert(
      fc.property(
        validAadhaar.chain((number) => fc.tuple(fc.constant(number), asTyped(number, ' \u00a0'))),
        ([number, typed]) => {
          expect(checkAadhaar(typed)).toEqual({ valid: true, normalised: number });
        },
      ),
    );
  });
});
