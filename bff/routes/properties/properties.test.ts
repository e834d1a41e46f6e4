import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import type { PropertyCardContents, PropertyList, PropertySummary } from '../../../schemas/generated/types';
import { defaultScreensDir } from '../../app';
import { loadScreenCatalogue } from '../../screens/composer';
import { monthsBetween } from '../../services/properties';
import { createTranslations } from '../../services/translations';
import { buildTestApp, createTestLead, signInNewOwner } from '../../test-helpers';

const BASE = '/hms_ms/api/v1/onboard';
/** 2026-06-15 12:00 UTC: the tests' clock, so months inactive are exact. */
const NOW = Date.UTC(2026, 5, 15, 12);

let app: FastifyInstance;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'referrers-'));
  const file = join(dir, 'referrers.json');
  writeFileSync(
    file,
    JSON.stringify({
      referrers: [
        { code: 'GOOD-1', name: 'Priya Sharma', kind: 'employee' },
        { code: 'AGENCY2', name: 'Stay Partners', kind: 'partner' },
        { code: 'EMPTY9', name: '  ' },
      ],
    }),
  );
  const screens = loadScreenCatalogue({ dir: defaultScreensDir, translate: createTranslations().translate });
  app = await buildTestApp({ screens, config: { referrersFile: file }, now: () => NOW });
});

/** Puts a listing on a program (SPEC §4), as the provider's staff do in the database. */
async function setProgram(id: string, program: 'EWB' | 'OTA', programType: 'flexible' | 'crystal' | null) {
  await app.db
    .updateTable('leads')
    .set({ program, program_type: programType })
    .where('property_unique_id', '=', id)
    .execute();
}

/** Sets a lead's status (and when it went inactive) as staff or publishing would. */
async function setStatus(id: string, status: string, inactiveSince: Date | null = null) {
  await app.db
    .updateTable('leads')
    .set({ status, inactive_since: inactiveSince })
    .where('property_unique_id', '=', id)
    .execute();
}

