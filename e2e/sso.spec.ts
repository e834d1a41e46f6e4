import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { expect, test } from '@playwright/test';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { uniquePhone } from './helpers';

/**
 * The hand-off from the provider's main app (issue 11 item 4). This file plays the main app: it publishes a
 * JSON Web Key Set and a home page on a fixed loopback port (the BFF's SSO_* settings in playwright.config.ts
 * point there) and signs tokens with its private key.
 */
const MAIN_APP_PORT = 47305;
const MAIN_APP = `http://127.0.0.1:${MAIN_APP_PORT}`;
const ISSUER = 'https://main-app.e2e.test';
const AUDIENCE = 'property-onboarding';
const KID = 'e2e-main-app';

// One main-app server for the file: its tests run in one worker, one after the other.
test.describe.configure({ mode: 'serial', timeout: 60_000 });

let server: Server;
let privateKey: CryptoKey;
let publicJwk: JWK;

test.beforeAll(async () => {
  const pair = await generateKeyPair('ES256', { extractable: true });
  privateKey = pair.privateKey;
  publicJwk = { ...(await exportJWK(pair.publicKey)), kid: KID, alg: 'ES256', use: 'sig' };
  server = createServer((req, res) => {
    if (req.url === '/.well-known/jwks.json') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ keys: [publicJwk] }));
    } else if (req.url === '/main-app') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>Main app</title><h1>Main app home</h1>');
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(MAIN_APP_PORT, '127.0.0.1', resolve));
});

test.afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** A token of the main app naming `phone`, valid for two minutes. */
async function mainAppToken(phone: string): Promise<string> {
  return new SignJWT({ phone })
    .setProtectedHeader({ alg: 'ES256', kid: KID })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setSubject(`main-${randomUUID()}`)
    .setJti(randomUUID())
    .setIssuedAt()
    .setExpirationTime('2m')
    .sign(privateKey);
}

test('an owner arriving from the main app is signed in, and the token leaves the address bar at once', async ({
  page,
}) => {
  const phone = uniquePhone();
  const token = await mainAppToken(phone.e164);
  const requested: string[] = [];
  page.on('request', (r) => requested.push(r.url()));
  const loginTypes: (string | undefined)[] = [];
  page.on('request', (r) => {
    if (r.url().includes('/hms_ms/')) loginTypes.push(r.headers()['x-login-type']);
  });

  // The address bar while the token is being exchanged: the fragment is already gone.
  let urlDuringExchange = '';
  await page.route('**/hms_ms/api/v1/users/sso/sign_in/info', async (route) => {
    urlDuringExchange = page.url();
    await route.continue();
  });

  await page.goto(`/route/redirect/propertyOnboard#sso_token=${token}`);
  // A new owner has no property yet: the property middleware page sends them to adding one.
  await expect(page).toHaveURL(/\/propertyOnboard\/add$/);
  await expect(page.getByRole('heading', { name: 'Introduce your property' })).toBeVisible();
  expect(urlDuringExchange).toMatch(/\/route\/redirect\/propertyOnboard$/);
  expect(page.url()).not.toContain('sso_token');
  expect(requested.filter((u) => u.includes(token))).toEqual([]);

  const state = await page.request.get('/hms_ms/api/v2/sign_in');
  const data = (await state.json()).data as { is_logged_in: boolean; user: { phone: string } };
  expect(data.is_logged_in).toBe(true);
  expect(data.user.phone).toBe(phone.e164);
  expect(await page.evaluate(() => localStorage.getItem('login_type'))).toBe('sso');
  // Calls after the sign-in carry the sso header (SPEC §7).
  expect(loginTypes).toContain('sso');
});

test('the same link again is refused with a clear reason and a way to sign in normally', async ({ page }) => {
  const token = await mainAppToken(uniquePhone().e164);
  const first = await page.request.post('/hms_ms/api/v1/users/sso/sign_in/info', { data: { token } });
  expect(first.status()).toBe(200);
  await page.context().clearCookies();

  await page.goto(`/route/redirect/propertyOnboard#sso_token=${token}`);
  await expect(page.getByRole('heading', { name: "We couldn't sign you in" })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText(
    'This sign-in link has already been used. Please open property onboarding again from the main app.',
  );
  expect(page.url()).not.toContain('sso_token');
  await page.getByRole('button', { name: 'Sign in with your phone number' }).click();
  await expect(page).toHaveURL(/\/propertyOnboard\/sign_up$/);
  const state = await page.request.get('/hms_ms/api/v2/sign_in');
  expect((await state.json()).data.is_logged_in).toBe(false);
});

test('sign-out of an sso session returns to the main app', async ({ page }) => {
  await page.goto(`/route/redirect/propertyOnboard#sso_token=${await mainAppToken(uniquePhone().e164)}`);
  await expect(page).toHaveURL(/\/propertyOnboard\/add$/);
  await page.goto('/propertyOnboard/account');
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(`${MAIN_APP}/main-app`);
  await expect(page.getByRole('heading', { name: 'Main app home' })).toBeVisible();
  const after = await page.request.get('/hms_ms/api/v2/sign_in');
  expect((await after.json()).data.is_logged_in).toBe(false);
});

test('a forged user cookie signs no one in', async ({ page, baseURL }) => {
  // A real owner, so the forged details name someone who exists.
  const phone = uniquePhone();
  const res = await page.request.post('/hms_ms/api/v1/users/sso/sign_in/info', {
    data: { token: await mainAppToken(phone.e164) },
  });
  expect(res.status()).toBe(200);
  const owner = (await res.json()).data.user as Record<string, unknown>;
  await page.context().clearCookies();

  const forged = Buffer.from(JSON.stringify(owner)).toString('base64');
  await page.context().addCookies([
    { name: 'user_details', value: forged, url: baseURL! },
    { name: 'isLoggedIn', value: 'true', url: baseURL! },
  ]);
  await page.goto('/propertyOnboard/dashboard');
  await expect(page).toHaveURL(/\/propertyOnboard\/sign_up$/);
  await expect(page.getByLabel('Mobile number')).toBeVisible();
  const state = await page.request.get('/hms_ms/api/v2/sign_in');
  expect((await state.json()).data.is_logged_in).toBe(false);
  expect(await page.evaluate(() => localStorage.getItem('isLoggedIn'))).toBeNull();
  const leads = await page.request.get('/hms_ms/api/v1/onboard/leads');
  expect(leads.status()).toBe(401);
});
