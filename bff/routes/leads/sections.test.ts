import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Lead } from '../../../schemas/generated/types';
import catalogue from '../../screens/data/amenities.json' with { type: 'json' };
import { buildTestApp, createTestLead, signInNewOwner } from '../../test-helpers';

const BASE = '/hms_ms/api/v1/onboard/leads';
const ARABIC = /[\u0600-\u06FF]/;

let app: FastifyInstance;
let owner: string;
let other: string;

const signIn = () => signInNewOwner(app);

const createLead = async (cookie = owner): Promise<string> =>
  (await createTestLead(app, cookie)).property_unique_id;

const save = (
  id: string,
  section: string,
  payload: { data: Record<string, unknown>; version: number; draft: boolean },
  { cookie = owner, lang }: { cookie?: string; lang?: string } = {},
) =>
  app.inject({
    method: 'PUT',
    url: `${BASE}/${id}/sections/${section}`,
    headers: { cookie, ...(lang ? { httpxoyolang: lang } : {}) },
    payload,
  });

const getLead = async (id: string, cookie = owner): Promise<Lead> =>
  (await app.inject({ url: `${BASE}/${id}`, headers: { cookie } })).json().data.lead;

const basicInfo = {
  title: 'Sea View Residency',
  total_rooms: 24,
  available_floors: 3,
  frontdesk_phone: '+91 98765 43210',
};
const contact = {
  contact_name: 'Priya Nair',
  contact_email: 'priya@example.com',
  contact_phone: '+91 91234 56789',
};
const mandatory = catalogue.amenities.filter((a) => 'mandatory' in a && a.mandatory).map((a) => a.value);
const rooms = [
  { name: 'Deluxe double', count: 20 },
  { name: 'Suite', count: 4 },
];
const completeData: Record<string, Record<string, unknown>> = {
  contact_info: contact,
  amenities: { amenities: [...mandatory, 'parking'] },
  room_categories: { room_categories: rooms },
};

/** A lead whose basic info is saved finally (total_rooms 24). */
async function leadWithBasicInfo(): Promise<string> {
  const id = await createLead();
  const res = await save(id, 'basic_info', { data: basicInfo, version: 1, draft: false });
  expect(res.statusCode, res.body).toBe(200);
  return id;
}

beforeAll(async () => {
  app = await buildTestApp();
  owner = await signIn();
  other = await signIn();
});

describe('the new sections of a lead', () => {
  it('lists contact_info, amenities and room_categories on a new lead as never saved', async () => {
    const lead = await getLead(await createLead());
    for (const section of ['contact_info', 'amenities', 'room_categories'] as const) {
      expect(lead.sections[section]).toEqual({ data: {}, version: 0, completed: false, updated_at: null });
    }
  });

  it('completes each section on a final save: completionPercentage 11, 22, 33, 44', async () => {
    const id = await leadWithBasicInfo();
    const expected = { contact_info: 22, amenities: 33, room_categories: 44 };
    for (const [section, percentage] of Object.entries(expected)) {
      const res = await save(id, section, { data: completeData[section]!, version: 0, draft: false });
      expect(res.statusCode, res.body).toBe(200);
      const { section: saved, checklist } = res.json().data;
      expect(saved).toMatchObject({ version: 1, completed: true });
      expect(checklist.completionPercentage).toBe(percentage);
      expect(checklist.tasks[section]).toEqual({ completed: true });
    }
    const lead = await getLead(id);
    expect(lead.checklist.completionPercentage).toBe(44);
    expect(lead.sections.contact_info!.data).toEqual({
      contact_name: 'Priya Nair',
      contact_email: 'priya@example.com',
      contact_phone: '+919123456789',
    });
    expect(lead.sections.amenities!.data).toEqual({ amenities: [...mandatory, 'parking'] });
    expect(lead.sections.room_categories!.data).toEqual({ room_categories: rooms });
  });

  it.each(['contact_info', 'amenities', 'room_categories'])(
    "%s: another user's lead answers 404 and a stale version 409, saving nothing",
    async (section) => {
      const id = await leadWithBasicInfo();
      const data = completeData[section]!;
      const theirs = await save(id, section, { data, version: 0, draft: true }, { cookie: other });
      expect(theirs.statusCode).toBe(404);
      expect(theirs.json().error.code).toBe('ONB_LEAD_NOT_FOUND');

      expect((await save(id, section, { data: {}, version: 0, draft: true })).statusCode).toBe(200);
      const stale = await save(id, section, { data, version: 0, draft: false });
      expect(stale.statusCode).toBe(409);
      expect(stale.json().error.code).toBe('ONB_VERSION_CONFLICT');
      const ahead = await save(id, section, { data, version: 5, draft: true });
      expect(ahead.statusCode).toBe(409);
      expect((await getLead(id)).sections[section as 'amenities']).toMatchObject({
        data: {},
        version: 1,
        completed: false,
      });
    },
  );
});

