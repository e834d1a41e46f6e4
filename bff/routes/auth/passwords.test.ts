import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { hashPassword } from '../../services/passwords';
import { buildTestApp, signInNewOwner } from '../../test-helpers';

/** The hashes @node-rs/argon2's verify was given, in order (the module as it is, watched). */
const verified = vi.hoisted(() => [] as string[]);
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const original = await importOriginal<typeof import('@node-rs/argon2')>();
  return {
    ...original,
    verify: (digest: string, password: string, ...rest: unknown[]) => {
      verified.push(digest);
      return (original.verify as (...args: unknown[]) => Promise<boolean>)(digest, password, ...rest);
    },
  };
});

type Outbox = {
  channel: string;
  to: string;
  text: string;
  subject?: string;
  code: string;
  sent_at: string;
}[];
type Res = Awaited<ReturnType<FastifyInstance['inject']>>;

const GOOD = 'Harbour#Light42';
const OTHER = 'Monsoon&Tide77';

let clock = Date.parse('2026-03-01T10:00:00Z');
const now = () => clock;
let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp({ now });
}, 60_000);

let counter = 0;
const uniqueEmail = () => `owner${Date.now()}${++counter}@example.com`;
const cookieOf = (res: Res) => res.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
const sidOf = (res: Res) => res.cookies.find((c) => c.name === 'onboard_sid')?.value;
const post = (url: string, payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url: `/hms_ms/api/v1/users/${url}`, payload, headers });
const outbox = async () => (await app.inject('/__dev/outbox')).json<Outbox>();
/** The newest message to `to` once one satisfying `pick` has arrived (work after the answer). */
const waitForMessage = async (to: string, pick: (m: Outbox[number]) => boolean = () => true) =>
  vi.waitFor(
    async () => {
      const found = (await outbox()).find((m) => m.to === to && pick(m));
      if (!found) throw new Error(`no message to ${to}`);
      return found;
    },
    { timeout: 5000, interval: 20 },
  );
const signedIn = async (cookie: string) =>
  (await app.inject({ url: '/hms_ms/api/v2/sign_in', headers: { cookie } })).json<{
    data: { is_logged_in: boolean };
  }>().data.is_logged_in;

/** Signs up with an e-mail, verifies it, and returns the address and the session cookie. */
async function emailOwner(password = GOOD): Promise<{ email: string; cookie: string }> {
  const email = uniqueEmail();
  const up = await post('web_sign_up', { email, password, password_confirmation: password });
  expect(up.statusCode, up.body).toBe(200);
  const { code } = await waitForMessage(email);
  const verified = await post('verify_email', { email, otp: code });
  expect(verified.statusCode, verified.body).toBe(200);
  return { email, cookie: cookieOf(verified) };
}

