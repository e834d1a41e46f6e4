import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  Checklist,
  DeleteImageResult,
  ImagesConfig,
  UploadImageResult,
} from '../../../schemas/generated/types';
import { defaultScreensDir } from '../../app';
import { loadScreenCatalogue } from '../../screens/composer';
import { createTranslations } from '../../services/translations';
import { buildTestApp, createTestLead, multipartBody, signInNewOwner } from '../../test-helpers';

const PHOTOS = process.env.TEST_PHOTOS_DIR ?? '/usr/share/backgrounds/mate';
const LEADS = '/hms_ms/api/v1/onboard/leads';
const DAY_MS = 24 * 3600 * 1000;
const ARABIC = /[\u0600-\u06FF]/;

const photo = (path: string) => readFileSync(join(PHOTOS, path));

let app: FastifyInstance;
let owner: string;
let other: string;
let dataDir: string;
let fixturesDir: string;
/** Added to the clock of the app (delete window tests move time on). */
let clockOffsetMs = 0;

interface UploadOptions {
  category?: string;
  /** Sent as the field room_category (after category, before client_upload_id) when given. */
  roomCategory?: string;
  clientUploadId?: string;
  filename?: string;
  type?: string;
  cookie?: string;
  headers?: Record<string, string>;
}

/** POSTs one photo the way the browser does: category, client_upload_id, then the file. */
function upload(id: string, data: Buffer, o: UploadOptions = {}) {
  const { payload, contentType } = multipartBody([
    { name: 'category', value: o.category ?? 'room' },
    ...(o.roomCategory === undefined ? [] : [{ name: 'room_category', value: o.roomCategory }]),
    { name: 'client_upload_id', value: o.clientUploadId ?? randomUUID() },
    { name: 'file', filename: o.filename ?? 'photo.jpg', type: o.type ?? 'image/jpeg', data },
  ]);
  return app.inject({
    method: 'POST',
    url: `${LEADS}/${id}/images`,
    headers: { cookie: o.cookie ?? owner, 'content-type': contentType, ...o.headers },
    payload,
  });
}

/** Uploads and expects 201; answers the result. */
async function uploaded(id: string, data: Buffer, o: UploadOptions = {}): Promise<UploadImageResult> {
  const res = await upload(id, data, o);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ data: UploadImageResult }>().data;
}

const createLead = async (cookie = owner): Promise<string> =>
  (await createTestLead(app, cookie)).property_unique_id;

