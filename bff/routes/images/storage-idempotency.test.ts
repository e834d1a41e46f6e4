import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UploadImageResult } from '../../../schemas/generated/types';
import { openDatabase, type DatabaseHandle } from '../../db';
import { createDatabaseImageStorage, type ImageStorage } from '../../services/image-storage';
import { makeLeadReady } from '../../test-support/publish';
import {
  buildTestApp,
  createTestLead,
  multipartBody,
  sharedDatabase,
  signInNewOwner,
} from '../../test-helpers';

/**
 * Issue 14 items 1 and 5 through the API: photos stored in the database and served with a strong ETag,
 * and retries (Idempotency-Key, same bytes, publish) answered with the first answer, across two app
 * instances on one database (PGlite shared in memory, or PostgreSQL with TEST_DATABASE_URL: then the
 * second instance has its own connection pool, as another process would).
 */

const PHOTOS = process.env.TEST_PHOTOS_DIR ?? '/usr/share/backgrounds/mate';
const LEADS = '/hms_ms/api/v1/onboard/leads';
const photo = (path: string) => readFileSync(join(PHOTOS, path));
const onPostgres = !!process.env.TEST_DATABASE_URL;

let a: FastifyInstance;
let b: FastifyInstance;
let secondHandle: DatabaseHandle | undefined;
let owner: string;

beforeAll(async () => {
  a = await buildTestApp();
  const shared = await sharedDatabase();
  if (onPostgres) {
    secondHandle = await openDatabase({
      kind: 'postgres',
      url: process.env.TEST_DATABASE_URL!,
      ...(shared.schema ? { schema: shared.schema } : {}),
    });
  }
  b = await buildTestApp({ db: secondHandle ?? shared });
  owner = await signInNewOwner(a);
});

afterAll(async () => {
  await b.close();
  await secondHandle?.close();
});

interface UploadOptions {
  category?: string;
  clientUploadId?: string;
  key?: string;
  cookie?: string;
}

const upload = (app: FastifyInstance, id: string, data: Buffer, o: UploadOptions = {}) => {
  const { payload, contentType } = multipartBody([
    { name: 'category', value: o.category ?? 'room' },
    { name: 'client_upload_id', value: o.clientUploadId ?? randomUUID() },
    { name: 'file', filename: 'photo.jpg', type: 'image/jpeg', data },
  ]);
  return app.inject({
    method: 'POST',
    url: `${LEADS}/${id}/images`,
    headers: {
      cookie: o.cookie ?? owner,
      'content-type': contentType,
      ...(o.key ? { 'idempotency-key': o.key } : {}),
    },
    payload,
  });
};

const imageOf = (res: { json: () => unknown }) => (res.json() as { data: UploadImageResult }).data.image;

const rowsOf = (app: FastifyInstance, leadId: string) =>
  app.db.selectFrom('lead_images').select('id').where('lead_id', '=', leadId).execute();

const filesOf = (app: FastifyInstance, leadId: string) =>
  app.db.selectFrom('stored_files').select('key').where('key', 'like', `${leadId}/%`).execute();

const keysOf = (app: FastifyInstance, key: string) =>
  app.db.selectFrom('idempotency_keys').selectAll().where('key', '=', key).execute();

