import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IDENTIFIER_CHECKS, IDENTIFIER_KINDS, type IdentifierKind } from './index';
import {
  validAadhaar,
  validDrivingLicence,
  validGstin,
  validPan,
  validPassport,
  validVehicleRc,
  validVoterId,
} from './test-arbitraries';

const REASONS = ['empty', 'length', 'pattern', 'checksum'];

/** Well-formed values of each kind (driving licences up to this year, as IDENTIFIER_CHECKS checks them). */
const VALID: Record<IdentifierKind, fc.Arbitrary<string>> = {
  pan: validPan,
  gstin: validGstin,
  aadhaar: validAadhaar,
  voter_id: validVoterId,
  driving_licence: validDrivingLicence(new Date().getFullYear()),
  passport: validPassport,
  vehicle_rc: validVehicleRc,
};

describe('IDENTIFIER_CHECKS', () => {
  it('has one check per IdentifierKind of schemas/common.schema.json', () => {
    const common = JSON.parse(
      readFileSync(join(import.meta.dirname, '..', 'common.schema.json'), 'utf8'),
    ) as {
      $defs: { IdentifierKind: { enum: string[] } };
    };
    expect([...IDENTIFIER_KINDS].sort()).toEqual([...common.$defs.IdentifierKind.enum].sort());
  });

  it.each(IDENTIFIER_KINDS)('%s: never throws and always answers a verdict, for any string', (kind) => {
    const check = IDENTIFIER_CHECKS[kind];
    const anyString = fc.oneof(
      fc.string(),
      fc.string({ unit: 'binary' }),
      fc.string({ unit: 'grapheme' }),
      fc.string({ unit: fc.constantFrom(...'0123456789ABCZbhz -\u00a0\u0131\u017f\u00df') }),
    );
    fc.assert(
      fc.property(anyString, (value) => {
        const result = check(value);
        if (result.valid) expect(result.normalised).toMatch(/^[A-Z0-9]+$/);
        else expect(REASONS).toContain(result.reason);
      }),
      { numRuns: 500 },
    );
  });

  it.each(IDENTIFIER_KINDS)('%s: normalising twice changes nothing', (kind) => {
    const check = IDENTIFIER_CHECKS[kind];
    const candidates = fc.oneof(
      VALID[kind],
      VALID[kind].map((v) => ` ${v.toLowerCase()} `),
      fc.string({ unit: fc.constantFrom(...'0123456789ABHZaz -') }),
    );
    fc.assert(
      fc.property(candidates, (value) => {
        const first = check(value);
        if (first.valid) expect(check(first.normalised)).toEqual(first);
      }),
    );
  });

  it.each(IDENTIFIER_KINDS)('%s: every generated value is valid and already normalised', (kind) => {
    fc.assert(
      fc.property(VALID[kind], (value) => {
        expect(IDENTIFIER_CHECKS[kind](value)).toEqual({ valid: true, normalised: value });
      }),
    );
  });

  it('refuses the non-ASCII letters that upper-case to ASCII ones', () => {
    // 'ı'.toUpperCase() is 'I' and 'ſ'.toUpperCase() is 'S': they must not sneak in as PAN letters.
    expect(IDENTIFIER_CHECKS.pan('ABıPE1234F')).toEqual({ valid: false, reason: 'pattern' });
    expect(IDENTIFIER_CHECKS.pan('ABſPE1234F')).toEqual({ valid: false, reason: 'pattern' });
  });
});
