import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  Checklist,
  KycDetails,
  KycDocument,
  SaveKycDetailsResult,
  UserDetails,
} from '../../../schemas/generated/types';
import { renderIdCard } from '../../test-support/id-cards';
import { buildTestApp, createTestLead, multipartBody, outboxCode, signInNewOwner } from '../../test-helpers';

const LEADS = '/hms_ms/api/v1/onboard/leads';
const ARABIC = /[\u0600-\u06FF]/;

let app: FastifyInstance;
let owner: string;
let ownerPhone: string;
let other: string;
let panCard: Buffer;

const kyc = (id: string) => `${LEADS}/${id}/kyc`;

/** POSTs a document the way the browser does: id_type, client_upload_id, then the file. */
function upload(
  id: string,
  data: Buffer,
  o: { idType?: string; clientUploadId?: string; cookie?: string; headers?: Record<string, string> } = {},
) {
  const { payload, contentType } = multipartBody([
    { name: 'id_type', value: o.idType ?? 'pan' },
    { name: 'client_upload_id', value: o.clientUploadId ?? randomUUID() },
    { name: 'file', filename: 'card.jpg', type: 'image/jpeg', data },
  ]);
  return app.inject({
    method: 'POST',
    url: `${kyc(id)}/documents`,
    headers: { cookie: o.cookie ?? owner, 'content-type': contentType, ...o.headers },
    payload,
  });
}

/** Uploads, expects 202, waits for text recognition and answers the document with its verdict. */
async function recognised(id: string, data: Buffer, idType: string, headers: Record<string, string> = {}) {
  const res = await upload(id, data, { idType });
  expect(res.statusCode, res.body).toBe(202);
  const doc = res.json<{ data: { document: KycDocument } }>().data.document;
  expect(doc.status).toBe('processing');
  await app.kyc.idle();
  const got = await app.inject({
    url: `${kyc(id)}/documents/${doc.document_id}`,
    headers: { cookie: owner, ...headers },
  });
  expect(got.statusCode, got.body).toBe(200);
  expect(got.headers['cache-control']).toBe('no-store');
  return got.json<{ data: { document: KycDocument } }>().data.document;
}

/** The stored document rows of the lead `id` (property_unique_id). */
const documentRowsOf = (id: string) =>
  app.db
    .selectFrom('lead_kyc_documents')
    .innerJoin('leads', 'leads.id', 'lead_kyc_documents.lead_id')
    .select('lead_kyc_documents.id')
    .where('leads.property_unique_id', '=', id)
    .execute();

const save = (id: string, data: Record<string, unknown>, version: number, draft: boolean, cookie = owner) =>
  app.inject({ method: 'PUT', url: kyc(id), headers: { cookie }, payload: { data, version, draft } });

