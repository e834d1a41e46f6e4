import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, uniquePhone } from '../../test-helpers';

type Outbox = { channel: string; to: string; text: string; code: string; sent_at: string }[];

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp();
});

const requestOtp = (payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url: '/hms_ms/api/v2/request_otp', payload, headers });
const verifyOtp = (payload: Record<string, unknown>, headers: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url: '/hms_ms/api/v2/verify_otp', payload, headers });
const latestCodeFor = async (phone: string) => {
  const outbox = (await app.inject('/__dev/outbox')).json<Outbox>();
  const entry = outbox.find((e) => e.to === phone);
  if (!entry) throw new Error(`no message to ${phone}`);
  return entry;
};
const cookieHeader = (res: { cookies: { name: string; value: string }[] }) =>
  res.cookies.map((c) => `${c.name}=${c.value}`).join('; ');

describe('sign-up with a one-time code (SPEC §4)', () => {
  it('sends a code, verifies it, starts a session, and signs out', async () => {
    const phone = uniquePhone();
    const national = phone.slice(3);
    const sent = await requestOtp({ phone: national, country_code: 'IN', purpose: 'sign_up' });
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toMatchObject({
      success: true,
      data: { phone, otp_length: 6, expires_in_s: 300, resend_after_s: 30 },
    });

    const msg = await latestCodeFor(phone);
    expect(msg.channel).toBe('sms');
    expect(msg.code).toMatch(/^[0-9]{6}$/);
    expect(msg.text).toContain(msg.code);
    expect(new Date(msg.sent_at).getTime()).not.toBeNaN();

    const verified = await verifyOtp({
      phone: `+91 ${national.slice(0, 5)} ${national.slice(5)}`,
      purpose: 'sign_up',
      otp: msg.code,
    });
    expect(verified.statusCode).toBe(200);
    const user = verified.json().data.user;
    expect(user).toMatchObject({
      phone,
      country_code: 'IN',
      devise_role: 'Owner_Portal_User',
      language: 'en-GB',
    });

    const sid = verified.cookies.find((c) => c.name === 'onboard_sid');
    const loggedIn = verified.cookies.find((c) => c.name === 'isLoggedIn');
    expect(sid).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(sid?.value.length).toBeGreaterThan(30);
    expect(loggedIn).toMatchObject({ value: 'true', sameSite: 'Lax' });
    expect(loggedIn?.httpOnly).toBeFalsy();

    const cookie = cookieHeader(verified);
    const state = await app.inject({ url: '/hms_ms/api/v2/sign_in', headers: { cookie } });
    expect(state.json()).toEqual({ success: true, data: { is_logged_in: true, user } });

    const out = await app.inject({
      method: 'POST',
      url: '/hms_ms/api/v1/onboard/users/sign_out',
      headers: { cookie, 'content-type': 'application/json' },
    });
    expect(out.statusCode).toBe(204);
    expect(out.body).toBe('');
    const cleared = out.cookies.filter((c) => c.name === 'onboard_sid' || c.name === 'isLoggedIn');
    expect(cleared).toHaveLength(2);
    for (const c of cleared) expect(c.value).toBe('');

    const after = await app.inject({
      method: 'POST',
      url: '/hms_ms/api/v1/onboard/users/sign_out',
      headers: { cookie },
    });
    // Signing out again (e.g. after a password change ended every session) still answers 204.
    expect(after.statusCode).toBe(204);
    const stateAfter = await app.inject({ url: '/hms_ms/api/v2/sign_in', headers: { cookie } });
    expect(stateAfter.json().data).toEqual({ is_logged_in: false });
  });
});

