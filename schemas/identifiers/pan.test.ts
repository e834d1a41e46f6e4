import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkPan, PAN_HOLDER_TYPES } from './pan';
import { asTyped, digits, letters, validPan } from './test-arbitraries';

describe('checkPan (Income Tax Department PAN structure)', () => {
  it('accepts PANs of each published layout and upper-cases them', () => {
    // 'ABCPE1234F': an individual (P); 'AAACA1234M': a company (C); 'AAAHL4444A': a HUF (H).
    expect(checkPan('ABCPE1234F')).toEqual({ valid: true, normalised: 'ABCPE1234F' });
    expect(checkPan('AAACA1234M')).toEqual({ valid: true, normalised: 'AAACA1234M' });
    expect(checkPan(' aaahl4444a ')).toEqual({ valid: true, normalised: 'AAAHL4444A' });
  });

  it('tells empty, length and pattern apart', () => {
    expect(checkPan('')).toEqual({ valid: false, reason: 'empty' });
    expect(checkPan('   ')).toEqual({ valid: false, reason: 'empty' });
    expect(checkPan('ABCPE1234')).toEqual({ valid: false, reason: 'length' });
    expect(checkPan('ABCPE12345F')).toEqual({ valid: false, reason: 'length' });
    // D is not a holder status; digits and letters swapped; a space or hyphen inside.
    expect(checkPan('ABCDE1234F')).toEqual({ valid: false, reason: 'pattern' });
    expect(checkPan('12345ABCDF')).toEqual({ valid: false, reason: 'pattern' });
    expect(checkPan('ABCPE 1234F')).toEqual({ valid: false, reason: 'pattern' });
    expect(checkPan('ABCPE-1234F')).toEqual({ valid: false, reason: 'pattern' });
    expect(checkPan('ABCPÉ1234F')).toEqual({ valid: false, reason: 'pattern' });
  });

  it('accepts every generated PAN, typed in any case', () => {
    fc.assert(
      fc.property(
        validPan.chain((pan) => fc.tuple(fc.constant(pan), asTyped(pan))),
        ([pan, typed]) => {
          expect(checkPan(typed)).toEqual({ valid: true, normalised: pan });
        },
      ),
    );
  });

  it('refuses a 4th character that is not a holder status', () => {
    const others = [...'ABCDEFGHIJKLMNOPQRSTUVWXYZ'].filter((c) => !PAN_HOLDER_TYPES.includes(c));
    fc.assert(
      fc.property(letters(3), fc.constantFrom(...others), letters(1), digits(4), letters(1), (...parts) => {
        expect(checkPan(parts.join(''))).toEqual({ valid: false, reason: 'pattern' });
      }),
    );
  });
});
