import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderIdCard, sampleIdNumber } from '../test-support/id-cards';
import { documentVerdict, ID_TYPES, readIdDocument, type IdType } from './id-documents';
import {
  createTextRecogniser,
  estimateSkewDegrees,
  MAX_SKEW_DEGREES,
  prepareForRecognition,
  RECOGNITION_LONG_SIDE_PX,
  UndecodableImageError,
  type RecognisedText,
  type TextRecogniser,
} from './ocr';

const PHOTOS = process.env.TEST_PHOTOS_DIR ?? '/usr/share/backgrounds/mate';

/** One recogniser (one worker) for the whole file: a worker start costs ~1 s. */
let recogniser: TextRecogniser;
/** The rendered card of each type, read in beforeAll (all queued at once on the one worker). */
const read = new Map<IdType, RecognisedText>();

beforeAll(async () => {
  recogniser = createTextRecogniser();
  const cards = await Promise.all(ID_TYPES.map((type) => renderIdCard(type)));
  const texts = await Promise.all(cards.map((card) => recogniser.recognise(card)));
  ID_TYPES.forEach((type, i) => read.set(type, texts[i]!));
}, 120_000);

afterAll(async () => {
  await recogniser?.close();
});

describe('createTextRecogniser on rendered cards', () => {
  it.each(ID_TYPES)('reads a %s card as itself, its number included', (type) => {
    const text = read.get(type)!;
    const reading = readIdDocument(text.text);
    expect(reading.detected, text.text).toBe(type);
    expect(documentVerdict(reading, type)).toBe('recognised');
    expect(reading.numbers[type]).toBe(sampleIdNumber(type).replace(/\s/g, ''));
    expect(text.confidence).toBeGreaterThan(50);
    expect(text.confidence).toBeLessThanOrEqual(100);
    expect(text.durationMs).toBeGreaterThan(0);
  });

  it('answers mismatch for a PAN card checked as an Aadhaar card', () => {
    const reading = readIdDocument(read.get('pan')!.text);
    expect(documentVerdict(reading, 'aadhaar')).toBe('mismatch');
    expect(reading.detected).toBe('pan');
  });

  it('reads a card photographed sideways, and one whose identifier is given', async () => {
    const card = await renderIdCard('voter_id', { rotate: 270, number: 'LMN0123456' });
    const text = await recogniser.recognise(card);
    const reading = readIdDocument(text.text);
    expect(reading.detected, text.text).toBe('voter_id');
    expect(reading.numbers.voter_id).toBe('LMN0123456');
  });

  it('reads a card photographed on a table: tilted, dim, blurred, small in the frame', async () => {
    const card = await sharp(await renderIdCard('driving_licence', { width: 1300 }))
      .rotate(-8, { background: { r: 0, g: 0, b: 0, alpha: 0 } })
      .png()
      .toBuffer();
    const photo = await sharp(readFileSync(join(PHOTOS, 'nature/Wood.jpg')))
      .resize(2592, 1944)
      .composite([{ input: card, gravity: 'center' }])
      .modulate({ brightness: 0.6 })
      .blur(1.8)
      .jpeg({ quality: 55 })
      .toBuffer();
    const text = await recogniser.recognise(photo);
    const reading = readIdDocument(text.text);
    expect(reading.detected, text.text).toBe('driving_licence');
    expect(reading.numbers.driving_licence).toBe('MH1220110062831');
  });

  it('answers unreadable for a landscape photo without text and for a plain gradient', async () => {
    const photo = readFileSync(join(PHOTOS, 'nature/GreenMeadow.jpg'));
    const gradient = await sharp(
      Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="1600" height="1000"><defs><linearGradient id="g">' +
          '<stop offset="0" stop-color="#1d5e9c"/><stop offset="1" stop-color="#f3e7f5"/></linearGradient></defs>' +
          '<rect width="1600" height="1000" fill="url(#g)"/></svg>',
      ),
    )
      .jpeg()
      .toBuffer();
    for (const image of [photo, gradient]) {
      const text = await recogniser.recognise(image);
      const reading = readIdDocument(text.text);
      expect(reading.detected, text.text).toBeNull();
      for (const type of ID_TYPES) expect(documentVerdict(reading, type)).toBe('unreadable');
    }
  });

  it('rejects an undecodable image and keeps working', async () => {
    await expect(recogniser.recognise(Buffer.from('not an image at all'))).rejects.toBeInstanceOf(
      UndecodableImageError,
    );
    const truncated = (await renderIdCard('pan')).subarray(0, 200);
    await expect(recogniser.recognise(truncated)).rejects.toBeInstanceOf(UndecodableImageError);
    const text = await recogniser.recognise(await renderIdCard('pan', { width: 900 }));
    expect(readIdDocument(text.text).detected).toBe('pan');
  });
});