describe('sign-up with an e-mail address (SPEC §1, §5)', () => {
  it('sends a code; the address signs in only once verified; then password sign-in works', async () => {
    const email = uniqueEmail();
    const up = await post('web_sign_up', {
      email: `  ${email.toUpperCase()} `,
      password: GOOD,
      password_confirmation: GOOD,
    });
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json()).toEqual({ success: true, data: { email, otp_length: 6, expires_in_s: 300 } });
    expect(up.cookies).toHaveLength(0);
    const msg = await waitForMessage(email);
    expect(msg.channel).toBe('email');
    expect(msg.code).toMatch(/^\d{6}$/);
    expect(msg.text).toContain(msg.code);
    expect(msg.text).not.toContain(GOOD);

    const early = await post('new_sign_in', { email, password: GOOD });
    expect(early.statusCode).toBe(400);
    expect(early.json().error).toMatchObject({ code: 'ONB_EMAIL_NOT_VERIFIED', field: 'email' });
    expect(early.cookies).toHaveLength(0);

    const wrong = await post('verify_email', { email, otp: msg.code === '000000' ? '111111' : '000000' });
    expect(wrong.json().error.code).toBe('ONB_OTP_INCORRECT');
    const latest = await waitForMessage(email);
    const verified = await post('verify_email', { email, otp: latest.code });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json().data.user).toMatchObject({
      email,
      phone: null,
      devise_role: 'Owner_Portal_User',
    });
    expect(verified.body).not.toContain('password');
    expect(sidOf(verified)).toBeTruthy();

    const signIn = await post('new_sign_in', { email: email.toUpperCase(), password: GOOD });
    expect(signIn.statusCode, signIn.body).toBe(200);
    expect(signIn.json().data.user.email).toBe(email);
    expect(await signedIn(cookieOf(signIn))).toBe(true);
  });

  it.each([
    ['too short', 'Ab1!xyz', 'ONB_PASSWORD_RULES', 'password'],
    ['no number', 'Harbour#Light', 'ONB_PASSWORD_RULES', 'password'],
    ['no symbol', 'HarbourLight42', 'ONB_PASSWORD_RULES', 'password'],
    ['no upper case', 'harbour#light42', 'ONB_PASSWORD_RULES', 'password'],
    ['no lower case', 'HARBOUR#LIGHT42', 'ONB_PASSWORD_RULES', 'password'],
    ['common', 'Password1!', 'ONB_PASSWORD_COMMON', 'password'],
    ['a common word dressed up', 'Sunshine#2024', 'ONB_PASSWORD_COMMON', 'password'],
  ])('refuses a password that is %s', async (_name, password, code, field) => {
    const email = uniqueEmail();
    const res = await post('web_sign_up', { email, password, password_confirmation: password });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code, field });
    if (code === 'ONB_PASSWORD_RULES')
      expect(res.json().error.message).toBe('Please enter the correct password');
    expect((await outbox()).some((m) => m.to === email)).toBe(false);
  });

  it("refuses a confirmation that differs: 'Password is not matched!'", async () => {
    const res = await post('web_sign_up', {
      email: uniqueEmail(),
      password: GOOD,
      password_confirmation: OTHER,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({
      code: 'ONB_PASSWORD_MISMATCH',
      field: 'password_confirmation',
      message: 'Password is not matched!',
    });
  });

  it('refuses an address that is not one, and unknown fields', async () => {
    const bad = await post('web_sign_up', {
      email: 'not-an-address',
      password: GOOD,
      password_confirmation: GOOD,
    });
    expect(bad.json().error).toMatchObject({ code: 'ONB_INVALID_EMAIL', field: 'email' });
    const extra = await post('web_sign_up', {
      email: uniqueEmail(),
      password: GOOD,
      password_confirmation: GOOD,
      devise_role: 'Employee',
    });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().error.code).toBe('ONB_INVALID_INPUT');
  });

  it('answers a taken address like a new one, tells its owner, and keeps the password', async () => {
    const { email } = await emailOwner();
    const before = (await outbox()).length;
    const again = await post('web_sign_up', { email, password: OTHER, password_confirmation: OTHER });
    const fresh = uniqueEmail();
    const other = await post('web_sign_up', { email: fresh, password: OTHER, password_confirmation: OTHER });
    expect(again.statusCode).toBe(other.statusCode);
    expect(again.json()).toEqual({ ...other.json(), data: { ...other.json().data, email } });
    const notice = await waitForMessage(email, (m) => m.code === '');
    expect(notice.text).toContain('/propertyOnboard/forgot-password-mail');
    expect((await outbox()).length).toBeGreaterThan(before);
    expect((await post('new_sign_in', { email, password: OTHER })).statusCode).toBe(400);
    expect((await post('new_sign_in', { email, password: GOOD })).statusCode).toBe(200);
  });
});

