import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type {
  ImagesConfig,
  Lead,
  PropertyReview,
  PublishResult,
  UploadImageResult,
} from '../../../schemas/generated/types';
import { defaultScreensDir } from '../../app';
import { loadScreenCatalogue } from '../../screens/composer';
import { loadBrands } from '../../services/brands';
import { createTranslations } from '../../services/translations';
import { makeLeadReady, READY_SECTION_DATA } from '../../test-support/publish';
import { buildTestApp, createTestLead, multipartBody, signInNewOwner } from '../../test-helpers';

const LEADS = '/hms_ms/api/v1/onboard/leads';
const ARABIC = /[\u0600-\u06FF]/;

let app: FastifyInstance;
let owner: string;

beforeAll(async () => {
  const t = createTranslations();
  app = await buildTestApp({
    screens: loadScreenCatalogue({ dir: defaultScreensDir, translate: t.translate }),
    config: { partnerSiteUrl: 'https://partner.example.com' },
  });
  owner = await signInNewOwner(app);
});

const review = (id: string, cookie = owner, locale = 'en-GB') =>
  app.inject({ method: 'GET', url: `${LEADS}/${id}/review`, headers: { cookie, httpxoyolang: locale } });
const publish = (id: string, cookie = owner) =>
  app.inject({ method: 'POST', url: `${LEADS}/${id}/publish`, headers: { cookie } });
const getLead = async (id: string) =>
  (await app.inject({ method: 'GET', url: `${LEADS}/${id}`, headers: { cookie: owner } })).json<{
    data: { lead: Lead };
  }>().data.lead;