describe(`photos stored in the database (${onPostgres ? 'PostgreSQL' : 'PGlite'})`, () => {
  it('serves the bytes stored on instance A from instance B, with a strong ETag, immutable caching and 304', async () => {
    const lead = await createTestLead(a, owner);
    const res = await upload(a, lead.property_unique_id, photo('nature/Garden.jpg'));
    expect(res.statusCode, res.body).toBe(201);
    const image = imageOf(res);
    const keys = (await filesOf(a, lead.lead_id)).map((f) => f.key).sort();
    expect(keys).toEqual([
      `${lead.lead_id}/${image.image_id}-display.jpg`,
      `${lead.lead_id}/${image.image_id}-thumb.jpg`,
    ]);

    const first = await b.inject({ url: image.url, headers: { cookie: owner } });
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('image/jpeg');
    expect(first.headers['cache-control']).toBe('private, max-age=31536000, immutable');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    const stored = await a.db
      .selectFrom('stored_files')
      .select('bytes')
      .where('key', '=', keys[0]!)
      .executeTakeFirstOrThrow();
    expect(first.rawPayload.equals(Buffer.from(stored.bytes))).toBe(true);

    const again = await a.inject({ url: image.url, headers: { cookie: owner, 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    const listed = await a.inject({
      url: image.url,
      headers: { cookie: owner, 'if-none-match': `"other", W/${etag}` },
    });
    expect(listed.statusCode).toBe(304);
    const changed = await a.inject({
      url: image.url,
      headers: { cookie: owner, 'if-none-match': '"other"' },
    });
    expect(changed.statusCode).toBe(200);
    const thumb = await a.inject({ url: image.thumbnail_url, headers: { cookie: owner } });
    expect(thumb.headers.etag).not.toBe(etag);

    // Ownership comes first: another owner with the right tag gets 404, not 304.
    const stranger = await signInNewOwner(a);
    const theirs = await a.inject({ url: image.url, headers: { cookie: stranger, 'if-none-match': etag } });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.json().error.code).toBe('ONB_LEAD_NOT_FOUND');

    // Deleting the photo removes its files in the same transaction.
    const del = await a.inject({
      method: 'DELETE',
      url: `${LEADS}/${lead.property_unique_id}/images/${image.image_id}`,
      headers: { cookie: owner },
    });
    expect(del.statusCode, del.body).toBe(200);
    expect(await filesOf(a, lead.lead_id)).toEqual([]);
    expect((await b.inject({ url: image.url, headers: { cookie: owner } })).statusCode).toBe(404);
  });

  it('leaves no file and no row when the upload fails after its files were written', async () => {
    const real = createDatabaseImageStorage(a.db);
    // The thumbnail is written, then the storage fails: the transaction holding both files rolls back.
    const failing: ImageStorage = {
      ...real,
      async put(key, bytes, trx) {
        await real.put(key, bytes, trx);
        if (key.endsWith('-thumb.jpg')) throw new Error('storage failed after the write');
      },
    };
    const broken = await buildTestApp({ imageStorage: failing });
    const lead = await createTestLead(a, owner);
    const res = await upload(broken, lead.property_unique_id, photo('nature/LadyBird.jpg'));
    expect(res.statusCode).toBe(500);
    expect(res.json()).toMatchObject({ success: false, error: { code: 'ONB_INTERNAL' } });
    expect(await rowsOf(a, lead.lead_id)).toEqual([]);
    expect(await filesOf(a, lead.lead_id)).toEqual([]);
    // The same photo then goes in whole.
    expect((await upload(a, lead.property_unique_id, photo('nature/LadyBird.jpg'))).statusCode).toBe(201);
    expect(await filesOf(a, lead.lead_id)).toHaveLength(2);
  });
});

describe('retried uploads', () => {
  it('answers a retry with the same Idempotency-Key on another instance with the first answer, one row', async () => {
    const lead = await createTestLead(a, owner);
    const key = randomUUID();
    const clientUploadId = randomUUID();
    const bytes = photo('nature/Dune.jpg');
    const first = await upload(a, lead.property_unique_id, bytes, { key, clientUploadId });
    expect(first.statusCode, first.body).toBe(201);
    const retry = await upload(b, lead.property_unique_id, bytes, { key, clientUploadId });
    expect(retry.statusCode, retry.body).toBe(201);
    expect(retry.json()).toEqual(first.json());
    expect(await rowsOf(a, lead.lead_id)).toHaveLength(1);
    expect(await filesOf(b, lead.lead_id)).toHaveLength(2);
    expect(await keysOf(b, key)).toHaveLength(1);

    // The same key with another request (another file) is refused in the API's error shape.
    const reused = await upload(b, lead.property_unique_id, photo('nature/Storm.jpg'), {
      key,
      clientUploadId,
    });
    expect(reused.statusCode).toBe(422);
    expect(reused.json()).toEqual({
      success: false,
      error: {
        code: 'ONB_IDEMPOTENCY_KEY_REUSED',
        message: 'This request key was already used for a different request. Please try again.',
      },
    });
    expect(await rowsOf(a, lead.lead_id)).toHaveLength(1);
  });

  it('stores one photo when two instances get the same key at once', async () => {
    const lead = await createTestLead(a, owner);
    const key = randomUUID();
    const clientUploadId = randomUUID();
    const bytes = photo('nature/TwoWings.jpg');
    const [one, two] = await Promise.all([
      upload(a, lead.property_unique_id, bytes, { key, clientUploadId }),
      upload(b, lead.property_unique_id, bytes, { key, clientUploadId }),
    ]);
    expect([one.statusCode, two.statusCode]).toEqual([201, 201]);
    expect(imageOf(two).image_id).toBe(imageOf(one).image_id);
    expect(await rowsOf(a, lead.lead_id)).toHaveLength(1);
    expect(await keysOf(a, key)).toMatchObject([{ response_status: 201 }]);
  });

  it('answers the same bytes in the same slot without a key with the first photo, and refuses them elsewhere', async () => {
    const lead = await createTestLead(a, owner);
    const bytes = photo('nature/Aqua.jpg');
    const first = await upload(a, lead.property_unique_id, bytes);
    expect(first.statusCode, first.body).toBe(201);
    // A retry that lost its answer and made a new client_upload_id, sent to the other instance.
    const retry = await upload(b, lead.property_unique_id, bytes);
    expect(retry.statusCode, retry.body).toBe(201);
    expect(imageOf(retry).image_id).toBe(imageOf(first).image_id);
    expect(await rowsOf(a, lead.lead_id)).toHaveLength(1);
    // The same file in another category is still a duplicate (SPEC §5).
    const elsewhere = await upload(b, lead.property_unique_id, bytes, { category: 'facade' });
    expect(elsewhere.statusCode).toBe(409);
    expect(elsewhere.json().error.code).toBe('ONB_IMAGE_DUPLICATE');
  });

  it('refuses a key that is not 1–255 visible characters, and keeps no refusal', async () => {
    const lead = await createTestLead(a, owner);
    const bad = await upload(a, lead.property_unique_id, photo('nature/Blinds.jpg'), {
      key: 'x'.repeat(256),
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().success).toBe(false);
    const key = randomUUID();
    // A refusal (not a photo) is not kept: the retry with a photo is done.
    const refused = await upload(a, lead.property_unique_id, Buffer.from('not a photo'), { key });
    expect(refused.statusCode).toBe(415);
    expect(await keysOf(a, key)).toEqual([]);
  });
});

describe('retried publishing', () => {
  const publish = (app: FastifyInstance, id: string, key?: string, path = 'publish') =>
    app.inject({
      method: 'POST',
      url: `${LEADS}/${id}/${path}`,
      headers: { cookie: owner, ...(key ? { 'idempotency-key': key } : {}) },
    });

  it('answers a retried publish with the same key with the first answer, from the other instance', async () => {
    const lead = await createTestLead(a, owner);
    await makeLeadReady(a.db, lead.lead_id, { images: a.images });
    const key = randomUUID();
    const first = await publish(a, lead.property_unique_id, key);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data.already_published).toBe(false);
    const retry = await publish(b, lead.property_unique_id, key);
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toEqual(first.json());
    // Without the key, publishing again says it was published already: the same listing.
    const plain = await publish(b, lead.property_unique_id);
    expect(plain.json().data).toMatchObject({
      already_published: true,
      listing_id: first.json().data.listing_id,
    });
    // The key belongs to this publish: the same key on publish/changes is another request.
    const reused = await publish(a, lead.property_unique_id, key, 'publish/changes');
    expect(reused.statusCode).toBe(422);
    expect(reused.json().error.code).toBe('ONB_IDEMPOTENCY_KEY_REUSED');
  });

  it('keeps no refusal: a key first refused (tasks missing) publishes once the lead is ready', async () => {
    const lead = await createTestLead(a, owner);
    const key = randomUUID();
    const refused = await publish(a, lead.property_unique_id, key);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.code).toBe('ONB_PUBLISH_NOT_READY');
    await makeLeadReady(a.db, lead.lead_id, { images: a.images });
    const done = await publish(b, lead.property_unique_id, key);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().data.already_published).toBe(false);
    expect(await keysOf(a, key)).toMatchObject([{ response_status: 200 }]);
  });

  it('answers a retried publish of changes with the same key with the tasks that went live', async () => {
    const lead = await createTestLead(a, owner);
    await makeLeadReady(a.db, lead.lead_id, { images: a.images });
    expect((await publish(a, lead.property_unique_id)).statusCode).toBe(200);
    const basic = await a.inject({ url: `${LEADS}/${lead.property_unique_id}`, headers: { cookie: owner } });
    const section = basic.json().data.lead.sections.basic_info;
    const saved = await a.inject({
      method: 'PUT',
      url: `${LEADS}/${lead.property_unique_id}/sections/basic_info`,
      headers: { cookie: owner },
      payload: {
        data: { ...section.data, title: 'Sea View Residency & Spa' },
        version: section.version,
        draft: false,
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const key = randomUUID();
    const first = await publish(a, lead.property_unique_id, key, 'publish/changes');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().data.published_tasks).toEqual(['basic_info']);
    const retry = await publish(b, lead.property_unique_id, key, 'publish/changes');
    expect(retry.json()).toEqual(first.json());
    // Without the key, nothing is left to publish.
    const plain = await publish(b, lead.property_unique_id, undefined, 'publish/changes');
    expect(plain.json().data.published_tasks).toEqual([]);
  });
});
