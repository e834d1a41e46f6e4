import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SocialProviderConfig } from '../../config';
import { startOidcStandIn, standInAccount, type OidcStandIn } from '../../test-support/oidc-stand-in';
import { buildTestApp } from '../../test-helpers';
import { defaultScreensDir } from '../../app';
import { loadScreenCatalogue } from '../../screens/composer';
import { createTranslations } from '../../services/translations';

const ORIGIN = 'http://app.test';
const redirectUri = (provider: string) => `${ORIGIN}/propertyOnboard/social_login/${provider}`;

let standIn: OidcStandIn;
let app: FastifyInstance;
let clock = Date.now();

/** A browser's cookies by name (the app's and, separately, the stand-in's). */
type Jar = Map<string, string>;
const header = (jar: Jar) => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
const keep = (jar: Jar, setCookies: string[]) => {
  for (const c of setCookies) {
    const [pair] = c.split(';');
    const i = pair?.indexOf('=') ?? -1;
    if (pair && i > 0) {
      const value = pair.slice(i + 1);
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(c)) jar.delete(pair.slice(0, i));
      else jar.set(pair.slice(0, i), value);
    }
  }
};

beforeAll(async () => {
  standIn = await startOidcStandIn({
    clients: ['google', 'facebook', 'apple'].map((p) => ({
      client_id: `${p}-client`,
      client_secret: `${p}-secret-0123456789abcdef`,
      redirect_uris: [redirectUri(p)],
    })),
  });
  const provider = (p: string, extra: Partial<SocialProviderConfig> = {}): SocialProviderConfig => ({
    issuer: standIn.issuer,
    clientId: `${p}-client`,
    clientSecret: `${p}-secret-0123456789abcdef`,
    endpoints: null,
    scope: p === 'apple' ? 'openid email name' : 'openid email profile',
    ...extra,
  });
  app = await buildTestApp({
    now: () => clock,
    config: {
      publicOrigin: ORIGIN,
      socialProviders: {
        google: provider('google'),
        apple: provider('apple'),
        // Facebook through explicit endpoints (its Graph API), not discovery.
        facebook: provider('facebook', {
          scope: 'openid email',
          endpoints: {
            authorization: `${standIn.issuer}/auth`,
            token: `${standIn.issuer}/token`,
            userinfo: `${standIn.issuer}/me`,
          },
        }),
      },
    },
  });
}, 60_000);

afterAll(async () => {
  await standIn?.close();
});

/** Starts a flow in `browser` (the app's cookies) and returns the provider's authorization URL. */
async function start(provider: string, browser: Jar, intent?: 'sign_in' | 'link'): Promise<URL> {
  const res = await app.inject({
    method: 'POST',
    url: '/hms_ms/api/v1/users/social_login/authorize',
    headers: { cookie: header(browser) },
    payload: { oauth_mode: provider, ...(intent ? { intent } : {}) },
  });
  expect(res.statusCode, res.body).toBe(200);
  keep(
    browser,
    res.cookies.map((c) => `${c.name}=${c.value}`),
  );
  return new URL(res.json<{ data: { authorization_url: string } }>().data.authorization_url);
}

/**
 * Signs in at the stand-in as `login` (its own cookie jar) and returns the authorization response as
 * the query the browser brings back (for form_post: the form's fields).
 */
async function atProvider(authorizationUrl: URL, login: string): Promise<string> {
  const op: Jar = new Map();
  let url = authorizationUrl.href;
  let method = 'GET';
  let body: string | undefined;
  for (let hop = 0; hop < 10; hop += 1) {
    const res = await fetch(url, {
      method,
      body,
      redirect: 'manual',
      headers: {
        cookie: header(op),
        ...(body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
    });
    keep(op, res.headers.getSetCookie());
    const location = res.headers.get('location');
    if (location?.startsWith(ORIGIN)) return new URL(location).search;
    if (location) {
      url = new URL(location, url).href;
      method = 'GET';
      body = undefined;
      continue;
    }
    const html = await res.text();
    const form = /<form[^>]*action="([^"]+)"/.exec(html);
    if (form?.[1]?.startsWith(ORIGIN)) {
      // form_post: the page posts these fields to the redirect URI.
      const fields = new URLSearchParams();
      for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g))
        fields.set(m[1] ?? '', (m[2] ?? '').replace(/&amp;/g, '&'));
      return `?${fields.toString()}`;
    }
    if (form?.[1]) {
      url = new URL(form[1], url).href;
      method = 'POST';
      body = new URLSearchParams({ login }).toString();
      continue;
    }
    throw new Error(`stand-in answered ${res.status}: ${html.slice(0, 300)}`);
  }
  throw new Error('too many redirects');
}

