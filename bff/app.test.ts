import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './app';
import { DEFAULT_MAP_TILE_ATTRIBUTION, loadConfig } from './config';
import { openDatabase } from './db';
import {
  buildTestApp,
  createTestLead,
  sharedDatabase,
  signInNewOwner,
  testConfig,
  uniquePhone,
} from './test-helpers';
import { createWebhookTransport } from './services/transport';

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp({ config: { selfOnboardDisabledCountries: ['ID'] } });
});

describe('global_info (SPEC §3, §7)', () => {
  it('answers the switches for the default country', async () => {
    const res = await app.inject('/hms_ms/api/v1/global_info');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      data: {
        is_downtime_active: false,
        oyo_360_chat_enabled: false,
        is_self_onboard_enabled: true,
        enable_oyo360_l1_revamp: false,
        country_code: 'IN',
        partner_site_url: null,
        map_config: {
          tile_url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
          attribution: DEFAULT_MAP_TILE_ATTRIBUTION,
          default_center: { lat: 28.3991744, lng: 77.0387653 },
        },
      },
    });
    // Out of the box the map has OpenStreetMap's tiles, which the page may load (issue 12 item 13).
    expect(DEFAULT_MAP_TILE_ATTRIBUTION.replace(/<[^>]+>/g, '').replace('&copy;', '©')).toBe(
      '© OpenStreetMap contributors',
    );
    // The page's policy (an API answer has `default-src 'none'`): here without a built client, so the page
    // answers 503, with the headers of every page.
    const page = await app.inject('/propertyOnboard/task/details');
    expect(String(page.headers['content-security-policy'])).toContain(
      "img-src 'self' data: blob: https://tile.openstreetmap.org;",
    );
  });

  it('draws the map without tiles when MAP_TILE_URL is set empty', async () => {
    const off = await buildTestApp({ config: loadConfig({ NODE_ENV: 'test', MAP_TILE_URL: '' }) });
    const res = await off.inject('/hms_ms/api/v1/global_info');
    expect(res.json().data.map_config).toMatchObject({ tile_url: null, attribution: '' });
  });

  it('names the map tiles when MAP_TILE_URL is configured, and lets the page load them (CSP img-src)', async () => {
    const configured = await buildTestApp({
      config: {
        mapTileUrl: 'https://{s}.tiles.example.org/{z}/{x}/{y}.png',
        mapTileAttribution: '© Example',
      },
    });
    const res = await configured.inject('/hms_ms/api/v1/global_info');
    expect(res.json().data.map_config).toMatchObject({
      tile_url: 'https://{s}.tiles.example.org/{z}/{x}/{y}.png',
      attribution: '© Example',
    });
    const page = await configured.inject('/propertyOnboard/task/details');
    expect(String(page.headers['content-security-policy'])).toContain(
      "img-src 'self' data: blob: https://*.tiles.example.org;",
    );
  });

  it('names the partner site when PARTNER_SITE_URL is configured', async () => {
    const configured = await buildTestApp({ config: { partnerSiteUrl: 'https://partner.example.org/' } });
    const res = await configured.inject('/hms_ms/api/v1/global_info');
    expect(res.json().data.partner_site_url).toBe('https://partner.example.org/');
  });

  it('honours user_url_country: the country is echoed and self-onboarding follows the disabled list', async () => {
    const id = await app.inject({ url: '/hms_ms/api/v1/global_info', headers: { user_url_country: 'ID' } });
    expect(id.json().data).toMatchObject({ country_code: 'ID', is_self_onboard_enabled: false });
    const th = await app.inject({ url: '/hms_ms/api/v1/global_info', headers: { user_url_country: 'TH' } });
    expect(th.json().data).toMatchObject({ country_code: 'TH', is_self_onboard_enabled: true });
    const bad = await app.inject({ url: '/hms_ms/api/v1/global_info', headers: { user_url_country: 'IND' } });
    expect(bad.json().data.country_code).toBe('IN');
  });
});

