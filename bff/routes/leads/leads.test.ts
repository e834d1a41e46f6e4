import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Lead } from '../../../schemas/generated/types';
import { buildTestApp, signInNewOwner } from '../../test-helpers';

const BASE = '/hms_ms/api/v1/onboard/leads';
const CONFLICT_TEXT =
  'This section was changed on another device or tab. The latest version has been loaded.';

let app: FastifyInstance;
let owner: string;
let other: string;
// Every reading of the clock moves it on, so leads created one after the other have distinct times.
let tick = 0;
const now = () => Date.now() + (tick += 10);

const signIn = signInNewOwner;

async function createLead(
  cookie: string,
  body: Record<string, unknown> = {
    title: 'Sea View Residency',
    property_type: 'hotel',
    property_sub_type: 'boutique_hotel',
  },
): Promise<Lead> {
  const res = await app.inject({ method: 'POST', url: BASE, headers: { cookie }, payload: body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.lead;
}

const save = (
  cookie: string,
  id: string,
  payload: Record<string, unknown>,
  section = 'basic_info',
  headers: Record<string, string> = {},
) =>
  app.inject({
    method: 'PUT',
    url: `${BASE}/${id}/sections/${section}`,
    headers: { cookie, ...headers },
    payload,
  });

const getLead = async (cookie: string, id: string): Promise<Lead> =>
  (await app.inject({ url: `${BASE}/${id}`, headers: { cookie } })).json().data.lead;

const complete = {
  title: 'Sea View Residency',
  description: 'Rooms facing the sea.',
  total_rooms: 24,
  available_floors: 3,
  frontdesk_phone: '+91 98765 43210',
};

beforeAll(async () => {
  app = await buildTestApp({ now });
  owner = await signIn(app);
  other = await signIn(app);
});

describe('POST /hms_ms/api/v1/onboard/leads (createLead)', () => {
  it('creates a lead with a new property_unique_id, the title in basic_info (version 1) and an empty checklist', async () => {
    const lead = await createLead(owner, {
      title: '  Sea View Residency  ',
      property_type: 'holiday_home',
      property_sub_type: 'villa',
    });
    expect(lead.property_unique_id).toMatch(/^PO[0-9A-HJKMNP-TV-Z]{10}$/);
    expect(lead).toMatchObject({
      title: 'Sea View Residency',
      property_type: 'holiday_home',
      property_sub_type: 'villa',
      status: 'IN_PROGRESS',
      sections: {
        basic_info: { data: { title: 'Sea View Residency' }, version: 1, completed: false },
      },
      checklist: { completionPercentage: 0, section_status: 'IN_PROGRESS' },
    });
    expect(Object.keys(lead.checklist.tasks)).toEqual([
      'basic_info',
      'address',
      'contact_info',
      'amenities',
      'room_categories',
      'images',
      'kyc',
      'terms_of_service',
      'review',
    ]);
    expect(Object.values(lead.checklist.tasks).every((t) => t.completed === false)).toBe(true);
    expect(new Date(lead.created_at).toISOString()).toBe(lead.created_at);

    const row = await app.db
      .selectFrom('leads')
      .selectAll()
      .where('property_unique_id', '=', lead.property_unique_id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ id: lead.lead_id, title: 'Sea View Residency', status: 'IN_PROGRESS' });
    const section = await app.db
      .selectFrom('lead_sections')
      .selectAll()
      .where('lead_id', '=', lead.lead_id)
      .executeTakeFirstOrThrow();
    expect(section).toMatchObject({
      section: 'basic_info',
      version: 1,
      data: { title: 'Sea View Residency' },
    });
  });

  it("refuses an invalid body with 400 'Invalid Input' and the field", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ property_type: 'hotel', property_sub_type: 'hotel' }, 'title'],
      [{ title: 'x'.repeat(121), property_type: 'hotel', property_sub_type: 'hotel' }, 'title'],
      [{ title: '   ', property_type: 'hotel', property_sub_type: 'hotel' }, 'title'],
      [{ title: 'A', property_type: 'hotel', property_sub_type: 'hotel', city: 'Goa' }, 'city'],
      [{ title: 'A', property_type: 'castle', property_sub_type: 'hotel' }, 'property_type'],
      [{ title: 'A', property_type: 'hotel', property_sub_type: 'villa' }, 'property_sub_type'],
      [{ title: 'A', property_type: 'holiday_home', property_sub_type: 'resort' }, 'property_sub_type'],
    ];
    for (const [payload, field] of cases) {
      const res = await app.inject({ method: 'POST', url: BASE, headers: { cookie: owner }, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error).toEqual({ code: 'ONB_INVALID_INPUT', message: 'Invalid Input', field });
    }
  });
});