describe('password sign-in (SPEC §7 new_sign_in)', () => {
  it('answers an unknown address and a wrong password the same way, with the same work', async () => {
    const { email } = await emailOwner();
    const unknown = await post('new_sign_in', { email: uniqueEmail(), password: OTHER });
    const wrong = await post('new_sign_in', { email, password: OTHER });
    expect(unknown.statusCode).toBe(400);
    expect(wrong.statusCode).toBe(400);
    expect(unknown.body).toBe(wrong.body);
    expect(wrong.json().error.code).toBe('ONB_INVALID_CREDENTIALS');

    // Both verify one argon2id hash of the same parameters (SPEC §7: an unknown address must not answer faster):
    // the same work, not a clock reading.
    const parameters = (phc: string) => phc.split('$').slice(0, 4).join('$');
    verified.length = 0;
    await post('new_sign_in', { email, password: OTHER });
    await post('new_sign_in', { email: uniqueEmail(), password: OTHER });
    expect(verified).toHaveLength(2);
    expect(parameters(verified[0]!)).toMatch(/^\$argon2id\$v=19\$m=\d+,t=\d+,p=\d+$/);
    expect(parameters(verified[1]!)).toBe(parameters(verified[0]!));
    expect(verified[1]).not.toBe(verified[0]);
  });

  it('rotates the session id at every sign-in and ends the one it replaces', async () => {
    const { email, cookie } = await emailOwner();
    const first = await post('new_sign_in', { email, password: GOOD }, { cookie });
    const second = await post('new_sign_in', { email, password: GOOD }, { cookie: cookieOf(first) });
    const ids = [cookie.match(/onboard_sid=([^;]+)/)?.[1], sidOf(first), sidOf(second)];
    expect(new Set(ids).size).toBe(3);
    expect(await signedIn(cookie)).toBe(false);
    expect(await signedIn(cookieOf(first))).toBe(false);
    expect(await signedIn(cookieOf(second))).toBe(true);
  });

  it('throttles the 6th wrong password in a window, even a right one, and lets it in after the back-off', async () => {
    const { email } = await emailOwner();
    for (let i = 0; i < 5; i += 1) {
      const res = await post('new_sign_in', { email, password: `${OTHER}${i}` });
      expect(res.json().error.code).toBe('ONB_INVALID_CREDENTIALS');
    }
    const sixth = await post('new_sign_in', { email, password: GOOD });
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().error).toMatchObject({
      code: 'ONB_RATE_LIMITED',
      message: 'Please try after some time.',
    });
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
    // The same answer for an unknown address that was hammered as often.
    const ghost = uniqueEmail();
    for (let i = 0; i < 5; i += 1) await post('new_sign_in', { email: ghost, password: OTHER });
    expect((await post('new_sign_in', { email: ghost, password: OTHER })).statusCode).toBe(429);

    clock += 5 * 60_000 + 1000;
    const after = await post('new_sign_in', { email, password: GOOD });
    expect(after.statusCode, after.body).toBe(200);

    // A second block doubles (back-off), never permanent.
    for (let i = 0; i < 5; i += 1) await post('new_sign_in', { email, password: OTHER });
    clock += 5 * 60_000 + 1000;
    expect((await post('new_sign_in', { email, password: GOOD })).statusCode).toBe(429);
    clock += 5 * 60_000;
    expect((await post('new_sign_in', { email, password: GOOD })).statusCode).toBe(200);
  });

  it('throttles one client address trying many accounts', async () => {
    const remoteAddress = '203.0.113.9';
    for (let i = 0; i < 20; i += 1) {
      await app.inject({
        method: 'POST',
        url: '/hms_ms/api/v1/users/new_sign_in',
        remoteAddress,
        payload: { email: uniqueEmail(), password: OTHER },
      });
    }
    const { email } = await emailOwner();
    const blocked = await app.inject({
      method: 'POST',
      url: '/hms_ms/api/v1/users/new_sign_in',
      remoteAddress,
      payload: { email, password: GOOD },
    });
    expect(blocked.statusCode).toBe(429);
    expect((await post('new_sign_in', { email, password: GOOD })).statusCode).toBe(200);
    clock += 5 * 60_000 + 1000;
  });

  it('refuses a cross-site sign-in', async () => {
    const { email } = await emailOwner();
    const res = await post('new_sign_in', { email, password: GOOD }, { origin: 'https://evil.example' });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('ONB_FORBIDDEN_ORIGIN');
    expect(res.cookies).toHaveLength(0);
    const fetchSite = await post('forgot_password', { email }, { 'sec-fetch-site': 'cross-site' });
    expect(fetchSite.statusCode).toBe(403);
  });
});