const list = async (cookie: string): Promise<PropertyList> => {
  const res = await app.inject({ url: `${BASE}/properties`, headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: PropertyList }>().data;
};

const post = (cookie: string, url: string, payload?: Record<string, unknown>) =>
  app.inject({ method: 'POST', url, headers: { cookie }, ...(payload ? { payload } : {}) });

const saveReferral = (cookie: string, id: string, code: string) =>
  app.inject({
    method: 'PUT',
    url: `${BASE}/leads/${id}/referral`,
    headers: { cookie },
    payload: { referral_code: code },
  });

describe('listProperties (SPEC §3 lists, §4 statuses and tags)', () => {
  it('sorts leads into in progress, live and inactive, with tags and months inactive', async () => {
    const owner = await signInNewOwner(app);
    const draft = await createTestLead(app, owner, { title: 'Lotus Court' });
    const live = await createTestLead(app, owner, { title: 'Palm Grove' });
    const review = await createTestLead(app, owner, { title: 'Hill Cottage' });
    const recent = await createTestLead(app, owner, { title: 'Old Mill Inn' });
    const old = await createTestLead(app, owner, { title: 'River Lodge' });
    const gone = await createTestLead(app, owner, { title: 'Gone Hotel' });
    await setStatus(live.property_unique_id, 'LIVE');
    await setStatus(review.property_unique_id, 'UNDER_REVIEW');
    await setStatus(recent.property_unique_id, 'INACTIVE', new Date(Date.UTC(2026, 2, 20))); // 2 months
    await setStatus(old.property_unique_id, 'INACTIVE', new Date(Date.UTC(2025, 5, 1))); // 12 months
    await setStatus(gone.property_unique_id, 'REMOVED');

    const props = await list(owner);
    expect(props.in_progress.map((p) => p.title)).toEqual(['Lotus Court']);
    expect(props.in_progress[0]).toMatchObject({
      lead_id: draft.lead_id,
      tag: 'IN_PROGRESS',
      months_inactive: null,
      completion_percentage: 0,
      referral: null,
    });
    // The test clock stands still, so every lead has the same created_at: compare in title order.
    const byTitle = (a: PropertySummary, b: PropertySummary) => a.title.localeCompare(b.title);
    expect(props.live.sort(byTitle).map((p) => [p.title, p.status, p.tag])).toEqual([
      ['Hill Cottage', 'UNDER_REVIEW', null],
      ['Palm Grove', 'LIVE', null],
    ]);
    expect(props.inactive.sort(byTitle).map((p) => [p.title, p.tag, p.months_inactive])).toEqual([
      ['Old Mill Inn', 'REACTIVATE', 2],
      ['River Lodge', 'RECONTRACT', 12],
    ]);
    // Another owner sees none of them.
    const stranger = await signInNewOwner(app);
    expect(await list(stranger)).toEqual({
      in_progress: [],
      live: [],
      inactive: [],
      ewb: [],
      ewb_and_recontract: [],
    });
  });

  it('needs a session', async () => {
    const res = await app.inject({ url: `${BASE}/properties` });
    expect(res.statusCode).toBe(401);
  });

  it('counts whole calendar months', () => {
    expect(monthsBetween(new Date('2026-01-31T00:00:00Z'), new Date('2026-02-28T23:00:00Z'))).toBe(0);
    expect(monthsBetween(new Date('2026-01-15T10:00:00Z'), new Date('2026-03-15T10:00:00Z'))).toBe(2);
    expect(monthsBetween(new Date('2026-01-15T10:00:00Z'), new Date('2026-03-15T09:59:59Z'))).toBe(1);
    expect(monthsBetween(new Date('2027-01-01T00:00:00Z'), new Date('2026-01-01T00:00:00Z'))).toBe(0);
  });
});

describe('reactivateProperty and removeProperty (SPEC §4 inactive properties)', () => {
  it('reactivates an inactive listing into a live one, once', async () => {
    const owner = await signInNewOwner(app);
    const lead = await createTestLead(app, owner, { title: 'Old Mill Inn' });
    const id = lead.property_unique_id;
    const early = await post(owner, `${BASE}/leads/${id}/reactivate`);
    expect(early.statusCode).toBe(409);
    expect(early.json().error.code).toBe('ONB_LISTING_NOT_INACTIVE');

    await setStatus(id, 'INACTIVE', new Date(Date.UTC(2026, 3, 1)));
    const stranger = await signInNewOwner(app);
    const foreign = await post(stranger, `${BASE}/leads/${id}/reactivate`);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.code).toBe('ONB_LEAD_NOT_FOUND');

    const res = await post(owner, `${BASE}/leads/${id}/reactivate`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ data: { property: PropertySummary } }>().data.property).toMatchObject({
      status: 'LIVE',
      tag: null,
      inactive_since: null,
      months_inactive: null,
    });
    expect((await list(owner)).live.map((p) => p.property_unique_id)).toEqual([id]);
    const again = await post(owner, `${BASE}/leads/${id}/reactivate`);
    expect(again.statusCode).toBe(409);
  });

  it('refuses to reactivate a listing inactive 12 months or more: it needs a new contract', async () => {
    const owner = await signInNewOwner(app);
    const { property_unique_id: id } = await createTestLead(app, owner);
    await setStatus(id, 'INACTIVE', new Date(Date.UTC(2025, 5, 15, 12)));
    const res = await post(owner, `${BASE}/leads/${id}/reactivate`);
    expect(res.statusCode).toBe(409);
    expect(res.json().error.code).toBe('ONB_RECONTRACT_REQUIRED');
    expect((await list(owner)).inactive[0]).toMatchObject({ status: 'INACTIVE', tag: 'RECONTRACT' });
  });

  it('removes an inactive listing only after the owner confirms no association', async () => {
    const owner = await signInNewOwner(app);
    const { property_unique_id: id } = await createTestLead(app, owner);
    const url = `${BASE}/leads/${id}/remove`;
    const live = await post(owner, url, { no_association: true });
    expect(live.statusCode).toBe(409);
    expect(live.json().error.code).toBe('ONB_LISTING_NOT_INACTIVE');

    await setStatus(id, 'INACTIVE', new Date(Date.UTC(2026, 0, 1)));
    const unconfirmed = await post(owner, url, { no_association: false });
    expect(unconfirmed.statusCode).toBe(400);
    expect(unconfirmed.json().error).toMatchObject({
      code: 'ONB_ASSOCIATION_NOT_CONFIRMED',
      field: 'no_association',
    });
    const missing = await post(owner, url, {});
    expect(missing.statusCode).toBe(400);
    const stranger = await signInNewOwner(app);
    expect((await post(stranger, url, { no_association: true })).statusCode).toBe(404);

    const res = await post(owner, url, { no_association: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toEqual({ property_unique_id: id, status: 'REMOVED' });
    expect(await list(owner)).toEqual({
      in_progress: [],
      live: [],
      inactive: [],
      ewb: [],
      ewb_and_recontract: [],
    });
    // It appears nowhere: not as a lead, and it cannot be removed twice.
    const lead = await app.inject({ url: `${BASE}/leads/${id}`, headers: { cookie: owner } });
    expect(lead.statusCode).toBe(404);
    expect((await post(owner, url, { no_association: true })).statusCode).toBe(404);
  });
});

describe('referral codes (SPEC §3 referralDetails, §5)', () => {
  it("verifies a known code, case-insensitively, and answers the referrer's details", async () => {
    const owner = await signInNewOwner(app);
    const res = await post(owner, `${BASE}/referrals/verify`, { referral_code: ' good-1 ' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.referral).toEqual({
      referral_code: 'GOOD-1',
      name: 'Priya Sharma',
      kind: 'employee',
    });
  });

  it('counts an unknown code and one with empty details as errors', async () => {
    const owner = await signInNewOwner(app);
    for (const code of ['NOPE42', 'EMPTY9']) {
      const res = await post(owner, `${BASE}/referrals/verify`, { referral_code: code });
      expect(res.statusCode, code).toBe(422);
      expect(res.json().error).toMatchObject({
        code: 'ONB_REFERRAL_INVALID',
        field: 'referral_code',
        message: 'This referral code is not valid. Please check it and try again.',
      });
    }
    const blank = await post(owner, `${BASE}/referrals/verify`, { referral_code: '' });
    expect(blank.statusCode).toBe(400);
    const extra = await post(owner, `${BASE}/referrals/verify`, { referral_code: 'GOOD-1', x: 1 });
    expect(extra.statusCode).toBe(400);
    expect(
      (
        await app.inject({
          method: 'POST',
          url: `${BASE}/referrals/verify`,
          payload: { referral_code: 'GOOD-1' },
        })
      ).statusCode,
    ).toBe(401);
  });

  it("adds and updates a property's code; an invalid one leaves the stored code; only for its owner", async () => {
    const owner = await signInNewOwner(app);
    const { property_unique_id: id } = await createTestLead(app, owner);
    const added = await saveReferral(owner, id, 'good-1');
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json().data.property.referral).toMatchObject({
      referral_code: 'GOOD-1',
      name: 'Priya Sharma',
    });

    const bad = await saveReferral(owner, id, 'EMPTY9');
    expect(bad.statusCode).toBe(422);
    expect((await list(owner)).in_progress[0]!.referral?.referral_code).toBe('GOOD-1');

    const updated = await saveReferral(owner, id, 'AGENCY2');
    expect(updated.statusCode).toBe(200);
    expect((await list(owner)).in_progress[0]!.referral).toMatchObject({
      referral_code: 'AGENCY2',
      name: 'Stay Partners',
    });

    const stranger = await signInNewOwner(app);
    const foreign = await saveReferral(stranger, id, 'GOOD-1');
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.code).toBe('ONB_LEAD_NOT_FOUND');
  });
});

