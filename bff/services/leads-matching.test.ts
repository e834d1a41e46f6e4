import { describe, expect, it } from 'vitest';
import { similarNames } from './leads';

describe('similarNames (SPEC §2 OTA match)', () => {
  it.each([
    ['Sunrise Residency', 'Hotel Sunrise Residency'],
    ['The Palm Grove', 'palm grove'],
    ['Sea View Inn', 'Seaview Inn'],
    ['Hotel Taj Palace', 'Taj Palace Hotel & Resort'],
    ['Sunrise Residency', 'Sunrise Residancy'],
  ])('%s ≈ %s', (a, b) => {
    expect(similarNames(a, b)).toBe(true);
    expect(similarNames(b, a)).toBe(true);
  });

  it.each([
    ['Sunrise Residency', 'Moonlight Palace'],
    ['Hotel Blue', 'Hotel Red'],
    ['Hotel', 'Hotel'],
    ['Taj', 'Taj Mahal Palace Grand'],
  ])('%s ≠ %s', (a, b) => {
    expect(similarNames(a, b)).toBe(false);
  });
});
