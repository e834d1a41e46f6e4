import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { IDENTIFIER_CHECKS } from '../../schemas/identifiers';
import { ID_TYPES } from '../services/id-documents';
import { randomIdNumber, renderIdCard, sampleIdNumber } from './id-cards';

describe('identity card numbers', () => {
  it.each(ID_TYPES)('the sample and random %s numbers pass their rule', (type) => {
    expect(IDENTIFIER_CHECKS[type](sampleIdNumber(type)).valid).toBe(true);
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const number = randomIdNumber(type);
      expect(IDENTIFIER_CHECKS[type](number), number).toMatchObject({ valid: true });
      seen.add(number);
    }
    // Random enough to tell test documents apart.
    expect(seen.size).toBeGreaterThan(190);
  });
});

describe('renderIdCard', () => {
  it('draws a landscape JPEG 1200 × 760 by default, scaled by width and turned by rotate', async () => {
    expect(await sharp(await renderIdCard('aadhaar')).metadata()).toMatchObject({
      format: 'jpeg',
      width: 1200,
      height: 760,
    });
    expect(await sharp(await renderIdCard('passport', { width: 600, rotate: 90 })).metadata()).toMatchObject({
      width: 380,
      height: 600,
    });
  });

  it('draws a coloured card whose text changes with the number and the name', async () => {
    const plain = await renderIdCard('pan');
    const stats = await sharp(plain).stats();
    expect(stats.isOpaque).toBe(true);
    // Not grey: the header band and the background are coloured.
    expect(Math.abs(stats.channels[0]!.mean - stats.channels[2]!.mean)).toBeGreaterThan(3);
    const other = await renderIdCard('pan', { number: 'ZZZPZ9999Z', name: 'ASHA <RAO> & CO' });
    expect(other.equals(plain)).toBe(false);
  });
});
