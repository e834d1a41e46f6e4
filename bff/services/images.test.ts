import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createFileImageStorage } from './image-storage';
import type { ImagesConfig } from '../../schemas/generated/types';
import {
  hammingDistance,
  loadImageRequirements,
  qualityError,
  roomCategoriesOf,
  roomCategoryKey,
  toScreenImages,
} from './images';

const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('loadImageRequirements', () => {
  it('reads bff/screens/data/image-requirements.json by priority, min_total 6 unless overridden', () => {
    const rules = loadImageRequirements(null);
    expect(rules.categories.map((c) => [c.category, c.priority, c.minCount])).toEqual([
      ['facade', 1, 1],
      ['reception', 2, 1],
      ['room', 3, 3],
      ['bathroom', 4, 1],
      ['other', 5, 0],
    ]);
    expect(rules.minTotal).toBe(6);
    expect(rules.roomSplit).toMatchObject({ category: 'room', minCount: 3, minPerRoomCategory: 1 });
    expect(rules.categories.filter((c) => c.minPerRoomCategory !== null)).toHaveLength(1);
    expect(rules.has('room')).toBe(true);
    expect(rules.has('pool')).toBe(false);
    expect(loadImageRequirements(9).minTotal).toBe(9);
  });

  it('sorts by priority and refuses an invalid file', () => {
    const two = (a: object, b: object) => ({ min_total: 1, categories: [a, b] });
    const rules = loadImageRequirements(
      null,
      two({ category: 'b', priority: 2, min_count: 0 }, { category: 'a', priority: 1, min_count: 1 }),
    );
    expect(rules.categories.map((c) => c.category)).toEqual(['a', 'b']);
    expect(() =>
      loadImageRequirements(
        null,
        two({ category: 'a', priority: 1, min_count: 0 }, { category: 'a', priority: 2, min_count: 0 }),
      ),
    ).toThrow(/twice/);
    expect(() =>
      loadImageRequirements(
        null,
        two({ category: 'a', priority: 1, min_count: 0 }, { category: 'b', priority: 1, min_count: 0 }),
      ),
    ).toThrow(/priority/);
    expect(() => loadImageRequirements(null, { min_total: 1, categories: [{ category: 'A b' }] })).toThrow(
      /image requirements/,
    );
  });

  it('splits at most one category by room category, and none when no category asks for it', () => {
    const split = (n: number) => ({ category: 'a', priority: 1, min_count: 2, min_per_room_category: n });
    expect(
      loadImageRequirements(null, {
        min_total: 1,
        categories: [split(2), { category: 'b', priority: 2, min_count: 0 }],
      }).roomSplit,
    ).toMatchObject({ category: 'a', minCount: 2, minPerRoomCategory: 2 });
    expect(
      loadImageRequirements(null, {
        min_total: 1,
        categories: [{ category: 'b', priority: 2, min_count: 0 }],
      }).roomSplit,
    ).toBeNull();
    expect(() =>
      loadImageRequirements(null, {
        min_total: 1,
        categories: [split(1), { ...split(1), category: 'b', priority: 2 }],
      }),
    ).toThrow(/only one category/);
    expect(() => loadImageRequirements(null, { min_total: 1, categories: [split(-1)] })).toThrow(
      /min_per_room_category/,
    );
  });
});

describe('room categories of a lead', () => {
  it('takes the named categories in order, as shown, each name once whatever its case and spacing', () => {
    expect(
      roomCategoriesOf({
        room_categories: [
          { name: '  Deluxe   double ', count: 4 },
          { count: 2 },
          { name: '   ' },
          { name: 'Family suite' },
          { name: 'deluxe double', count: 1 },
          null,
          { name: 'Cafe\u0301 room' },
        ],
      }),
    ).toEqual(['Deluxe double', 'Family suite', 'Café room']);
    for (const nothing of [undefined, null, {}, { room_categories: null }, { room_categories: 'x' }])
      expect(roomCategoriesOf(nothing)).toEqual([]);
  });

  it('compares names by their key', () => {
    expect(roomCategoryKey(' Deluxe  Double')).toBe(roomCategoryKey('deluxe double'));
    expect(roomCategoryKey('Cafe\u0301')).toBe(roomCategoryKey('café'));
    expect(roomCategoryKey('Deluxe')).not.toBe(roomCategoryKey('Deluxe double'));
  });
});

describe('toScreenImages', () => {
  it('keys whole categories, lists the room categories and the room photos of none', () => {
    const requirement = (category: string, room?: string | null) => ({
      category,
      ...(room === undefined ? {} : { room_category: room }),
      priority: 1,
      min_count: 1,
      accepted_count: 0,
      images: [],
    });
    const config = {
      requirements: [
        requirement('facade'),
        requirement('room', 'Deluxe'),
        requirement('room', 'Suite'),
        requirement('room', null),
        requirement('bathroom'),
      ],
    } as unknown as ImagesConfig;
    const screen = toScreenImages(config);
    expect(Object.keys(screen.by_category)).toEqual(['facade', 'bathroom']);
    expect(screen.room_requirements.map((r) => r.room_category)).toEqual(['Deluxe', 'Suite']);
    expect(screen.other_room_photos?.room_category).toBeNull();
    const plain = toScreenImages({ requirements: [requirement('room')] } as unknown as ImagesConfig);
    expect(Object.keys(plain.by_category)).toEqual(['room']);
    expect(plain.room_requirements).toEqual([]);
    expect(plain.other_room_photos).toBeNull();
  });
});

describe('qualityError (SPEC §5)', () => {
  it.each([
    [2560, 1600, null],
    [1000, 1000, null],
    [1600, 2560, 'VERTICAL'],
    [999, 1600, 'VERTICAL'],
    [999, 700, 'RESOLUTION'],
    [1600, 999, 'RESOLUTION'],
  ] as const)('%i × %i → %s', (w, h, expected) => {
    expect(qualityError(w, h)).toBe(expected);
  });
});

describe('hammingDistance', () => {
  it('counts the differing bits of two 64-bit hashes in hex', () => {
    expect(hammingDistance('ffffffffffffffff', 'ffffffffffffffff')).toBe(0);
    expect(hammingDistance('0000000000000000', 'ffffffffffffffff')).toBe(64);
    expect(hammingDistance('8000000000000001', '0000000000000000')).toBe(2);
  });
});

describe('the file storage', () => {
  it('puts, gets and deletes under <dataDir>/uploads, and refuses keys that could leave it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'onboard-storage-'));
    dirs.push(dir);
    const storage = createFileImageStorage(dir);
    await storage.put('lead-1/image-1-display.jpg', Buffer.from('jpeg bytes'));
    expect((await storage.get('lead-1/image-1-display.jpg'))?.toString()).toBe('jpeg bytes');
    expect(readdirSync(join(dir, 'uploads', 'lead-1'))).toEqual(['image-1-display.jpg']);
    await storage.delete('lead-1/image-1-display.jpg');
    expect(await storage.get('lead-1/image-1-display.jpg')).toBeUndefined();
    await storage.delete('lead-1/image-1-display.jpg');
    for (const key of ['../escape.jpg', 'lead-1/../../x', '/etc/passwd', 'Lead/x.jpg', 'a/b c'])
      await expect(storage.put(key, Buffer.from('x')), key).rejects.toThrow(/invalid storage key/);
  });
});