const finish = (provider: string, browser: Jar, callbackQuery: string) =>
  app.inject({
    method: 'POST',
    url: '/hms_ms/api/v1/users/social_media_login',
    headers: { cookie: header(browser) },
    payload: { oauth_mode: provider, callback_query: callbackQuery },
  });

let counter = 0;
const uniqueEmail = (prefix = 'owner') => `${prefix}-${Date.now()}-${(counter += 1)}@example.com`;

describe('providers (SPEC §9 login providers)', () => {
  it('composes the public screens with the same list: the sign-in buttons come with the screen, unasked', async () => {
    const t = createTranslations();
    const screens = loadScreenCatalogue({ dir: defaultScreensDir, translate: t.translate });
    const google: SocialProviderConfig = {
      issuer: 'https://accounts.google.example',
      clientId: 'google-client',
      clientSecret: 'google-secret-0123456789abcdef',
      endpoints: null,
      scope: 'openid email profile',
    };
    const withGoogle = await buildTestApp({
      screens,
      config: { socialProviders: { google, facebook: null, apple: null } },
    });
    const bare = await buildTestApp({ screens });
    const socialButtons = async (server: FastifyInstance, screenId: string) => {
      const screen = await server.inject(`/hms_ms/api/v1/screens/${screenId}`);
      const widgets = screen.json().data.widget_list as { widget_type: string; contents: unknown }[];
      return widgets.find((w) => w.widget_type === 'social_login_buttons')?.contents;
    };
    for (const screenId of ['sign_up', 'login']) {
      expect(await socialButtons(withGoogle, screenId)).toMatchObject({ configured: ['google'] });
      expect(await socialButtons(bare, screenId)).toMatchObject({ configured: [] });
    }
  });

  it('lists only the configured providers, and refuses an unconfigured one', async () => {
    const res = await app.inject('/hms_ms/api/v1/users/social_login/providers');
    expect(res.json()).toEqual({
      success: true,
      data: { providers: ['google', 'facebook', 'apple'], linked: [] },
    });

    const bare = await buildTestApp();
    const none = await bare.inject('/hms_ms/api/v1/users/social_login/providers');
    expect(none.json().data.providers).toEqual([]);

    const refused = await bare.inject({
      method: 'POST',
      url: '/hms_ms/api/v1/users/social_login/authorize',
      payload: { oauth_mode: 'google' },
    });
    expect(refused.statusCode).toBe(404);
    expect(refused.json().error.code).toBe('ONB_SOCIAL_PROVIDER_UNKNOWN');
  });

  it('refuses an unknown provider name by the schema', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/hms_ms/api/v1/users/social_login/authorize',
      payload: { oauth_mode: 'myspace' },
    });
    expect(res.statusCode).toBe(400);
  });
});