describe('HTTP basics', () => {
  it('echoes a request id and sends the Content-Security-Policy', async () => {
    const res = await app.inject('/healthz');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("style-src 'self' 'unsafe-inline'");
  });

  it('answers 401 Session Expired on a private API without a session', async () => {
    const res = await app.inject('/hms_ms/api/v1/feature-metadata?features=property_onboarding');
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({
      success: false,
      error: { code: 'ONB_UNAUTHORIZED', message: 'Session Expired' },
    });
  });

  it('answers a path parameter over the router limit and a malformed URL in the error shape, without echoing them', async () => {
    const long = await app.inject(`/hms_ms/api/v1/screens/${'a'.repeat(500)}`);
    expect(long.statusCode).toBe(414);
    expect(long.json()).toEqual({
      success: false,
      error: { code: 'ONB_INVALID_INPUT', message: 'Invalid Input' },
    });
    const malformed = await app.inject('/hms_ms/api/v1/screens/%E0%A4%A');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().error.code).toBe('ONB_INVALID_INPUT');
    expect(malformed.body).not.toContain('%E0');
  });

  it('answers a JSON 404 for an unknown API path', async () => {
    const res = await app.inject('/hms_ms/api/v1/nothing-here');
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('ONB_NOT_FOUND');
  });

  it('answers 405 with Allow for a method a path is not asked with (RFC 9110 §15.5.6), in the error shape', async () => {
    const patch = await app.inject({ method: 'PATCH', url: '/hms_ms/api/v1/global_info' });
    expect(patch.statusCode).toBe(405);
    expect(patch.headers.allow).toBe('GET, HEAD');
    expect(patch.json()).toEqual({
      success: false,
      error: { code: 'ONB_METHOD_NOT_ALLOWED', message: "We couldn't find the page" },
    });
    // A path with parameters, whose routes take three methods; the query and a trailing slash change nothing.
    const put = await app.inject({ method: 'PUT', url: '/hms_ms/api/v1/onboard/leads/POABC123/?x=1' });
    expect(put.statusCode).toBe(405);
    expect(put.headers.allow).toBe('DELETE, GET, HEAD');
    const get = await app.inject('/hms_ms/api/v1/users/web_sign_up');
    expect(get.statusCode).toBe(405);
    expect(get.headers.allow).toBe('POST');
    // A path no route has is still not found, whatever the method.
    const unknown = await app.inject({ method: 'PATCH', url: '/hms_ms/api/v1/nothing-here' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.headers.allow).toBeUndefined();
  });

  it('/readyz runs a query; 503 when the database is gone', async () => {
    expect((await app.inject('/readyz')).json()).toEqual({ status: 'ok' });
    const own = await openDatabase({ kind: 'pglite', dataDir: null });
    const target = await buildTestApp({ db: own });
    await own.close();
    const res = await target.inject('/readyz');
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: 'unavailable' });
    await target.close();
  });
});

describe('OpenAPI document', () => {
  it('lists every operation with its operationId and tags', async () => {
    const res = await app.inject('/hms_ms/api/openapi.json');
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toBe('3.1.0');
    const ops: Record<string, { tags: string[] }> = {};
    for (const methods of Object.values(doc.paths) as Record<
      string,
      { operationId: string; tags: string[] }
    >[]) {
      for (const op of Object.values(methods)) ops[op.operationId] = op;
    }
    for (const id of [
      'getGlobalInfo',
      'getFeatureMetadata',
      'getScreenMetadata',
      'requestOtp',
      'verifyOtp',
      'getSignInState',
      'signOut',
      'getTranslations',
      'getScreen',
      'getHealth',
      'getReadiness',
      'getDevOutbox',
      'webSignUp',
      'verifyEmail',
      'newSignIn',
      'forgotPassword',
      'setPassword',
      'setPasswordByPost',
      'changePassword',
    ]) {
      expect(ops[id], id).toBeDefined();
      expect(ops[id]!.tags.length).toBeGreaterThan(0);
    }
    expect(doc.paths['/hms_ms/api/v2/request_otp'].post.requestBody).toBeDefined();
    expect(doc.paths['/hms_ms/api/v1/users/change_password'].post.security).toEqual([{ session: [] }]);
    // Public ways in say so: no security requirement (SPEC §6 public calls).
    for (const path of ['web_sign_up', 'new_sign_in', 'forgot_password', 'password', 'sso/sign_in/info'])
      expect(doc.paths[`/hms_ms/api/v1/users/${path}`].post.security, path).toEqual([]);
  });
});