describe('forgot password and reset (SPEC §4, §7)', () => {
  const linkIn = (text: string) => {
    const m = text.match(/https?:\/\/\S+\/propertyOnboard\/reset-password\?token=([\w-]+)/);
    if (!m) throw new Error(`no link in ${text}`);
    return { link: m[0], token: m[1]! };
  };

  it('answers a known and an unknown address the same, and mails a single-use link that ends every session', async () => {
    const { email, cookie } = await emailOwner();
    const device2 = cookieOf(await post('new_sign_in', { email, password: GOOD }));
    const known = await post('forgot_password', { email });
    const unknownAddress = uniqueEmail();
    const unknown = await post('forgot_password', { email: unknownAddress });
    expect(known.statusCode).toBe(200);
    expect(known.body).toBe(unknown.body);
    expect(known.json()).toEqual({ success: true, data: { channel: 'email', expires_in_s: 1800 } });

    const msg = await waitForMessage(email, (m) => m.text.includes('reset-password'));
    const { link, token } = linkIn(msg.text);
    expect(link).toMatch(/^http:\/\/[^/]+\/propertyOnboard\/reset-password\?token=/);
    expect((await outbox()).some((m) => m.to === unknownAddress)).toBe(false);

    const mismatch = await app.inject({
      method: 'PUT',
      url: '/hms_ms/api/v1/users/password',
      payload: { token, password: OTHER, password_confirmation: GOOD },
    });
    expect(mismatch.json().error.code).toBe('ONB_PASSWORD_MISMATCH');

    const reset = await app.inject({
      method: 'PUT',
      url: '/hms_ms/api/v1/users/password',
      headers: { cookie },
      payload: { token, password: OTHER, password_confirmation: OTHER },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(reset.json()).toEqual({ success: true, data: { signed_out: true } });
    expect(await signedIn(cookie)).toBe(false);
    expect(await signedIn(device2)).toBe(false);

    const reuse = await post('password', {
      token,
      password: 'Another$Pass99',
      password_confirmation: 'Another$Pass99',
    });
    expect(reuse.statusCode).toBe(400);
    expect(reuse.json().error).toMatchObject({ code: 'ONB_RESET_LINK_INVALID', field: 'token' });

    expect((await post('new_sign_in', { email, password: GOOD })).statusCode).toBe(400);
    expect((await post('new_sign_in', { email, password: OTHER })).statusCode).toBe(200);
  });

  it('refuses a link after 30 minutes, and an unknown token', async () => {
    const { email } = await emailOwner();
    await post('forgot_password', { email });
    const { token } = linkIn((await waitForMessage(email, (m) => m.text.includes('reset-password'))).text);
    clock += 30 * 60_000 + 1000;
    const late = await post('password', { token, password: OTHER, password_confirmation: OTHER });
    expect(late.json().error.code).toBe('ONB_RESET_LINK_INVALID');
    const forged = await post('password', {
      token: 'A'.repeat(43),
      password: OTHER,
      password_confirmation: OTHER,
    });
    expect(forged.json().error.code).toBe('ONB_RESET_LINK_INVALID');
    expect((await post('new_sign_in', { email, password: GOOD })).statusCode).toBe(200);
  });

  it('resets by phone with a 6-digit code, ending every session', async () => {
    const cookie = await signInNewOwner(app);
    const phone = (await app.inject({ url: '/hms_ms/api/v2/sign_in', headers: { cookie } })).json<{
      data: { user: { phone: string } };
    }>().data.user.phone;
    const before = new Set((await outbox()).filter((m) => m.to === phone).map((m) => m.sent_at));
    clock += 31_000; // the resend cooldown of the sign-up code, per number
    const known = await post('forgot_password', { phone });
    const unknown = await post('forgot_password', { phone: '+919812300001' });
    expect(known.statusCode).toBe(200);
    expect(known.json()).toEqual({
      success: true,
      data: { channel: 'sms', phone, otp_length: 6, expires_in_s: 300 },
    });
    expect(unknown.json().data).toMatchObject({ channel: 'sms', otp_length: 6, expires_in_s: 300 });
    const { code } = await waitForMessage(phone, (m) => !before.has(m.sent_at));
    expect(code).toMatch(/^\d{6}$/);
    const wrong = await post('password', {
      phone,
      otp: code === '000000' ? '111111' : '000000',
      password: OTHER,
      password_confirmation: OTHER,
    });
    expect(wrong.json().error.code).toBe('ONB_OTP_INCORRECT');
    const reset = await post('password', { phone, otp: code, password: OTHER, password_confirmation: OTHER });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(await signedIn(cookie)).toBe(false);
    const reuse = await post('password', { phone, otp: code, password: GOOD, password_confirmation: GOOD });
    expect(reuse.statusCode).toBe(400);
  });
});

describe('change password (SPEC §4: logs the user out of all devices)', () => {
  it('needs a session, refuses a wrong current password, and ends every session after a change', async () => {
    const anonymous = await post('change_password', {
      current_password: GOOD,
      password: OTHER,
      password_confirmation: OTHER,
    });
    expect(anonymous.statusCode).toBe(401);

    const { email, cookie } = await emailOwner();
    const other = cookieOf(await post('new_sign_in', { email, password: GOOD }));
    const wrong = await post(
      'change_password',
      { current_password: OTHER, password: OTHER, password_confirmation: OTHER },
      { cookie },
    );
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().error).toMatchObject({
      code: 'ONB_WRONG_PASSWORD',
      field: 'current_password',
      message: 'Please enter the correct password',
    });
    expect(await signedIn(cookie)).toBe(true);

    const changed = await post(
      'change_password',
      { current_password: GOOD, password: OTHER, password_confirmation: OTHER },
      { cookie },
    );
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.cookies.find((c) => c.name === 'onboard_sid')?.value).toBe('');
    expect(await signedIn(cookie)).toBe(false);
    expect(await signedIn(other)).toBe(false);
    expect((await post('new_sign_in', { email, password: OTHER })).statusCode).toBe(200);
  });

  it('throttles guessing the current password', async () => {
    const { cookie } = await emailOwner();
    for (let i = 0; i < 5; i += 1) {
      await post(
        'change_password',
        { current_password: `${OTHER}${i}`, password: OTHER, password_confirmation: OTHER },
        { cookie },
      );
    }
    const sixth = await post(
      'change_password',
      { current_password: GOOD, password: OTHER, password_confirmation: OTHER },
      { cookie },
    );
    expect(sixth.statusCode).toBe(429);
    clock += 5 * 60_000 + 1000;
  });
});

