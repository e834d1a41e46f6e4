import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Lead, PropertyMatch } from '../../../schemas/generated/types';
import { defaultScreensDir } from '../../app';
import { loadScreenCatalogue } from '../../screens/composer';
import { createTranslations } from '../../services/translations';
import { buildTestApp, createTestLead, signInNewOwner } from '../../test-helpers';

const BASE = '/hms_ms/api/v1/onboard/leads';

let app: FastifyInstance;
/** Gurgaon is served; Jaipur is not (a serviceability file of the test's own). */
let narrow: FastifyInstance;

beforeAll(async () => {
  // The real screens, so that tests can see which lead the property middleware and dashboard show.
  const screens = loadScreenCatalogue({ dir: defaultScreensDir, translate: createTranslations().translate });
  app = await buildTestApp({ screens });
  const dir = mkdtempSync(join(tmpdir(), 'serviceability-'));
  const file = join(dir, 'serviceability.json');
  writeFileSync(file, JSON.stringify({ countries: { IN: { cities: ['Gurgaon', 'New Delhi'] } } }));
  narrow = await buildTestApp({ screens, config: { serviceabilityFile: file } });
});

/** A property name no other test uses, so that 'Is this your property?' only meets what a test made. */
const uniqueName = (base: string) => `${base} ${Math.random().toString(36).slice(2, 8)}`;

/** A point near Gurgaon (SPEC §9 default map centre), moved by `dx`/`dy` metres. */
function nearGurgaon(dx = 0, dy = 0): { latitude: number; longitude: number } {
  const lat = 28.4601 + dy / 111_320;
  return { latitude: lat, longitude: 77.02635 + dx / (111_320 * Math.cos((lat * Math.PI) / 180)) };
}

/** A different spot for each test (up to ~6 km away), so tests do not match each other's properties. */
const spot = () => nearGurgaon((Math.random() - 0.5) * 12_000, (Math.random() - 0.5) * 12_000);

const address = (point: { latitude: number; longitude: number }, extra: Record<string, unknown> = {}) => ({
  at_location: 'yes',
  ...point,
  address_line: '12 MG Road',
  locality: 'Sector 14',
  city: 'Gurgaon',
  state: 'Haryana',
  postal_code: '122001',
  country: 'IN',
  ...extra,
});

const createLead = async (on: FastifyInstance, cookie: string, title: string): Promise<string> =>
  (await createTestLead(on, cookie, { title })).property_unique_id;

const saveAddress = (
  on: FastifyInstance,
  cookie: string,
  id: string,
  data: Record<string, unknown>,
  { version = 0, draft = false } = {},
) =>
  on.inject({
    method: 'PUT',
    url: `${BASE}/${id}/sections/address`,
    headers: { cookie },
    payload: { data, version, draft },
  });

const getLead = async (on: FastifyInstance, cookie: string, id: string) =>
  on.inject({ url: `${BASE}/${id}`, headers: { cookie } });