describe('dev outbox', () => {
  it('does not exist with another transport', async () => {
    const other = await buildTestApp({
      config: { messageTransport: 'webhook', messageWebhookUrl: 'http://127.0.0.1:9/none' },
      transport: createWebhookTransport(
        'http://127.0.0.1:9/none',
        async () => new Response(null, { status: 202 }),
      ),
    });
    expect((await other.inject('/__dev/outbox')).statusCode).toBe(404);
    const sent = await other.inject({
      method: 'POST',
      url: '/hms_ms/api/v2/request_otp',
      payload: { phone: uniquePhone(), purpose: 'sign_up' },
    });
    expect(sent.statusCode).toBe(200);
  });

  it('answers 500 with the generic text when the transport fails, and the code cannot be used', async () => {
    const failing = await buildTestApp({
      transport: {
        kind: 'broken',
        send: async () => Promise.reject(new Error('gateway down: secret detail')),
      },
    });
    const res = await failing.inject({
      method: 'POST',
      url: '/hms_ms/api/v2/request_otp',
      payload: { phone: uniquePhone(), purpose: 'sign_up' },
    });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      success: false,
      error: { code: 'ONB_INTERNAL', message: 'Internal Server Error' },
    });
  });

  it('the server refuses to start with the dev transport in production', async () => {
    await expect(
      buildApp({
        config: testConfig({ nodeEnv: 'production', messageTransport: 'dev' }),
        db: await sharedDatabase(),
        logger: false,
      }),
    ).rejects.toThrow(/MESSAGE_TRANSPORT=dev/);
  });
});

describe('translations', () => {
  it('merges the four areas with en-GB fallback; unknown language → 404', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'locales-'));
    mkdirSync(join(dir, 'en-GB'));
    mkdirSync(join(dir, 'de'));
    writeFileSync(
      join(dir, 'en-GB', 'shell.json'),
      JSON.stringify({ hello: 'Hello', nested: { a: 'A', b: 'B' } }),
    );
    writeFileSync(join(dir, 'en-GB', 'errors.json'), JSON.stringify({ invalid_input: 'Invalid Input' }));
    writeFileSync(join(dir, 'de', 'shell.json'), JSON.stringify({ hello: 'Hallo', nested: { a: 'A-de' } }));
    writeFileSync(join(dir, 'de', 'errors.json'), '{ not json');
    const t = await buildTestApp({ localesDir: dir });

    const de = await t.inject('/hms_ms/api/v1/translations/de');
    expect(de.statusCode).toBe(200);
    expect(de.json()).toEqual({
      success: true,
      data: {
        language: 'de',
        clientMessages: {
          shell: { hello: 'Hallo', nested: { a: 'A-de', b: 'B' } },
          widgets: {},
          screens: {},
          errors: { invalid_input: 'Invalid Input' },
        },
      },
    });
    const unknown = await t.inject('/hms_ms/api/v1/translations/xx');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('ONB_LANGUAGE_NOT_FOUND');
  });

  it('serves the real Arabic errors area', async () => {
    const ar = (await app.inject('/hms_ms/api/v1/translations/ar')).json();
    expect(ar.data.clientMessages.errors.session_expired).toBe('انتهت صلاحية الجلسة');
  });
});

