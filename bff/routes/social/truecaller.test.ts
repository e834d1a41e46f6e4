import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp } from '../../test-helpers';

/** A stand-in for Truecaller's profile endpoint: `Bearer token-<digits>` → a profile with number +<digits>. */
let profileServer: Server;
let profileHost: string;
const hits: string[] = [];
let app: FastifyInstance;

beforeAll(async () => {
  profileServer = createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url === '/redirect') {
      res
        .writeHead(302, {
          location: `http://localhost:${(profileServer.address() as AddressInfo).port}/v1/default`,
        })
        .end();
      return;
    }
    const token = /^Bearer token-(\d{8,15})$/.exec(req.headers.authorization ?? '');
    if (!token) return void res.writeHead(401).end();
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ phoneNumbers: [Number(token[1])], addresses: [{ countryCode: 'in' }] }));
  });
  await new Promise<void>((resolve) => profileServer.listen(0, '127.0.0.1', resolve));
  profileHost = `127.0.0.1:${(profileServer.address() as AddressInfo).port}`;
  app = await buildTestApp({
    config: {
      truecaller: { partnerKey: 'partner-key-1', partnerName: 'Onboarding' },
      truecallerProfileHosts: [profileHost],
    },
  });
}, 60_000);

afterAll(async () => {
  profileServer.closeAllConnections();
  await new Promise<void>((resolve) => profileServer.close(() => resolve()));
});

let n = 0;
const uniqueDigits = () => `9198${String(Date.now() % 10_000_000).padStart(7, '0')}${(n += 1) % 10}`;
`9197${String(Date.now() % 1_000_000).padStart(6, '0')}${(n += 1) % 10}`.slice(0, 12);

/** Starts a request in a browser; returns its cookie header and request nonce. */
async function begin() {
  const res = await app.inject({ method: 'POST', url: '/hms_ms/api/v1/users/truecaller/request' });
  expect(res.statusCode, res.body).toBe(200);
  const cookie = res.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  const data = res.json<{ data: { request_nonce: string; deep_link: string } }>().data;
  return { cookie, nonce: data.request_nonce, deepLink: data.deep_link };
}
const callback = (payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url: '/hms_ms/api/v1/users/truecaller/callback', payload, headers });
const poll = (cookie: string, nonce: string) =>
  app.inject({
    method: 'POST',
    url: '/hms_ms/api/v1/users/social_media_login',
    headers: { cookie },
    payload: { oauth_mode: 'truecaller', request_nonce: nonce },
  });

