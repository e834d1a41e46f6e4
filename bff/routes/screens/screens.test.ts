import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Lead } from '../../../schemas/generated/types';
import { buildApp, defaultScreensDir } from '../../app';
import { loadScreenCatalogue, type ScreenCatalogue, type ScreenContext } from '../../screens/composer';
import { createTranslations } from '../../services/translations';
import {
  buildTestApp,
  makePropertyManager,
  sharedDatabase,
  stubScreens,
  testConfig,
  signInNewOwner,
} from '../../test-helpers';

const signIn = signInNewOwner;

let app: FastifyInstance;
let cookie: string;
beforeAll(async () => {
  app = await buildTestApp();
  cookie = await signIn(app);
});

describe('GET /hms_ms/api/v1/screens/:screen_id', () => {
  it('serves a public screen without a session, in the httpxoyolang language', async () => {
    const res = await app.inject({
      url: '/hms_ms/api/v1/screens/public_test',
      headers: { httpxoyolang: 'ar' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({
      screen_id: 'public_test',
      schema_version: 1,
      title: 'public_test ar',
    });
    expect(res.json().data.widget_list[0].contents).toEqual({ text: 'anonymous' });
    const unsupported = await app.inject({
      url: '/hms_ms/api/v1/screens/public_test',
      headers: { httpxoyolang: 'tlh' },
    });
    expect(unsupported.json().data.title).toBe('public_test en-GB');
  });

  it('answers 401 for a private screen without a session, and composes it with one', async () => {
    const anon = await app.inject('/hms_ms/api/v1/screens/private_test');
    expect(anon.statusCode).toBe(401);
    expect(anon.json().error.code).toBe('ONB_UNAUTHORIZED');
    const signed = await app.inject({ url: '/hms_ms/api/v1/screens/private_test', headers: { cookie } });
    expect(signed.statusCode).toBe(200);
    expect(signed.json().data.widget_list[0].contents.text).toMatch(/^\+9198/);
    expect(signed.json().data.widget_list[1].contents.text).toBe('IN');
  });

  it('refuses a private screen to a PropertyManager (403 ONB_ROLE_FORBIDDEN, SPEC §6); a public one is theirs', async () => {
    const manager = await signIn(app);
    await makePropertyManager(app, manager);
    const refused = await app.inject({
      url: '/hms_ms/api/v1/screens/private_test',
      headers: { cookie: manager },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toMatchObject({
      code: 'ONB_ROLE_FORBIDDEN',
      message: 'You do not have rights to view/modify',
    });
    const open = await app.inject({
      url: '/hms_ms/api/v1/screens/public_test',
      headers: { cookie: manager },
    });
    expect(open.statusCode).toBe(200);
    expect(open.json().data.screen_id).toBe('public_test');
  });

  it('answers 404 ONB_SCREEN_NOT_FOUND for an unknown screen', async () => {
    const res = await app.inject({ url: '/hms_ms/api/v1/screens/kyc', headers: { cookie } });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toMatchObject({
      code: 'ONB_SCREEN_NOT_FOUND',
      message: "We couldn't find the page",
    });
  });
});

describe('metadata', () => {
  it('feature-metadata: property_onboarding labels come from the screens area; unknown features are left out', async () => {
    const res = await app.inject({
      url: '/hms_ms/api/v1/feature-metadata?features=property_onboarding,nope',
      headers: { cookie },
    });
    expect(res.statusCode).toBe(200);
    const labels = res.json().data.feature_labels;
    expect(Object.keys(labels)).toEqual(['property_onboarding']);
    const screens = (await app.inject('/hms_ms/api/v1/translations/en-GB')).json().data.clientMessages
      .screens;
    const someKey = Object.keys(labels.property_onboarding)[0];
    if (someKey) {
      const [first, ...rest] = someKey.split('.');
      let node = screens[first!];
      for (const p of rest) node = node[p];
      expect(labels.property_onboarding[someKey]).toBe(node);
    }
  });

  it('screen-metadata: SPEC §2 screen names map to screen titles', async () => {
    const res = await app.inject({
      url: '/owner_ms/api/v1/app/screen-metadata?features=propertyDashboardScreen,mobileOTPLogin,unknownScreen',
      headers: { cookie },
    });
    expect(res.statusCode).toBe(200);
    const labels = res.json().data.screen_labels;
    expect(Object.keys(labels).sort()).toEqual(['mobileOTPLogin', 'propertyDashboardScreen']);
    const t = createTranslations();
    for (const [name, id] of [
      ['propertyDashboardScreen', 'dashboard'],
      ['mobileOTPLogin', 'sign_up'],
    ] as const) {
      const title = t.translate('en-GB', `screens.${id}.title`);
      expect(labels[name]).toEqual(title === `screens.${id}.title` ? {} : { title });
    }
  });

  it('refuses a malformed features list', async () => {
    const res = await app.inject({
      url: '/hms_ms/api/v1/feature-metadata?features=a;b',
      headers: { cookie },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('ONB_INVALID_INPUT');
  });
});

describe('the real screen catalogue (bff/screens)', () => {
  it('loads, and the sign_up screen is served publicly through the app', async () => {
    const t = createTranslations();
    const catalogue = loadScreenCatalogue({ dir: defaultScreensDir, translate: t.translate });
    const real = await buildTestApp({ screens: catalogue });
    const res = await real.inject('/hms_ms/api/v1/screens/sign_up');
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.screen_id).toBe('sign_up');
    expect(data.widget_list.length).toBeGreaterThan(0);
    for (const w of data.widget_list) expect(Object.keys(w.contents).length).toBeGreaterThan(0);
    expect((await real.inject('/hms_ms/api/v1/screens/dashboard')).statusCode).toBe(401);
  });

  it('composes property_middleware, task and task_details for a real lead', async () => {
    const t = createTranslations();
    const catalogue = loadScreenCatalogue({ dir: defaultScreensDir, translate: t.translate });
    const real = await buildTestApp({ screens: catalogue });
    const who = await signIn(real);
    const middleware = async () =>
      (
        await real.inject({ url: '/hms_ms/api/v1/screens/property_middleware', headers: { cookie: who } })
      ).json().data;
    const before = JSON.stringify(await middleware());
    const created = await real.inject({
      method: 'POST',
      url: '/hms_ms/api/v1/onboard/leads',
      headers: { cookie: who },
      payload: { title: 'Harbour Lights', property_type: 'hotel', property_sub_type: 'boutique_hotel' },
    });
    const id: string = created.json().data.lead.property_unique_id;
    const after = JSON.stringify(await middleware());
    expect(before).not.toContain(id);
    expect(after).toContain(id);
    const task = await real.inject({
      url: `/hms_ms/api/v1/screens/task?property_unique_id=${id}`,
      headers: { cookie: who },
    });
    expect(task.statusCode, task.body).toBe(200);
    expect(task.body).toContain('Harbour Lights');
    const details = await real.inject({
      url: `/hms_ms/api/v1/screens/task_details?property_unique_id=${id}&task=basic_info`,
      headers: { cookie: who },
    });
    expect(details.statusCode, details.body).toBe(200);
    expect(details.json().data.form.initial).toMatchObject({ title: 'Harbour Lights' });
  });

  it("property_add offers only the sub types the owner's country onboards, and each offered one is accepted (issue 12 item 19)", async () => {
    const t = createTranslations();
    const catalogue = loadScreenCatalogue({ dir: defaultScreensDir, translate: t.translate });
    const real = await buildTestApp({ screens: catalogue });
    const who = await signIn(real); // an Indian number: India does not onboard hostels
    const res = await real.inject({ url: '/hms_ms/api/v1/screens/property_add', headers: { cookie: who } });
    expect(res.statusCode, res.body).toBe(200);
    const widgets: { id: string; contents: { options?: { value: string; group?: string }[] } }[] =
      res.json().data.widget_list;
    const subTypes = widgets.find((w) => w.id === 'property_sub_type')!.contents.options!;
    const types = widgets.find((w) => w.id === 'property_type')!.contents.options!;
    expect(subTypes.map((s) => s.value)).not.toContain('hostel');
    expect(subTypes.map((s) => s.value)).toContain('boutique_hotel');
    for (const sub of subTypes) {
      const created = await real.inject({
        method: 'POST',
        url: '/hms_ms/api/v1/onboard/leads',
        headers: { cookie: who },
        payload: { title: `Try ${sub.value}`, property_type: sub.group, property_sub_type: sub.value },
      });
      expect(created.statusCode, `${sub.value}: ${created.body}`).toBe(201);
      expect(types.map((ty) => ty.value)).toContain(sub.group);
    }
  });

  it('sign_up links the terms of service of the partner site before sign-up (SPEC §9, issue 12 item 25)', async () => {
    const t = createTranslations();
    const catalogue = loadScreenCatalogue({ dir: defaultScreensDir, translate: t.translate });
    const link = async (partnerSiteUrl: string | null) => {
      const real = await buildTestApp({ screens: catalogue, config: { partnerSiteUrl } });
      const res = await real.inject('/hms_ms/api/v1/screens/sign_up');
      const widgets: { id: string; contents: { label: string; actions: unknown[] } }[] =
        res.json().data.widget_list;
      return widgets.find((w) => w.id === 'terms_link')!.contents;
    };
    const withSite = await link('https://partner.example.com');
    expect(withSite.label).toBe('Read the terms of service');
    expect(withSite.actions).toEqual([{ type: 'open_url', url: 'https://partner.example.com/terms' }]);
    expect((await link('https://partner.example.com/')).actions).toEqual([
      { type: 'open_url', url: 'https://partner.example.com/terms' },
    ]);
    expect((await link(null)).actions).toEqual([{ type: 'navigate', to: '/legal-terms' }]);
  });

  it('buildApp refuses to start on an invalid screen definition', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'screens-'));
    writeFileSync(
      join(dir, 'broken.json'),
      JSON.stringify({ screen_id: 'broken', widget_list: [{ id: 'x' }] }),
    );
    await expect(
      buildApp({ config: testConfig(), db: await sharedDatabase(), logger: false, screensDir: dir }),
    ).rejects.toThrow(/broken/);
  });
});

describe('the screen context: params and lead', () => {
  // A catalogue that records the context of each composition, with a public screen and the lead's screens.
  const seen: ScreenContext[] = [];
  const stub = stubScreens();
  const recording: ScreenCatalogue = {
    has: (id) => ['public_test', 'task', 'property_middleware'].includes(id),
    isPublic: (id) => id === 'public_test',
    ids: () => ['property_middleware', 'public_test', 'task'],
    compose: (id, ctx) => {
      seen.push(ctx);
      return stub.compose('public_test', ctx);
    },
  };
  let target: FastifyInstance;
  let owner: string;
  let stranger: string;
  let tick = 0;
  const lastContext = () => seen[seen.length - 1]!;
  const createLead = async (who: string, title: string): Promise<Lead> => {
    const res = await target.inject({
      method: 'POST',
      url: '/hms_ms/api/v1/onboard/leads',
      headers: { cookie: who },
      payload: { title, property_type: 'hotel', property_sub_type: 'resort' },
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().data.lead;
  };

  beforeAll(async () => {
    // Every reading of the clock moves it on, so leads created one after the other are ordered.
    target = await buildTestApp({ screens: recording, now: () => Date.now() + (tick += 10) });
    owner = await signIn(target);
    stranger = await signIn(target);
  });

  it('property_middleware: lead null for a user without leads, then the newest in-progress lead', async () => {
    const none = await target.inject({
      url: '/hms_ms/api/v1/screens/property_middleware',
      headers: { cookie: owner },
    });
    expect(none.statusCode).toBe(200);
    expect(lastContext().lead).toBeNull();
    expect(lastContext().params).toEqual({});

    await createLead(owner, 'Older');
    const newest = await createLead(owner, 'Newer');
    await createLead(stranger, 'Not theirs');
    const res = await target.inject({
      url: '/hms_ms/api/v1/screens/property_middleware',
      headers: { cookie: owner },
    });
    expect(res.statusCode).toBe(200);
    expect(lastContext().lead).toEqual(newest);
  });

  it('task: composed with the lead of property_unique_id and the page query as params', async () => {
    const older = await createLead(owner, 'Asked for');
    await createLead(owner, 'Newest');
    const long = 'x'.repeat(201);
    const res = await target.inject({
      url: `/hms_ms/api/v1/screens/task?property_unique_id=${older.property_unique_id}&task=basic_info&utm=a&long=${long}&twice=1&twice=2`,
      headers: { cookie: owner },
    });
    expect(res.statusCode, res.body).toBe(200);
    const ctx = lastContext();
    expect(ctx.lead).toEqual(older);
    expect(ctx.params).toEqual({
      property_unique_id: older.property_unique_id,
      task: 'basic_info',
      utm: 'a',
    });
  });

  it("answers 404 ONB_LEAD_NOT_FOUND for another user's or an unknown property_unique_id", async () => {
    const theirs = await createLead(stranger, 'Private Villa');
    for (const id of [theirs.property_unique_id, 'PO0000000000']) {
      const before = seen.length;
      const res = await target.inject({
        url: `/hms_ms/api/v1/screens/task?property_unique_id=${id}`,
        headers: { cookie: owner },
      });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('ONB_LEAD_NOT_FOUND');
      expect(res.body).not.toContain('Private Villa');
      expect(seen.length).toBe(before);
    }
  });

  it('a public screen without a session gets the params and no lead', async () => {
    const lead = await createLead(owner, 'Anyone?');
    const res = await target.inject(
      `/hms_ms/api/v1/screens/public_test?property_unique_id=${lead.property_unique_id}&task=kyc`,
    );
    expect(res.statusCode).toBe(200);
    expect(lastContext()).toMatchObject({
      user: null,
      lead: null,
      params: { property_unique_id: lead.property_unique_id, task: 'kyc' },
    });
  });
});