describe('one-time code rules (SPEC §4, §5, §8)', () => {
  it('refuses a wrong code with the SPEC text on field otp', async () => {
    const phone = uniquePhone();
    await requestOtp({ phone, purpose: 'sign_up' });
    const { code } = await latestCodeFor(phone);
    const wrong = code === '000000' ? '111111' : '000000';
    const res = await verifyOtp({ phone, purpose: 'sign_up', otp: wrong });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      success: false,
      error: { code: 'ONB_OTP_INCORRECT', message: 'Incorrect OTP', field: 'otp' },
    });
    expect(res.cookies).toHaveLength(0);
  });

  it('voids the code after 5 wrong tries, so the right code no longer works', async () => {
    const phone = uniquePhone();
    await requestOtp({ phone, purpose: 'sign_up' });
    const { code } = await latestCodeFor(phone);
    const wrong = code === '000000' ? '111111' : '000000';
    const codes: string[] = [];
    for (let i = 0; i < 5; i++)
      codes.push((await verifyOtp({ phone, purpose: 'sign_up', otp: wrong })).json().error.code);
    expect(codes.slice(0, 4)).toEqual(Array(4).fill('ONB_OTP_INCORRECT'));
    expect(codes[4]).toBe('ONB_OTP_TOO_MANY_ATTEMPTS');
    const right = await verifyOtp({ phone, purpose: 'sign_up', otp: code });
    expect(right.statusCode).toBe(400);
    expect(right.json().error.field).toBe('otp');
    expect(right.cookies).toHaveLength(0);
  });

  it('uses each code once', async () => {
    const phone = uniquePhone();
    await requestOtp({ phone, purpose: 'sign_up' });
    const { code } = await latestCodeFor(phone);
    expect((await verifyOtp({ phone, purpose: 'sign_up', otp: code })).statusCode).toBe(200);
    expect((await verifyOtp({ phone, purpose: 'sign_up', otp: code })).json().error.code).toBe(
      'ONB_OTP_INCORRECT',
    );
  });

  it('refuses an expired code', async () => {
    let t = Date.now();
    const clocked = await buildTestApp({ now: () => t });
    const phone = uniquePhone();
    await clocked.inject({
      method: 'POST',
      url: '/hms_ms/api/v2/request_otp',
      payload: { phone, purpose: 'sign_up' },
    });
    const { code } = (await clocked.inject('/__dev/outbox')).json<Outbox>()[0]!;
    t += 300_001;
    const res = await clocked.inject({
      method: 'POST',
      url: '/hms_ms/api/v2/verify_otp',
      payload: { phone, purpose: 'sign_up', otp: code },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'ONB_OTP_EXPIRED', field: 'otp' });
  });

  it('waits the resend cooldown between codes, saying how long', async () => {
    const phone = uniquePhone();
    expect((await requestOtp({ phone, purpose: 'sign_up' })).statusCode).toBe(200);
    const again = await requestOtp({ phone, purpose: 'sign_up' });
    expect(again.statusCode).toBe(429);
    const { error } = again.json();
    expect(error).toMatchObject({ code: 'ONB_OTP_RESEND_COOLDOWN', field: 'phone' });
    expect(error.retry_after_s).toBeGreaterThan(0);
    expect(error.retry_after_s).toBeLessThanOrEqual(30);
    expect(error.message).toContain(String(error.retry_after_s));
    expect(again.headers['retry-after']).toBe(String(error.retry_after_s));
  });

  it('sends at most 5 codes per number per hour', async () => {
    let t = Date.now();
    const clocked = await buildTestApp({ now: () => t });
    const phone = uniquePhone();
    const send = () =>
      clocked.inject({
        method: 'POST',
        url: '/hms_ms/api/v2/request_otp',
        payload: { phone, purpose: 'sign_up' },
      });
    for (let i = 0; i < 5; i++) {
      expect((await send()).statusCode).toBe(200);
      t += 31_000;
    }
    const sixth = await send();
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json().error).toMatchObject({
      code: 'ONB_OTP_RATE_LIMITED',
      message: 'Please try after some time.',
    });
    t += 3600_000;
    expect((await send()).statusCode).toBe(200);
  });

  it('refuses login for a number with no owner account, with the SPEC text', async () => {
    const phone = uniquePhone();
    const res = await requestOtp({ phone, purpose: 'login' });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toEqual({
      code: 'ONB_PHONE_NOT_REGISTERED',
      field: 'phone',
      message: "This number is not registered as an Owner's number... login with Owner credentials",
    });
    const outbox = (await app.inject('/__dev/outbox')).json<Outbox>();
    expect(outbox.some((e) => e.to === phone)).toBe(false);
  });

  it('lets a registered owner log in, rotating the session', async () => {
    const phone = uniquePhone();
    await requestOtp({ phone, purpose: 'sign_up' });
    const first = await verifyOtp({ phone, purpose: 'sign_up', otp: (await latestCodeFor(phone)).code });
    const oldCookie = cookieHeader(first);

    let t = Date.now() + 31_000;
    const later = await buildTestApp({ now: () => t });
    const sent = await later.inject({
      method: 'POST',
      url: '/hms_ms/api/v2/request_otp',
      payload: { phone, purpose: 'login' },
    });
    expect(sent.statusCode).toBe(200);
    const { code } = (await later.inject('/__dev/outbox')).json<Outbox>()[0]!;
    const second = await later.inject({
      method: 'POST',
      url: '/hms_ms/api/v2/verify_otp',
      payload: { phone, purpose: 'login', otp: code },
      headers: { cookie: oldCookie },
    });
    expect(second.statusCode).toBe(200);
    expect(second.json().data.user.id).toBe(first.json().data.user.id);
    const newSid = second.cookies.find((c) => c.name === 'onboard_sid')?.value;
    expect(newSid).toBeTruthy();
    expect(oldCookie).not.toContain(newSid);
    t += 1;
    const oldState = await later.inject({ url: '/hms_ms/api/v2/sign_in', headers: { cookie: oldCookie } });
    expect(oldState.json().data.is_logged_in).toBe(false);
    const newState = await later.inject({
      url: '/hms_ms/api/v2/sign_in',
      headers: { cookie: cookieHeader(second) },
    });
    expect(newState.json().data.is_logged_in).toBe(true);
  });

  it('ends a session after the idle limit', async () => {
    let t = Date.now();
    const clocked = await buildTestApp({ now: () => t, config: { sessionIdleMs: 60_000 } });
    const phone = uniquePhone();
    await clocked.inject({
      method: 'POST',
      url: '/hms_ms/api/v2/request_otp',
      payload: { phone, purpose: 'sign_up' },
    });
    const { code } = (await clocked.inject('/__dev/outbox')).json<Outbox>()[0]!;
    const v = await clocked.inject({
      method: 'POST',
      url: '/hms_ms/api/v2/verify_otp',
      payload: { phone, purpose: 'sign_up', otp: code },
    });
    const cookie = cookieHeader(v);
    t += 59_000;
    expect(
      (await clocked.inject({ url: '/hms_ms/api/v2/sign_in', headers: { cookie } })).json().data.is_logged_in,
    ).toBe(true);
    t += 61_000;
    expect(
      (await clocked.inject({ url: '/hms_ms/api/v2/sign_in', headers: { cookie } })).json().data.is_logged_in,
    ).toBe(false);
  });
});