type Widget = { id: string; widget_type: string; contents: Record<string, unknown> };

/** The composed screen's widgets as the owner sees them. */
async function screenWidgets(
  cookie: string,
  screen: string,
  query = '',
  locale = 'en-GB',
): Promise<Widget[]> {
  const res = await app.inject({
    url: `/hms_ms/api/v1/screens/${screen}${query}`,
    headers: { cookie, httpxoyolang: locale },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: { widget_list: Widget[] } }>().data.widget_list;
}

describe('the dashboard screen (SPEC §2 propertyDashboardScreen)', () => {
  it("says 'You have no Hotels associated' to an owner without properties", async () => {
    const owner = await signInNewOwner(app);
    const widgets = await screenWidgets(owner, 'dashboard');
    expect(widgets.find((w) => w.widget_type === 'empty_state')?.contents.title).toBe(
      'You have no Hotels associated',
    );
    expect(widgets.filter((w) => w.widget_type === 'property_card')).toEqual([]);
  });

  it('draws each section with its tags, actions and the More menu copying the lead id', async () => {
    const owner = await signInNewOwner(app);
    const draft = await createTestLead(app, owner, { title: 'Lotus Court' });
    const live = await createTestLead(app, owner, { title: 'Palm Grove' });
    const inactive = await createTestLead(app, owner, { title: 'Old Mill Inn' });
    const old = await createTestLead(app, owner, { title: 'River Lodge' });
    await setStatus(live.property_unique_id, 'LIVE');
    await setStatus(inactive.property_unique_id, 'INACTIVE', new Date(Date.UTC(2026, 2, 1)));
    await setStatus(old.property_unique_id, 'INACTIVE', new Date(Date.UTC(2024, 0, 1)));

    const widgets = await screenWidgets(owner, 'dashboard');
    expect(widgets.find((w) => w.widget_type === 'empty_state')).toBeUndefined();
    const texts = widgets.filter((w) => w.widget_type === 'text').map((w) => w.contents.text);
    expect(texts).toEqual(expect.arrayContaining(['Not live yet', 'Live listings', 'Inactive properties']));
    const card = (title: string) => {
      const found = widgets.find((w) => w.widget_type === 'property_card' && w.contents.title === title);
      expect(found, title).toBeDefined();
      return found!.contents as unknown as PropertyCardContents;
    };
    expect(card('Lotus Court')).toMatchObject({
      tag: { label: 'In Progress' },
      details: ['0% complete'],
      primary: { label: 'Continue listing' },
      menu_label: 'More',
    });
    expect(card('Lotus Court').menu).toEqual([
      {
        label: 'Add Referral',
        actions: [
          { type: 'navigate', to: '/referral', query: { property_unique_id: draft.property_unique_id } },
        ],
      },
      {
        label: 'Copy Lead ID',
        actions: [{ type: 'copy_text', text: draft.property_unique_id, toast_text: 'Lead ID copied' }],
      },
    ]);
    expect(card('Palm Grove')).toMatchObject({ tag: { label: 'Live' } });
    expect(card('Palm Grove').primary).toBeUndefined();
    expect(card('Old Mill Inn')).toMatchObject({
      tag: { label: 'Reactivate' },
      details: ['Months inactive: 3'],
      primary: {
        label: 'Reactivate',
        actions: [{ type: 'submit', endpoint: `${BASE}/leads/${inactive.property_unique_id}/reactivate` }],
      },
      secondary: { label: 'Remove listing' },
    });
    expect(card('River Lodge')).toMatchObject({
      tag: { label: 'Recontract' },
      primary: { label: 'Sign the contract again' },
    });
    // Remove listing opens its own confirmation, which sends the owner's confirmation of no association.
    const popupId = (card('Old Mill Inn').secondary!.actions[0] as { popup_id: string }).popup_id;
    const dialog = widgets.find((w) => w.widget_type === 'confirmation' && w.contents.popup_id === popupId);
    expect(dialog?.contents).toMatchObject({
      title: 'Remove this listing?',
      message: expect.stringContaining('Old Mill Inn'),
      confirm_actions: [
        {
          type: 'submit',
          endpoint: `${BASE}/leads/${inactive.property_unique_id}/remove`,
          body: { no_association: true },
        },
      ],
    });
  });

  it('shows the programs as tags and the EWB and EWB-to-recontract lists as their own sections (SPEC §3, §4)', async () => {
    const owner = await signInNewOwner(app);
    const ota = await createTestLead(app, owner, { title: 'Palm Grove' });
    const ewb = await createTestLead(app, owner, { title: 'Coral Bay' });
    const plain = await createTestLead(app, owner, { title: 'Hill Cottage' });
    const ewbOld = await createTestLead(app, owner, { title: 'River Lodge' });
    const ewbRecent = await createTestLead(app, owner, { title: 'Old Mill Inn' });
    for (const lead of [ota, ewb, plain]) await setStatus(lead.property_unique_id, 'LIVE');
    await setStatus(ewbOld.property_unique_id, 'INACTIVE', new Date(Date.UTC(2024, 0, 1)));
    await setStatus(ewbRecent.property_unique_id, 'INACTIVE', new Date(Date.UTC(2026, 2, 1)));
    await setProgram(ota.property_unique_id, 'OTA', 'crystal');
    await setProgram(ewb.property_unique_id, 'EWB', 'flexible');
    await setProgram(ewbOld.property_unique_id, 'EWB', null);
    await setProgram(ewbRecent.property_unique_id, 'EWB', 'crystal');

    const props = await list(owner);
    expect(props.ewb.map((p) => [p.title, p.program, p.program_type])).toEqual([
      ['Coral Bay', 'EWB', 'flexible'],
    ]);
    expect(props.ewb_and_recontract.map((p) => [p.title, p.tag])).toEqual([['River Lodge', 'RECONTRACT']]);
    expect(props.live.find((p) => p.title === 'Hill Cottage')).toMatchObject({
      program: null,
      program_type: null,
    });

    const widgets = await screenWidgets(owner, 'dashboard');
    const sections = widgets
      .filter((w) => w.widget_type === 'text' && w.contents.variant === 'subtitle')
      .map((w) => w.contents.text);
    expect(sections).toEqual([
      'Live listings',
      'EWB properties',
      'EWB properties to recontract',
      'Inactive properties',
    ]);
    // Each property once, in its section: the cards in order of the page.
    const cards = widgets.filter((w) => w.widget_type === 'property_card');
    const titles = cards.map((w) => w.contents.title);
    expect(titles.filter((t) => t === 'Coral Bay')).toHaveLength(1);
    expect(titles.filter((t) => t === 'River Lodge')).toHaveLength(1);
    const ids = cards.map((w) => `${w.id}:${String(w.contents.title)}`);
    expect(ids).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^live_\d+:Palm Grove$/),
        expect.stringMatching(/^ewb_0:Coral Bay$/),
        'ewb_recontract_0:River Lodge',
        expect.stringMatching(/^inactive_\d+:Old Mill Inn$/),
      ]),
    );
    const card = (title: string) =>
      cards.find((w) => w.contents.title === title)!.contents as unknown as PropertyCardContents;
    expect(card('Palm Grove').tags).toEqual([
      { label: 'OTA program', tone: 'default' },
      { label: 'Crystal', tone: 'default' },
    ]);
    expect(card('Coral Bay')).toMatchObject({
      tag: { label: 'Live' },
      tags: [{ label: 'EWB program' }, { label: 'Flexible' }],
    });
    expect(card('Hill Cottage').tags).toEqual([]);
    expect(card('River Lodge')).toMatchObject({
      tag: { label: 'Recontract' },
      tags: [{ label: 'EWB program' }],
      details: [expect.stringMatching(/^Months inactive: \d+$/), expect.stringContaining('EWB program')],
      primary: {
        label: 'Sign the contract again',
        actions: [
          { type: 'navigate', to: '/task', query: { property_unique_id: ewbOld.property_unique_id } },
        ],
      },
    });
    expect(card('Old Mill Inn')).toMatchObject({
      tag: { label: 'Reactivate' },
      tags: [{ label: 'EWB program' }, { label: 'Crystal' }],
    });

    // In Arabic, the tags are translated.
    const arabic = await screenWidgets(owner, 'dashboard', '', 'ar');
    const arCard = arabic.find((w) => w.widget_type === 'property_card' && w.contents.title === 'Coral Bay')!
      .contents as unknown as PropertyCardContents;
    expect(arCard.tags!.map((t) => t.label)).toEqual(['برنامج EWB', 'مرن']);
  });

  it('the referral screen shows the referral header with the verified code once saved', async () => {
    const owner = await signInNewOwner(app);
    const { property_unique_id: id } = await createTestLead(app, owner, { title: 'Lotus Court' });
    const before = await screenWidgets(owner, 'referral', `?property_unique_id=${id}`);
    expect(before.find((w) => w.widget_type === 'referral_header')?.contents).toEqual({
      title: 'Referral',
      property_title: 'Lotus Court',
      description: 'Were you referred to us? Add the referral code you were given.',
      verified_label: 'Verified',
    });
    expect((await saveReferral(owner, id, 'GOOD-1')).statusCode).toBe(200);
    const after = await screenWidgets(owner, 'referral', `?property_unique_id=${id}`);
    expect(after.find((w) => w.widget_type === 'referral_header')?.contents.referral).toEqual({
      code: 'GOOD-1',
      referrer: 'Referred by Priya Sharma',
    });
    expect(after.find((w) => w.id === 'save')?.contents.label).toBe('Update referral code');
    const stranger = await signInNewOwner(app);
    const res = await app.inject({
      url: `/hms_ms/api/v1/screens/referral?property_unique_id=${id}`,
      headers: { cookie: stranger },
    });
    expect(res.statusCode).toBe(404);
  });
});
