import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkPassport } from './passport';
import { asTyped, digits, validPassport } from './test-arbitraries';

describe('checkPassport (India: a letter but Q, X, Z; 7 digits, the first 1–9)', () => {
  it('accepts passport numbers, upper-cased', () => {
    expect(checkPassport('A2190457')).toEqual({ valid: true, normalised: 'A2190457' });
    expect(checkPassport('m1234567')).toEqual({ valid: true, normalised: 'M1234567' });
  });

  it('tells empty, length and pattern apart', () => {
    expect(checkPassport('')).toEqual({ valid: false, reason: 'empty' });
    expect(checkPassport('A219045')).toEqual({ valid: false, reason: 'length' });
    expect(checkPassport('A209645704')).toEqual({ valid: false, reason: 'length' });
    expect(checkPassport('A0296457')).toEqual({ valid: false, reason: 'pattern' });
    expect(checkPassport('12096457')).toEqual({ valid: false, reason: 'pattern' });
    expect(checkPassport('A21 90457')).toEqual({ valid: false, reason: 'pattern' });
  });

  it('refuses the letters Q, X and Z whatever the digits', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('Q', 'X', 'Z', 'q', 'x', 'z'),
        fc.constantFrom(...'123456789'),
        digits(6),
        (...p) => {
          expect(checkPassport(p.join(''))).toEqual({ valid: false, reason: 'pattern' });
        },
      ),
    );
  });

  it('accepts every generated passport number typed in any case', () => {
    fc.assert(
      fc.property(
        validPassport.chain((number) => fc.tuple(fc.constant(number), asTyped(number))),
        ([number, typed]) => {
          expect(checkPassport(typed)).toEqual({ valid: true, normalised: number });
        },
      ),
    );
  });
});