describe('input checks', () => {
  it('refuses an invalid phone number on field phone', async () => {
    for (const phone of ['12345', '+91 12', 'abcdefgh']) {
      const res = await requestOtp({ phone, country_code: 'IN', purpose: 'sign_up' });
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toEqual({
        code: 'ONB_INVALID_PHONE',
        field: 'phone',
        message: 'Please enter the correct phone number',
      });
    }
  });

  it("answers 'Invalid Input' (400, not 500) for an extra property, a bad purpose or broken JSON", async () => {
    const extra = await requestOtp({ phone: uniquePhone(), purpose: 'sign_up', admin: true });
    expect(extra.statusCode).toBe(400);
    expect(extra.json()).toEqual({
      success: false,
      error: { code: 'ONB_INVALID_INPUT', message: 'Invalid Input', field: 'admin' },
    });
    const purpose = await requestOtp({ phone: uniquePhone(), purpose: 'root' });
    expect(purpose.statusCode).toBe(400);
    expect(purpose.json().error.field).toBe('purpose');
    const broken = await app.inject({
      method: 'POST',
      url: '/hms_ms/api/v2/request_otp',
      payload: '{"phone":',
      headers: { 'content-type': 'application/json' },
    });
    expect(broken.statusCode).toBe(400);
    expect(broken.json().error.code).toBe('ONB_INVALID_INPUT');
    const otp = await verifyOtp({ phone: uniquePhone(), purpose: 'sign_up', otp: '12ab' });
    expect(otp.json().error).toMatchObject({ code: 'ONB_INVALID_INPUT', field: 'otp' });
  });

  it('translates messages into the httpxoyolang language', async () => {
    const res = await requestOtp(
      { phone: '12345', country_code: 'IN', purpose: 'sign_up' },
      { httpxoyolang: 'ar' },
    );
    expect(res.json().error.message).toBe('يُرجى إدخال رقم الهاتف الصحيح');
  });
});

describe('cross-site requests (Origin check)', () => {
  it('refuses a state-changing call from another origin, allows its own origin and no origin', async () => {
    const foreign = await requestOtp(
      { phone: uniquePhone(), purpose: 'sign_up' },
      { origin: 'https://evil.example' },
    );
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json().error.code).toBe('ONB_FORBIDDEN_ORIGIN');
    const crossSite = await requestOtp(
      { phone: uniquePhone(), purpose: 'sign_up' },
      { 'sec-fetch-site': 'cross-site' },
    );
    expect(crossSite.statusCode).toBe(403);
    const own = await requestOtp(
      { phone: uniquePhone(), purpose: 'sign_up' },
      { origin: 'http://localhost:80', host: 'localhost:80' },
    );
    expect(own.statusCode).toBe(200);
    const none = await requestOtp({ phone: uniquePhone(), purpose: 'sign_up' });
    expect(none.statusCode).toBe(200);
  });

  it('accepts PUBLIC_ORIGIN', async () => {
    const behindProxy = await buildTestApp({ config: { publicOrigin: 'https://partner.example.com' } });
    const res = await behindProxy.inject({
      method: 'POST',
      url: '/hms_ms/api/v2/request_otp',
      payload: { phone: uniquePhone(), purpose: 'sign_up' },
      headers: { origin: 'https://partner.example.com' },
    });
    expect(res.statusCode).toBe(200);
  });
});
