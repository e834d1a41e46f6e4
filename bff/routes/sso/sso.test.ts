import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import {
  exportJWK,
  exportSPKI,
  generateKeyPair,
  SignJWT,
  UnsecuredJWT,
  type CryptoKey,
  type JWK,
} from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SsoConfig } from '../../config';
import { buildTestApp, uniquePhone } from '../../test-helpers';

const ISSUER = 'https://main-app.test';
const AUDIENCE = 'property-onboarding';
const KID = 'main-app-2026';
const SIGN_IN = '/hms_ms/api/v1/users/sso/sign_in/info';

/** A real JSON Web Key Set served on loopback, as the main app would publish it. */
let jwksServer: Server;
let jwksUrl: string;
let privateKey: CryptoKey;
let publicJwk: JWK;
let publicPem: string;
let otherKey: CryptoKey;
let app: FastifyInstance;

function ssoSettings(overrides: Partial<SsoConfig> = {}): SsoConfig {
  return {
    jwksUrl,
    issuer: ISSUER,
    audience: AUDIENCE,
    algorithms: ['RS256', 'ES256'],
    maxTokenLifetimeS: 300,
    clockToleranceS: 5,
    // The key server runs in this process beside PGlite, which can hold the event loop for seconds.
    jwksTimeoutMs: 30_000,
    signOutUrl: 'https://main-app.test/home',
    ...overrides,
  };
}