describe('sign-in with Google through OpenID Connect (issue 11 item 2)', () => {
  it('sends state, nonce and a PKCE S256 challenge, and keeps the verifier on the server', async () => {
    const browser: Jar = new Map();
    const url = await start('google', browser);
    expect(url.origin).toBe(standIn.issuer);
    expect(url.searchParams.get('redirect_uri')).toBe(redirectUri('google'));
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('state')?.length).toBeGreaterThanOrEqual(43);
    expect(url.searchParams.get('nonce')?.length).toBeGreaterThanOrEqual(43);
    expect(url.searchParams.has('code_verifier')).toBe(false);
    expect(browser.get('onboard_oauth')).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('creates an owner on the first return, signs the same owner in on the next', async () => {
    const email = uniqueEmail();
    const browser: Jar = new Map();
    const query = await atProvider(await start('google', browser), email);
    const res = await finish('google', browser, query);
    expect(res.statusCode, res.body).toBe(200);
    const { user, outcome } = res.json().data;
    expect(outcome).toBe('created');
    expect(user).toMatchObject({ email, phone: null, devise_role: 'Owner_Portal_User', country_code: 'IN' });
    const sid = res.cookies.find((c) => c.name === 'onboard_sid');
    expect(sid).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
    const state = await app.inject({
      url: '/hms_ms/api/v2/sign_in',
      headers: { cookie: `onboard_sid=${sid?.value}` },
    });
    expect(state.json().data).toMatchObject({ is_logged_in: true, user: { id: user.id } });

    const again: Jar = new Map();
    const second = await finish('google', again, await atProvider(await start('google', again), email));
    expect(second.json().data).toMatchObject({ outcome: 'signed_in', user: { id: user.id } });
    const identity = await app.db
      .selectFrom('social_identities')
      .selectAll()
      .where('user_id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(identity).toMatchObject({ provider: 'google', subject: standInAccount(email).sub });
  });

  it('refuses a forged state', async () => {
    const browser: Jar = new Map();
    const query = new URLSearchParams(await atProvider(await start('google', browser), uniqueEmail()));
    query.set('state', 'forged-state-0123456789abcdefghijklmnopqrstuvwxyz');
    const res = await finish('google', browser, `?${query.toString()}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({
      code: 'ONB_SOCIAL_LOGIN_FAILED',
      message: 'Signing in with Google did not work. Please try again.',
    });
    expect(res.cookies.find((c) => c.name === 'onboard_sid')).toBeUndefined();
  });

  it('refuses a replayed code (the attempt is single use)', async () => {
    const browser: Jar = new Map();
    const query = await atProvider(await start('google', browser), uniqueEmail());
    expect((await finish('google', browser, query)).statusCode).toBe(200);
    const replay = await finish('google', browser, query);
    expect(replay.statusCode).toBe(400);
    expect(replay.json().error.code).toBe('ONB_SOCIAL_LOGIN_FAILED');
  });

  it('refuses an ID token whose nonce is not the one sent', async () => {
    const browser: Jar = new Map();
    const url = await start('google', browser);
    // The provider is asked with another nonce than the one the server keeps (as a swapped response would be).
    url.searchParams.set('nonce', 'another-nonce-0123456789abcdefghijklmnopqrstuvwxyz');
    const query = await atProvider(url, uniqueEmail());
    const res = await finish('google', browser, query);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('ONB_SOCIAL_LOGIN_FAILED');
  });

  it('refuses the return in another browser than the one that started (login CSRF)', async () => {
    const attacker: Jar = new Map();
    const query = await atProvider(await start('google', attacker), uniqueEmail());
    const victim: Jar = new Map([['onboard_oauth', 'v'.repeat(43)]]);
    expect((await finish('google', victim, query)).statusCode).toBe(400);
    expect((await finish('google', new Map(), query)).statusCode).toBe(400);
  });

  it('refuses a return after the attempt expired (10 minutes)', async () => {
    const browser: Jar = new Map();
    const query = await atProvider(await start('google', browser), uniqueEmail());
    clock += 11 * 60_000;
    try {
      expect((await finish('google', browser, query)).statusCode).toBe(400);
    } finally {
      clock -= 11 * 60_000;
    }
  });

  it('refuses a provider error answer', async () => {
    const browser: Jar = new Map();
    const url = await start('google', browser);
    const res = await finish(
      'google',
      browser,
      `?error=access_denied&state=${url.searchParams.get('state')}`,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().error.code).toBe('ONB_SOCIAL_LOGIN_FAILED');
  });
});

describe('linking to an existing owner by e-mail', () => {
  const ownerWithEmail = async (
    email: string,
    pending?: { password_hash: string; email_verified_at: null },
  ) => {
    const id = crypto.randomUUID();
    await app.db
      .insertInto('users')
      .values({
        id,
        phone: null,
        country_code: 'IN',
        language: 'en-GB',
        devise_role: 'Owner_Portal_User',
        email,
        team: null,
        ...pending,
      })
      .execute();
    return id;
  };

  it('links through an e-mail the provider verified', async () => {
    const email = uniqueEmail();
    const id = await ownerWithEmail(email.toUpperCase());
    const browser: Jar = new Map();
    const res = await finish('google', browser, await atProvider(await start('google', browser), email));
    expect(res.json().data).toMatchObject({ outcome: 'signed_in', user: { id } });
  });

  it('voids the password of an e-mail sign-up nobody confirmed when the provider proves the address', async () => {
    const email = uniqueEmail();
    // An e-mail sign-up someone started with this address and never confirmed.
    const id = await ownerWithEmail(email, {
      password_hash: '$argon2id$v=19$m=19456,t=2,p=1$c29tZXNhbHQ$c29tZWhhc2g',
      email_verified_at: null,
    });
    const browser: Jar = new Map();
    const res = await finish('google', browser, await atProvider(await start('google', browser), email));
    expect(res.json().data).toMatchObject({ outcome: 'signed_in', user: { id } });
    const row = await app.db
      .selectFrom('users')
      .select(['password_hash', 'email_verified_at'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.password_hash).toBeNull();
    expect(row.email_verified_at).not.toBeNull();
  });

  it('refuses an unverified e-mail that matches an owner, and asks to link from Account', async () => {
    const email = uniqueEmail('unverified');
    const id = await ownerWithEmail(email);
    const browser: Jar = new Map();
    const res = await finish('google', browser, await atProvider(await start('google', browser), email));
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toMatchObject({
      code: 'ONB_SOCIAL_EMAIL_UNVERIFIED',
      message:
        'Your Google e-mail address is not verified. Please sign in another way first, then link Google from Account.',
    });
    const links = await app.db
      .selectFrom('social_identities')
      .select('id')
      .where('user_id', '=', id)
      .execute();
    expect(links).toHaveLength(0);
  });

  it('creates a new owner for an unverified e-mail nobody has, without keeping the address', async () => {
    const browser: Jar = new Map();
    const res = await finish(
      'google',
      browser,
      await atProvider(await start('google', browser), uniqueEmail('unverified')),
    );
    expect(res.json().data).toMatchObject({ outcome: 'created', user: { email: null } });
  });

  it('links from Account for a signed-in owner, and refuses link without a session', async () => {
    const email = uniqueEmail('unverified');
    const id = await ownerWithEmail(email);
    const signedIn = await app.inject({
      method: 'POST',
      url: '/hms_ms/api/v1/users/social_login/authorize',
      payload: { oauth_mode: 'google', intent: 'link' },
    });
    expect(signedIn.statusCode).toBe(401);

    const { token } = { token: await app.sessions.create(id, { userAgent: null, ip: null }) };
    const browser: Jar = new Map([['onboard_sid', token]]);
    const query = await atProvider(await start('google', browser, 'link'), email);
    const linked = await finish('google', browser, query);
    expect(linked.json().data).toMatchObject({ outcome: 'linked', user: { id } });
    const providers = await app.inject({
      url: '/hms_ms/api/v1/users/social_login/providers',
      headers: { cookie: header(browser) },
    });
    expect(providers.json().data.linked).toEqual(['google']);

    // Now the unverified provider account signs in as that owner through the link.
    const later: Jar = new Map();
    const res = await finish('google', later, await atProvider(await start('google', later), email));
    expect(res.json().data).toMatchObject({ outcome: 'signed_in', user: { id } });
  });
});

describe('Apple (form_post) and Facebook (explicit endpoints)', () => {
  it('Apple returns by a form POST that becomes a GET of the client route, then signs in', async () => {
    const browser: Jar = new Map();
    const url = await start('apple', browser);
    expect(url.searchParams.get('response_mode')).toBe('form_post');
    const fields = await atProvider(url, uniqueEmail());
    const post = await app.inject({
      method: 'POST',
      url: '/propertyOnboard/social_login/apple',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: standIn.issuer,
        'sec-fetch-site': 'cross-site',
      },
      payload: `${fields.slice(1)}&user=${encodeURIComponent('{"name":{"firstName":"X"}}')}`,
    });
    expect(post.statusCode).toBe(303);
    const location = new URL(String(post.headers.location), ORIGIN);
    expect(location.pathname).toBe('/propertyOnboard/social_login/apple');
    expect(location.searchParams.has('user')).toBe(false);
    expect(location.searchParams.get('code')).toBe(new URLSearchParams(fields).get('code'));
    const res = await finish('apple', browser, location.search);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.outcome).toBe('created');
  });

  it('Facebook reads the profile from its userinfo endpoint', async () => {
    const email = uniqueEmail();
    const browser: Jar = new Map();
    const res = await finish('facebook', browser, await atProvider(await start('facebook', browser), email));
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.user.email).toBe(email);
  });
});
