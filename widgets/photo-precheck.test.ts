import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PRECHECK_MEASURE, precheckPhoto, readOrientedSize, type PhotoLimits } from './photo-precheck';
import { bitmapCalls, fakeCreateImageBitmap, pngBytes, pngFile } from './test-png';

const limits: PhotoLimits = {
  max_bytes: 10485760,
  min_width: 1000,
  min_height: 1000,
  mime_types: ['image/jpeg', 'image/png'],
};

beforeEach(() => {
  bitmapCalls.length = 0;
  // jsdom has no image decoder: the stand-in decodes the PNG bytes for real (see test-png.ts).
  vi.stubGlobal('createImageBitmap', fakeCreateImageBitmap);
  performance.clearMeasures(PRECHECK_MEASURE);
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('precheckPhoto (SPEC §5)', () => {
  it('accepts a landscape PNG of 1200 × 1000 px and reports its size', async () => {
    expect(await precheckPhoto(pngFile(1200, 1000), limits)).toEqual({ ok: true, width: 1200, height: 1000 });
  });

  it('accepts a square at exactly the minimum (1000 × 1000)', async () => {
    expect(await precheckPhoto(pngFile(1000, 1000), limits)).toMatchObject({ ok: true });
  });

  it('asks the browser for the size after the EXIF orientation', async () => {
    await precheckPhoto(pngFile(1200, 1000), limits);
    expect(bitmapCalls).toEqual([{ options: { imageOrientation: 'from-image' } }]);
  });

  it('refuses a portrait photo as vertical', async () => {
    expect(await precheckPhoto(pngFile(1000, 1001), limits)).toEqual({
      ok: false,
      reason: 'vertical',
      width: 1000,
      height: 1001,
    });
  });

  it('refuses 999 px on either side as resolution', async () => {
    expect(await precheckPhoto(pngFile(999, 1000), limits)).toMatchObject({
      ok: false,
      reason: 'resolution',
    });
    expect(await precheckPhoto(pngFile(1500, 999), limits)).toMatchObject({
      ok: false,
      reason: 'resolution',
    });
  });

  it('accepts a portrait photo with orientation any (an identity document), still checking its resolution', async () => {
    expect(await precheckPhoto(pngFile(1000, 1400), limits, { orientation: 'any' })).toEqual({
      ok: true,
      width: 1000,
      height: 1400,
    });
    expect(await precheckPhoto(pngFile(900, 1400), limits, { orientation: 'any' })).toMatchObject({
      ok: false,
      reason: 'resolution',
    });
  });

  it('reads the size with the reader it is given', async () => {
    const readSize = vi.fn(async () => ({ width: 3000, height: 2000 }));
    expect(await precheckPhoto(pngFile(10, 10), limits, { readSize })).toEqual({
      ok: true,
      width: 3000,
      height: 2000,
    });
    expect(readSize).toHaveBeenCalledTimes(1);
    expect(bitmapCalls).toHaveLength(0);
  });

  it('reports resolution before orientation for a small portrait', async () => {
    expect(await precheckPhoto(pngFile(600, 800), limits)).toMatchObject({ ok: false, reason: 'resolution' });
  });

  it('refuses other extensions and other types, whichever is wrong', async () => {
    const gif = new File([pngBytes(1200, 1000)], 'photo.gif', { type: 'image/gif' });
    const pngNamedTxt = new File([pngBytes(1200, 1000)], 'photo.txt', { type: 'image/png' });
    const heicNamedJpg = new File([pngBytes(1200, 1000)], 'photo.jpg', { type: 'image/heic' });
    for (const file of [gif, pngNamedTxt, heicNamedJpg]) {
      expect(await precheckPhoto(file, limits)).toEqual({ ok: false, reason: 'format' });
    }
    expect(bitmapCalls).toHaveLength(0);
  });

  it('takes .JPG, .jpeg and .png in any case', async () => {
    for (const name of ['A.JPG', 'b.jpeg', 'c.PNG']) {
      const type = name.toLowerCase().endsWith('png') ? 'image/png' : 'image/jpeg';
      const file = new File([pngBytes(1200, 1000)], name, { type });
      expect(await precheckPhoto(file, limits), name).toMatchObject({ ok: true });
    }
  });

  it('refuses 10485760 bytes or more as size, without decoding', async () => {
    const big = new File([new Uint8Array(10485760)], 'big.jpg', { type: 'image/jpeg' });
    expect(await precheckPhoto(big, limits)).toEqual({ ok: false, reason: 'size' });
    expect(bitmapCalls).toHaveLength(0);
  });

  it('refuses a truncated PNG, an empty file and a text file named .png as unreadable', async () => {
    const bytes = pngBytes(1200, 1000);
    const truncated = new File([bytes.subarray(0, bytes.length - 30)], 'cut.png', { type: 'image/png' });
    const empty = new File([], 'empty.jpg', { type: 'image/jpeg' });
    const text = new File(['hello'], 'notes.png', { type: 'image/png' });
    for (const file of [truncated, empty, text]) {
      expect(await precheckPhoto(file, limits), file.name).toEqual({ ok: false, reason: 'unreadable' });
    }
  });

  it('records what each check costs as a performance measure', async () => {
    await precheckPhoto(pngFile(1200, 1000, 'one.png'), limits);
    await precheckPhoto(pngFile(800, 600, 'two.png'), limits);
    const entries = performance.getEntriesByName(PRECHECK_MEASURE) as PerformanceMeasure[];
    expect(entries).toHaveLength(2);
    expect(entries.map((e) => (e.detail as { name: string; result: string }).result)).toEqual([
      'ok',
      'resolution',
    ]);
    expect(entries[0]!.duration).toBeGreaterThanOrEqual(0);
  });
});

describe('readOrientedSize', () => {
  it('rejects when the browser has neither createImageBitmap nor an image decoder', async () => {
    vi.stubGlobal('createImageBitmap', undefined);
    await expect(readOrientedSize(pngFile(1200, 1000))).rejects.toThrow();
  });

  it('falls back to an <img> decode when createImageBitmap refuses', async () => {
    vi.stubGlobal('createImageBitmap', () => Promise.reject(new TypeError('imageOrientation not supported')));
    class DecodedImage {
      decoding = '';
      src = '';
      naturalWidth = 1600;
      naturalHeight = 1200;
      decode = () => Promise.resolve();
    }
    vi.stubGlobal('Image', DecodedImage);
    const created: Blob[] = [];
    const revoked: string[] = [];
    vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      created.push(blob as Blob);
      return 'blob:photo';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation((url) => void revoked.push(url));
    const file = pngFile(1600, 1200);
    expect(await readOrientedSize(file)).toEqual({ width: 1600, height: 1200 });
    expect(created).toEqual([file]);
    expect(revoked).toEqual(['blob:photo']);
    vi.restoreAllMocks();
  });
});