const details = async (id: string): Promise<KycDetails> => {
  const res = await app.inject({ url: kyc(id), headers: { cookie: owner } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: KycDetails }>().data;
};

const checklist = async (id: string): Promise<Checklist> =>
  (await app.inject({ url: `${LEADS}/${id}/checklist`, headers: { cookie: owner } })).json<{
    data: Checklist;
  }>().data;

/** Verifies `email` for the owner with the code from the development outbox. */
async function verifyEmail(id: string, email: string) {
  const sent = await app.inject({
    method: 'POST',
    url: `${kyc(id)}/contact/otp`,
    headers: { cookie: owner },
    payload: { channel: 'email', value: email },
  });
  expect(sent.statusCode, sent.body).toBe(200);
  const otp = await outboxCode(app, email.toLowerCase());
  const verified = await app.inject({
    method: 'POST',
    url: `${kyc(id)}/contact/verify`,
    headers: { cookie: owner },
    payload: { channel: 'email', value: email, otp },
  });
  expect(verified.statusCode, verified.body).toBe(200);
  expect(verified.json<{ data: { verified: boolean } }>().data.verified).toBe(true);
}

const complete = (phone: string, email: string) => ({
  name: 'Ravi Kumar',
  contact_phone: phone,
  email_address: email,
  number_of_rooms: 12,
  // The number printed on renderIdCard('pan').
  pan_number: 'ABCPS1234K',
  business_id: 'U55101DL2019PTC123456',
  gstin_available: 'no',
  id_type: 'pan',
});

beforeAll(async () => {
  app = await buildTestApp();
  owner = await signInNewOwner(app);
  other = await signInNewOwner(app);
  const state = await app.inject({ url: '/hms_ms/api/v2/sign_in', headers: { cookie: owner } });
  ownerPhone = state.json<{ data: { user: UserDetails } }>().data.user.phone ?? '';
  panCard = await renderIdCard('pan');
}, 60_000);

afterAll(async () => {
  await app.kyc.idle();
});

describe('KYC documents', () => {
  it('reads a PAN card as a PAN card, keeps no metadata and serves it to its owner only', async () => {
    const id = (await createTestLead(app, owner)).property_unique_id;
    const doc = await recognised(id, panCard, 'pan');
    expect(doc).toMatchObject({ id_type: 'pan', status: 'recognised', detected_id_type: 'pan' });
    expect(doc.message).toBeUndefined();

    const thumb = await app.inject({ url: doc.thumbnail_url, headers: { cookie: owner } });
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-type']).toBe('image/jpeg');
    expect(thumb.headers['cache-control']).toBe('no-store');
    const meta = await sharp(thumb.rawPayload).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.width).toBe(400);
    // Both copies are rows of stored_files (issue 14 item 1), the thumbnail tagged by its SHA-256.
    const files = await app.db
      .selectFrom('stored_files')
      .select(['key', 'sha256'])
      .where('key', 'like', `kyc/%/${doc.document_id}-%`)
      .orderBy('key')
      .execute();
    expect(files.map((f) => f.key.split('/').at(-1))).toEqual([
      `${doc.document_id}-display.jpg`,
      `${doc.document_id}-thumb.jpg`,
    ]);
    expect(thumb.headers.etag).toBe(`"${files[1]!.sha256}"`);
    const unchanged = await app.inject({
      url: doc.thumbnail_url,
      headers: { cookie: owner, 'if-none-match': thumb.headers.etag as string },
    });
    expect(unchanged.statusCode).toBe(304);

    expect((await app.inject({ url: doc.thumbnail_url, headers: { cookie: other } })).statusCode).toBe(404);
    const tagged = await app.inject({
      url: doc.thumbnail_url,
      headers: { cookie: other, 'if-none-match': thumb.headers.etag as string },
    });
    expect(tagged.statusCode).toBe(404);
    expect((await app.inject({ url: doc.thumbnail_url })).statusCode).toBe(401);
    const foreign = await app.inject({
      url: `${kyc(id)}/documents/${doc.document_id}`,
      headers: { cookie: other },
    });
    expect(foreign.statusCode).toBe(404);
    expect((await upload(id, panCard, { cookie: other })).statusCode).toBe(404);
    expect((await app.inject({ url: kyc(id), headers: { cookie: other } })).statusCode).toBe(404);
  }, 60_000);

  it("answers 'Uploaded Image is of different IdType' for a PAN card uploaded as Aadhaar, in the owner's language", async () => {
    const id = (await createTestLead(app, owner)).property_unique_id;
    const doc = await recognised(id, panCard, 'aadhaar');
    expect(doc).toMatchObject({ status: 'mismatch', detected_id_type: 'pan' });
    expect(doc.message).toBe('Uploaded Image is of different IdType');
    const ar = await app.inject({
      url: `${kyc(id)}/documents/${doc.document_id}`,
      headers: { cookie: owner, httpxoyolang: 'ar' },
    });
    expect(ar.json<{ data: { document: KycDocument } }>().data.document.message).toMatch(ARABIC);
  }, 60_000);

  it('calls a photo without any document text unreadable', async () => {
    const id = (await createTestLead(app, owner)).property_unique_id;
    const blank = await sharp({
      create: { width: 1200, height: 800, channels: 3, background: { r: 90, g: 140, b: 200 } },
    })
      .jpeg()
      .toBuffer();
    const doc = await recognised(id, blank, 'passport');
    expect(doc.status).toBe('unreadable');
    expect(doc.detected_id_type).toBeNull();
  }, 60_000);

  it('answers a retried upload with the same document, and refuses what is not a document photo', async () => {
    const id = (await createTestLead(app, owner)).property_unique_id;
    const clientUploadId = randomUUID();
    const first = await upload(id, panCard, { clientUploadId });
    expect(first.statusCode).toBe(202);
    const again = await upload(id, panCard, { clientUploadId });
    expect(again.statusCode).toBe(200);
    expect(again.json<{ data: { document: KycDocument } }>().data.document.document_id).toBe(
      first.json<{ data: { document: KycDocument } }>().data.document.document_id,
    );
    expect(await documentRowsOf(id)).toHaveLength(1);

    const small = await sharp({ create: { width: 500, height: 320, channels: 3, background: '#fff' } })
      .jpeg()
      .toBuffer();
    const tooSmall = await upload(id, small);
    expect(tooSmall.statusCode).toBe(422);
    expect(tooSmall.json<{ error: { code: string } }>().error.code).toBe('ONB_KYC_DOCUMENT_TOO_SMALL');
    expect((await upload(id, Buffer.from('not an image at all, just text'))).statusCode).toBe(415);
    const unknownType = await upload(id, panCard, { idType: 'library_card' });
    expect(unknownType.statusCode).toBe(400);
    expect(unknownType.json<{ error: { field?: string } }>().error.field).toBe('id_type');
    await app.kyc.idle();
  }, 60_000);

  it('answers a retry with the same Idempotency-Key with the first answer, and refuses the key for another file', async () => {
    const id = (await createTestLead(app, owner)).property_unique_id;
    const key = randomUUID();
    const clientUploadId = randomUUID();
    const headers = { 'idempotency-key': key };
    const first = await upload(id, panCard, { clientUploadId, headers });
    expect(first.statusCode, first.body).toBe(202);
    // The same request again: the first answer, 202 and the same body (not the 200 of a later upload).
    const retry = await upload(id, panCard, { clientUploadId, headers });
    expect(retry.statusCode, retry.body).toBe(202);
    expect(retry.json()).toEqual(first.json());
    const stored = await app.db.selectFrom('idempotency_keys').selectAll().where('key', '=', key).execute();
    expect(stored).toMatchObject([{ response_status: 202 }]);

    const other = await sharp(panCard).rotate(180).jpeg().toBuffer();
    const reused = await upload(id, other, { clientUploadId, headers });
    expect(reused.statusCode).toBe(422);
    expect(reused.json<{ error: { code: string } }>().error.code).toBe('ONB_IDEMPOTENCY_KEY_REUSED');
    expect(await documentRowsOf(id)).toHaveLength(1);
    await app.kyc.idle();
  }, 60_000);
});