const list = async (id: string, headers: Record<string, string> = {}): Promise<ImagesConfig> => {
  const res = await app.inject({ url: `${LEADS}/${id}/images`, headers: { cookie: owner, ...headers } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: ImagesConfig }>().data;
};

const remove = (id: string, imageId: string, cookie = owner) =>
  app.inject({ method: 'DELETE', url: `${LEADS}/${id}/images/${imageId}`, headers: { cookie } });

const checklist = async (id: string): Promise<Checklist> =>
  (await app.inject({ url: `${LEADS}/${id}/checklist`, headers: { cookie: owner } })).json<{
    data: Checklist;
  }>().data;

const getFile = (url: string, cookie = owner) => app.inject({ url, headers: cookie ? { cookie } : {} });

const rowsOf = (id: string) =>
  app.db
    .selectFrom('lead_images')
    .innerJoin('leads', 'leads.id', 'lead_images.lead_id')
    .select(['lead_images.id', 'lead_images.is_active', 'lead_images.status'])
    .where('leads.property_unique_id', '=', id)
    .execute();

const fixture = (name: string) => readFileSync(join(fixturesDir, name));

const MB = 1024 * 1024;

/**
 * Uploads `file` over a real HTTP connection (the app listens on a free port), sending only the fields
 * and `sendFirst` bytes of the file, then waiting up to 15 s for an answer. The request declares the whole
 * file's length and the rest never comes, so an answer proves the server did not wait for it. Answers
 * the status and body, or undefined when no answer came.
 */
async function sendOverHttp(
  id: string,
  file: Buffer,
  { clientUploadId, sendFirst }: { clientUploadId: string; sendFirst: number },
): Promise<{ status: number; body: string } | undefined> {
  const address = app.server.listening
    ? `http://127.0.0.1:${(app.server.address() as { port: number }).port}`
    : await app.listen({ port: 0, host: '127.0.0.1' });
  const boundary = `----onboard${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="category"\r\n\r\nroom\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="client_upload_id"\r\n\r\n${clientUploadId}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="photo.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  let answer: { status: number; body: string } | undefined;
  const req = httpRequest(new URL(`${LEADS}/${id}/images`, address), {
    method: 'POST',
    headers: {
      cookie: owner,
      'content-type': `multipart/form-data; boundary=${boundary}`,
      'content-length': String(head.length + file.length + tail.length),
    },
  });
  const answered = new Promise<void>((resolve) => {
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        answer = { status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() };
        resolve();
      });
    });
  });
  req.on('error', () => {}); // the server may close while the rest is still on its way
  const write = (chunk: Buffer) =>
    new Promise<void>((resolve) => {
      if (req.write(chunk)) resolve();
      else req.once('drain', resolve);
    });
  await write(head);
  for (let at = 0; at < Math.min(sendFirst, file.length); at += 64 * 1024)
    await write(file.subarray(at, Math.min(at + 64 * 1024, sendFirst)));
  await Promise.race([answered, new Promise((r) => setTimeout(r, 15_000))]);
  req.destroy();
  return answer;
}

/** A PNG chunk: length, type, data, CRC-32 of type and data. */
function pngChunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A valid 1-bit greyscale PNG of `side` × `side` px (30000: 900 megapixels, 2.7 GB once decoded to RGB,
 * in about 100 kB): every row is zeros, which deflate squeezes to almost nothing.
 */
function decompressionBomb(side: number): Buffer {
  const rowBytes = 1 + Math.ceil(side / 8);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(side, 0);
  header.writeUInt32BE(side, 4);
  header[8] = 1; // bit depth
  header[9] = 0; // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.alloc(rowBytes * side), { level: 9 })),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'onboard-images-data-'));
  fixturesDir = mkdtempSync(join(tmpdir(), 'onboard-images-fixtures-'));
  // Edge cases made from the real photographs.
  const storm = photo('nature/Storm.jpg'); // 1920 × 1280
  const dune = photo('nature/Dune.jpg'); // 1680 × 1050
  const make: Record<string, Promise<Buffer> | Buffer> = {
    // Landscape pixels, EXIF orientation 6 (rotate 90°): shown as portrait.
    'landscape-orientation-6.jpg': sharp(storm).withMetadata({ orientation: 6 }).jpeg().toBuffer(),
    // Portrait pixels (1050 × 1680), EXIF orientation 6: shown as landscape 1680 × 1050.
    'portrait-orientation-6.jpg': sharp(await sharp(dune).rotate(90).toBuffer())
      .withMetadata({ orientation: 6 })
      .jpeg()
      .toBuffer(),
    'portrait.jpg': sharp(photo('nature/Wood.jpg'))
      .extract({ left: 600, top: 0, width: 1200, height: 1800 })
      .jpeg()
      .toBuffer(),
    'narrow-999.jpg': sharp(photo('nature/YellowFlower.jpg')).resize({ width: 999 }).jpeg().toBuffer(),
    'png-named.jpg': photo('abstract/Silk.png'),
    'text.jpg': Buffer.from('This is a text file with a .jpg name, not a photograph.\n'.repeat(20)),
    'truncated.jpg': (() => {
      const whole = photo('nature/RainDrops.jpg');
      return whole.subarray(0, Math.floor(whole.length / 2));
    })(),
    'bomb.png': decompressionBomb(30000),
    // 100 megapixels: under sharp's own default limit (268 MP), over ours (50 MP).
    'bomb-100mp.png': decompressionBomb(10000),
    'garden-reencoded.jpg': sharp(photo('nature/Garden.jpg'))
      .resize({ width: 1800 })
      .jpeg({ quality: 55 })
      .toBuffer(),
    'with-gps.jpg': sharp(photo('nature/TwoWings.jpg'))
      .withExif({
        IFD0: { Make: 'OnboardTestCam', Model: 'Model X' },
        IFD3: {
          GPSLatitudeRef: 'N',
          GPSLatitude: '28/1 23/1 57/1',
          GPSLongitudeRef: 'E',
          GPSLongitude: '77/1 2/1 19/1',
        },
      })
      .jpeg()
      .toBuffer(),
  };
  for (const [name, bytes] of Object.entries(make)) writeFileSync(join(fixturesDir, name), await bytes);

  app = await buildTestApp({ config: { dataDir }, now: () => Date.now() + clockOffsetMs });
  owner = await signInNewOwner(app);
  other = await signInNewOwner(app);
}, 120_000);

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(fixturesDir, { recursive: true, force: true });
});

describe('uploading a photo', () => {
  it('accepts a real camera JPEG, reports its size and serves a display copy and a thumbnail', async () => {
    const id = await createLead();
    const original = photo('nature/Garden.jpg');
    const { image, accepted_count, completed } = await uploaded(id, original, { category: 'facade' });
    expect(image).toMatchObject({
      category: 'facade',
      status: 'accepted',
      is_active: true,
      error_type: null,
      message: null,
      width: 2560,
      height: 1600,
      bytes: original.length,
      can_delete: true,
    });
    expect(accepted_count).toBe(1);
    expect(completed).toBe(false);

    const display = await getFile(image.url);
    expect(display.statusCode).toBe(200);
    expect(display.headers['content-type']).toBe('image/jpeg');
    // The variant never changes under its URL: cached for a year, and revalidated by its strong ETag.
    expect(display.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    expect(display.headers.etag).toMatch(/^"[0-9a-f]{64}"$/);
    expect(display.headers['x-content-type-options']).toBe('nosniff');
    const d = await sharp(display.rawPayload).metadata();
    expect([d.format, d.width, d.height]).toEqual(['jpeg', 2048, 1280]);
    const t = await sharp((await getFile(image.thumbnail_url)).rawPayload).metadata();
    expect([t.format, t.width, t.height]).toEqual(['jpeg', 400, 250]);
  });

  it('accepts a real PNG and keeps a JPEG copy of it', async () => {
    const id = await createLead();
    const { image } = await uploaded(id, photo('abstract/Flow.png'), {
      filename: 'flow.png',
      type: 'image/png',
    });
    expect(image).toMatchObject({ status: 'accepted', width: 1920, height: 1200 });
    expect((await sharp((await getFile(image.url)).rawPayload).metadata()).format).toBe('jpeg');
  });

  it('reads the size after the EXIF orientation: landscape pixels turned upright are rejected as vertical', async () => {
    const id = await createLead();
    const { image, completed } = await uploaded(id, fixture('landscape-orientation-6.jpg'));
    expect(image).toMatchObject({ status: 'rejected', error_type: 'VERTICAL', width: 1280, height: 1920 });
    expect(image.message).toBe('Please upload a horizontal (landscape) photo');
    expect(image.can_delete).toBe(true);
    expect(completed).toBe(false);
  });

  it('accepts portrait pixels whose EXIF orientation makes them landscape, and stores them turned', async () => {
    const id = await createLead();
    const { image } = await uploaded(id, fixture('portrait-orientation-6.jpg'));
    expect(image).toMatchObject({ status: 'accepted', width: 1680, height: 1050 });
    const d = await sharp((await getFile(image.url)).rawPayload).metadata();
    expect([d.width, d.height, d.orientation]).toEqual([1680, 1050, undefined]);
  });

  it('rejects a portrait photo as VERTICAL, in the language of the request', async () => {
    const id = await createLead();
    const res = await upload(id, fixture('portrait.jpg'), { headers: { httpxoyolang: 'ar' } });
    expect(res.statusCode, res.body).toBe(201);
    const { image } = res.json<{ data: UploadImageResult }>().data;
    expect(image).toMatchObject({ status: 'rejected', error_type: 'VERTICAL', width: 1200, height: 1800 });
    expect(image.message).toMatch(ARABIC);
  });

  it('rejects a photo 999 px wide as RESOLUTION', async () => {
    const id = await createLead();
    const { image } = await uploaded(id, fixture('narrow-999.jpg'));
    expect(image).toMatchObject({ status: 'rejected', error_type: 'RESOLUTION', width: 999 });
    expect(image.message).toBe('Please upload a photo of at least 1000 × 1000 pixels');
  });

  it('goes by the content, not the name: a PNG named .jpg is accepted', async () => {
    const id = await createLead();
    const { image } = await uploaded(id, fixture('png-named.jpg'), {
      filename: 'silk.jpg',
      type: 'image/jpeg',
    });
    expect(image).toMatchObject({ status: 'accepted', width: 1600, height: 1200 });
  });

  it('refuses a text file named .jpg with 415 and stores nothing', async () => {
    const id = await createLead();
    const res = await upload(id, fixture('text.jpg'), { filename: 'holiday.jpg' });
    expect(res.statusCode).toBe(415);
    expect(res.json().error).toMatchObject({
      code: 'ONB_IMAGE_FORMAT',
      message: 'Please upload a .jpg, .jpeg or .png photo',
      field: 'file',
    });
    expect(await rowsOf(id)).toEqual([]);
  });

  it('refuses a truncated JPEG with 422', async () => {
    const id = await createLead();
    const res = await upload(id, fixture('truncated.jpg'));
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toMatchObject({
      code: 'ONB_IMAGE_UPLOAD_FAILED',
      message: 'Image Upload Failed. Please try again.',
    });
    expect(await rowsOf(id)).toEqual([]);
  });

  it('refuses a decompression bomb (30000 × 30000 px in 100 kB) with 422 without decoding it', async () => {
    const id = await createLead();
    const bomb = fixture('bomb.png');
    expect(bomb.length).toBeLessThan(200_000);
    const before = process.memoryUsage().rss;
    const res = await upload(id, bomb, { filename: 'bomb.png', type: 'image/png' });
    const grown = process.memoryUsage().rss - before;
    expect(res.statusCode).toBe(422);
    expect(res.json().error.code).toBe('ONB_IMAGE_UPLOAD_FAILED');
    // Decoded it would take 900 MB as grey and 2.7 GB as RGB.
    expect(grown).toBeLessThan(300 * 1024 * 1024);
  });

  it('refuses a 100-megapixel PNG, over the 50-megapixel limit, with 422', async () => {
    const id = await createLead();
    const res = await upload(id, fixture('bomb-100mp.png'), { filename: 'big.png', type: 'image/png' });
    expect(res.statusCode).toBe(422);
    expect(res.json().error.code).toBe('ONB_IMAGE_UPLOAD_FAILED');
    expect(await rowsOf(id)).toEqual([]);
  });

  it('refuses the real photo over 10 MB with 413', async () => {
    const id = await createLead();
    const big = photo('abstract/Elephants_5640x3172.jpg');
    expect(big.length).toBeGreaterThan(10_485_760);
    const res = await upload(id, big);
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toMatchObject({
      code: 'ONB_IMAGE_TOO_LARGE',
      message: 'Please upload a photo smaller than 10 MB',
    });
    expect(await rowsOf(id)).toEqual([]);
  });

  it('answers 413 while the oversized photo is still being sent', async () => {
    const id = await createLead();
    const big = photo('abstract/Elephants_5640x3172.jpg');
    // A little more than the limit is sent, then nothing: the answer must come without the rest.
    const answer = await sendOverHttp(id, big, { clientUploadId: randomUUID(), sendFirst: 10_485_760 + MB });
    expect(answer, 'no answer before the whole file was sent').toBeDefined();
    expect(answer!.status).toBe(413);
    expect(JSON.parse(answer!.body).error.code).toBe('ONB_IMAGE_TOO_LARGE');
  });

  it('answers a retry over HTTP at once, without waiting for its file', async () => {
    const id = await createLead();
    const clientUploadId = randomUUID();
    const first = await uploaded(id, photo('nature/Wood.jpg'), { clientUploadId });
    const answer = await sendOverHttp(id, photo('abstract/Elephants_5640x3172.jpg'), {
      clientUploadId,
      sendFirst: MB,
    });
    expect(answer, 'no answer before the whole file was sent').toBeDefined();
    expect(answer!.status).toBe(200);
    expect(JSON.parse(answer!.body).data.image.image_id).toBe(first.image.image_id);
  });

  it('refuses the same file twice, and the same photo re-encoded and resized, with 409', async () => {
    const id = await createLead();
    const garden = photo('nature/Garden.jpg');
    await uploaded(id, garden, { category: 'facade' });
    const again = await upload(id, garden, { category: 'room' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatchObject({
      code: 'ONB_IMAGE_DUPLICATE',
      message: 'This image has already been uploaded. Please re-upload a new image',
    });
    const reencoded = fixture('garden-reencoded.jpg');
    expect(reencoded.equals(garden)).toBe(false);
    const similar = await upload(id, reencoded, { category: 'room' });
    expect(similar.statusCode).toBe(409);
    expect(similar.json().error.code).toBe('ONB_IMAGE_DUPLICATE');
    // A different photograph is fine, and nothing of the refused ones was kept.
    await uploaded(id, photo('nature/LadyBird.jpg'));
    expect((await rowsOf(id)).length).toBe(2);
    expect(await storedKeysOf(id)).toHaveLength(4);
  });

  it('answers a retried upload (same client_upload_id) with the same image: 200, one row', async () => {
    const id = await createLead();
    const clientUploadId = randomUUID();
    const first = await uploaded(id, photo('nature/Aqua.jpg'), { clientUploadId, category: 'bathroom' });
    const retry = await upload(id, photo('nature/Aqua.jpg'), { clientUploadId, category: 'bathroom' });
    expect(retry.statusCode).toBe(200);
    const second = retry.json<{ data: UploadImageResult }>().data;
    expect(second.image.image_id).toBe(first.image.image_id);
    expect(second.image.client_upload_id).toBe(clientUploadId);
    // Even with another file, the stored image is answered (the retry's body is not read).
    const other = await upload(id, fixture('text.jpg'), { clientUploadId });
    expect(other.statusCode).toBe(200);
    expect(other.json().data.image.image_id).toBe(first.image.image_id);
    expect(await rowsOf(id)).toHaveLength(1);
  });

  it('strips EXIF and GPS: neither the display copy nor the thumbnail keeps them, and the original is not stored', async () => {
    const id = await createLead();
    const withGps = fixture('with-gps.jpg');
    const m = await sharp(withGps).metadata();
    expect(m.exif?.toString('latin1')).toContain('OnboardTestCam');
    const { image } = await uploaded(id, withGps);
    for (const url of [image.url, image.thumbnail_url]) {
      const bytes = (await getFile(url)).rawPayload;
      const meta = await sharp(bytes).metadata();
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
      expect(bytes.toString('latin1')).not.toContain('OnboardTestCam');
    }
    const leadId = (await leadRowId(id))!;
    const files = await app.db
      .selectFrom('stored_files')
      .select(['key', 'bytes'])
      .where('key', 'like', `${leadId}/%`)
      .orderBy('key')
      .execute();
    expect(files.map((f) => f.key)).toEqual([
      `${leadId}/${image.image_id}-display.jpg`,
      `${leadId}/${image.image_id}-thumb.jpg`,
    ]);
    for (const f of files) expect(Buffer.from(f.bytes).equals(withGps)).toBe(false);
  });

  it('needs the fields before the file, a known category and a multipart body', async () => {
    const id = await createLead();
    const fileFirst = multipartBody([
      { name: 'file', filename: 'a.jpg', type: 'image/jpeg', data: photo('nature/Blinds.jpg') },
      { name: 'category', value: 'room' },
      { name: 'client_upload_id', value: randomUUID() },
    ]);
    const res = await app.inject({
      method: 'POST',
      url: `${LEADS}/${id}/images`,
      headers: { cookie: owner, 'content-type': fileFirst.contentType },
      payload: fileFirst.payload,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({
      code: 'ONB_IMAGE_FIELDS_FIRST',
      message: 'Send the category and client_upload_id fields before the file',
    });

    const unknown = await upload(id, photo('nature/Blinds.jpg'), { category: 'swimming_pool' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().error).toMatchObject({ code: 'ONB_INVALID_INPUT', field: 'category' });

    const badId = await upload(id, photo('nature/Blinds.jpg'), { clientUploadId: 'not-a-uuid' });
    expect(badId.statusCode).toBe(400);
    expect(badId.json().error).toMatchObject({ code: 'ONB_INVALID_INPUT', field: 'client_upload_id' });

    const json = await app.inject({
      method: 'POST',
      url: `${LEADS}/${id}/images`,
      headers: { cookie: owner },
      payload: { category: 'room' },
    });
    expect(json.statusCode).toBe(400);
    expect(json.json().error).toMatchObject({ code: 'ONB_INVALID_INPUT', field: 'file' });
    expect(await rowsOf(id)).toEqual([]);
  });

  it("refuses another user's property (404), a signed-out upload (401) and a cross-site one (403)", async () => {
    const id = await createLead();
    const theirs = await upload(id, photo('nature/Blinds.jpg'), { cookie: other });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().error.code).toBe('ONB_LEAD_NOT_FOUND');
    const anonymous = await upload(id, photo('nature/Blinds.jpg'), { cookie: '' });
    expect(anonymous.statusCode).toBe(401);
    const crossSite = await upload(id, photo('nature/Blinds.jpg'), {
      headers: { origin: 'https://evil.example' },
    });
    expect(crossSite.statusCode).toBe(403);
    expect(crossSite.json().error.code).toBe('ONB_FORBIDDEN_ORIGIN');
    const sameSite = await upload(id, photo('nature/Blinds.jpg'), {
      headers: { origin: 'http://localhost:80', host: 'localhost:80' },
    });
    expect(sameSite.statusCode, sameSite.body).toBe(201);
    expect(await rowsOf(id)).toHaveLength(1);
  });
});

/** The `leads.id` of a property_unique_id (the folder of its files). */
/** The keys of the files stored for the lead `id` (table stored_files), sorted. */
async function storedKeysOf(id: string): Promise<string[]> {
  const rows = await app.db
    .selectFrom('stored_files')
    .select('key')
    .where('key', 'like', `${(await leadRowId(id))!}/%`)
    .orderBy('key')
    .execute();
  return rows.map((r) => r.key);
}

async function leadRowId(id: string): Promise<string | undefined> {
  return (
    await app.db.selectFrom('leads').select('id').where('property_unique_id', '=', id).executeTakeFirst()
  )?.id;
}

describe('serving the files', () => {
  it('serves a photo to its owner only: another user 404, signed out 401, a deleted photo 404', async () => {
    const id = await createLead();
    const { image } = await uploaded(id, photo('nature/GreenMeadow.jpg'));
    expect((await getFile(image.url)).statusCode).toBe(200);
    const theirs = await getFile(image.url, other);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().error.code).toBe('ONB_LEAD_NOT_FOUND');
    expect((await getFile(image.thumbnail_url, '')).statusCode).toBe(401);
    expect((await remove(id, image.image_id)).statusCode).toBe(200);
    const gone = await getFile(image.url);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().error.code).toBe('ONB_IMAGE_NOT_FOUND');
    expect((await getFile(`${LEADS}/${id}/images/not-a-uuid/file`)).statusCode).toBe(400);
  });
});

describe('deleting a photo', () => {
  it('deletes a recent photo; an old accepted one only within the window; a rejected one always', async () => {
    const id = await createLead();
    const recent = await uploaded(id, photo('nature/Storm.jpg'));
    const old = await uploaded(id, photo('nature/RainDrops.jpg'));
    const rejected = await uploaded(id, fixture('narrow-999.jpg'));
    expect(rejected.image.status).toBe('rejected');

    const deleted = await remove(id, recent.image.image_id);
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json<{ data: DeleteImageResult }>().data).toEqual({
      image_id: recent.image.image_id,
      is_active: false,
      completed: false,
      accepted_count: 1,
    });
    expect((await remove(id, recent.image.image_id)).statusCode).toBe(404);

    clockOffsetMs = DAY_MS + 60_000;
    try {
      const listed = (await list(id)).requirements.flatMap((r) => r.images);
      expect(listed.find((i) => i.image_id === old.image.image_id)?.can_delete).toBe(false);
      expect(listed.find((i) => i.image_id === rejected.image.image_id)?.can_delete).toBe(true);
      const tooOld = await remove(id, old.image.image_id);
      expect(tooOld.statusCode).toBe(409);
      expect(tooOld.json().error).toMatchObject({
        code: 'ONB_IMAGE_DELETE_NOT_RECENT',
        message: 'You can only delete images that were recently uploaded',
      });
      expect((await remove(id, rejected.image.image_id)).statusCode).toBe(200);
    } finally {
      clockOffsetMs = 0;
    }
    const rows = await rowsOf(id);
    expect(rows.filter((r) => r.is_active).map((r) => r.id)).toEqual([old.image.image_id]);
    // Deleted photos stay as inactive rows, and a deleted photo may be uploaded again.
    expect(rows).toHaveLength(3);
    await uploaded(id, photo('nature/Storm.jpg'));
  });

  it("refuses to delete another user's photo", async () => {
    const id = await createLead();
    const { image } = await uploaded(id, photo('nature/TwoWings.jpg'));
    const res = await remove(id, image.image_id, other);
    expect(res.statusCode).toBe(404);
    expect((await rowsOf(id))[0]!.is_active).toBe(true);
  });
});

describe('a property with upload disabled', () => {
  it('refuses upload and delete with 403, and says so in the list', async () => {
    const id = await createLead();
    const { image } = await uploaded(id, photo('nature/Dune.jpg'));
    await app.db
      .updateTable('leads')
      .set({ image_upload_disabled: true })
      .where('property_unique_id', '=', id)
      .execute();

    const up = await upload(id, photo('nature/FreshFlower.jpg'));
    expect(up.statusCode).toBe(403);
    expect(up.json().error).toMatchObject({
      code: 'ONB_IMAGE_UPLOAD_DISABLED',
      message: 'You are not allowed to upload images',
    });
    const del = await remove(id, image.image_id);
    expect(del.statusCode).toBe(403);
    expect(del.json().error.code).toBe('ONB_IMAGE_UPLOAD_DISABLED');
    const config = await list(id);
    expect(config.upload_enabled).toBe(false);
    expect(config.requirements.flatMap((r) => r.images).map((i) => [i.image_id, i.can_delete])).toEqual([
      [image.image_id, false],
    ]);
  });
});

describe('the images task', () => {
  it('lists the requirements by priority with each photo and its url', async () => {
    const id = await createLead();
    const { image } = await uploaded(id, photo('nature/LadyBird.jpg'), { category: 'room' });
    const config = await list(id);
    expect(config.requirements.map((r) => [r.category, r.priority, r.min_count])).toEqual([
      ['facade', 1, 1],
      ['reception', 2, 1],
      ['room', 3, 3],
      ['bathroom', 4, 1],
      ['other', 5, 0],
    ]);
    const room = config.requirements.find((r) => r.category === 'room')!;
    expect(room.accepted_count).toBe(1);
    expect(room.images.map((i) => i.url)).toEqual([image.url]);
    expect(image.url).toBe(`${LEADS}/${id}/images/${image.image_id}/file?variant=display`);
    expect(config).toMatchObject({
      min_total: 6,
      accepted_count: 1,
      rejected_count: 0,
      completed: false,
      upload_enabled: true,
      limits: {
        max_bytes: 10485760,
        min_width: 1000,
        min_height: 1000,
        mime_types: ['image/jpeg', 'image/png'],
      },
    });
  });

  it('completes at 6 accepted photos across the minimums, blocked by a rejected one, undone by a delete', async () => {
    const id = await createLead();
    const before = await checklist(id);
    expect(before.tasks.images.completed).toBe(false);
    const plan: [string, string][] = [
      ['facade', 'nature/Garden.jpg'],
      ['reception', 'nature/LadyBird.jpg'],
      ['room', 'nature/Aqua.jpg'],
      ['room', 'nature/YellowFlower.jpg'],
      ['bathroom', 'nature/Blinds.jpg'],
    ];
    for (const [category, path] of plan) await uploaded(id, photo(path), { category });
    // Five accepted photos: the rooms still need a third.
    expect((await checklist(id)).tasks.images.completed).toBe(false);
    const rejected = await uploaded(id, fixture('portrait.jpg'), { category: 'room' });
    expect(rejected.completed).toBe(false);
    const sixth = await uploaded(id, photo('nature/TwoWings.jpg'), { category: 'room' });
    expect(sixth.accepted_count).toBe(6);
    // The minimums are met, but a rejected photo must be deleted first (SPEC §5).
    expect(sixth.completed).toBe(false);
    expect((await checklist(id)).tasks.images.completed).toBe(false);

    const cleared = await remove(id, rejected.image.image_id);
    expect(cleared.json().data).toMatchObject({ completed: true, accepted_count: 6 });
    const done = await checklist(id);
    expect(done.tasks.images.completed).toBe(true);
    expect(done.completionPercentage).toBeGreaterThan(before.completionPercentage);
    expect((await list(id)).completed).toBe(true);
    const section = await app.db
      .selectFrom('lead_sections')
      .select(['data', 'version', 'completed'])
      .where('lead_id', '=', (await leadRowId(id))!)
      .where('section', '=', 'images')
      .executeTakeFirstOrThrow();
    // The active photos' ids, sorted: what a published listing compares to tell photo changes (issue 12 item 2).
    const active = (await list(id)).requirements.flatMap((r) => r.images.map((i) => i.image_id));
    expect(section.data).toEqual({ accepted_count: 6, image_ids: [...active].sort() });
    expect(section.completed).toBe(true);

    const undone = await remove(id, sixth.image.image_id);
    expect(undone.json().data).toMatchObject({ completed: false, accepted_count: 5 });
    const after = await checklist(id);
    expect(after.tasks.images.completed).toBe(false);
    expect(after.completionPercentage).toBe(before.completionPercentage);
  });
});

/** Saves the lead's room categories (a draft: no total_rooms needed); answers the checklist of the save. */
async function saveRooms(id: string, names: string[]): Promise<Checklist> {
  const lead = (await app.inject({ url: `${LEADS}/${id}`, headers: { cookie: owner } })).json().data.lead;
  const res = await app.inject({
    method: 'PUT',
    url: `${LEADS}/${id}/sections/room_categories`,
    headers: { cookie: owner },
    payload: {
      data: { room_categories: names.map((name) => ({ name, count: 2 })) },
      version: lead.sections.room_categories.version,
      draft: true,
    },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: { checklist: Checklist } }>().data.checklist;
}

/** The requirements as [category, room_category, min_count, accepted_count, images]. */
const requirementRows = (config: ImagesConfig) =>
  config.requirements.map((r) => [
    r.category,
    r.room_category,
    r.min_count,
    r.accepted_count,
    r.images.length,
  ]);

/** Uploads one accepted photo of facade, reception and bathroom each (3 of the 6 in all). */
async function nonRoomPhotos(id: string) {
  await uploaded(id, photo('nature/Garden.jpg'), { category: 'facade' });
  await uploaded(id, photo('nature/LadyBird.jpg'), { category: 'reception' });
  await uploaded(id, photo('nature/Blinds.jpg'), { category: 'bathroom' });
}

describe('room photos per room category', () => {
  it('without room categories: one room requirement, uploads need no room_category and may not send one', async () => {
    const id = await createLead();
    const { image } = await uploaded(id, photo('nature/Aqua.jpg'));
    expect(image.room_category).toBeNull();
    const sent = await upload(id, photo('nature/Storm.jpg'), { roomCategory: 'Deluxe' });
    expect(sent.statusCode).toBe(400);
    expect(sent.json().error).toMatchObject({ code: 'ONB_INVALID_INPUT', field: 'room_category' });
    const config = await list(id);
    expect(requirementRows(config)).toEqual([
      ['facade', undefined, 1, 0, 0],
      ['reception', undefined, 1, 0, 0],
      ['room', undefined, 3, 1, 1],
      ['bathroom', undefined, 1, 0, 0],
      ['other', undefined, 0, 0, 0],
    ]);
    expect(config.category_totals.room).toEqual({ min_count: 3, accepted_count: 1 });
  });

  it('lists one room requirement per saved room category, in the owner’s order, with the room total apart', async () => {
    const id = await createLead();
    await saveRooms(id, ['Deluxe double', '  Family   suite ', '', 'deluxe DOUBLE']);
    const { image } = await uploaded(id, photo('nature/Aqua.jpg'), { roomCategory: 'Family suite' });
    expect(image).toMatchObject({ category: 'room', room_category: 'Family suite', status: 'accepted' });
    const config = await list(id);
    expect(requirementRows(config)).toEqual([
      ['facade', undefined, 1, 0, 0],
      ['reception', undefined, 1, 0, 0],
      ['room', 'Deluxe double', 1, 0, 0],
      ['room', 'Family suite', 1, 1, 1],
      ['bathroom', undefined, 1, 0, 0],
      ['other', undefined, 0, 0, 0],
    ]);
    expect(config.requirements.map((r) => r.priority)).toEqual([1, 2, 3, 3, 4, 5]);
    expect(config.requirements[3]!.images[0]!.image_id).toBe(image.image_id);
    expect(config.category_totals).toEqual({
      facade: { min_count: 1, accepted_count: 0 },
      reception: { min_count: 1, accepted_count: 0 },
      room: { min_count: 3, accepted_count: 1 },
      bathroom: { min_count: 1, accepted_count: 0 },
      other: { min_count: 0, accepted_count: 0 },
    });
  });

  it('needs a room_category of the lead for a room photo, before the file, and none for other categories', async () => {
    const id = await createLead();
    await saveRooms(id, ['Deluxe double', 'Family suite']);
    const refusals: [UploadOptions, string][] = [
      [{}, 'missing'],
      [{ roomCategory: 'Penthouse' }, 'unknown'],
      [{ roomCategory: '' }, 'blank'],
      [{ category: 'facade', roomCategory: 'Deluxe double' }, 'on another category'],
    ];
    for (const [options, why] of refusals) {
      const res = await upload(id, photo('nature/Wood.jpg'), options);
      expect(res.statusCode, why).toBe(400);
      expect(res.json().error, why).toMatchObject({ code: 'ONB_INVALID_INPUT', field: 'room_category' });
    }
    const late = multipartBody([
      { name: 'category', value: 'room' },
      { name: 'client_upload_id', value: randomUUID() },
      { name: 'file', filename: 'a.jpg', type: 'image/jpeg', data: photo('nature/Wood.jpg') },
      { name: 'room_category', value: 'Deluxe double' },
    ]);
    const after = await app.inject({
      method: 'POST',
      url: `${LEADS}/${id}/images`,
      headers: { cookie: owner, 'content-type': late.contentType },
      payload: late.payload,
    });
    expect(after.statusCode).toBe(400);
    expect(after.json().error.field).toBe('room_category');
    expect(await rowsOf(id)).toEqual([]);

    // Matched whatever the case and spacing, stored as the lead spells it.
    const { image } = await uploaded(id, photo('nature/Wood.jpg'), { roomCategory: ' deluxe   DOUBLE ' });
    expect(image.room_category).toBe('Deluxe double');
    const row = await app.db
      .selectFrom('lead_images')
      .select('room_category')
      .where('id', '=', image.image_id)
      .executeTakeFirstOrThrow();
    expect(row.room_category).toBe('Deluxe double');
    const facade = await uploaded(id, photo('nature/Dune.jpg'), { category: 'facade' });
    expect(facade.image.room_category).toBeNull();
  });

  it('completes only when every room category has its photo, however many photos there are in all', async () => {
    const id = await createLead();
    await saveRooms(id, ['Deluxe double', 'Family suite']);
    await nonRoomPhotos(id);
    await uploaded(id, photo('nature/Aqua.jpg'), { roomCategory: 'Deluxe double' });
    await uploaded(id, photo('nature/YellowFlower.jpg'), { roomCategory: 'Deluxe double' });
    const third = await uploaded(id, photo('nature/TwoWings.jpg'), { roomCategory: 'Deluxe double' });
    // 6 accepted in all and 3 room photos, but the family suites have none.
    expect(third).toMatchObject({ accepted_count: 6, completed: false });
    expect((await checklist(id)).tasks.images.completed).toBe(false);
    const suite = await uploaded(id, photo('nature/Storm.jpg'), { roomCategory: 'Family suite' });
    expect(suite).toMatchObject({ accepted_count: 7, completed: true });
    expect((await checklist(id)).tasks.images.completed).toBe(true);
    // Deleting the suite's only photo reopens the task.
    expect((await remove(id, suite.image.image_id)).json().data).toMatchObject({ completed: false });
    expect((await checklist(id)).tasks.images.completed).toBe(false);
  });

  it('completes only when the rooms also have their total, even with a photo for every room category', async () => {
    const id = await createLead();
    await saveRooms(id, ['Deluxe double', 'Family suite']);
    await nonRoomPhotos(id);
    await uploaded(id, photo('nature/RainDrops.jpg'), { category: 'other' });
    await uploaded(id, photo('nature/Aqua.jpg'), { roomCategory: 'Deluxe double' });
    const two = await uploaded(id, photo('nature/Storm.jpg'), { roomCategory: 'Family suite' });
    // 6 accepted and one photo per room category, but 2 room photos where the rooms need 3.
    expect(two).toMatchObject({ accepted_count: 6, completed: false });
    const config = await list(id);
    expect(config.category_totals.room).toEqual({ min_count: 3, accepted_count: 2 });
    expect(config.completed).toBe(false);
    const three = await uploaded(id, photo('nature/TwoWings.jpg'), { roomCategory: 'Family suite' });
    expect(three).toMatchObject({ accepted_count: 7, completed: true });
  });

  it('follows the saved room categories: new ones reopen the task, renamed ones put their photos with the other room photos', async () => {
    const id = await createLead();
    await nonRoomPhotos(id);
    for (const path of ['nature/Aqua.jpg', 'nature/YellowFlower.jpg', 'nature/TwoWings.jpg'])
      await uploaded(id, photo(path));
    expect((await checklist(id)).tasks.images.completed).toBe(true);

    // The save itself answers the images task reopened: 'Deluxe' has no photo, the three are of no category.
    expect((await saveRooms(id, ['Deluxe'])).tasks.images.completed).toBe(false);
    expect((await checklist(id)).tasks.images.completed).toBe(false);
    let config = await list(id);
    expect(requirementRows(config).filter(([c]) => c === 'room')).toEqual([
      ['room', 'Deluxe', 1, 0, 0],
      ['room', null, 0, 3, 3],
    ]);
    expect(config.category_totals.room!.accepted_count).toBe(3);
    const deluxe = await uploaded(id, photo('nature/Storm.jpg'), { roomCategory: 'Deluxe' });
    expect(deluxe.completed).toBe(true);

    // Renamed: its photo keeps its old name and joins the others; the new name needs its own.
    expect((await saveRooms(id, ['Deluxe king'])).tasks.images.completed).toBe(false);
    config = await list(id);
    expect(requirementRows(config).filter(([c]) => c === 'room')).toEqual([
      ['room', 'Deluxe king', 1, 0, 0],
      ['room', null, 0, 4, 4],
    ]);
    expect(config.requirements.find((r) => r.room_category === null)!.images.at(-1)).toMatchObject({
      image_id: deluxe.image.image_id,
      room_category: 'Deluxe',
    });

    // Back to the old name in other letters: the photo is the category's again.
    expect((await saveRooms(id, ['DELUXE'])).tasks.images.completed).toBe(true);
    config = await list(id);
    expect(requirementRows(config).filter(([c]) => c === 'room')).toEqual([
      ['room', 'DELUXE', 1, 1, 1],
      ['room', null, 0, 3, 3],
    ]);

    // No room categories left: one room requirement again, with every room photo.
    expect((await saveRooms(id, [])).tasks.images.completed).toBe(true);
    expect(requirementRows(await list(id)).filter(([c]) => c === 'room')).toEqual([
      ['room', undefined, 3, 4, 4],
    ]);
  });

  it('keeps the task right when room categories are saved while room photos upload', async () => {
    const id = await createLead();
    await nonRoomPhotos(id);
    await saveRooms(id, ['Deluxe']);
    const [a, b, rooms] = await Promise.all([
      upload(id, photo('nature/Aqua.jpg'), { roomCategory: 'Deluxe' }),
      upload(id, photo('nature/TwoWings.jpg'), { roomCategory: 'Deluxe' }),
      saveRooms(id, ['Deluxe', 'Suite']),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(rooms.tasks.images.completed).toBe(false);
    const c = await uploaded(id, photo('nature/Storm.jpg'), { roomCategory: 'Suite' });
    // 6 accepted, 3 of rooms, each room category one or more: whichever order the three ran in.
    expect(c).toMatchObject({ accepted_count: 6, completed: true });
    expect((await checklist(id)).tasks.images.completed).toBe(true);
  });

  it('brings the images task up to date when listing, after a change made elsewhere', async () => {
    const id = await createLead();
    await nonRoomPhotos(id);
    for (const path of ['nature/Aqua.jpg', 'nature/YellowFlower.jpg', 'nature/TwoWings.jpg'])
      await uploaded(id, photo(path));
    const leadId = (await leadRowId(id))!;
    const section = () =>
      app.db
        .selectFrom('lead_sections')
        .select(['version', 'completed'])
        .where('lead_id', '=', leadId)
        .where('section', '=', 'images')
        .executeTakeFirstOrThrow();
    const before = await section();
    expect(before.completed).toBe(true);
    // Listing with nothing changed writes nothing.
    await list(id);
    expect(await section()).toEqual(before);
    await app.db
      .insertInto('lead_sections')
      .values({
        lead_id: leadId,
        section: 'room_categories',
        data: JSON.stringify({ room_categories: [{ name: 'Suite', count: 1 }] }),
        version: 1,
        completed: false,
        updated_at: new Date(),
      })
      .execute();
    expect((await checklist(id)).tasks.images.completed).toBe(true);
    expect((await list(id)).completed).toBe(false);
    expect(await section()).toEqual({ version: before.version + 1, completed: false });
    expect((await checklist(id)).tasks.images.completed).toBe(false);
  });

  it('draws one uploader per room category on the photos screen, and the other room photos apart', async () => {
    const translations = createTranslations();
    const screens = await buildTestApp({
      config: { dataDir },
      screens: loadScreenCatalogue({ dir: defaultScreensDir, translate: translations.translate }),
    });
    const id = await createLead();
    const screen = async () => {
      const res = await screens.inject({
        url: `/hms_ms/api/v1/screens/images?property_unique_id=${id}`,
        headers: { cookie: owner },
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data.widget_list as { id: string; contents: Record<string, unknown> }[];
    };
    const uploaders = async () =>
      (await screen())
        .filter((w) => w.id.startsWith('uploader_room'))
        .map((w) => [w.id, w.contents.title, w.contents.room_category, w.contents.add_enabled]);
    expect(await uploaders()).toEqual([['uploader_room', 'Rooms', undefined, undefined]]);

    await uploaded(id, photo('nature/Aqua.jpg'));
    await saveRooms(id, ['Deluxe double', 'Family suite']);
    const deluxe = await uploaded(id, photo('nature/Storm.jpg'), { roomCategory: 'Deluxe double' });
    expect(await uploaders()).toEqual([
      ['uploader_room_0', 'Room photos: Deluxe double', 'Deluxe double', undefined],
      ['uploader_room_1', 'Room photos: Family suite', 'Family suite', undefined],
      ['uploader_room_other', 'Other room photos', undefined, false],
    ]);
    const widgets = await screen();
    const first = widgets.find((w) => w.id === 'uploader_room_0')!.contents;
    expect(first).toMatchObject({ category: 'room', min_count: 1 });
    expect((first.images as { image_id: string }[]).map((i) => i.image_id)).toEqual([deluxe.image.image_id]);
    expect(widgets.find((w) => w.id === 'rooms_total')!.contents.text).toBe(
      'Room photos in all: 2 of 3, with at least 1 for each room category',
    );
  });
});

describe('OpenAPI', () => {
  it('lists the four image operations, the upload as multipart', async () => {
    const doc = (await app.inject('/hms_ms/api/openapi.json')).json();
    type Operation = { operationId: string; requestBody?: { content: Record<string, unknown> } };
    const ops: Record<string, Operation> = {};
    for (const methods of Object.values(doc.paths) as Record<string, Operation>[])
      for (const op of Object.values(methods)) ops[op.operationId] = op;
    for (const id of [
      'uploadPropertyImage',
      'listPropertyImages',
      'deletePropertyImage',
      'getPropertyImageFile',
    ])
      expect(ops[id], id).toBeDefined();
    expect(Object.keys(ops.uploadPropertyImage!.requestBody!.content)).toEqual(['multipart/form-data']);
  });
});
