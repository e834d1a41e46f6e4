import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { digits } from './test-arbitraries';
import { verhoeffCheckDigit, verhoeffValid } from './verhoeff';

describe('Verhoeff scheme', () => {
  it('computes the check digits of the literature', () => {
    // Verhoeff's worked example (as in Wikipedia's "Verhoeff algorithm"): 236 → 3, 12345 → 1, 75872 → 2.
    expect(verhoeffCheckDigit('236')).toBe(3);
    expect(verhoeffCheckDigit('12345')).toBe(1);
    expect(verhoeffCheckDigit('75872')).toBe(2);
  });

  it("validates '2363' and refuses its neighbours", () => {
    // From the right, c = d[c][p[i mod 8][digit]]: 3 → d[0][p0(3)=3] = 3; 6 → d[3][p1(6)=3] = 1;
    // 3 → d[1][p2(3)=3] = 4; 2 → d[4][p3(2)=1] = 0. A final 0 means valid.
    expect(verhoeffValid('2363')).toBe(true);
    expect(verhoeffValid('2364')).toBe(false);
    expect(verhoeffValid('2633')).toBe(false);
    expect(verhoeffValid('')).toBe(false);
    expect(verhoeffValid('23a3')).toBe(false);
  });

  it('refuses to compute a digit for anything but digits', () => {
    expect(() => verhoeffCheckDigit('')).toThrow(RangeError);
    expect(() => verhoeffCheckDigit('12a')).toThrow(RangeError);
    expect(() => verhoeffCheckDigit('١٢٣')).toThrow(RangeError);
  });

  it('makes any number of digits valid with its check digit, and no other digit', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 30 }).chain((n) => digits(n)),
        (body) => {
          const check = verhoeffCheckDigit(body);
          for (let d = 0; d <= 9; d += 1) expect(verhoeffValid(`${body}${d}`)).toBe(d === check);
        },
      ),
    );
  });
});
