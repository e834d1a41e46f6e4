import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp, defaultScreensDir } from '../../app';
import { loadScreenCatalogue } from '../../screens/composer';
import { createTranslations } from '../../services/translations';
import { buildTestApp, sharedDatabase, testConfig, uniquePhone } from '../../test-helpers';

type Outbox = { to: string; code: string }[];

let app: FastifyInstance;
let cookie: string;
beforeAll(async () => {
  app = await buildTestApp();
  const phone = uniquePhone();
  await app.inject({
    method: 'POST',
    url: '/hms_ms/api/v2/request_otp',
    payload: { phone, purpose: 'sign_up' },
  });
  const code = (await app.inject('/__dev/outbox')).json<Outbox>().find((e) => e.to === phone)!.code;
  const v = await app.inject({
    method: 'POST',
    url: '/hms_ms/api/v2/verify_otp',
    payload: { phone, purpose: 'sign_up', otp: code },
  });
  cookie = v.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
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