describe('saveKycDetails', () => {
  it('completes the KYC task only with a recognised document of the chosen type and verified contacts', async () => {
    const id = (await createTestLead(app, owner)).property_unique_id;
    const email = `owner.${randomUUID().slice(0, 8)}@example.com`;
    const data = complete(ownerPhone, email);

    // A draft keeps everything, even before any evidence.
    const draft = await save(id, data, 0, true);
    expect(draft.statusCode, draft.body).toBe(200);
    let version = draft.json<{ data: SaveKycDetailsResult }>().data.section.version;

    const noDocument = await save(id, data, version, false);
    expect(noDocument.statusCode).toBe(400);
    expect(noDocument.json<{ error: { code: string } }>().error.code).toBe('ONB_KYC_DOCUMENT_REQUIRED');

    await recognised(id, panCard, 'pan');
    const noEmail = await save(id, data, version, false);
    expect(noEmail.statusCode).toBe(400);
    expect(noEmail.json<{ error: { code: string; field?: string } }>().error).toMatchObject({
      code: 'ONB_EMAIL_NOT_VERIFIED',
      field: 'email_address',
    });

    await verifyEmail(id, email.toUpperCase());
    const before = await details(id);
    expect(before.personal_details).toMatchObject({
      email_address: email,
      contact_number: ownerPhone,
      is_mail_verified: true,
      is_phone_verified: true,
      is_another_user_present: false,
    });

    const done = await save(id, data, version, false);
    expect(done.statusCode, done.body).toBe(200);
    const result = done.json<{ data: SaveKycDetailsResult }>().data;
    version = result.section.version;
    expect(result.section.completed).toBe(true);
    expect(result.checklist.tasks.kyc.completed).toBe(true);
    expect(result.kyc_details.completed).toBe(true);
    expect(result.kyc_details.document?.status).toBe('recognised');

    // A new document of another type reopens the task until it is read and the details saved again.
    await recognised(id, panCard, 'passport');
    expect((await checklist(id)).tasks.kyc.completed).toBe(false);
    const mismatch = await save(id, { ...data, id_type: 'passport' }, version, false);
    expect(mismatch.statusCode).toBe(422);
    expect(mismatch.json<{ error: { message: string } }>().error.message).toBe(
      'Uploaded Image is of different IdType',
    );
  }, 90_000);

  it('refuses a PAN card whose number differs from the typed PAN, and asks for a clearer photo when it cannot be read', async () => {
    const id = (await createTestLead(app, owner)).property_unique_id;
    const email = `pan.${randomUUID().slice(0, 8)}@example.com`;
    const data = complete(ownerPhone, email);
    await recognised(id, panCard, 'pan');
    await verifyEmail(id, email);

    // The card reads ABCPS1234K; the owner typed another valid PAN.
    const other = await save(id, { ...data, pan_number: 'ABCPE1234F' }, 0, false);
    expect(other.statusCode, other.body).toBe(422);
    expect(other.json().error).toEqual({
      code: 'ONB_KYC_NUMBER_MISMATCH',
      message:
        'The number on your document does not match the number you entered. Please check it, or upload your own document.',
      field: 'pan_number',
    });
    const ar = await app.inject({
      method: 'PUT',
      url: kyc(id),
      headers: { cookie: owner, httpxoyolang: 'ar' },
      payload: { data: { ...data, pan_number: 'ABCPE1234F' }, version: 0, draft: false },
    });
    expect(ar.json().error.message).toMatch(/[\u0600-\u06FF]/);
    expect((await checklist(id)).tasks.kyc.completed).toBe(false);

    // A number that could not be read on the card (typed in any case) asks for a clearer photo.
    const lead = await app.db
      .selectFrom('leads')
      .select('id')
      .where('property_unique_id', '=', id)
      .executeTakeFirstOrThrow();
    const digest = await app.db
      .selectFrom('lead_kyc_documents')
      .select('number_sha256')
      .where('lead_id', '=', lead.id)
      .executeTakeFirstOrThrow();
    expect(digest.number_sha256).toMatch(/^[0-9a-f]{64}$/);
    await app.db
      .updateTable('lead_kyc_documents')
      .set({ number_sha256: null })
      .where('lead_id', '=', lead.id)
      .execute();
    const unread = await save(id, data, 0, false);
    expect(unread.statusCode, unread.body).toBe(422);
    expect(unread.json().error).toMatchObject({
      code: 'ONB_KYC_NUMBER_UNREADABLE',
      message:
        'We could not read the number on your document. Please upload a clearer photo of the whole document.',
    });
    await app.db
      .updateTable('lead_kyc_documents')
      .set({ number_sha256: digest.number_sha256 })
      .where('lead_id', '=', lead.id)
      .execute();

    const done = await save(id, { ...data, pan_number: 'abcps1234k' }, 0, false);
    expect(done.statusCode, done.body).toBe(200);
    expect((await checklist(id)).tasks.kyc.completed).toBe(true);
  }, 90_000);

  it('keeps a half-typed PAN or GSTIN of a draft as typed with the other fields, and names the rule on a final save', async () => {
    const id = (await createTestLead(app, owner)).property_unique_id;
    const email = `typed.${randomUUID().slice(0, 8)}@example.com`;
    const data = { ...complete(ownerPhone, email), gstin_available: 'yes' };
    const draft = await save(id, { ...data, pan_number: 'ABCPS1234', gstin: '27ABCPS12' }, 0, true);
    expect(draft.statusCode, draft.body).toBe(200);
    const section = draft.json<{ data: SaveKycDetailsResult }>().data.section;
    expect(section.data).toMatchObject({
      name: 'Ravi Kumar',
      number_of_rooms: 12,
      pan_number: 'ABCPS1234',
      gstin: '27ABCPS12',
    });
    expect(section.completed).toBe(false);

    const short = await save(id, { ...data, pan_number: 'ABCPS1234' }, section.version, false);
    expect(short.statusCode).toBe(400);
    expect(short.json().error).toEqual({
      code: 'ONB_IDENTIFIER_INCOMPLETE',
      message: 'Please enter the full number',
      field: 'pan_number',
    });
    const gstin = await save(id, { ...data, gstin: '27ABCPS1234K1ZA' }, section.version, false);
    expect(gstin.statusCode).toBe(400);
    expect(gstin.json().error).toEqual({
      code: 'ONB_IDENTIFIER_CHECKSUM',
      message: 'This number is not valid. Please check it for typos',
      field: 'gstin',
    });
    // Nothing was lost by the refused saves.
    expect((await details(id)).section.data).toMatchObject({ pan_number: 'ABCPS1234', gstin: '27ABCPS12' });
  }, 90_000);

  it('needs a verified contact number other than the sign-in one, and a GSTIN when the business has one', async () => {
    const id = (await createTestLead(app, owner)).property_unique_id;
    const email = `gst.${randomUUID().slice(0, 8)}@example.com`;
    await recognised(id, panCard, 'pan');
    await verifyEmail(id, email);

    const withGst = { ...complete('+919812345678', email), gstin_available: 'yes' };
    const noGstin = await save(id, withGst, 0, false);
    expect(noGstin.statusCode).toBe(400);
    expect(noGstin.json<{ error: { code: string; field?: string } }>().error).toMatchObject({
      code: 'ONB_FIELD_REQUIRED',
      field: 'gstin',
    });
    const badGstin = await save(id, { ...withGst, gstin: '27ABCPE1234F1Z5' }, 0, false);
    expect(badGstin.statusCode).toBe(400);
    expect(badGstin.json<{ error: { field?: string } }>().error.field).toBe('gstin');
    const badPan = await save(id, { ...withGst, pan_number: 'ABCDE12345' }, 0, false);
    expect(badPan.statusCode).toBe(400);
    expect(badPan.json<{ error: { field?: string } }>().error.field).toBe('pan_number');

    const phone = await save(id, { ...withGst, gstin: '27ABCPE1234F1ZB' }, 0, false);
    expect(phone.statusCode, phone.body).toBe(400);
    expect(phone.json<{ error: { code: string; field?: string } }>().error).toMatchObject({
      code: 'ONB_PHONE_NOT_VERIFIED',
      field: 'contact_phone',
    });
  }, 90_000);
});