describe('client files', () => {
  it('redirects / and asks for a build when dist/client is missing', async () => {
    const root = await app.inject('/');
    expect(root.statusCode).toBe(302);
    expect(root.headers.location).toBe('/propertyOnboard');
    const page = await app.inject('/propertyOnboard/dashboard');
    expect(page.statusCode).toBe(503);
    expect(page.body).toContain('npm run build');
  });

  it('serves files and falls back to index.html for client routes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'client-'));
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>app</title>');
    writeFileSync(join(dir, 'assets', 'main-abc.js'), 'console.log(1)');
    const served = await buildTestApp({ clientDir: dir });
    const asset = await served.inject('/propertyOnboard/assets/main-abc.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    for (const url of [
      '/propertyOnboard',
      '/propertyOnboard/',
      '/propertyOnboard/IN/task/details?x=1',
      '/404',
      '/route/redirect/propertyOnboard',
    ]) {
      const res = await served.inject(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('<title>app</title>');
    }
    expect((await served.inject('/elsewhere')).statusCode).toBe(404);
    // A browser asking for any other page gets the app, whose router shows the not-found page (SPEC §2).
    const page = await served.inject({ url: '/elsewhere', headers: { accept: 'text/html,*/*' } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>app</title>');
    // API paths and missing build assets are never answered with HTML.
    for (const url of ['/hms_ms/api/v1/nope', '/propertyOnboard/assets/missing.js']) {
      const res = await served.inject({ url, headers: { accept: 'text/html' } });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().success, url).toBe(false);
    }
  });
});

describe.runIf(process.env.TEST_REDIS_URL)('rate limit in Redis', () => {
  it('shares the counts between two instances', async () => {
    const nameSpace = `test-rl-${Math.random().toString(36).slice(2)}-`;
    const config = { rateLimitMax: 3, redisUrl: process.env.TEST_REDIS_URL! };
    const a = await buildTestApp({ config, rateLimitNameSpace: nameSpace });
    const b = await buildTestApp({ config, rateLimitNameSpace: nameSpace });
    const codes: number[] = [];
    for (const app of [a, b, a, b]) codes.push((await app.inject('/hms_ms/api/v1/global_info')).statusCode);
    expect(codes).toEqual([200, 200, 200, 429]);
  });
});