describe('Truecaller sign-in (issue 11 item 3, SPEC §4, §9)', () => {
  it('gives a deep link carrying the request nonce and the partner key, bound to the browser', async () => {
    const { cookie, nonce, deepLink } = await begin();
    const url = new URL(deepLink);
    expect(url.protocol).toBe('truecallersdk:');
    expect(url.searchParams.get('requestNonce')).toBe(nonce);
    expect(url.searchParams.get('partnerKey')).toBe('partner-key-1');
    expect(url.searchParams.get('skipOption')).toBe('useanothernum');
    expect(cookie).toMatch(/onboard_oauth=[A-Za-z0-9_-]{43}/);
  });

  it("answers 'No callback received' until Truecaller called back, then signs the owner in once", async () => {
    const { cookie, nonce } = await begin();
    const early = await poll(cookie, nonce);
    expect(early.statusCode).toBe(409);
    expect(early.json().error).toMatchObject({
      code: 'ONB_TRUECALLER_PENDING',
      message: 'No callback received',
    });

    const digits = uniqueDigits();
    const cb = await callback(
      { requestId: nonce, accessToken: `token-${digits}`, endpoint: `http://${profileHost}/v1/default` },
      { origin: 'https://api4.truecaller.com', 'sec-fetch-site': 'cross-site' },
    );
    expect(cb.statusCode, cb.body).toBe(204);

    const done = await poll(cookie, nonce);
    expect(done.statusCode, done.body).toBe(200);
    expect(done.json().data).toMatchObject({
      outcome: 'signed_in',
      user: { phone: `+${digits}`, devise_role: 'Owner_Portal_User', country_code: 'IN' },
    });
    expect(done.cookies.find((c) => c.name === 'onboard_sid')?.httpOnly).toBe(true);

    const again = await poll(cookie, nonce);
    expect(again.statusCode).toBe(400);
    expect(again.json().error.code).toBe('ONB_TRUECALLER_REJECTED');
  });

  it('refuses a poll from another browser than the one that asked', async () => {
    const { nonce } = await begin();
    await callback({
      requestId: nonce,
      accessToken: `token-${uniqueDigits()}`,
      endpoint: `http://${profileHost}/v1/default`,
    });
    expect((await poll(`onboard_oauth=${'x'.repeat(43)}`, nonce)).statusCode).toBe(400);
    expect((await poll('', nonce)).statusCode).toBe(400);
  });

  it.each([
    ['another port of the same machine', () => `http://localhost:${profileHost.split(':')[1]}/v1/default`],
    ['a cloud metadata address', () => 'http://169.254.169.254/latest/meta-data/'],
    ['a look-alike host', () => 'https://profile4.truecaller.com.evil.example/v1/default'],
    ['credentials in the URL', () => `http://user:pass@${profileHost}/v1/default`],
    ['not a URL', () => 'profile4.truecaller.com/v1/default'],
    ['another scheme', () => `file:///etc/passwd`],
  ])('never fetches a profile endpoint off the allow-list: %s', async (_name, endpoint) => {
    const { cookie, nonce } = await begin();
    const before = hits.length;
    const res = await callback({
      requestId: nonce,
      accessToken: `token-${uniqueDigits()}`,
      endpoint: endpoint(),
    });
    expect(res.statusCode).toBe(400);
    expect(hits.length).toBe(before);
    // The request is still pending: nothing was bound to it.
    expect((await poll(cookie, nonce)).json().error.code).toBe('ONB_TRUECALLER_PENDING');
  });

  it('does not follow a redirect from an allow-listed host', async () => {
    const { cookie, nonce } = await begin();
    const res = await callback({
      requestId: nonce,
      accessToken: `token-${uniqueDigits()}`,
      endpoint: `http://${profileHost}/redirect`,
    });
    expect(res.statusCode).toBe(502);
    expect((await poll(cookie, nonce)).json().error.code).toBe('ONB_TRUECALLER_PENDING');
  });

  it('refuses a callback for a request nonce it never gave, without fetching anything', async () => {
    const before = hits.length;
    const res = await callback({
      requestId: 'never-issued-0123456789',
      accessToken: `token-${uniqueDigits()}`,
      endpoint: `http://${profileHost}/v1/default`,
    });
    expect(res.statusCode).toBe(404);
    expect(hits.length).toBe(before);
  });

  it("falls back to the phone code for 'use another number', with no session", async () => {
    const { cookie, nonce } = await begin();
    expect((await callback({ requestId: nonce, status: 'used_another_number' })).statusCode).toBe(204);
    const res = await poll(cookie, nonce);
    expect(res.json()).toEqual({ success: true, data: { outcome: 'used_another_number' } });
    expect(res.cookies.find((c) => c.name === 'onboard_sid')).toBeUndefined();
  });

  it('refuses when the user rejected, and a profile endpoint that refuses the token', async () => {
    const rejected = await begin();
    await callback({ requestId: rejected.nonce, status: 'user_rejected' });
    const res = await poll(rejected.cookie, rejected.nonce);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('ONB_TRUECALLER_REJECTED');

    const badToken = await begin();
    const cb = await callback({
      requestId: badToken.nonce,
      accessToken: 'forged',
      endpoint: `http://${profileHost}/v1/default`,
    });
    expect(cb.statusCode).toBe(502);
  });

  it('is off without a partner key', async () => {
    const bare = await buildTestApp();
    const res = await bare.inject({ method: 'POST', url: '/hms_ms/api/v1/users/truecaller/request' });
    expect(res.statusCode).toBe(404);
    expect((await bare.inject('/hms_ms/api/v1/users/social_login/providers')).json().data.providers).toEqual(
      [],
    );
    const listed = await app.inject('/hms_ms/api/v1/users/social_login/providers');
    expect(listed.json().data.providers).toEqual(['truecaller']);
  });
});