/** The composed dashboard (My Properties) as the owner sees it. */
async function dashboard(on: FastifyInstance, cookie: string): Promise<string> {
  const res = await on.inject({ url: '/hms_ms/api/v1/screens/dashboard', headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return res.body;
}

describe('the address section (SPEC §2 location, confirm address)', () => {
  it('keeps a draft as it is and completes the task on a final save, writing the pin on the lead', async () => {
    const owner = await signInNewOwner(app);
    const id = await createLead(app, owner, uniqueName('Lotus Court'));
    const point = spot();
    const draft = await saveAddress(app, owner, id, { ...point, city: 'Gurgaon' }, { draft: true });
    expect(draft.statusCode, draft.body).toBe(200);
    expect(draft.json().data.section).toMatchObject({ version: 1, completed: false });
    expect((await getLead(app, owner, id)).json().data.lead.location).toBeNull();

    const missing = await saveAddress(app, owner, id, { ...point, city: 'Gurgaon' }, { version: 1 });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toMatchObject({ code: 'ONB_FIELD_REQUIRED', field: 'address_line' });

    const final = await saveAddress(app, owner, id, address(point), { version: 1 });
    expect(final.statusCode, final.body).toBe(200);
    expect(final.json().data.section).toMatchObject({ version: 2, completed: true });
    expect(final.json().data.checklist.tasks.address).toEqual({ completed: true });
    const lead: Lead = (await getLead(app, owner, id)).json().data.lead;
    expect(lead.location).toEqual({
      lat: point.latitude,
      lng: point.longitude,
      city: 'Gurgaon',
      country: 'IN',
    });
    expect(lead.sections.address?.data).toMatchObject({ address_line: '12 MG Road', postal_code: '122001' });
  });

  it('refuses bad input with 400 and the field: a latitude out of range, an unknown field, a bad postal code', async () => {
    const owner = await signInNewOwner(app);
    const id = await createLead(app, owner, uniqueName('Lotus Court'));
    for (const [data, field] of [
      [{ latitude: 91 }, 'latitude'],
      [{ street: 'x' }, 'street'],
      [{ postal_code: '12/34' }, 'postal_code'],
      [{ country: 'India' }, 'country'],
    ] as const) {
      const res = await saveAddress(app, owner, id, data, { draft: true });
      expect(res.statusCode, JSON.stringify(data)).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'ONB_INVALID_INPUT', message: 'Invalid Input', field });
    }
  });

  it('refuses a country other than the account’s (SPEC §5), naming the country', async () => {
    const owner = await signInNewOwner(app);
    const id = await createLead(app, owner, uniqueName('Lotus Court'));
    const res = await saveAddress(
      app,
      owner,
      id,
      address({ latitude: 27.7172, longitude: 85.324 }, { city: 'Kathmandu', country: 'NP' }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'ONB_COUNTRY_LOCKED', field: 'country' });
    expect(res.json().error.message).toBe(
      'The property must be in India, the country of your account. Please select a location there.',
    );
    expect((await getLead(app, owner, id)).json().data.lead.sections.address.completed).toBe(false);
    // In the owner's language, the country's name in that language (issue 12 item 19).
    const arabic = await app.inject({
      method: 'PUT',
      url: `${BASE}/${id}/sections/address`,
      headers: { cookie: owner, httpxoyolang: 'ar' },
      payload: {
        data: address({ latitude: 27.7172, longitude: 85.324 }, { city: 'Kathmandu', country: 'NP' }),
        version: 0,
        draft: false,
      },
    });
    expect(arabic.statusCode).toBe(400);
    expect(arabic.json().error.message).toContain('الهند');
    expect(arabic.json().error.message).not.toMatch(/\bIN\b/);
  });

  it('keeps a lead outside the served cities as a cold lead NOT_SERVICEABLE, and revives it at a served place', async () => {
    const owner = await signInNewOwner(narrow);
    const id = await createLead(narrow, owner, uniqueName('Pink City Haveli'));
    const jaipur = { latitude: 26.9124, longitude: 75.7873 };
    const refused = await saveAddress(
      narrow,
      owner,
      id,
      address(jaipur, { city: 'Jaipur', state: 'Rajasthan' }),
    );
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error).toMatchObject({
      code: 'ONB_NOT_SERVICEABLE',
      message: 'We are not operational in this area. Please select correct location.',
    });
    const cold: Lead = (await getLead(narrow, owner, id)).json().data.lead;
    expect(cold).toMatchObject({
      status: 'COLD',
      cold_lead_type: 'NOT_SERVICEABLE',
      location: { lat: jaipur.latitude, lng: jaipur.longitude, city: 'Jaipur', country: 'IN' },
    });
    expect(cold.sections.address?.completed).toBe(false);
    // The owner still finds it, marked as outside the served area, and can correct the location.
    const cards = await dashboard(narrow, owner);
    expect(cards).toContain(cold.title);
    expect(cards).toContain('Not in our area yet');
    const checklist = await narrow.inject({
      url: `/hms_ms/api/v1/screens/task?property_unique_id=${id}`,
      headers: { cookie: owner },
    });
    expect(checklist.body).toContain('We are not operational in this area. Please select correct location.');
    expect(checklist.body).toContain('Change the location');
    // The address step says so too (the cold-lead variant of confirm address).
    const step = await narrow.inject({
      url: `/hms_ms/api/v1/screens/task_details?property_unique_id=${id}&task=address`,
      headers: { cookie: owner },
    });
    expect(step.body).toContain('We are not operational in this area. Please select correct location.');

    const served = await saveAddress(narrow, owner, id, address(spot()));
    expect(served.statusCode, served.body).toBe(200);
    expect(await dashboard(narrow, owner)).toContain('In Progress');
    const revived: Lead = (await getLead(narrow, owner, id)).json().data.lead;
    expect(revived).toMatchObject({ status: 'IN_PROGRESS', cold_lead_type: null });
    expect(revived.location?.city).toBe('Gurgaon');
  });

  it('asks to confirm a pin far from the typed city (SPEC §5), then saves it once confirmed', async () => {
    const owner = await signInNewOwner(app);
    const id = await createLead(app, owner, uniqueName('Lotus Court'));
    const jaipur = { latitude: 26.9124, longitude: 75.7873 }; // ~230 km from Gurgaon
    const asked = await saveAddress(app, owner, id, address(jaipur));
    expect(asked.statusCode).toBe(409);
    expect(asked.json().error.code).toBe('ONB_LOCATION_DIFFERS');
    expect(asked.json().error.message).toMatch(
      /^The pin is 2\d\d km from Gurgaon\. Is the pin at your property\?$/,
    );
    const confirmed = await saveAddress(app, owner, id, address(jaipur, { location_confirmed: true }));
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    // A pin near the typed city needs no confirmation.
    const near = await saveAddress(app, owner, id, address(spot()), { version: 1 });
    expect(near.statusCode, near.body).toBe(200);
  });

  it("another user's lead answers 404 and nothing is saved", async () => {
    const owner = await signInNewOwner(app);
    const stranger = await signInNewOwner(app);
    const id = await createLead(app, owner, uniqueName('Lotus Court'));
    const res = await saveAddress(app, stranger, id, address(spot()));
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('ONB_LEAD_NOT_FOUND');
    expect((await getLead(app, owner, id)).json().data.lead.sections.address.version).toBe(0);
  });
});