describe('reading leads', () => {
  it("lists the user's own leads, newest first", async () => {
    const fresh = await signIn(app);
    expect((await app.inject({ url: BASE, headers: { cookie: fresh } })).json().data).toEqual({ leads: [] });
    const first = await createLead(fresh, {
      title: 'First',
      property_type: 'hotel',
      property_sub_type: 'guest_house',
    });
    const second = await createLead(fresh, {
      title: 'Second',
      property_type: 'hotel',
      property_sub_type: 'motel',
    });
    await createLead(other, { title: 'Not mine', property_type: 'hotel', property_sub_type: 'hotel' });
    const res = await app.inject({ url: BASE, headers: { cookie: fresh } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const leads: Lead[] = res.json().data.leads;
    expect(leads.map((l) => l.title)).toEqual(['Second', 'First']);
    expect(leads[0]).toEqual(second);
    expect(leads[1]).toEqual(first);
  });

  it('gets one lead and its checklist', async () => {
    const lead = await createLead(owner);
    const res = await app.inject({ url: `${BASE}/${lead.property_unique_id}`, headers: { cookie: owner } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.lead).toEqual(lead);
    const checklist = await app.inject({
      url: `${BASE}/${lead.property_unique_id}/checklist`,
      headers: { cookie: owner },
    });
    expect(checklist.statusCode).toBe(200);
    expect(checklist.json().data).toEqual(lead.checklist);
  });

  it("answers 404 ONB_LEAD_NOT_FOUND for another user's lead on every route, never its data", async () => {
    const lead = await createLead(owner, {
      title: 'Secret Palace',
      property_type: 'hotel',
      property_sub_type: 'resort',
    });
    const id = lead.property_unique_id;
    const answers = [
      await app.inject({ url: `${BASE}/${id}`, headers: { cookie: other } }),
      await app.inject({ url: `${BASE}/${id}/checklist`, headers: { cookie: other } }),
      await save(other, id, { data: { title: 'Mine now' }, version: 1, draft: true }),
      await app.inject({
        url: `/hms_ms/api/v1/screens/private_test?property_unique_id=${id}`,
        headers: { cookie: other },
      }),
      await app.inject({ url: `${BASE}/PO0000000000`, headers: { cookie: owner } }),
    ];
    for (const res of answers) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('ONB_LEAD_NOT_FOUND');
      expect(res.body).not.toContain('Secret Palace');
    }
    const list = (await app.inject({ url: BASE, headers: { cookie: other } })).json().data.leads as Lead[];
    expect(list.map((l) => l.property_unique_id)).not.toContain(id);
    expect((await getLead(owner, id)).sections.basic_info).toMatchObject({
      version: 1,
      data: { title: 'Secret Palace' },
    });
  });

  it('answers 401 without a session on every route', async () => {
    const lead = await createLead(owner);
    const id = lead.property_unique_id;
    const answers = [
      await app.inject({
        method: 'POST',
        url: BASE,
        payload: { title: 'A', property_type: 'hotel', property_sub_type: 'hotel' },
      }),
      await app.inject({ url: BASE }),
      await app.inject({ url: `${BASE}/${id}` }),
      await app.inject({ url: `${BASE}/${id}/checklist` }),
      await app.inject({
        method: 'PUT',
        url: `${BASE}/${id}/sections/basic_info`,
        payload: { data: {}, version: 1, draft: true },
      }),
    ];
    for (const res of answers) {
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe('ONB_UNAUTHORIZED');
    }
  });
});

describe('PUT …/sections/:section (saveLeadSection)', () => {
  it('saves a draft: the data replaces the section, the version goes up by one, the task stays pending', async () => {
    const lead = await createLead(owner);
    const id = lead.property_unique_id;
    const res = await save(owner, id, {
      data: { title: 'Sea View', total_rooms: 12 },
      version: 1,
      draft: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    const { section, checklist } = res.json().data;
    expect(section).toMatchObject({
      data: { title: 'Sea View', total_rooms: 12 },
      version: 2,
      completed: false,
    });
    expect(checklist.completionPercentage).toBe(0);
    const again = await save(owner, id, { data: { total_rooms: 13 }, version: 2, draft: true });
    expect(again.json().data.section).toMatchObject({ data: { total_rooms: 13 }, version: 3 });
    const stored = await getLead(owner, id);
    expect(stored.sections.basic_info).toMatchObject({
      data: { total_rooms: 13 },
      version: 3,
      completed: false,
    });
    // The lead's title follows the last title saved in basic_info; a save without one keeps it.
    expect(stored.title).toBe('Sea View');
  });

  it('refuses a stale version with 409 and saves nothing', async () => {
    const lead = await createLead(owner);
    const id = lead.property_unique_id;
    await save(owner, id, { data: { title: 'Tab one' }, version: 1, draft: true });
    const stale = await save(owner, id, { data: { title: 'Tab two' }, version: 1, draft: true });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error).toEqual({ code: 'ONB_VERSION_CONFLICT', message: CONFLICT_TEXT });
    const ahead = await save(owner, id, { data: { title: 'Tab three' }, version: 7, draft: true });
    expect(ahead.statusCode).toBe(409);
    const stored = await getLead(owner, id);
    expect(stored.sections.basic_info).toMatchObject({ data: { title: 'Tab one' }, version: 2 });
    expect(stored.title).toBe('Tab one');
    const ar = await save(owner, id, { data: {}, version: 1, draft: true }, 'basic_info', {
      httpxoyolang: 'ar',
    });
    expect(ar.json().error.message).not.toBe(CONFLICT_TEXT);
    expect(ar.json().error.message).toMatch(/[\u0600-\u06FF]/);
  });

  it('lets only one of two concurrent saves of the same version win', async () => {
    const lead = await createLead(owner);
    const id = lead.property_unique_id;
    const answers = await Promise.all([
      save(owner, id, { data: { title: 'Phone' }, version: 1, draft: true }),
      save(owner, id, { data: { title: 'Laptop' }, version: 1, draft: true }),
    ]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    const winner = answers.find((a) => a.statusCode === 200)!.json().data.section;
    const stored = await getLead(owner, id);
    expect(stored.sections.basic_info).toEqual(winner);
    expect(stored.sections.basic_info!.version).toBe(2);
  });

  it('refuses a final save with a missing required field (400, field, translated message)', async () => {
    const lead = await createLead(owner);
    const id = lead.property_unique_id;
    const res = await save(owner, id, {
      data: { title: 'Sea View', total_rooms: 10 },
      version: 1,
      draft: false,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toEqual({
      code: 'ONB_FIELD_REQUIRED',
      message: 'This field is required',
      field: 'available_floors',
    });
    const { frontdesk_phone: _omit, ...withoutPhone } = complete;
    const noPhone = await save(owner, id, { data: withoutPhone, version: 1, draft: false });
    expect(noPhone.json().error.field).toBe('frontdesk_phone');
    expect((await getLead(owner, id)).sections.basic_info!.version).toBe(1);
  });

  it('completes the section on a final save (completionPercentage 11); a draft keeps it completed only while it is complete', async () => {
    const lead = await createLead(owner);
    const id = lead.property_unique_id;
    const res = await save(owner, id, { data: complete, version: 1, draft: false });
    expect(res.statusCode, res.body).toBe(200);
    const { section, checklist } = res.json().data;
    expect(section).toMatchObject({ version: 2, completed: true });
    expect(section.data.frontdesk_phone).toBe('+919876543210');
    expect(checklist).toMatchObject({
      completionPercentage: 11,
      section_status: 'IN_PROGRESS',
      tasks: { basic_info: { completed: true }, address: { completed: false } },
    });
    const checklistRoute = await app.inject({ url: `${BASE}/${id}/checklist`, headers: { cookie: owner } });
    expect(checklistRoute.json().data.completionPercentage).toBe(11);

    const edited = await save(owner, id, { data: { ...complete, total_rooms: 30 }, version: 2, draft: true });
    expect(edited.json().data.section).toMatchObject({ version: 3, completed: true });
    const { total_rooms: _omit, ...withoutRooms } = complete;
    const emptied = await save(owner, id, { data: withoutRooms, version: 3, draft: true });
    expect(emptied.json().data.section).toMatchObject({ version: 4, completed: false });
    expect(emptied.json().data.checklist.completionPercentage).toBe(0);
  });

  it('refuses data breaking the section schema with the field', async () => {
    const lead = await createLead(owner);
    const id = lead.property_unique_id;
    const cases: [Record<string, unknown>, string][] = [
      [{ total_rooms: 2.5 }, 'total_rooms'],
      [{ title: '' }, 'title'],
      [{ description: 'x'.repeat(2001) }, 'description'],
      [{ frontdesk_phone: '9'.repeat(31) }, 'frontdesk_phone'],
      [{ star_rating: 5 }, 'star_rating'],
    ];
    for (const [data, field] of cases) {
      const res = await save(owner, id, { data, version: 1, draft: true });
      expect(res.statusCode, JSON.stringify(data)).toBe(400);
      expect(res.json().error).toEqual({ code: 'ONB_INVALID_INPUT', message: 'Invalid Input', field });
    }
    // A count out of its range is kept as typed by a draft; a final save names the range.
    const ranges: [Record<string, unknown>, string, string][] = [
      [{ total_rooms: 0 }, 'total_rooms', 'Enter a whole number from 1 to 1000'],
      [{ total_rooms: 1001 }, 'total_rooms', 'Enter a whole number from 1 to 1000'],
      [{ available_floors: 201 }, 'available_floors', 'Enter a whole number from 1 to 200'],
    ];
    for (const [data, field, message] of ranges) {
      const res = await save(owner, id, { data, version: 1, draft: false });
      expect(res.statusCode, JSON.stringify(data)).toBe(400);
      expect(res.json().error).toEqual({ code: 'ONB_NUMBER_RANGE', message, field });
    }
    const badBody = await save(owner, id, { data: {}, version: -1, draft: true });
    expect(badBody.statusCode).toBe(400);
    expect(badBody.json().error.field).toBe('version');
    expect((await getLead(owner, id)).sections.basic_info!.version).toBe(1);
  });

  it("keeps a half-typed phone in a draft, and refuses it on a final save with SPEC §8's text", async () => {
    const lead = await createLead(owner);
    const full = { title: 'Sea View', total_rooms: 12, available_floors: 2, description: 'By the sea' };
    const draft = await save(owner, lead.property_unique_id, {
      data: { ...full, frontdesk_phone: '98765' },
      version: 1,
      draft: true,
    });
    expect(draft.statusCode, draft.body).toBe(200);
    expect(draft.json().data.section).toMatchObject({
      data: { ...full, frontdesk_phone: '98765' },
      completed: false,
      version: 2,
    });
    const res = await save(owner, lead.property_unique_id, {
      data: { ...full, frontdesk_phone: '12345' },
      version: 2,
      draft: false,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toEqual({
      code: 'ONB_INVALID_PHONE',
      message: 'Please enter the correct phone number',
      field: 'frontdesk_phone',
    });
  });

  it("stores a national phone number in E.164 with the user's country", async () => {
    const lead = await createLead(owner);
    const res = await save(owner, lead.property_unique_id, {
      data: { frontdesk_phone: '098765 43210' },
      version: 1,
      draft: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.section.data.frontdesk_phone).toBe('+919876543210');
    const stored = await getLead(owner, lead.property_unique_id);
    expect(stored.sections.basic_info!.data).toEqual({ frontdesk_phone: '+919876543210' });
  });

  it('reads a national phone number in the country chosen beside it, and treats null as cleared', async () => {
    const lead = await createLead(owner);
    const res = await save(owner, lead.property_unique_id, {
      data: { frontdesk_phone: '050 123 4567', frontdesk_phone_country: 'AE', description: null },
      version: 1,
      draft: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.section.data).toEqual({
      frontdesk_phone: '+971501234567',
      frontdesk_phone_country: 'AE',
    });
  });

  it('answers 404 ONB_SECTION_NOT_FOUND for a section that does not exist', async () => {
    const lead = await createLead(owner);
    for (const section of ['images', 'nope', '__proto__']) {
      const res = await save(owner, lead.property_unique_id, { data: {}, version: 0, draft: true }, section);
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('ONB_SECTION_NOT_FOUND');
    }
  });
});

describe('OpenAPI document', () => {
  it('lists the lead operations', async () => {
    const doc = (await app.inject('/hms_ms/api/openapi.json')).json();
    const ops: Record<string, { tags: string[]; requestBody?: unknown }> = {};
    for (const methods of Object.values(doc.paths) as Record<
      string,
      { operationId: string; tags: string[] }
    >[]) {
      for (const op of Object.values(methods)) ops[op.operationId] = op;
    }
    for (const id of ['createLead', 'listLeads', 'getLead', 'getChecklist', 'saveLeadSection']) {
      expect(ops[id], id).toBeDefined();
      expect(ops[id]!.tags).toEqual(['leads']);
    }
    expect(ops.createLead!.requestBody).toBeDefined();
    expect(ops.saveLeadSection!.requestBody).toBeDefined();
  });
});
