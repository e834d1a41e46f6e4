import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asTyped, validVehicleRc } from './test-arbitraries';
import { checkVehicleRc } from './vehicle-rc';

describe('checkVehicleRc (state series and Bharat series registration marks)', () => {
  it('accepts state series marks with and without a series, and Delhi-style ones', () => {
    expect(checkVehicleRc('MH 12 AB 1234')).toEqual({ valid: true, normalised: 'MH12AB1234' });
    expect(checkVehicleRc('ka-01-a-1')).toEqual({ valid: true, normalised: 'KA01A1' });
    expect(checkVehicleRc('DL 3C AB 1234')).toEqual({ valid: true, normalised: 'DL3CAB1234' });
    expect(checkVehicleRc('TN 9 1234')).toEqual({ valid: true, normalised: 'TN91234' });
  });

  it('accepts Bharat series marks', () => {
    expect(checkVehicleRc('22 BH 1234 AA')).toEqual({ valid: true, normalised: '22BH1234AA' });
    expect(checkVehicleRc('21BH0001A')).toEqual({ valid: true, normalised: '21BH0001A' });
  });

  it('tells empty, length and pattern apart', () => {
    expect(checkVehicleRc('')).toEqual({ valid: false, reason: 'empty' });
    expect(checkVehicleRc('MH1')).toEqual({ valid: false, reason: 'length' });
    expect(checkVehicleRc('MH12ABC12345')).toEqual({ valid: false, reason: 'length' });
    // Three-digit RTO, four-letter series, no number, a Bharat mark with a 3-digit number.
    expect(checkVehicleRc('MH123AB1234')).toEqual({ valid: false, reason: 'pattern' });
    expect(checkVehicleRc('MH1ABCD123')).toEqual({ valid: false, reason: 'pattern' });
    expect(checkVehicleRc('MH12AB')).toEqual({ valid: false, reason: 'pattern' });
    expect(checkVehicleRc('22BH123AA')).toEqual({ valid: false, reason: 'pattern' });
    expect(checkVehicleRc('MH.12.AB.1234')).toEqual({ valid: false, reason: 'pattern' });
  });

  it('accepts every generated mark typed with separators and in any case', () => {
    fc.assert(
      fc.property(
        validVehicleRc.chain((mark) => fc.tuple(fc.constant(mark), asTyped(mark, ' -'))),
        ([mark, typed]) => {
          expect(checkVehicleRc(typed)).toEqual({ valid: true, normalised: mark });
        },
      ),
    );
  });
});