describe('unsupported property types (SPEC §4 cold lead UNSUPPORTED_PROPERTY)', () => {
  it('records a sub type not onboarded in the country as a cold lead and tells the owner', async () => {
    const owner = await signInNewOwner(app);
    const title = uniqueName('Backpackers Den');
    const res = await app.inject({
      method: 'POST',
      url: BASE,
      headers: { cookie: owner },
      payload: { title, property_type: 'hotel', property_sub_type: 'hostel' },
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toMatchObject({ code: 'ONB_UNSUPPORTED_PROPERTY', field: 'property_sub_type' });
    const leads: Lead[] = (await app.inject({ url: BASE, headers: { cookie: owner } })).json().data.leads;
    expect(leads).toHaveLength(1);
    expect(leads[0]).toMatchObject({ title, status: 'COLD', cold_lead_type: 'UNSUPPORTED_PROPERTY' });
    // It is not the lead the middleware page resumes.
    const screen = await app.inject({
      url: '/hms_ms/api/v1/screens/property_middleware',
      headers: { cookie: owner },
    });
    expect(screen.body).not.toContain(leads[0]!.property_unique_id);
  });
});

describe("'Is this your property?' (SPEC §2 OTA match)", () => {
  it("offers another owner's property with a similar name near the pin, by name and city only", async () => {
    const first = await signInNewOwner(app);
    const second = await signInNewOwner(app);
    const name = uniqueName('Sunrise Residency');
    const point = spot();
    const listed = await createLead(app, first, name);
    expect((await saveAddress(app, first, listed, address(point))).statusCode).toBe(200);

    const id = await createLead(app, second, `Hotel ${name}`);
    const near = { latitude: point.latitude + 0.0009, longitude: point.longitude }; // ~100 m north
    const asked = await saveAddress(app, second, id, address(near));
    expect(asked.statusCode).toBe(409);
    expect(asked.json().error).toMatchObject({
      code: 'ONB_POSSIBLE_DUPLICATE',
      message: 'Is this your property?',
    });
    const matches: PropertyMatch[] = asked.json().error.details.matches;
    expect(matches).toEqual([
      { title: name, city: 'Gurgaon', distance_m: expect.any(Number), own: false, label: `${name}, Gurgaon` },
    ]);
    expect(matches[0]!.distance_m).toBeGreaterThan(90);
    expect(matches[0]!.distance_m).toBeLessThan(110);
    expect(JSON.stringify(asked.json())).not.toContain(listed);

    // 'No, it is not mine': the owner goes on.
    const confirmed = await saveAddress(app, second, id, address(near, { not_duplicate_confirmed: true }));
    expect(confirmed.statusCode, confirmed.body).toBe(200);
  });

  it('does not ask about a different name, nor about a property beyond the radius', async () => {
    const first = await signInNewOwner(app);
    const second = await signInNewOwner(app);
    const name = uniqueName('Sunrise Residency');
    const point = spot();
    const listed = await createLead(app, first, name);
    expect((await saveAddress(app, first, listed, address(point))).statusCode).toBe(200);
    const other = await createLead(app, second, uniqueName('Moonlight Palace'));
    expect((await saveAddress(app, second, other, address(point))).statusCode).toBe(200);
    const far = await createLead(app, second, name);
    const away = { latitude: point.latitude + 0.01, longitude: point.longitude }; // ~1.1 km
    expect((await saveAddress(app, second, far, address(away))).statusCode).toBe(200);
  });

  it("names the owner's own property, which the owner can open instead: the new lead is discarded", async () => {
    const owner = await signInNewOwner(app);
    const name = uniqueName('Palm Grove');
    const point = spot();
    const existing = await createLead(app, owner, name);
    expect((await saveAddress(app, owner, existing, address(point))).statusCode).toBe(200);
    const duplicate = await createLead(app, owner, name);
    const asked = await saveAddress(app, owner, duplicate, address(point));
    expect(asked.statusCode).toBe(409);
    expect(asked.json().error.code).toBe('ONB_POSSIBLE_DUPLICATE_OWN');
    expect(asked.json().error.details.matches[0]).toMatchObject({ own: true, property_unique_id: existing });

    const stranger = await signInNewOwner(app);
    const notTheirs = await app.inject({
      method: 'DELETE',
      url: `${BASE}/${duplicate}`,
      headers: { cookie: stranger },
    });
    expect(notTheirs.statusCode).toBe(404);

    const discarded = await app.inject({
      method: 'DELETE',
      url: `${BASE}/${duplicate}`,
      headers: { cookie: owner },
    });
    expect(discarded.statusCode, discarded.body).toBe(200);
    expect(discarded.json().data).toEqual({ property_unique_id: duplicate, status: 'DISCARDED' });
    expect((await getLead(app, owner, duplicate)).statusCode).toBe(404);
    const leads: Lead[] = (await app.inject({ url: BASE, headers: { cookie: owner } })).json().data.leads;
    expect(leads.map((l) => l.property_unique_id)).toEqual([existing]);
  });

  it('does not discard a lead whose other tasks are done (409 ONB_LEAD_LOCKED)', async () => {
    const owner = await signInNewOwner(app);
    const id = await createLead(app, owner, uniqueName('Palm Grove'));
    const basic = await app.inject({
      method: 'PUT',
      url: `${BASE}/${id}/sections/basic_info`,
      headers: { cookie: owner },
      payload: {
        data: {
          title: 'Palm Grove',
          total_rooms: 4,
          available_floors: 1,
          frontdesk_phone: '+91 98765 43210',
        },
        version: 1,
        draft: false,
      },
    });
    expect(basic.statusCode, basic.body).toBe(200);
    const res = await app.inject({ method: 'DELETE', url: `${BASE}/${id}`, headers: { cookie: owner } });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('ONB_LEAD_LOCKED');
    expect((await getLead(app, owner, id)).statusCode).toBe(200);
  });
});