describe('rate limit', () => {
  it('answers 429 past RATE_LIMIT_MAX requests a minute, also on unknown paths', async () => {
    const limited = await buildTestApp({ config: { rateLimitMax: 3 } });
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) codes.push((await limited.inject('/hms_ms/api/v1/global_info')).statusCode);
    expect(codes).toEqual([200, 200, 200, 429]);
    const res = await limited.inject('/no/such/path');
    expect(res.statusCode).toBe(429);
    expect(res.json().error).toMatchObject({
      code: 'ONB_RATE_LIMITED',
      message: 'Please try after some time.',
    });
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('counts signed-out calls of routes that need a session before answering them 401 (issue 14 item 3)', async () => {
    const limited = await buildTestApp({ config: { rateLimitMax: 3 } });
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) {
      codes.push(
        (await limited.inject('/hms_ms/api/v1/feature-metadata?features=property_onboarding')).statusCode,
      );
    }
    expect(codes).toEqual([401, 401, 401, 429]);
  });

  it('trusts X-Forwarded-For only from a configured proxy (TRUST_PROXY)', async () => {
    const behindProxy = await buildTestApp({ config: { rateLimitMax: 2, trustProxy: ['127.0.0.1'] } });
    const fromProxy = (client: string) =>
      behindProxy.inject({
        url: '/hms_ms/api/v1/global_info',
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-for': client },
      });
    expect([
      (await fromProxy('203.0.113.7')).statusCode,
      (await fromProxy('203.0.113.7')).statusCode,
    ]).toEqual([200, 200]);
    expect((await fromProxy('203.0.113.7')).statusCode).toBe(429);
    // Another client behind the same proxy has its own count.
    expect((await fromProxy('198.51.100.9')).statusCode).toBe(200);

    // A client that is not the proxy cannot choose its address by sending the header.
    const forged = (client: string) =>
      behindProxy.inject({
        url: '/hms_ms/api/v1/global_info',
        remoteAddress: '192.0.2.44',
        headers: { 'x-forwarded-for': client },
      });
    const codes = [
      (await forged('10.0.0.1')).statusCode,
      (await forged('10.0.0.2')).statusCode,
      (await forged('10.0.0.3')).statusCode,
    ];
    expect(codes).toEqual([200, 200, 429]);
  });

  it('counts per instance, with a logged warning, when Redis does not answer (issue 14 item 2)', async () => {
    const lines: string[] = [];
    const limited = await buildTestApp({
      // Nothing listens on port 1: every Redis command fails at once.
      config: { rateLimitMax: 3, redisUrl: 'redis://127.0.0.1:1' },
      logger: { level: 'warn', stream: { write: (line: string) => lines.push(line) } },
    });
    const codes: number[] = [];
    for (let i = 0; i < 4; i++) codes.push((await limited.inject('/hms_ms/api/v1/global_info')).statusCode);
    expect(codes).toEqual([200, 200, 200, 429]);
    const warnings = lines.filter((line) => line.includes('Redis unavailable'));
    expect(warnings).toHaveLength(1);
    await limited.close();
  });
});

describe('input the database cannot hold, and bodies that are not what they claim (found by the OpenAPI fuzzer)', () => {
  it('refuses a NUL character in a path parameter, a query value or a body string with 400, never 500', async () => {
    const cookie = await signInNewOwner(app);
    const lead = await createTestLead(app, cookie);
    const answers = [
      await app.inject({ method: 'DELETE', url: '/hms_ms/api/v1/onboard/leads/%00', headers: { cookie } }),
      await app.inject({ url: '/hms_ms/api/v1/screens/task?property_unique_id=%00', headers: { cookie } }),
      await app.inject({
        method: 'POST',
        url: '/hms_ms/api/v1/onboard/leads',
        headers: { cookie },
        payload: { title: 'Sea\u0000View', property_type: 'hotel', property_sub_type: 'boutique_hotel' },
      }),
    ];
    for (const res of answers) {
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error.code).toBe('ONB_INVALID_INPUT');
    }
    // The owner's lead is untouched.
    const again = await app.inject({
      url: `/hms_ms/api/v1/onboard/leads/${lead.property_unique_id}`,
      headers: { cookie },
    });
    expect(again.statusCode).toBe(200);
  });

  it('refuses numbers beyond what the database counts (a section version of 1e308) with 400', async () => {
    const cookie = await signInNewOwner(app);
    const lead = await createTestLead(app, cookie);
    const res = await app.inject({
      method: 'PUT',
      url: `/hms_ms/api/v1/onboard/leads/${lead.property_unique_id}/kyc`,
      headers: { cookie, 'content-type': 'application/json' },
      payload: '{"data":{},"version":1e308,"draft":true}',
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'ONB_INVALID_INPUT', field: 'version' });
  });

  it('answers 400 to an upload whose body is not valid multipart', async () => {
    const cookie = await signInNewOwner(app);
    const lead = await createTestLead(app, cookie);
    for (const path of ['images', 'kyc/documents']) {
      const res = await app.inject({
        method: 'POST',
        url: `/hms_ms/api/v1/onboard/leads/${lead.property_unique_id}/${path}`,
        headers: { cookie, 'content-type': 'multipart/form-data; boundary=x' },
        payload: 'not multipart at all',
      });
      expect(res.statusCode, path).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'ONB_INVALID_INPUT', field: 'file' });
    }
  });
});