describe('createTextRecogniser lifecycle', () => {
  it('close() refuses the queued jobs, lets the running one finish, is idempotent, and a later job starts again', async () => {
    const own = createTextRecogniser({ workers: 1 });
    const card = await renderIdCard('pan', { width: 900 });
    const running = own.recognise(card);
    const queued = [own.recognise(card), own.recognise(card)];
    const closing = own.close();
    for (const job of queued) await expect(job).rejects.toThrow('text recogniser closed');
    expect(readIdDocument((await running).text).detected).toBe('pan');
    await closing;
    await own.close();
    const again = await own.recognise(card);
    expect(readIdDocument(again.text).detected).toBe('pan');
    await own.close();
  }, 60_000);

  it('shares the queue between workers', async () => {
    const two = createTextRecogniser({ workers: 2 });
    try {
      const types = ['pan', 'aadhaar', 'passport'] as const;
      const cards = await Promise.all(types.map((type) => renderIdCard(type, { width: 900 })));
      const texts = await Promise.all(cards.map((card) => two.recognise(card)));
      expect(texts.map((t) => readIdDocument(t.text).detected)).toEqual(types);
    } finally {
      await two.close();
    }
  }, 60_000);

  it('rejects a reading that takes longer than timeoutMs', async () => {
    const hasty = createTextRecogniser({ timeoutMs: 1 });
    try {
      await expect(hasty.recognise(await renderIdCard('pan'))).rejects.toThrow('text recognition timed out');
    } finally {
      await hasty.close();
    }
  }, 60_000);

  it('uses the English model installed in node_modules (no download)', () => {
    const data = createRequire(import.meta.url)('@tesseract.js-data/eng') as {
      langPath: string;
      gzip: boolean;
    };
    expect(data.gzip).toBe(true);
    expect(existsSync(join(data.langPath, 'eng.traineddata.gz'))).toBe(true);
  });
});

/** `image` as one byte a pixel of grey, `width` px wide at most. */
async function greyPixels(image: Buffer, width = 700) {
  const { data, info } = await sharp(image)
    .resize({ width, height: width, fit: 'inside' })
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** A card tilted by `degrees` clockwise on a mid-grey background, as a JPEG. */
async function tiltedCard(type: IdType, degrees: number): Promise<Buffer> {
  return sharp(await renderIdCard(type))
    .rotate(degrees, { background: '#777777' })
    .jpeg()
    .toBuffer();
}

describe('estimateSkewDegrees', () => {
  it('finds the tilt of the lines of a card to within half a degree', async () => {
    for (const [type, degrees] of [
      ['pan', 6],
      ['aadhaar', -9],
      ['passport', 3.2],
      ['vehicle_rc', 0],
    ] as const) {
      const { data, width, height } = await greyPixels(await tiltedCard(type, degrees));
      expect(
        Math.abs(estimateSkewDegrees(data, width, height) - degrees),
        `${type} ${degrees}°`,
      ).toBeLessThanOrEqual(0.5);
    }
  });

  it('answers 0 for an image without edges, stays within its range, and checks the buffer', () => {
    expect(estimateSkewDegrees(new Uint8Array(200 * 100).fill(128), 200, 100)).toBe(0);
    const noise = Uint8Array.from({ length: 300 * 200 }, (_, i) => (i * 7919) % 251);
    expect(Math.abs(estimateSkewDegrees(noise, 300, 200))).toBeLessThanOrEqual(MAX_SKEW_DEGREES);
    expect(() => estimateSkewDegrees(new Uint8Array(10), 4, 4)).toThrow(RangeError);
  });
});

describe('prepareForRecognition', () => {
  it('straightens a tilted card', async () => {
    const prepared = await prepareForRecognition(await tiltedCard('voter_id', -7));
    const { data, width, height } = await greyPixels(prepared);
    expect(Math.abs(estimateSkewDegrees(data, width, height))).toBeLessThanOrEqual(0.5);
  });

  it('makes a grey PNG whose longer side is RECOGNITION_LONG_SIDE_PX, turned as asked', async () => {
    const wide = await prepareForRecognition(await renderIdCard('pan', { width: 3000 }));
    expect(await sharp(wide).metadata()).toMatchObject({
      format: 'png',
      width: RECOGNITION_LONG_SIDE_PX,
      height: Math.round((RECOGNITION_LONG_SIDE_PX * 760) / 1200),
    });
    const stats = await sharp(wide).stats();
    // Grey: every channel alike.
    expect(stats.channels.every((c) => c.mean === stats.channels[0]!.mean)).toBe(true);
    const small = await prepareForRecognition(await renderIdCard('pan', { width: 600 }), 90);
    expect(await sharp(small).metadata()).toMatchObject({
      width: Math.round((RECOGNITION_LONG_SIDE_PX * 760) / 1200),
      height: RECOGNITION_LONG_SIDE_PX,
    });
  });

  it('applies the EXIF orientation of a photo', async () => {
    // A landscape card stored as portrait pixels with orientation 6 (turn 90° clockwise to view).
    const stored = await sharp(await renderIdCard('pan', { width: 1200 }))
      .rotate(270)
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer();
    expect(await sharp(stored).metadata()).toMatchObject({ width: 760, height: 1200, orientation: 6 });
    const prepared = await sharp(await prepareForRecognition(stored)).metadata();
    expect(prepared.width).toBeGreaterThan(prepared.height!);
  });

  it('refuses what is not an image', async () => {
    await expect(prepareForRecognition(Buffer.alloc(0))).rejects.toBeInstanceOf(UndecodableImageError);
  });
});