beforeAll(async () => {
  const pair = await generateKeyPair('RS256', { extractable: true });
  privateKey = pair.privateKey;
  publicJwk = { ...(await exportJWK(pair.publicKey)), kid: KID, alg: 'RS256', use: 'sig' };
  publicPem = await exportSPKI(pair.publicKey);
  otherKey = (await generateKeyPair('RS256')).privateKey;
  jwksServer = createServer((req, res) => {
    if (req.url === '/.well-known/jwks.json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ keys: [publicJwk] }));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => jwksServer.listen(0, '127.0.0.1', resolve));
  jwksUrl = `http://127.0.0.1:${(jwksServer.address() as AddressInfo).port}/.well-known/jwks.json`;
  app = await buildTestApp({ config: { sso: ssoSettings() } });
});

afterAll(async () => {
  await new Promise<void>((resolve) => jwksServer.close(() => resolve()));
});

const nowS = () => Math.floor(Date.now() / 1000);

/** Claims of a good token naming `phone`; a key set to undefined in `overrides` is left out. */
function claims(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const base: Record<string, unknown> = {
    iss: ISSUER,
    aud: AUDIENCE,
    sub: `main-${randomUUID()}`,
    jti: randomUUID(),
    iat: nowS(),
    exp: nowS() + 120,
    phone: uniquePhone(),
    ...overrides,
  };
  return Object.fromEntries(Object.entries(base).filter(([, v]) => v !== undefined));
}

async function sign(
  payload: Record<string, unknown>,
  key: CryptoKey | Uint8Array = privateKey,
  header: { alg: string; kid?: string } = { alg: 'RS256', kid: KID },
): Promise<string> {
  return new SignJWT(payload).setProtectedHeader(header).sign(key);
}

async function exchange(token: string, target: FastifyInstance = app) {
  return target.inject({ method: 'POST', url: SIGN_IN, payload: { token } });
}

function sessionCookie(res: { cookies: { name: string; value: string }[] }): string | undefined {
  return res.cookies.find((c) => c.name === 'onboard_sid' && c.value !== '')?.value;
}

async function signInState(cookie: string) {
  const res = await app.inject({ url: '/hms_ms/api/v2/sign_in', headers: { cookie } });
  return res.json<{ data: { is_logged_in: boolean; user?: { id: string; phone: string } } }>().data;
}

/** Asserts a refusal: status, code, a message for the user and no session started. */
async function expectRefused(token: string, status: number, code: string) {
  const res = await exchange(token);
  expect(res.statusCode, res.body).toBe(status);
  const body = res.json<{ success: boolean; error: { code: string; message: string } }>();
  expect(body.success).toBe(false);
  expect(body.error.code).toBe(code);
  expect(body.error.message.length).toBeGreaterThan(10);
  expect(sessionCookie(res)).toBeUndefined();
  expect(res.cookies.find((c) => c.name === 'isLoggedIn' && c.value === 'true')).toBeUndefined();
  return body.error;
}

describe('POST /hms_ms/api/v1/users/sso/sign_in/info', () => {
  it('signs a new owner in with a good token and starts a session of our own', async () => {
    const c = claims();
    const res = await exchange(await sign(c));
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json<{
      data: { user: { phone: string; devise_role: string }; login_type: string; sign_out_url: string };
    }>().data;
    expect(data.user.phone).toBe(c.phone);
    expect(data.user.devise_role).toBe('Owner_Portal_User');
    expect(data.login_type).toBe('sso');
    expect(data.sign_out_url).toBe('https://main-app.test/home');
    expect(res.headers['cache-control']).toBe('no-store');
    const sid = sessionCookie(res);
    expect(sid).toBeDefined();
    const state = await signInState(`onboard_sid=${sid}`);
    expect(state.is_logged_in).toBe(true);
    expect(state.user?.phone).toBe(c.phone);
    const row = await app.db
      .selectFrom('sso_used_tokens')
      .selectAll()
      .where('jti', '=', String(c.jti))
      .executeTakeFirstOrThrow();
    expect(row.subject).toBe(c.sub);
    expect(row.user_id).toBe(state.user?.id);
  });

  it('signs an existing owner in by phone (no second account) and rotates an existing session', async () => {
    const phone = uniquePhone();
    const first = await exchange(await sign(claims({ phone })));
    const firstSid = sessionCookie(first);
    const firstUser = first.json<{ data: { user: { id: string } } }>().data.user.id;
    const second = await app.inject({
      method: 'POST',
      url: SIGN_IN,
      payload: { token: await sign(claims({ phone })) },
      headers: { cookie: `onboard_sid=${firstSid}` },
    });
    expect(second.statusCode).toBe(200);
    expect(second.json<{ data: { user: { id: string } } }>().data.user.id).toBe(firstUser);
    expect(sessionCookie(second)).not.toBe(firstSid);
    expect((await signInState(`onboard_sid=${firstSid}`)).is_logged_in).toBe(false);
  });

  it('signs an existing owner in by e-mail alone', async () => {
    const phone = uniquePhone();
    const made = await exchange(await sign(claims({ phone })));
    const id = made.json<{ data: { user: { id: string } } }>().data.user.id;
    const email = `owner-${randomUUID()}@example.com`;
    await app.db.updateTable('users').set({ email }).where('id', '=', id).execute();
    const res = await exchange(await sign(claims({ phone: undefined, email: email.toUpperCase() })));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<{ data: { user: { id: string } } }>().data.user.id).toBe(id);
  });

  it('makes a new owner known by the e-mail alone when no account has it', async () => {
    const email = `nobody-${randomUUID()}@example.com`;
    const res = await exchange(await sign(claims({ phone: undefined, email })));
    expect(res.statusCode, res.body).toBe(200);
    const user = res.json<{ data: { user: { id: string; phone: string | null; email: string } } }>().data
      .user;
    expect(user).toMatchObject({ phone: null, email });
    expect(sessionCookie(res)).toBeDefined();
  });

  it('voids the password of an unconfirmed e-mail sign-up with the address the main app vouches for', async () => {
    const email = `pending-${randomUUID()}@example.com`;
    const id = randomUUID();
    await app.db
      .insertInto('users')
      .values({
        id,
        phone: null,
        email,
        country_code: 'IN',
        language: 'en-GB',
        devise_role: 'Owner_Portal_User',
        team: null,
        password_hash: '$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHQ$c29tZWhhc2g',
        email_verified_at: null,
      })
      .execute();
    const res = await exchange(await sign(claims({ phone: undefined, email })));
    expect(res.json<{ data: { user: { id: string } } }>().data.user.id).toBe(id);
    const row = await app.db
      .selectFrom('users')
      .select(['password_hash', 'email_verified_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toBeNull();
    expect(row.email_verified_at).not.toBeNull();
  });

  it('never starts a PropertyManager session for owner pages', async () => {
    const phone = uniquePhone();
    await app.db
      .insertInto('users')
      .values({
        id: randomUUID(),
        phone,
        country_code: 'IN',
        language: 'en-GB',
        devise_role: 'PropertyManager',
        email: null,
        team: null,
      })
      .execute();
    const error = await expectRefused(await sign(claims({ phone })), 403, 'ONB_SSO_NOT_OWNER');
    expect(error.message).toBe(
      "This number is not registered as an Owner's number... login with Owner credentials",
    );
  });

  it('refuses an expired token, with the message the user reads', async () => {
    const error = await expectRefused(
      await sign(claims({ iat: nowS() - 200, exp: nowS() - 60 })),
      400,
      'ONB_SSO_TOKEN_EXPIRED',
    );
    expect(error.message).toBe(
      'This sign-in link has expired. Please open property onboarding again from the main app.',
    );
  });

  it('refuses a token issued by someone else', async () => {
    await expectRefused(await sign(claims({ iss: 'https://evil.test' })), 400, 'ONB_SSO_TOKEN_UNTRUSTED');
  });

  it('refuses a token meant for another audience', async () => {
    await expectRefused(await sign(claims({ aud: 'another-app' })), 400, 'ONB_SSO_TOKEN_UNTRUSTED');
  });

  it('refuses a token signed with another key (same key id, and unknown key id)', async () => {
    await expectRefused(await sign(claims(), otherKey), 400, 'ONB_SSO_TOKEN_INVALID');
    await expectRefused(
      await sign(claims(), otherKey, { alg: 'RS256', kid: 'someone-else' }),
      400,
      'ONB_SSO_TOKEN_INVALID',
    );
  });

  it('refuses alg none, and HS256 keyed with the public key', async () => {
    await expectRefused(new UnsecuredJWT(claims()).encode(), 400, 'ONB_SSO_TOKEN_INVALID');
    // The classic confusion: the published public key used as an HMAC secret.
    const pem = new TextEncoder().encode(publicPem);
    await expectRefused(await sign(claims(), pem, { alg: 'HS256', kid: KID }), 400, 'ONB_SSO_TOKEN_INVALID');
  });

  it('refuses a replayed token (single use by jti), also on another server instance', async () => {
    const token = await sign(claims());
    expect((await exchange(token)).statusCode).toBe(200);
    await expectRefused(token, 409, 'ONB_SSO_TOKEN_USED');
    const other = await buildTestApp({ config: { sso: ssoSettings() } });
    const res = await exchange(token, other);
    expect(res.statusCode).toBe(409);
    expect(sessionCookie(res)).toBeUndefined();
  });

  it('refuses a token that lives longer than the configured maximum', async () => {
    await expectRefused(await sign(claims({ exp: nowS() + 3600 })), 400, 'ONB_SSO_TOKEN_LIFETIME');
  });

  it('refuses a token issued in the future or long ago', async () => {
    await expectRefused(
      await sign(claims({ iat: nowS() + 120, exp: nowS() + 180 })),
      400,
      'ONB_SSO_TOKEN_INVALID',
    );
    await expectRefused(
      await sign(claims({ iat: nowS() - 400, exp: nowS() + 60 })),
      400,
      'ONB_SSO_TOKEN_EXPIRED',
    );
  });

  it('refuses tokens with missing claims', async () => {
    for (const missing of ['jti', 'sub', 'exp', 'iat']) {
      await expectRefused(await sign(claims({ [missing]: undefined })), 400, 'ONB_SSO_CLAIMS_MISSING');
    }
    await expectRefused(await sign(claims({ phone: undefined })), 400, 'ONB_SSO_CLAIMS_MISSING');
    await expectRefused(await sign(claims({ phone: '12' })), 400, 'ONB_SSO_CLAIMS_MISSING');
  });

  it('refuses a body that is not a compact JWS, or has other fields', async () => {
    for (const payload of [{ token: 'not a token' }, { token: 'a.b.c', extra: 1 }, {}]) {
      const res = await app.inject({ method: 'POST', url: SIGN_IN, payload });
      expect(res.statusCode).toBe(400);
      expect(res.json<{ error: { code: string } }>().error.code).toBe('ONB_INVALID_INPUT');
    }
  });

  it('answers 503 without a session when the main app keys cannot be fetched', async () => {
    const offline = await buildTestApp({
      config: {
        sso: ssoSettings({ jwksUrl: 'http://127.0.0.1:9/.well-known/jwks.json', jwksTimeoutMs: 1000 }),
      },
    });
    const res = await exchange(await sign(claims()), offline);
    expect(res.statusCode).toBe(503);
    expect(sessionCookie(res)).toBeUndefined();
  });

  it('answers 404 when SSO is not configured', async () => {
    const plain = await buildTestApp();
    const res = await exchange(await sign(claims()), plain);
    expect(res.statusCode).toBe(404);
    expect(res.json<{ error: { code: string } }>().error.code).toBe('ONB_SSO_NOT_CONFIGURED');
    expect(sessionCookie(res)).toBeUndefined();
  });

  it('is in the OpenAPI document with its operationId, tags and public security', async () => {
    const doc = (await app.inject('/hms_ms/api/openapi.json')).json<{
      paths: Record<string, Record<string, { operationId: string; tags: string[]; security: unknown[] }>>;
    }>();
    const op = doc.paths[SIGN_IN]?.post;
    expect(op?.operationId).toBe('ssoSignIn');
    expect(op?.tags).toEqual(['auth']);
    expect(op?.security).toEqual([]);
  });
});

describe('the base64 JSON user cookie (SPEC §3)', () => {
  it('signs no one in: a forged cookie naming a real owner gets no session', async () => {
    const made = await exchange(await sign(claims()));
    const owner = made.json<{ data: { user: Record<string, unknown> } }>().data.user;
    const forged = Buffer.from(JSON.stringify(owner)).toString('base64');
    const cookie = `user_details=${forged}; isLoggedIn=true`;
    const state = await app.inject({ url: '/hms_ms/api/v2/sign_in', headers: { cookie } });
    expect(state.json<{ data: { is_logged_in: boolean } }>().data.is_logged_in).toBe(false);
    const leads = await app.inject({ url: '/hms_ms/api/v1/onboard/leads', headers: { cookie } });
    expect(leads.statusCode).toBe(401);
    expect(leads.json<{ error: { code: string } }>().error.code).toBe('ONB_UNAUTHORIZED');
  });
});
