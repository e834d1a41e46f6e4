import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkDrivingLicence } from './driving-licence';
import { asTyped, validDrivingLicence } from './test-arbitraries';

describe('checkDrivingLicence (state, RTO, year 1900–now, 7 digits)', () => {
  const in2025 = new Date(2025, 5, 1);

  it('accepts licence numbers as printed, with spaces and hyphens, and removes them', () => {
    expect(checkDrivingLicence('HR-0619850034761', in2025)).toEqual({
      valid: true,
      normalised: 'HR0619850034761',
    });
    expect(checkDrivingLicence('mh12 2011 0012345', in2025)).toEqual({
      valid: true,
      normalised: 'MH1220110012345',
    });
  });

  it('accepts years from 1900 to the current year only', () => {
    expect(checkDrivingLicence('DL0419000012345', in2025).valid).toBe(true);
    expect(checkDrivingLicence('DL0418990012345', in2025)).toEqual({ valid: false, reason: 'pattern' });
    expect(checkDrivingLicence('DL0420250012345', in2025).valid).toBe(true);
    expect(checkDrivingLicence('DL0420260012345', in2025)).toEqual({ valid: false, reason: 'pattern' });
    expect(checkDrivingLicence('DL0420260012345', new Date(2026, 0, 1)).valid).toBe(true);
  });

  it('tells empty, length and pattern apart', () => {
    expect(checkDrivingLicence(' - ', in2025)).toEqual({ valid: false, reason: 'empty' });
    expect(checkDrivingLicence('HR-061985003476', in2025)).toEqual({ valid: false, reason: 'length' });
    expect(checkDrivingLicence('HR-06198500347612', in2025)).toEqual({ valid: false, reason: 'length' });
    expect(checkDrivingLicence('H1-0619850034761', in2025)).toEqual({ valid: false, reason: 'pattern' });
    expect(checkDrivingLicence('HR-0A19850034761', in2025)).toEqual({ valid: false, reason: 'pattern' });
    expect(checkDrivingLicence('HR/0619850034761', in2025)).toEqual({ valid: false, reason: 'pattern' });
  });

  it('accepts every generated licence number typed with separators and in any case', () => {
    fc.assert(
      fc.property(
        validDrivingLicence(2025).chain((number) => fc.tuple(fc.constant(number), asTyped(number, ' -'))),
        ([number, typed]) => {
          expect(checkDrivingLicence(typed, in2025)).toEqual({ valid: true, normalised: number });
        },
      ),
    );
  });
});