describe('roles (SPEC §6)', () => {
  async function manager(): Promise<string> {
    const email = uniqueEmail();
    await app.db
      .insertInto('users')
      .values({
        id: randomUUID(),
        phone: null,
        email,
        country_code: 'IN',
        language: 'en-GB',
        devise_role: 'PropertyManager',
        team: null,
        password_hash: await hashPassword(GOOD),
        email_verified_at: new Date(),
      })
      .execute();
    return email;
  }

  it('signs a manager in only with the PM choice, and the BFF refuses every owner route', async () => {
    const email = await manager();
    const asOwner = await post('new_sign_in', { email, password: GOOD, role: 'OWNER' });
    expect(asOwner.statusCode).toBe(403);
    expect(asOwner.json().error.code).toBe('ONB_ROLE_MISMATCH');
    expect(asOwner.cookies).toHaveLength(0);

    const asManager = await post('new_sign_in', { email, password: GOOD, role: 'PM' });
    expect(asManager.statusCode, asManager.body).toBe(200);
    expect(asManager.json().data.user.devise_role).toBe('PropertyManager');
    const cookie = cookieOf(asManager);
    for (const [method, url] of [
      ['GET', '/hms_ms/api/v1/onboard/properties'],
      ['GET', '/hms_ms/api/v1/onboard/leads'],
      ['POST', '/hms_ms/api/v1/onboard/leads'],
    ] as const) {
      const res = await app.inject({
        method,
        url,
        headers: { cookie },
        ...(method === 'POST'
          ? { payload: { title: 'X', property_type: 'hotel', property_sub_type: 'boutique_hotel' } }
          : {}),
      });
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().error).toMatchObject({
        code: 'ONB_ROLE_FORBIDDEN',
        message: 'You do not have rights to view/modify',
      });
    }
    // The account's own password and sign-out stay open to a manager.
    const changed = await post(
      'change_password',
      { current_password: GOOD, password: OTHER, password_confirmation: OTHER },
      { cookie },
    );
    expect(changed.statusCode).toBe(200);
  });

  it('refuses the PM choice for an owner account', async () => {
    const { email } = await emailOwner();
    const res = await post('new_sign_in', { email, password: GOOD, role: 'PM' });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('ONB_ROLE_MISMATCH');
  });
});