describe('publishProperty', () => {
  it('refuses a lead with tasks missing, naming them, and changes nothing', async () => {
    const lead = await createTestLead(app, owner);
    await makeLeadReady(app.db, lead.lead_id, { images: app.images, skip: ['kyc', 'terms_of_service'] });
    const res = await publish(lead.property_unique_id);
    expect(res.statusCode, res.body).toBe(422);
    const err = res.json().error;
    expect(err.code).toBe('ONB_PUBLISH_NOT_READY');
    expect(err.details).toEqual({ missing_tasks: ['kyc', 'terms_of_service'], rejected_image_count: 0 });
    expect(err.message).not.toBe('errors.publish_not_ready');
    const after = await getLead(lead.property_unique_id);
    expect(after.status).toBe('IN_PROGRESS');
    expect(after.published_at).toBeNull();
    expect(after.checklist.tasks.review.completed).toBe(false);
  });

  it('refuses a fresh lead with every task missing', async () => {
    const lead = await createTestLead(app, owner);
    const res = await publish(lead.property_unique_id);
    expect(res.statusCode).toBe(422);
    expect(res.json().error.details.missing_tasks).toEqual([
      'basic_info',
      'address',
      'contact_info',
      'amenities',
      'room_categories',
      'images',
      'kyc',
      'terms_of_service',
    ]);
  });

  it('refuses while a rejected photo remains, then publishes once it is deleted', async () => {
    const lead = await createTestLead(app, owner);
    await makeLeadReady(app.db, lead.lead_id, { images: app.images, rejected: 1 });
    const res = await publish(lead.property_unique_id);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().error.details).toEqual({ missing_tasks: ['images'], rejected_image_count: 1 });
    const rev = (await review(lead.property_unique_id)).json<{ data: PropertyReview }>().data;
    expect(rev.ready).toBe(false);
    expect(rev.rejected_image_count).toBe(1);
    // The owner deletes the rejected photo through the API (rejected photos can always be deleted).
    const rejected = await app.db
      .selectFrom('lead_images')
      .select('id')
      .where('lead_id', '=', lead.lead_id)
      .where('status', '=', 'rejected')
      .executeTakeFirstOrThrow();
    const del = await app.inject({
      method: 'DELETE',
      url: `${LEADS}/${lead.property_unique_id}/images/${rejected.id}`,
      headers: { cookie: owner },
    });
    expect(del.statusCode, del.body).toBe(200);
    const ok = await publish(lead.property_unique_id);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.status).toBe('LIVE');
  });

  it("publishes a hotel as LIVE, completes the review task and points to 'Welcome Aboard'", async () => {
    const lead = await createTestLead(app, owner);
    expect(lead.brand).toBe('hotel');
    await makeLeadReady(app.db, lead.lead_id, { images: app.images });
    const res = await publish(lead.property_unique_id);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json<{ data: PublishResult }>().data;
    expect(data).toMatchObject({
      property_unique_id: lead.property_unique_id,
      status: 'LIVE',
      brand: 'hotel',
      brand_code: 'OYO',
      already_published: false,
      next: { to: '/welcome', query: { property_unique_id: lead.property_unique_id } },
    });
    const after = await getLead(lead.property_unique_id);
    expect(after.status).toBe('LIVE');
    expect(after.published_at).toBe(data.published_at);
    expect(after.checklist.tasks.review.completed).toBe(true);
    expect(after.checklist.completionPercentage).toBe(100);
  });

  it('publishes a holiday home as UNDER_REVIEW (brand OVH)', async () => {
    const lead = await createTestLead(app, owner, {
      title: 'Palm Villa',
      property_type: 'holiday_home',
      property_sub_type: 'villa',
    });
    expect(lead.brand).toBe('holiday_home');
    await makeLeadReady(app.db, lead.lead_id, { images: app.images });
    const res = await publish(lead.property_unique_id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      status: 'UNDER_REVIEW',
      brand: 'holiday_home',
      brand_code: 'OVH',
    });
    expect((await getLead(lead.property_unique_id)).status).toBe('UNDER_REVIEW');
  });

  it('is idempotent: a second publish answers the same listing and changes nothing', async () => {
    const lead = await createTestLead(app, owner);
    await makeLeadReady(app.db, lead.lead_id, { images: app.images });
    const first = (await publish(lead.property_unique_id)).json<{ data: PublishResult }>().data;
    const second = await publish(lead.property_unique_id);
    expect(second.statusCode).toBe(200);
    const again = second.json<{ data: PublishResult }>().data;
    expect(again.already_published).toBe(true);
    expect(again.listing_id).toBe(first.listing_id);
    expect(again.published_at).toBe(first.published_at);
    const review = await app.db
      .selectFrom('lead_sections')
      .select('version')
      .where('lead_id', '=', lead.lead_id)
      .where('section', '=', 'review')
      .executeTakeFirstOrThrow();
    expect(review.version).toBe(1);
  });

  it('gives two concurrent publishes one listing', async () => {
    const lead = await createTestLead(app, owner);
    await makeLeadReady(app.db, lead.lead_id, { images: app.images });
    const answers = await Promise.all([publish(lead.property_unique_id), publish(lead.property_unique_id)]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200]);
    const data = answers.map((a) => a.json<{ data: PublishResult }>().data);
    expect(data[0]!.listing_id).toBe(data[1]!.listing_id);
    expect(data.filter((d) => !d.already_published)).toHaveLength(1);
    const rows = await app.db
      .selectFrom('leads')
      .select(['listing_id'])
      .where('id', '=', lead.lead_id)
      .execute();
    expect(rows).toEqual([{ listing_id: data[0]!.listing_id }]);
  });

  it("answers 404 for another owner's lead and an unknown one, and 401 without a session", async () => {
    const lead = await createTestLead(app, owner);
    await makeLeadReady(app.db, lead.lead_id, { images: app.images });
    const stranger = await signInNewOwner(app);
    for (const res of [
      await publish(lead.property_unique_id, stranger),
      await review(lead.property_unique_id, stranger),
      await publish('PO0000000000'),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('ONB_LEAD_NOT_FOUND');
    }
    expect((await getLead(lead.property_unique_id)).status).toBe('IN_PROGRESS');
    const anonymous = await app.inject({
      method: 'POST',
      url: `${LEADS}/${lead.property_unique_id}/publish`,
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('getPropertyReview', () => {
  it('answers the property details, one bucket per task with its edit link, the photos and the cover', async () => {
    const lead = await createTestLead(app, owner);
    await makeLeadReady(app.db, lead.lead_id, { images: app.images });
    const res = await review(lead.property_unique_id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const data = res.json<{ data: PropertyReview }>().data;
    expect(data.ready).toBe(true);
    expect(data.missing_tasks).toEqual([]);
    expect(data.brand_code).toBe('OYO');
    const details = data.property_review_details.property_details;
    expect(details).toMatchObject({
      title: 'Sea View Residency',
      property_type: 'Hotel',
      total_rooms: 10,
      available_floors: 3,
      city: 'Goa',
      address: '12 Beach Road, Calangute, Goa',
      room_categories: [{ name: 'Deluxe', count: 10 }],
    });
    expect(details.amenities).toContain('Parking');
    const buckets = data.property_review_details.buckets;
    expect(buckets.map((b) => b.key)).toEqual([
      'basic_info',
      'address',
      'contact_info',
      'amenities',
      'room_categories',
      'images',
      'kyc',
      'terms_of_service',
    ]);
    expect(buckets.every((b) => b.completed)).toBe(true);
    const basic = buckets.find((b) => b.key === 'basic_info')!;
    expect(basic.summary).toEqual(['Sea View Residency', 'Rooms: 10', 'Floors: 3', '+919876543210']);
    expect(basic.edit).toEqual({
      to: '/task/details',
      query: { property_unique_id: lead.property_unique_id, task: 'basic_info' },
    });
    expect(buckets.find((b) => b.key === 'images')!.edit).toEqual({
      to: '/images',
      query: { property_unique_id: lead.property_unique_id },
    });
    expect(buckets.find((b) => b.key === 'room_categories')!.summary).toEqual(['Deluxe: 10']);
    const images = data.property_review_images;
    expect(images.property_images).toHaveLength(6);
    expect(images.property_images[0]!.category).toBe('facade');
    expect(data.cover_url).toBe(images.property_images[0]!.url);
    expect(data.cover_url).toMatch(
      new RegExp(
        `^/hms_ms/api/v1/onboard/leads/${lead.property_unique_id}/images/[0-9a-f-]{36}/file\\?variant=display$`,
      ),
    );
    expect(images.rooms_images).toEqual([
      { room_category: 'Deluxe', images: images.property_images.filter((i) => i.category === 'room') },
    ]);
    expect(images.property_requirement.find((r) => r.category === 'room')).toEqual({
      category: 'room',
      min_count: 3,
      accepted_count: 3,
    });
  });

  it("lists what is missing and shows 'Not added yet' for empty tasks, in Arabic too", async () => {
    const lead = await createTestLead(app, owner);
    const data = (await review(lead.property_unique_id, owner, 'ar')).json<{ data: PropertyReview }>().data;
    expect(data.ready).toBe(false);
    expect(data.missing_tasks).toHaveLength(8);
    expect(data.cover_url).toBeNull();
    const contact = data.property_review_details.buckets.find((b) => b.key === 'contact_info')!;
    expect(contact.completed).toBe(false);
    expect(contact.summary).toHaveLength(1);
    expect(contact.summary[0]).toMatch(ARABIC);
    expect(contact.title).toMatch(ARABIC);
  });
});

describe('brands', () => {
  it('maps property types to brands and refuses a brand file naming an unknown brand', () => {
    const brands = loadBrands();
    expect(brands.brandOf('hotel')).toEqual({ brand: 'hotel', code: 'OYO', publishedStatus: 'LIVE' });
    expect(brands.brandOf('holiday_home').publishedStatus).toBe('UNDER_REVIEW');
    expect(brands.brandOf('castle').brand).toBe('hotel');
    expect(() =>
      loadBrands({
        default_brand: 'hotel',
        brands: [{ brand: 'hotel', code: 'OYO', published_status: 'LIVE' }],
        property_types: { holiday_home: 'holiday_home' },
      }),
    ).toThrow(/unknown brand holiday_home/);
    expect(() => loadBrands({ default_brand: 'hotel', brands: [], property_types: {} })).toThrow(/brands/);
  });
});

interface Payload {
  widget_list: { id: string; widget_type: string; contents: Record<string, unknown> }[];
}
const screen = async (id: string, propertyUniqueId: string, locale = 'en-GB') => {
  const res = await app.inject({
    url: `/hms_ms/api/v1/screens/${id}?property_unique_id=${propertyUniqueId}`,
    headers: { cookie: owner, httpxoyolang: locale },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: Payload }>().data.widget_list;
};
const widget = (list: Payload['widget_list'], id: string) => list.find((w) => w.id === id);

const saveSection = (
  id: string,
  section: string,
  data: Record<string, unknown>,
  version: number,
  draft: boolean,
) =>
  app.inject({
    method: 'PUT',
    url: `${LEADS}/${id}/sections/${section}`,
    headers: { cookie: owner },
    payload: { data, version, draft },
  });
const publishChanges = (id: string, cookie = owner) =>
  app.inject({ method: 'POST', url: `${LEADS}/${id}/publish/changes`, headers: { cookie } });
const listed = async (id: string) => {
  const res = await app.inject({ url: '/hms_ms/api/v1/onboard/properties', headers: { cookie: owner } });
  return res
    .json<{ data: { live: { property_unique_id: string; title: string }[] } }>()
    .data.live.find((p) => p.property_unique_id === id);
};

/** A JPEG of blocks of random colours (each one a different picture), landscape 1200 × 1000 px by default. */
const randomPhoto = ({ width = 1200, height = 1000 } = {}) =>
  sharp(randomBytes(24 * 20 * 3), { raw: { width: 24, height: 20, channels: 3 } })
    .resize(width, height, { kernel: 'nearest', fit: 'fill' })
    .jpeg()
    .toBuffer();

/** Uploads a new photo of `category` through the API (201); answers the stored image. */
async function uploadPhoto(id: string, category: string, size?: { width: number; height: number }) {
  const { payload, contentType } = multipartBody([
    { name: 'category', value: category },
    { name: 'client_upload_id', value: randomUUID() },
    { name: 'file', filename: 'photo.jpg', type: 'image/jpeg', data: await randomPhoto(size) },
  ]);
  const res = await app.inject({
    method: 'POST',
    url: `${LEADS}/${id}/images`,
    headers: { cookie: owner, 'content-type': contentType },
    payload,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ data: UploadImageResult }>().data.image;
}

const liveReview = async (id: string) => (await review(id)).json<{ data: PropertyReview }>().data;

describe('edits of a published property (issue 12 item 2)', () => {
  it('keeps the live listing as published while the owner types, and puts the changes live on submit', async () => {
    const lead = await createTestLead(app, owner);
    await makeLeadReady(app.db, lead.lead_id, { images: app.images });
    const id = lead.property_unique_id;
    expect((await publish(id)).statusCode).toBe(200);
    const live = READY_SECTION_DATA.basic_info!;
    const basic = (await getLead(id)).sections.basic_info!;
    expect((await getLead(id)).pending_tasks).toEqual([]);

    // A draft autosave with half-typed text and a new name: the listing does not change.
    const draft = await saveSection(
      id,
      'basic_info',
      { ...live, title: 'Sea View Resi', description: 'Rooms fac' },
      basic.version,
      true,
    );
    expect(draft.statusCode, draft.body).toBe(200);
    const during = (await review(id)).json<{ data: PropertyReview }>().data;
    expect(during.property_review_details.property_details.description).toBe(live.description);
    expect(during.property_review_details.property_details.title).toBe(live.title);
    expect(during.pending_tasks).toEqual(['basic_info']);
    expect(during.property_review_details.buckets.find((b) => b.key === 'basic_info')).toMatchObject({
      pending: true,
      summary: expect.arrayContaining(['Sea View Resi']),
    });
    expect(during.ready).toBe(true);
    expect((await listed(id))!.title).toBe(live.title);
    expect((await getLead(id)).pending_tasks).toEqual(['basic_info']);

    // A draft with a half-typed phone number un-completes the task: the changes cannot go live.
    const broken = await saveSection(
      id,
      'basic_info',
      { ...live, title: 'Sea View Resi', description: 'Rooms fac', frontdesk_phone: '98765' },
      basic.version + 1,
      true,
    );
    expect(broken.statusCode, broken.body).toBe(200);
    const refused = await publishChanges(id);
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().error).toMatchObject({
      code: 'ONB_PUBLISH_NOT_READY',
      details: { missing_tasks: ['basic_info'], rejected_image_count: 0 },
    });
    expect((await review(id)).json<{ data: PropertyReview }>().data.ready).toBe(false);

    // The owner finishes and saves: still not live until submitted.
    const final = await saveSection(
      id,
      'basic_info',
      { ...live, title: 'Sea View Residency & Spa', description: 'Rooms facing the sea, with a spa.' },
      basic.version + 2,
      false,
    );
    expect(final.statusCode, final.body).toBe(200);
    expect(
      (await review(id)).json<{ data: PropertyReview }>().data.property_review_details.property_details
        .description,
    ).toBe(live.description);

    const submitted = await publishChanges(id);
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect(submitted.json().data).toMatchObject({
      property_unique_id: id,
      published_tasks: ['basic_info'],
      status: 'LIVE',
    });
    const after = (await review(id)).json<{ data: PropertyReview }>().data;
    expect(after.property_review_details.property_details).toMatchObject({
      title: 'Sea View Residency & Spa',
      description: 'Rooms facing the sea, with a spa.',
    });
    expect(after.pending_tasks).toEqual([]);
    expect((await listed(id))!.title).toBe('Sea View Residency & Spa');
    // Nothing left to submit: the call answers no task.
    expect((await publishChanges(id)).json().data.published_tasks).toEqual([]);
  });

  it("shows the state in the review's address (issue 12 item 8)", async () => {
    const lead = await createTestLead(app, owner);
    await makeLeadReady(app.db, lead.lead_id, { images: app.images });
    await app.db
      .updateTable('lead_sections')
      .set({ data: JSON.stringify({ ...READY_SECTION_DATA.address, state: 'Goa', postal_code: '403516' }) })
      .where('lead_id', '=', lead.lead_id)
      .where('section', '=', 'address')
      .execute();
    const rev = (await review(lead.property_unique_id)).json<{ data: PropertyReview }>().data;
    expect(rev.property_review_details.property_details.address).toBe(
      '12 Beach Road, Calangute, Goa, Goa, 403516',
    );
  });

  it('keeps the published photos on the live listing until Submit changes, and only then puts uploads and deletions live', async () => {
    const lead = await createTestLead(app, owner);
    const id = lead.property_unique_id;
    // The facade through the API (it has files); the other photos as makeLeadReady writes them.
    await makeLeadReady(app.db, lead.lead_id, { images: app.images, omitPhotos: ['facade'] });
    const oldFacade = await uploadPhoto(id, 'facade');
    expect((await publish(id)).statusCode).toBe(200);
    const published = await liveReview(id);
    expect(published.cover_url).toBe(oldFacade.url);
    expect(published.property_review_images.property_images).toHaveLength(6);
    expect(published.pending_tasks).toEqual([]);
    expect(widget(await screen('images', id), 'photos_not_live')).toBeUndefined();

    // The owner replaces the facade: the new one is a draft, the old one stays on the listing with its files.
    const newFacade = await uploadPhoto(id, 'facade');
    const removed = await app.inject({
      method: 'DELETE',
      url: `${LEADS}/${id}/images/${oldFacade.image_id}`,
      headers: { cookie: owner },
    });
    expect(removed.statusCode, removed.body).toBe(200);
    const during = await liveReview(id);
    expect(during.cover_url).toBe(oldFacade.url);
    const liveIds = during.property_review_images.property_images.map((i) => i.image_id);
    expect(liveIds).toContain(oldFacade.image_id);
    expect(liveIds).not.toContain(newFacade.image_id);
    expect(during.pending_tasks).toEqual(['images']);
    expect(during.property_review_details.buckets.find((b) => b.key === 'images')).toMatchObject({
      pending: true,
      completed: true,
    });
    expect(during.ready).toBe(true);
    expect((await getLead(id)).pending_tasks).toEqual(['images']);
    expect((await app.inject({ url: oldFacade.url, headers: { cookie: owner } })).statusCode).toBe(200);
    // The photos screen lists the owner's photos: the new facade, not the deleted one.
    const mine = (await app.inject({ url: `${LEADS}/${id}/images`, headers: { cookie: owner } })).json<{
      data: ImagesConfig;
    }>().data;
    const facadeIds = mine.requirements
      .filter((r) => r.category === 'facade')
      .flatMap((r) => r.images.map((i) => i.image_id));
    expect(facadeIds).toEqual([newFacade.image_id]);
    // …and says the photo changes are not live yet.
    expect(String(widget(await screen('images', id), 'photos_not_live')?.contents.text)).toMatch(
      /not live yet/,
    );

    const submitted = await publishChanges(id);
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect(submitted.json().data.published_tasks).toEqual(['images']);
    const after = await liveReview(id);
    expect(after.cover_url).toBe(newFacade.url);
    const afterIds = after.property_review_images.property_images.map((i) => i.image_id);
    expect(afterIds).toContain(newFacade.image_id);
    expect(afterIds).not.toContain(oldFacade.image_id);
    expect(after.pending_tasks).toEqual([]);
    expect(widget(await screen('images', id), 'photos_not_live')).toBeUndefined();
    // The deleted photo's files went with the submission.
    expect((await app.inject({ url: oldFacade.url, headers: { cookie: owner } })).statusCode).toBe(404);
  });

  it('refuses to submit photo changes while a rejected photo is left, and the listing keeps its photos', async () => {
    const lead = await createTestLead(app, owner);
    const id = lead.property_unique_id;
    await makeLeadReady(app.db, lead.lead_id, { images: app.images });
    expect((await publish(id)).statusCode).toBe(200);
    const portrait = await uploadPhoto(id, 'reception', { width: 1000, height: 1200 });
    expect(portrait.status).toBe('rejected');
    const refused = await publishChanges(id);
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json().error.details).toEqual({ missing_tasks: ['images'], rejected_image_count: 1 });
    const rev = await liveReview(id);
    expect(rev.pending_tasks).toEqual(['images']);
    expect(rev.property_review_images.property_images.map((i) => i.image_id)).not.toContain(
      portrait.image_id,
    );
    // Deleting the rejected photo leaves nothing to submit.
    await app.inject({
      method: 'DELETE',
      url: `${LEADS}/${id}/images/${portrait.image_id}`,
      headers: { cookie: owner },
    });
    expect((await liveReview(id)).pending_tasks).toEqual([]);
  });

  it('refuses to submit changes of a lead never published', async () => {
    const lead = await createTestLead(app, owner);
    await makeLeadReady(app.db, lead.lead_id, { images: app.images });
    const res = await publishChanges(lead.property_unique_id);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('ONB_LISTING_NOT_PUBLISHED');
    expect((await getLead(lead.property_unique_id)).published_at).toBeNull();
  });
});

describe('review and Welcome Aboard screens', () => {
  it('lists what is missing with links and keeps Go Live! disabled until the lead is ready', async () => {
    const lead = await createTestLead(app, owner);
    await makeLeadReady(app.db, lead.lead_id, { images: app.images, skip: ['kyc'] });
    const before = await screen('review', lead.property_unique_id);
    expect(widget(before, 'go_live')!.contents).toMatchObject({ label: 'Go Live!', disabled_when: true });
    expect(widget(before, 'todo_6')!.contents).toMatchObject({
      label: 'KYC',
      actions: [{ type: 'navigate', to: '/kyc', query: { property_unique_id: lead.property_unique_id } }],
    });
    expect(widget(before, 'todo_0')).toBeUndefined();
    const gallery = widget(before, 'photos')!;
    expect(gallery.widget_type).toBe('photo_gallery');
    expect((gallery.contents.images as unknown[]).length).toBe(6);
    await makeLeadReady(app.db, lead.lead_id, { images: app.images });
    const after = await screen('review', lead.property_unique_id);
    expect(widget(after, 'go_live')!.contents.disabled_when).toBe(false);
    expect(widget(after, 'missing_title')).toBeUndefined();
    expect(widget(after, 'submit_holiday_home')).toBeUndefined();
  });

  it("says 'No data to show' where the photos would be, with the option below to add them (SPEC §8)", async () => {
    const lead = await createTestLead(app, owner);
    const empty = await screen('review', lead.property_unique_id);
    expect(widget(empty, 'photos')).toBeUndefined();
    expect(widget(empty, 'no_photos')).toMatchObject({
      widget_type: 'empty_state',
      contents: {
        title: 'No data to show',
        description: 'Try below options to modify',
        action: {
          label: 'Add photos',
          actions: [
            { type: 'navigate', to: '/images', query: { property_unique_id: lead.property_unique_id } },
          ],
        },
      },
    });
    const arabic = await screen('review', lead.property_unique_id, 'ar');
    expect(String(widget(arabic, 'no_photos')!.contents.title)).toMatch(ARABIC);
    expect(String(widget(arabic, 'no_photos')!.contents.description)).toMatch(ARABIC);
    await makeLeadReady(app.db, lead.lead_id, { images: app.images });
    const withPhotos = await screen('review', lead.property_unique_id);
    expect(widget(withPhotos, 'photos')).toBeDefined();
    expect(widget(withPhotos, 'no_photos')).toBeUndefined();
  });

  it("words a holiday home as the 'OVH' variant: submit for review, then 'Under review' on Welcome Aboard", async () => {
    const lead = await createTestLead(app, owner, {
      title: 'Palm Villa',
      property_type: 'holiday_home',
      property_sub_type: 'villa',
    });
    await makeLeadReady(app.db, lead.lead_id, { images: app.images });
    const rev = await screen('review', lead.property_unique_id);
    expect(widget(rev, 'go_live')).toBeUndefined();
    expect(widget(rev, 'submit_holiday_home')!.contents.label).toBe('Submit for review');
    expect(String(widget(rev, 'intro_holiday_home')!.contents.text)).toContain('an expert will reach out');
    // Not published yet: Welcome Aboard sends the owner to the review.
    expect(widget(await screen('welcome', lead.property_unique_id), 'not_published')).toBeDefined();
    expect((await publish(lead.property_unique_id)).statusCode).toBe(200);
    const welcome = await screen('welcome', lead.property_unique_id);
    expect(widget(welcome, 'heading')!.contents.text).toBe('Welcome Aboard');
    expect(widget(welcome, 'under_review')!.contents.text).toBe('Under review');
    expect(widget(welcome, 'live')).toBeUndefined();
    const ar = await screen('welcome', lead.property_unique_id, 'ar');
    expect(String(widget(ar, 'under_review_text')!.contents.text)).toMatch(ARABIC);
  });

  it("shows a published hotel as live, with the partner app's download and how to log in", async () => {
    const lead = await createTestLead(app, owner);
    await makeLeadReady(app.db, lead.lead_id, { images: app.images });
    expect((await publish(lead.property_unique_id)).statusCode).toBe(200);
    const rev = await screen('review', lead.property_unique_id);
    expect(widget(rev, 'status_live')!.contents.text).toBe('Property is live');
    expect(widget(rev, 'go_live')).toBeUndefined();
    const welcome = await screen('welcome', lead.property_unique_id);
    expect(widget(welcome, 'live')!.contents.text).toBe('Property is live');
    expect(widget(welcome, 'download')!.contents.actions).toEqual([
      { type: 'open_url', url: 'https://partner.example.com' },
    ]);
    // The next step is the primary action; the dashboard is secondary (issue 12 item 11).
    expect(widget(welcome, 'download')!.contents.variant).toBe('contained');
    expect(widget(welcome, 'dashboard')!.contents.variant).toBe('outlined');
    expect(String(widget(welcome, 'login_step_2')!.contents.text)).toMatch(/^2\. Sign in with \+91/);
  });

  it("names the lead's property as the active hotel of its screens (SPEC §3 active_hotel_id, §7 x-qid)", async () => {
    const lead = await createTestLead(app, owner);
    for (const id of ['task', 'task_details', 'review', 'kyc', 'images', 'terms', 'welcome']) {
      const res = await app.inject({
        url: `/hms_ms/api/v1/screens/${id}?property_unique_id=${lead.property_unique_id}&task=basic_info`,
        headers: { cookie: owner },
      });
      expect(res.json().data.active_hotel_id, id).toBe(lead.property_unique_id);
    }
    const dashboard = await app.inject({
      url: '/hms_ms/api/v1/screens/dashboard',
      headers: { cookie: owner },
    });
    expect(dashboard.json().data.active_hotel_id).toMatch(/^PO[0-9A-Z]{10}$/);
  });

  it('opens the review from the checklist', async () => {
    const lead = await createTestLead(app, owner);
    const task = await screen('task', lead.property_unique_id);
    const checklist = widget(task, 'checklist')!.contents as { tasks: { key: string; actions: unknown[] }[] };
    expect(checklist.tasks.find((t) => t.key === 'review')!.actions).toEqual([
      {
        type: 'navigate',
        to: '/review',
        query: { property_unique_id: lead.property_unique_id },
        analytics: {
          event: 'checklist_task_add',
          properties: { task: 'review', property_unique_id: lead.property_unique_id },
        },
      },
    ]);
  });
});

describe('OpenAPI document', () => {
  it('lists getPropertyReview and publishProperty', async () => {
    const doc = (await app.inject('/hms_ms/api/openapi.json')).json();
    const ops = Object.values(doc.paths as Record<string, Record<string, { operationId: string }>>).flatMap(
      (m) => Object.values(m).map((o) => o.operationId),
    );
    expect(ops).toEqual(expect.arrayContaining(['getPropertyReview', 'publishProperty']));
  });
});
