import { describe, expect, it } from 'vitest';
import { distanceMeters, similarNames } from './leads';

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

describe('distanceMeters', () => {
  it('measures great-circle distances', () => {
    const delhi = { lat: 28.6139, lng: 77.209 };
    const mumbai = { lat: 19.076, lng: 72.8777 };
    expect(distanceMeters(delhi, mumbai) / 1000).toBeCloseTo(1148, -1);
    expect(distanceMeters(delhi, delhi)).toBe(0);
    const north = { lat: delhi.lat + 0.0009, lng: delhi.lng };
    expect(distanceMeters(delhi, north)).toBeCloseTo(100, 0);
  });
});