describe.runIf(process.env.TEST_REDIS_URL)('password throttle in Redis (REDIS_URL)', () => {
  it('shares the block between instances', async () => {
    const nameSpace = `test-${randomUUID()}-`;
    const config = { redisUrl: process.env.TEST_REDIS_URL! };
    const one = await buildTestApp({ config, rateLimitNameSpace: nameSpace });
    const two = await buildTestApp({ config, rateLimitNameSpace: nameSpace });
    const { email } = await emailOwner();
    for (let i = 0; i < 5; i += 1) {
      const res = await one.inject({
        method: 'POST',
        url: '/hms_ms/api/v1/users/new_sign_in',
        payload: { email, password: OTHER },
      });
      expect(res.statusCode).toBe(400);
    }
    const blocked = await two.inject({
      method: 'POST',
      url: '/hms_ms/api/v1/users/new_sign_in',
      payload: { email, password: GOOD },
    });
    expect(blocked.statusCode).toBe(429);
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(200);
  });
});

describe('the role choice with the phone code (SPEC §6)', () => {
  it('signs a manager in by phone only with the PM choice', async () => {
    const phone = `+9198${String(Date.now()).slice(-8)}`;
    await app.db
      .insertInto('users')
      .values({
        id: randomUUID(),
        phone,
        email: null,
        country_code: 'IN',
        language: 'en-GB',
        devise_role: 'PropertyManager',
        team: null,
        password_hash: null,
        email_verified_at: null,
      })
      .execute();
    const asOwner = await app.inject({
      method: 'POST',
      url: '/hms_ms/api/v2/request_otp',
      payload: { phone, purpose: 'login', role: 'OWNER' },
    });
    expect(asOwner.json().error.code).toBe('ONB_PHONE_NOT_REGISTERED');
    clock += 60_000;
    const sent = await app.inject({
      method: 'POST',
      url: '/hms_ms/api/v2/request_otp',
      payload: { phone, purpose: 'login', role: 'PM' },
    });
    expect(sent.statusCode, sent.body).toBe(200);
    const { code } = await waitForMessage(phone);
    const verified = await app.inject({
      method: 'POST',
      url: '/hms_ms/api/v2/verify_otp',
      payload: { phone, purpose: 'login', role: 'PM', otp: code },
    });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json().data.user.devise_role).toBe('PropertyManager');
    const owners = await app.inject({
      url: '/hms_ms/api/v1/onboard/properties',
      headers: { cookie: cookieOf(verified) },
    });
    expect(owners.statusCode).toBe(403);
  });

  it('refuses the PM choice for an owner number', async () => {
    const cookie = await signInNewOwner(app);
    const phone = (await app.inject({ url: '/hms_ms/api/v2/sign_in', headers: { cookie } })).json<{
      data: { user: { phone: string } };
    }>().data.user.phone;
    clock += 60_000;
    const res = await app.inject({
      method: 'POST',
      url: '/hms_ms/api/v2/request_otp',
      payload: { phone, purpose: 'login', role: 'PM' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('ONB_ROLE_MISMATCH');
  });
});
