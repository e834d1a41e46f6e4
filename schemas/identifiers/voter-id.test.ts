import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asTyped, validVoterId } from './test-arbitraries';
import { checkVoterId } from './voter-id';

describe('checkVoterId (EPIC: 3 letters, 7 digits)', () => {
  it('accepts an EPIC number, upper-cased', () => {
    expect(checkVoterId('ABC1234567')).toEqual({ valid: true, normalised: 'ABC1234567' });
    expect(checkVoterId(' xyz0000001 ')).toEqual({ valid: true, normalised: 'XYZ0000001' });
  });

  it('tells empty, length and pattern apart', () => {
    expect(checkVoterId(' ')).toEqual({ valid: false, reason: 'empty' });
    expect(checkVoterId('ABC123456')).toEqual({ valid: false, reason: 'length' });
    expect(checkVoterId('ABC12345678')).toEqual({ valid: false, reason: 'length' });
    expect(checkVoterId('AB12345678')).toEqual({ valid: false, reason: 'pattern' });
    expect(checkVoterId('ABCD123456')).toEqual({ valid: false, reason: 'pattern' });
    expect(checkVoterId('ABC 1234567')).toEqual({ valid: false, reason: 'pattern' });
  });

  it('accepts every generated EPIC number typed in any case', () => {
    fc.assert(
      fc.property(
        validVoterId.chain((epic) => fc.tuple(fc.constant(epic), asTyped(epic))),
        ([epic, typed]) => {
          expect(checkVoterId(typed)).toEqual({ valid: true, normalised: epic });
        },
      ),
    );
  });
});