describe('contact_info', () => {
  it('saves a draft as typed: a half-typed e-mail and phone are kept, the task stays pending', async () => {
    const id = await createLead();
    const data = { contact_name: 'Priya', contact_email: ' priya@exa ', contact_phone: '98765' };
    const res = await save(id, 'contact_info', { data, version: 0, draft: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.section).toMatchObject({
      data: { contact_name: 'Priya', contact_email: 'priya@exa', contact_phone: '98765' },
      version: 1,
      completed: false,
    });
    expect(res.json().data.checklist.tasks.contact_info).toEqual({ completed: false });
  });

  it('refuses a final save without a required field (400 with the field)', async () => {
    const id = await createLead();
    for (const field of ['contact_name', 'contact_email', 'contact_phone']) {
      const data: Record<string, unknown> = { ...contact, [field]: field === 'contact_name' ? null : '  ' };
      const res = await save(id, 'contact_info', { data, version: 0, draft: false });
      expect(res.statusCode, field).toBe(400);
      expect(res.json().error).toEqual({
        code: 'ONB_FIELD_REQUIRED',
        message: 'This field is required',
        field,
      });
    }
    expect((await getLead(id)).sections.contact_info!.version).toBe(0);
  });

  it("refuses an invalid e-mail on a final save with SPEC §8's text, in the user's language", async () => {
    const id = await createLead();
    for (const email of ['priya@', 'priya.example.com', 'priya @example.com', 'a@b@c.com']) {
      const res = await save(id, 'contact_info', {
        data: { ...contact, contact_email: email },
        version: 0,
        draft: false,
      });
      expect(res.statusCode, email).toBe(400);
      expect(res.json().error).toEqual({
        code: 'ONB_INVALID_EMAIL',
        message: 'Please enter the correct email ID',
        field: 'contact_email',
      });
    }
    const ar = await save(
      id,
      'contact_info',
      { data: { ...contact, contact_email: 'priya@' }, version: 0, draft: false },
      { lang: 'ar' },
    );
    expect(ar.json().error.message).toMatch(ARABIC);
  });

  it("refuses an invalid phone on a final save with SPEC §8's text, and reads it in contact_phone_country", async () => {
    const id = await createLead();
    const bad = await save(id, 'contact_info', {
      data: { ...contact, contact_phone: '12345' },
      version: 0,
      draft: false,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toEqual({
      code: 'ONB_INVALID_PHONE',
      message: 'Please enter the correct phone number',
      field: 'contact_phone',
    });
    const uae = await save(id, 'contact_info', {
      data: { ...contact, contact_phone: '050 123 4567', contact_phone_country: 'AE' },
      version: 0,
      draft: false,
    });
    expect(uae.statusCode, uae.body).toBe(200);
    expect(uae.json().data.section.data.contact_phone).toBe('+971501234567');
  });

  it('refuses data breaking the schema with the field', async () => {
    const id = await createLead();
    const cases: [Record<string, unknown>, string][] = [
      [{ contact_name: '' }, 'contact_name'],
      [{ contact_name: 'x'.repeat(101) }, 'contact_name'],
      [{ contact_email: `${'a'.repeat(250)}@example.com` }, 'contact_email'],
      [{ contact_email: 42 }, 'contact_email'],
      [{ contact_phone: '9'.repeat(31) }, 'contact_phone'],
      [{ contact_phone_country: 'India' }, 'contact_phone_country'],
      [{ contact_fax: '123' }, 'contact_fax'],
    ];
    for (const [data, field] of cases) {
      const res = await save(id, 'contact_info', { data, version: 0, draft: true });
      expect(res.statusCode, JSON.stringify(data)).toBe(400);
      expect(res.json().error).toEqual({ code: 'ONB_INVALID_INPUT', message: 'Invalid Input', field });
    }
  });

  it('keeps a completed section completed through a complete draft, not through one with a half-typed e-mail', async () => {
    const id = await createLead();
    await save(id, 'contact_info', { data: contact, version: 0, draft: false });
    const edited = await save(id, 'contact_info', {
      data: { ...contact, contact_name: 'Priya N.' },
      version: 1,
      draft: true,
    });
    expect(edited.json().data.section).toMatchObject({ version: 2, completed: true });
    const typing = await save(id, 'contact_info', {
      data: { ...contact, contact_email: 'priya@exam' },
      version: 2,
      draft: true,
    });
    expect(typing.json().data.section).toMatchObject({ version: 3, completed: false });
  });
});

describe('amenities', () => {
  it('saves a draft without the mandatory amenities; the task stays pending', async () => {
    const id = await createLead();
    const res = await save(id, 'amenities', {
      data: { amenities: ['parking', 'gym'] },
      version: 0,
      draft: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.section).toMatchObject({
      data: { amenities: ['parking', 'gym'] },
      version: 1,
      completed: false,
    });
  });

  it("refuses a value outside the catalogue with 'Invalid Input' field amenities, in a draft too", async () => {
    const id = await createLead();
    for (const amenities of [['parking', 'helipad'], ['wifi', 'wifi'], [''], 'wifi', [7]]) {
      for (const draft of [true, false]) {
        const res = await save(id, 'amenities', { data: { amenities }, version: 0, draft });
        expect(res.statusCode, JSON.stringify(amenities)).toBe(400);
        expect(res.json().error).toEqual({
          code: 'ONB_INVALID_INPUT',
          message: 'Invalid Input',
          field: 'amenities',
        });
      }
    }
    expect((await getLead(id)).sections.amenities!.version).toBe(0);
  });

  it('refuses a final save without amenities (400 field amenities)', async () => {
    const id = await createLead();
    for (const data of [{}, { amenities: [] }, { amenities: null }]) {
      const res = await save(id, 'amenities', { data, version: 0, draft: false });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toEqual({
        code: 'ONB_FIELD_REQUIRED',
        message: 'This field is required',
        field: 'amenities',
      });
    }
  });

  it('keeps a number out of its range in a draft with the other fields, and names the range on a final save', async () => {
    const id = await createLead();
    const draft = await save(id, 'basic_info', {
      data: { ...basicInfo, description: 'Quiet rooms', total_rooms: 0 },
      version: 1,
      draft: true,
    });
    expect(draft.statusCode, draft.body).toBe(200);
    expect((await getLead(id)).sections.basic_info!.data).toMatchObject({
      description: 'Quiet rooms',
      total_rooms: 0,
    });
    expect((await getLead(id)).sections.basic_info!.completed).toBe(false);

    const rooms = await save(id, 'basic_info', {
      data: { ...basicInfo, total_rooms: 0 },
      version: 2,
      draft: false,
    });
    expect(rooms.statusCode).toBe(400);
    expect(rooms.json().error).toEqual({
      code: 'ONB_NUMBER_RANGE',
      message: 'Enter a whole number from 1 to 1000',
      field: 'total_rooms',
    });
    const floors = await save(id, 'basic_info', {
      data: { ...basicInfo, available_floors: 500 },
      version: 2,
      draft: false,
    });
    expect(floors.json().error).toEqual({
      code: 'ONB_NUMBER_RANGE',
      message: 'Enter a whole number from 1 to 200',
      field: 'available_floors',
    });
    const ar = await save(
      id,
      'basic_info',
      { data: { ...basicInfo, total_rooms: 0 }, version: 2, draft: false },
      { lang: 'ar' },
    );
    expect(ar.json().error.message).toMatch(ARABIC);
  });

  it('refuses a final save missing a mandatory amenity with the translated message', async () => {
    const id = await createLead();
    expect(mandatory.length).toBeGreaterThan(0);
    for (const left of mandatory) {
      const res = await save(id, 'amenities', {
        data: { amenities: ['parking', ...mandatory.filter((a) => a !== left)] },
        version: 0,
        draft: false,
      });
      expect(res.statusCode, left).toBe(400);
      const label = catalogue.amenities.find((a) => a.value === left)!.label.$t;
      expect(res.json().error).toEqual({
        code: 'ONB_MANDATORY_AMENITIES',
        message: `Please select every mandatory amenity. Still missing: ${app.translations.translate('en-GB', label)}`,
        field: 'amenities',
        details: { missing_amenities: [left] },
      });
    }
    // Every missing one is named, by its label.
    const none = await save(id, 'amenities', { data: { amenities: ['parking'] }, version: 0, draft: false });
    expect(none.json().error.message).toBe(
      'Please select every mandatory amenity. Still missing: Wi-Fi, Hot water, Clean linen and towels, Fire extinguisher, First-aid kit',
    );
    const ar = await save(
      id,
      'amenities',
      { data: { amenities: ['parking'] }, version: 0, draft: false },
      {
        lang: 'ar',
      },
    );
    expect(ar.json().error.code).toBe('ONB_MANDATORY_AMENITIES');
    expect(ar.json().error.message).toMatch(ARABIC);
    expect((await getLead(id)).sections.amenities!.version).toBe(0);
  });

  it('un-completes the section when a draft drops a mandatory amenity', async () => {
    const id = await createLead();
    const done = await save(id, 'amenities', { data: { amenities: mandatory }, version: 0, draft: false });
    expect(done.json().data.section).toMatchObject({ completed: true });
    const more = await save(id, 'amenities', {
      data: { amenities: [...mandatory, 'gym'] },
      version: 1,
      draft: true,
    });
    expect(more.json().data.section).toMatchObject({ version: 2, completed: true });
    const fewer = await save(id, 'amenities', {
      data: { amenities: mandatory.slice(1) },
      version: 2,
      draft: true,
    });
    expect(fewer.json().data.section).toMatchObject({ version: 3, completed: false });
    expect(fewer.json().data.checklist.tasks.amenities).toEqual({ completed: false });
  });
});

describe('room_categories', () => {
  it('saves a draft with categories not filled in yet (nulls inside a category are dropped)', async () => {
    const id = await createLead();
    const data = { room_categories: [{ name: 'Deluxe', count: null }, { count: 3 }, { name: '' }] };
    const res = await save(id, 'room_categories', { data, version: 0, draft: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.section).toMatchObject({
      data: { room_categories: [{ name: 'Deluxe' }, { count: 3 }, { name: '' }] },
      completed: false,
    });
  });

  it('refuses a final save without categories, or with one not filled in (400 field room_categories)', async () => {
    const id = await leadWithBasicInfo();
    const cases = [
      {},
      { room_categories: [] },
      { room_categories: [{ name: 'Deluxe', count: 24 }, { name: 'Suite' }] },
      { room_categories: [{ name: '   ', count: 24 }] },
    ];
    for (const data of cases) {
      const res = await save(id, 'room_categories', { data, version: 0, draft: false });
      expect(res.statusCode, JSON.stringify(data)).toBe(400);
      expect(res.json().error).toEqual({
        code: 'ONB_FIELD_REQUIRED',
        message: 'This field is required',
        field: 'room_categories',
      });
    }
  });

  it('refuses counts that do not add up to total_rooms, naming both numbers', async () => {
    const id = await leadWithBasicInfo();
    const data = {
      room_categories: [
        { name: 'Deluxe double', count: 20 },
        { name: 'Suite', count: 2 },
      ],
    };
    const res = await save(id, 'room_categories', { data, version: 0, draft: false });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toEqual({
      code: 'ONB_ROOM_COUNT_MISMATCH',
      message: 'The room counts add up to 22, but the property has 24 rooms',
      field: 'room_categories',
    });
    const ar = await save(id, 'room_categories', { data, version: 0, draft: false }, { lang: 'ar' });
    expect(ar.json().error.message).toMatch(ARABIC);
    expect(ar.json().error.message).toContain('22');
    expect(ar.json().error.message).toContain('24');
    // A draft that does not add up is saved, but not completed.
    const draft = await save(id, 'room_categories', { data, version: 0, draft: true });
    expect(draft.statusCode).toBe(200);
    expect(draft.json().data.section).toMatchObject({ version: 1, completed: false });
  });

  it('asks for basic info first when it has no total_rooms', async () => {
    const id = await createLead();
    const res = await save(id, 'room_categories', {
      data: { room_categories: rooms },
      version: 0,
      draft: false,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toEqual({
      code: 'ONB_BASIC_INFO_FIRST',
      message: 'Please fill in basic info first',
      field: 'room_categories',
    });
    const ar = await save(
      id,
      'room_categories',
      { data: { room_categories: rooms }, version: 0, draft: false },
      {
        lang: 'ar',
      },
    );
    expect(ar.json().error.message).toMatch(ARABIC);
    // A draft of basic info with total_rooms is enough: the rule reads the stored value.
    await save(id, 'basic_info', { data: { title: 'Sea View', total_rooms: 24 }, version: 1, draft: true });
    const after = await save(id, 'room_categories', {
      data: { room_categories: rooms },
      version: 0,
      draft: false,
    });
    expect(after.statusCode, after.body).toBe(200);
    expect(after.json().data.section.completed).toBe(true);
  });

  it('stops being completed when basic info changes total_rooms so that the counts no longer add up', async () => {
    const id = await leadWithBasicInfo();
    await save(id, 'room_categories', { data: { room_categories: rooms }, version: 0, draft: false });
    const same = await save(id, 'basic_info', {
      data: { ...basicInfo, title: 'Sea View' },
      version: 2,
      draft: true,
    });
    expect(same.json().data.checklist.tasks.room_categories).toEqual({ completed: true });
    const res = await save(id, 'basic_info', {
      data: { ...basicInfo, total_rooms: 30 },
      version: 3,
      draft: false,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.checklist).toMatchObject({
      completionPercentage: 11,
      tasks: { basic_info: { completed: true }, room_categories: { completed: false } },
    });
    // Its version stays, so the form open on it saves without a conflict.
    expect((await getLead(id)).sections.room_categories).toMatchObject({ version: 1, completed: false });
  });

  it('refuses data breaking the schema with the field', async () => {
    const id = await createLead();
    const cases: Record<string, unknown>[] = [
      { room_categories: [{ name: 'Deluxe', count: 0 }] },
      { room_categories: [{ name: 'Deluxe', count: 1001 }] },
      { room_categories: [{ name: 'Deluxe', count: 2.5 }] },
      { room_categories: [{ name: 'x'.repeat(61), count: 1 }] },
      { room_categories: [{ name: 'Deluxe', count: 1, price: 100 }] },
      { room_categories: Array.from({ length: 21 }, (_, i) => ({ name: `Room ${i}`, count: 1 })) },
      { room_categories: 'Deluxe' },
    ];
    for (const data of cases) {
      const res = await save(id, 'room_categories', { data, version: 0, draft: true });
      expect(res.statusCode, JSON.stringify(data)).toBe(400);
      expect(res.json().error).toEqual({
        code: 'ONB_INVALID_INPUT',
        message: 'Invalid Input',
        field: 'room_categories',
      });
    }
  });
});
