import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionIdFromCookies } from '../../services/sessions';
import { startTestSmtpServer, type TestSmtpServer } from '../../smtp-test-server';
import { buildTestApp, createTestLead, signInNewOwner, uniquePhone } from '../../test-helpers';

type Outbox = { channel: string; to: string; subject?: string; text: string; code: string }[];
type Injected = Awaited<ReturnType<FastifyInstance['inject']>>;

let app: FastifyInstance;
/** An app whose clock the tests move: `prove` lets each code's resend cooldown pass first. */
let clocked: FastifyInstance;
let t = Date.now();
beforeAll(async () => {
  app = await buildTestApp();
  clocked = await buildTestApp({ now: () => t });
});

let emailCounter = 0;
const uniqueEmail = () => `owner.${Date.now()}.${++emailCounter}@example.com`;

const base = (id: string) => `/hms_ms/api/v1/onboard/leads/${id}/kyc/contact`;
const cookieOf = (res: Injected) => res.cookies.map((c) => `${c.name}=${c.value}`).join('; ');

const sendOtp = (
  cookie: string,
  id: string,
  payload: Record<string, unknown>,
  on: FastifyInstance = app,
  headers: Record<string, string> = {},
) => on.inject({ method: 'POST', url: `${base(id)}/otp`, headers: { cookie, ...headers }, payload });
const verifyOtp = (cookie: string, id: string, payload: Record<string, unknown>, on: FastifyInstance = app) =>
  on.inject({ method: 'POST', url: `${base(id)}/verify`, headers: { cookie }, payload });
const switchProfile = (cookie: string, on: FastifyInstance = app) =>
  on.inject({ method: 'POST', url: '/hms_ms/api/v1/users/switch_profile', headers: { cookie }, payload: {} });
const signInState = (cookie: string, on: FastifyInstance = app) =>
  on.inject({ url: '/hms_ms/api/v2/sign_in', headers: { cookie } });

const latestTo = async (to: string, on: FastifyInstance = app) => {
  const entry = (await on.inject('/__dev/outbox')).json<Outbox>().find((e) => e.to === to);
  if (!entry) throw new Error(`no message to ${to}`);
  return entry;
};

/** A new owner with a lead: their cookie, property_unique_id and sign-in phone. */
async function ownerWithLead(on: FastifyInstance = app) {
  const cookie = await signInNewOwner(on);
  const lead = await createTestLead(on, cookie);
  const user = (await signInState(cookie, on)).json().data.user as { id: string; phone: string };
  return { cookie, id: lead.property_unique_id, userId: user.id, phone: user.phone };
}

/** Sends a code to `value` (after moving `clocked`'s time past any cooldown) and checks it; the verify answer. */
async function prove(
  owner: { cookie: string; id: string },
  channel: 'email' | 'phone',
  value: string,
  on: FastifyInstance = app,
  country?: string,
) {
  t += 31_000;
  const sent = await sendOtp(owner.cookie, owner.id, { channel, value, ...(country ? { country } : {}) }, on);
  expect(sent.statusCode, sent.body).toBe(200);
  const { code } = await latestTo(sent.json().data.destination, on);
  return verifyOtp(
    owner.cookie,
    owner.id,
    { channel, value, otp: code, ...(country ? { country } : {}) },
    on,
  );
}

describe('sendContactOtp and verifyContactOtp (SPEC §4 OTP mobile and e-mail, §5)', () => {
  it("verifies an e-mail address by a 4-digit code from the outbox; it becomes the account's e-mail", async () => {
    const owner = await ownerWithLead();
    const email = uniqueEmail();
    const sent = await sendOtp(owner.cookie, owner.id, {
      channel: 'email',
      value: `  ${email.toUpperCase()}`,
    });
    expect(sent.statusCode).toBe(200);
    expect(sent.json()).toEqual({
      success: true,
      data: { channel: 'email', destination: email, otp_length: 4, expires_in_s: 300, resend_after_s: 30 },
    });
    const msg = await latestTo(email);
    expect(msg.channel).toBe('email');
    expect(msg.code).toMatch(/^[0-9]{4}$/);
    expect(msg.subject).toBe('Your verification code');
    expect(msg.text).toContain(`Your verification code is ${msg.code}`);

    const verified = await verifyOtp(owner.cookie, owner.id, {
      channel: 'email',
      value: email,
      otp: msg.code,
    });
    expect(verified.statusCode).toBe(200);
    expect(verified.json()).toEqual({
      success: true,
      data: { channel: 'email', destination: email, verified: true, is_another_user_present: false },
    });
    expect(verified.cookies).toHaveLength(0);
    expect(await app.contactVerification.isVerified(owner.userId, 'email', email)).toBe(true);
    expect((await signInState(owner.cookie)).json().data.user.email).toBe(email);
  });

  it("verifies a phone number, national ones read in `country` or the account's country", async () => {
    const owner = await ownerWithLead();
    const phone = uniquePhone();
    const sent = await sendOtp(owner.cookie, owner.id, {
      channel: 'phone',
      value: phone.slice(3),
      country: 'IN',
    });
    expect(sent.json().data).toMatchObject({ channel: 'phone', destination: phone, otp_length: 4 });
    const msg = await latestTo(phone);
    expect(msg.channel).toBe('sms');
    expect(msg.code).toMatch(/^[0-9]{4}$/);
    const verified = await verifyOtp(owner.cookie, owner.id, {
      channel: 'phone',
      value: `+91 ${phone.slice(3, 8)} ${phone.slice(8)}`,
      otp: msg.code,
    });
    expect(verified.json().data).toEqual({
      channel: 'phone',
      destination: phone,
      verified: true,
      is_another_user_present: false,
    });
    expect(await app.contactVerification.isVerified(owner.userId, 'phone', phone)).toBe(true);

    const national = uniquePhone();
    const res = await prove(owner, 'phone', national.slice(3));
    expect(res.json().data).toMatchObject({ destination: national, verified: true });
  });

  it('refuses a wrong code with the SPEC text on field otp, and voids the code at the 5th wrong try', async () => {
    const owner = await ownerWithLead();
    const email = uniqueEmail();
    await sendOtp(owner.cookie, owner.id, { channel: 'email', value: email });
    const { code } = await latestTo(email);
    const wrong = code === '0000' ? '1111' : '0000';
    const first = await verifyOtp(owner.cookie, owner.id, { channel: 'email', value: email, otp: wrong });
    expect(first.statusCode).toBe(400);
    expect(first.json().error).toEqual({
      code: 'ONB_OTP_INCORRECT',
      message: 'Incorrect OTP',
      field: 'otp',
    });
    const codes = [];
    for (let i = 0; i < 4; i++)
      codes.push(
        (await verifyOtp(owner.cookie, owner.id, { channel: 'email', value: email, otp: wrong })).json().error
          .code,
      );
    expect(codes).toEqual([
      'ONB_OTP_INCORRECT',
      'ONB_OTP_INCORRECT',
      'ONB_OTP_INCORRECT',
      'ONB_OTP_TOO_MANY_ATTEMPTS',
    ]);
    const right = await verifyOtp(owner.cookie, owner.id, { channel: 'email', value: email, otp: code });
    expect(right.statusCode).toBe(400);
    expect(right.json().error.code).toBe('ONB_OTP_TOO_MANY_ATTEMPTS');
    expect(await app.contactVerification.isVerified(owner.userId, 'email', email)).toBe(false);
  });

  it('refuses a code of another channel or destination, and a sign-in code', async () => {
    const owner = await ownerWithLead();
    const email = uniqueEmail();
    await sendOtp(owner.cookie, owner.id, { channel: 'email', value: email });
    const { code } = await latestTo(email);
    const other = await verifyOtp(owner.cookie, owner.id, {
      channel: 'email',
      value: uniqueEmail(),
      otp: code,
    });
    expect(other.json().error.code).toBe('ONB_OTP_INCORRECT');
    // A 6-digit sign-in code is not a contact code, even for the same number.
    const phone = uniquePhone();
    await app.inject({
      method: 'POST',
      url: '/hms_ms/api/v2/request_otp',
      payload: { phone, purpose: 'sign_up' },
    });
    const signInCode = (await latestTo(phone)).code;
    expect(signInCode).toMatch(/^[0-9]{6}$/);
    const asContact = await verifyOtp(owner.cookie, owner.id, {
      channel: 'phone',
      value: phone,
      otp: signInCode.slice(0, 4),
    });
    expect(asContact.json().error.code).toBe('ONB_OTP_INCORRECT');
  });

  it('refuses an expired code', async () => {
    let t = Date.now();
    const clocked = await buildTestApp({ now: () => t });
    const owner = await ownerWithLead(clocked);
    const email = uniqueEmail();
    await sendOtp(owner.cookie, owner.id, { channel: 'email', value: email }, clocked);
    const { code } = await latestTo(email, clocked);
    t += 300_001;
    const res = await verifyOtp(
      owner.cookie,
      owner.id,
      { channel: 'email', value: email, otp: code },
      clocked,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toMatchObject({ code: 'ONB_OTP_EXPIRED', field: 'otp' });
  });

  it('waits the resend cooldown per destination, on field value, then sends again', async () => {
    let t = Date.now();
    const clocked = await buildTestApp({ now: () => t });
    const owner = await ownerWithLead(clocked);
    const email = uniqueEmail();
    expect(
      (await sendOtp(owner.cookie, owner.id, { channel: 'email', value: email }, clocked)).statusCode,
    ).toBe(200);
    const again = await sendOtp(
      owner.cookie,
      owner.id,
      { channel: 'email', value: email.toUpperCase() },
      clocked,
    );
    expect(again.statusCode).toBe(429);
    const { error } = again.json();
    expect(error).toMatchObject({ code: 'ONB_OTP_RESEND_COOLDOWN', field: 'value' });
    expect(error.retry_after_s).toBeGreaterThan(0);
    expect(error.retry_after_s).toBeLessThanOrEqual(30);
    expect(again.headers['retry-after']).toBe(String(error.retry_after_s));
    // Another destination is not held up.
    expect(
      (await sendOtp(owner.cookie, owner.id, { channel: 'email', value: uniqueEmail() }, clocked)).statusCode,
    ).toBe(200);
    t += 30_001;
    expect(
      (await sendOtp(owner.cookie, owner.id, { channel: 'email', value: email }, clocked)).statusCode,
    ).toBe(200);
    const [latest, previous] = (await clocked.inject('/__dev/outbox'))
      .json<Outbox>()
      .filter((e) => e.to === email);
    // The new code replaces the old one.
    const stale = await verifyOtp(
      owner.cookie,
      owner.id,
      { channel: 'email', value: email, otp: previous!.code },
      clocked,
    );
    if (previous!.code !== latest!.code) expect(stale.json().error.code).toBe('ONB_OTP_INCORRECT');
    const fresh = await verifyOtp(
      owner.cookie,
      owner.id,
      { channel: 'email', value: email, otp: latest!.code },
      clocked,
    );
    expect(fresh.json().data.verified).toBe(true);
  });

  it('refuses invalid values with the SPEC texts on field value, in the language asked for', async () => {
    const owner = await ownerWithLead();
    const email = await sendOtp(owner.cookie, owner.id, { channel: 'email', value: 'ravi@' });
    expect(email.statusCode).toBe(400);
    expect(email.json().error).toEqual({
      code: 'ONB_INVALID_EMAIL',
      message: 'Please enter the correct email ID',
      field: 'value',
    });
    const phone = await sendOtp(owner.cookie, owner.id, { channel: 'phone', value: '12345', country: 'IN' });
    expect(phone.json().error).toEqual({
      code: 'ONB_INVALID_PHONE',
      message: 'Please enter the correct phone number',
      field: 'value',
    });
    const arabic = await sendOtp(owner.cookie, owner.id, { channel: 'email', value: 'x' }, app, {
      httpxoyolang: 'ar',
    });
    expect(arabic.json().error.message).toBe('يُرجى إدخال عنوان البريد الإلكتروني الصحيح');
    const verify = await verifyOtp(owner.cookie, owner.id, { channel: 'email', value: 'ravi@', otp: '1234' });
    expect(verify.json().error).toMatchObject({ code: 'ONB_INVALID_EMAIL', field: 'value' });
  });

  it("answers 'Invalid Input' for a body outside the schema", async () => {
    const owner = await ownerWithLead();
    const cases: [Record<string, unknown>, string][] = [
      [{ channel: 'fax', value: '1' }, 'channel'],
      [{ channel: 'email', value: uniqueEmail(), admin: true }, 'admin'],
      [{ channel: 'email' }, 'value'],
      [{ channel: 'phone', value: '9876543210', country: 'india' }, 'country'],
    ];
    for (const [payload, field] of cases) {
      const res = await sendOtp(owner.cookie, owner.id, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().error).toMatchObject({ code: 'ONB_INVALID_INPUT', field });
    }
    for (const otp of ['123', '12345', '12a4', '123456']) {
      const res = await verifyOtp(owner.cookie, owner.id, { channel: 'email', value: uniqueEmail(), otp });
      expect(res.json().error, otp).toMatchObject({ code: 'ONB_INVALID_INPUT', field: 'otp' });
    }
  });

  it("answers 404 for another owner's lead or an unknown one, and sends nothing", async () => {
    const owner = await ownerWithLead();
    const other = await ownerWithLead();
    const email = uniqueEmail();
    for (const id of [other.id, 'PO0000000000']) {
      const res = await sendOtp(owner.cookie, id, { channel: 'email', value: email });
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toEqual({
        code: 'ONB_LEAD_NOT_FOUND',
        message: "We couldn't find this property",
      });
      const verify = await verifyOtp(owner.cookie, id, { channel: 'email', value: email, otp: '1234' });
      expect(verify.statusCode).toBe(404);
      expect(verify.json().error.code).toBe('ONB_LEAD_NOT_FOUND');
    }
    const outbox = (await app.inject('/__dev/outbox')).json<Outbox>();
    expect(outbox.some((e) => e.to === email)).toBe(false);
  });

  it('needs a session', async () => {
    const owner = await ownerWithLead();
    const res = await sendOtp('', owner.id, { channel: 'email', value: uniqueEmail() });
    expect(res.statusCode).toBe(401);
    expect(res.json().error.code).toBe('ONB_UNAUTHORIZED');
    expect((await switchProfile('')).statusCode).toBe(401);
  });
});

describe('conflicts and switchProfile (SPEC §3 is_another_user_present, §6 switching profile)', () => {
  it("reports another owner's sign-in number; switchProfile then signs in as that owner", async () => {
    const other = await ownerWithLead(clocked);
    const owner = await ownerWithLead(clocked);
    const res = await prove(owner, 'phone', other.phone.slice(3), clocked, 'IN');
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual({
      channel: 'phone',
      destination: other.phone,
      verified: false,
      is_another_user_present: true,
    });
    expect(await clocked.contactVerification.isVerified(owner.userId, 'phone', other.phone)).toBe(false);

    const switched = await switchProfile(owner.cookie, clocked);
    expect(switched.statusCode).toBe(200);
    expect(switched.json().data.user).toMatchObject({
      id: other.userId,
      phone: other.phone,
      devise_role: 'Owner_Portal_User',
    });
    const sid = switched.cookies.find((c) => c.name === 'onboard_sid');
    const loggedIn = switched.cookies.find((c) => c.name === 'isLoggedIn');
    expect(sid).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(owner.cookie).not.toContain(sid!.value);
    expect(loggedIn).toMatchObject({ value: 'true', sameSite: 'Lax', path: '/' });
    expect(loggedIn?.httpOnly).toBeFalsy();

    const now = (await signInState(cookieOf(switched), clocked)).json().data;
    expect(now).toMatchObject({ is_logged_in: true, user: { id: other.userId, phone: other.phone } });
    expect((await signInState(owner.cookie, clocked)).json().data.is_logged_in).toBe(false);
    // The other owner's lead is open to the new session; the old one's is not.
    const ownLead = await clocked.inject({
      url: `/hms_ms/api/v1/onboard/leads/${other.id}`,
      headers: { cookie: cookieOf(switched) },
    });
    expect(ownLead.statusCode).toBe(200);
    const oldLead = await sendOtp(
      cookieOf(switched),
      owner.id,
      { channel: 'email', value: uniqueEmail() },
      clocked,
    );
    expect(oldLead.statusCode).toBe(404);
    // A switch is used once.
    expect((await switchProfile(cookieOf(switched), clocked)).statusCode).toBe(409);
  });

  it("reports another owner's verified e-mail; switchProfile signs in as that owner", async () => {
    const other = await ownerWithLead(clocked);
    const email = uniqueEmail();
    expect((await prove(other, 'email', email, clocked)).json().data.verified).toBe(true);
    const owner = await ownerWithLead(clocked);
    const res = await prove(owner, 'email', email.toUpperCase(), clocked);
    expect(res.json().data).toEqual({
      channel: 'email',
      destination: email,
      verified: false,
      is_another_user_present: true,
    });
    expect((await signInState(owner.cookie, clocked)).json().data.user.email).toBeNull();
    const sessionId = sessionIdFromCookies({ onboard_sid: owner.cookie.match(/onboard_sid=([^;]+)/)![1] });
    const pending = await clocked.contactVerification.pendingSwitch(sessionId!);
    expect(pending).toMatchObject({ channel: 'email', masked_destination: 'o***@example.com' });

    const switched = await switchProfile(owner.cookie, clocked);
    expect(switched.statusCode).toBe(200);
    expect(switched.json().data.user).toMatchObject({ id: other.userId, email, phone: other.phone });
    const details = (await signInState(cookieOf(switched), clocked)).json().data.user;
    expect(details).toMatchObject({ id: other.userId, phone: other.phone, email });
  });

  it('answers 409 ONB_NO_PROFILE_SWITCH without a pending switch, with a clear message', async () => {
    const owner = await ownerWithLead(clocked);
    const res = await switchProfile(owner.cookie, clocked);
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toEqual({
      code: 'ONB_NO_PROFILE_SWITCH',
      message:
        'There is no other profile to switch to, or the time to switch has run out. Please verify the e-mail address or phone number again.',
    });
    expect(res.cookies).toHaveLength(0);
    expect((await signInState(owner.cookie, clocked)).json().data.is_logged_in).toBe(true);
    // Without a body it is the same call; a body with anything in it is refused.
    const bare = await clocked.inject({
      method: 'POST',
      url: '/hms_ms/api/v1/users/switch_profile',
      headers: { cookie: owner.cookie, 'content-type': 'application/json' },
    });
    expect(bare.json().error.code).toBe('ONB_NO_PROFILE_SWITCH');
    const extra = await clocked.inject({
      method: 'POST',
      url: '/hms_ms/api/v1/users/switch_profile',
      headers: { cookie: owner.cookie },
      payload: { user_id: owner.userId },
    });
    expect(extra.json().error).toMatchObject({ code: 'ONB_INVALID_INPUT', field: 'user_id' });
    // A verification without conflict leaves nothing to switch to.
    expect((await prove(owner, 'email', uniqueEmail(), clocked)).json().data.verified).toBe(true);
    expect((await switchProfile(owner.cookie, clocked)).statusCode).toBe(409);
  });

  it('answers 409 when the switch is older than 10 minutes, and keeps the session', async () => {
    const other = await ownerWithLead(clocked);
    const owner = await ownerWithLead(clocked);
    const res = await prove(owner, 'phone', other.phone, clocked);
    expect(res.json().data.is_another_user_present).toBe(true);
    t += 10 * 60_000;
    const late = await switchProfile(owner.cookie, clocked);
    expect(late.statusCode).toBe(409);
    expect(late.json().error.code).toBe('ONB_NO_PROFILE_SWITCH');
    expect((await signInState(owner.cookie, clocked)).json().data.user.id).toBe(owner.userId);
  });

  it("answers with the SPEC's 'email in use' text in every language file", async () => {
    const en = await app.inject('/hms_ms/api/v1/translations/en-GB');
    expect(en.json().data.clientMessages.errors.email_in_use).toBe(
      'This email is already in use. Please use a different one.',
    );
    const ar = await app.inject('/hms_ms/api/v1/translations/ar');
    expect(ar.json().data.clientMessages.errors.email_in_use).toBe(
      'هذا البريد الإلكتروني مستخدم بالفعل. يُرجى استخدام بريد إلكتروني آخر.',
    );
  });
});

describe('e-mail over SMTP (SMTP_URL)', () => {
  let smtp: TestSmtpServer;
  let refusing: TestSmtpServer;
  beforeAll(async () => {
    smtp = await startTestSmtpServer();
    refusing = await startTestSmtpServer({ refuse: 'Mailbox unavailable' });
  });
  afterAll(async () => {
    await smtp.close();
    await refusing.close();
  });

  it('mails the code to the address, with subject and body, and not to the development outbox', async () => {
    const mailing = await buildTestApp({
      config: { smtpUrl: smtp.url, mailFrom: 'Property onboarding <no-reply@onboard.example>' },
    });
    const owner = await ownerWithLead(mailing);
    const email = uniqueEmail();
    const sent = await sendOtp(owner.cookie, owner.id, { channel: 'email', value: email }, mailing);
    expect(sent.statusCode).toBe(200);
    const mail = smtp.received.find((m) => m.to.includes(email))!;
    expect(mail).toBeDefined();
    expect(mail.to).toEqual([email]);
    expect(mail.from).toBe('no-reply@onboard.example');
    expect(mail.subject).toBe('Your verification code');
    const code = mail.text.match(/Your verification code is ([0-9]{4})\./)?.[1];
    expect(code).toMatch(/^[0-9]{4}$/);
    const outbox = (await mailing.inject('/__dev/outbox')).json<Outbox>();
    expect(outbox.some((e) => e.to === email)).toBe(false);
    const verified = await verifyOtp(
      owner.cookie,
      owner.id,
      { channel: 'email', value: email, otp: code },
      mailing,
    );
    expect(verified.json().data.verified).toBe(true);

    // SMS codes keep using the message transport.
    const phone = uniquePhone();
    expect(
      (await sendOtp(owner.cookie, owner.id, { channel: 'phone', value: phone }, mailing)).statusCode,
    ).toBe(200);
    expect((await latestTo(phone, mailing)).channel).toBe('sms');

    // The language of the request.
    const arabic = uniqueEmail();
    await sendOtp(owner.cookie, owner.id, { channel: 'email', value: arabic }, mailing, {
      httpxoyolang: 'ar',
    });
    const ar = smtp.received.find((m) => m.to.includes(arabic))!;
    expect(ar.subject).toBe('رمز التحقق الخاص بك');
    expect(ar.text).toMatch(/^رمز التحقق الخاص بك هو [0-9]{4}\./);
  });

  it('answers 502 ONB_OTP_SEND_FAILED when the SMTP server refuses, and the code is void', async () => {
    const failing = await buildTestApp({
      config: { smtpUrl: refusing.url, mailFrom: 'no-reply@onboard.example' },
    });
    const owner = await ownerWithLead(failing);
    const email = uniqueEmail();
    const res = await sendOtp(owner.cookie, owner.id, { channel: 'email', value: email }, failing);
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({
      success: false,
      error: {
        code: 'ONB_OTP_SEND_FAILED',
        message: "We couldn't send the code. Please try again in a few minutes.",
      },
    });
    const refused = refusing.refused.find((m) => m.to.includes(email))!;
    const code = refused.text.match(/([0-9]{4})\./)?.[1];
    expect(code).toMatch(/^[0-9]{4}$/);
    const verify = await verifyOtp(
      owner.cookie,
      owner.id,
      { channel: 'email', value: email, otp: code },
      failing,
    );
    expect(verify.statusCode).toBe(400);
    expect(verify.json().error.code).toBe('ONB_OTP_INCORRECT');
  });

  it('answers 502 when nothing listens at SMTP_URL', async () => {
    const closed = await startTestSmtpServer();
    const url = closed.url;
    await closed.close();
    const failing = await buildTestApp({ config: { smtpUrl: url, mailFrom: 'no-reply@onboard.example' } });
    const owner = await ownerWithLead(failing);
    const res = await sendOtp(owner.cookie, owner.id, { channel: 'email', value: uniqueEmail() }, failing);
    expect(res.statusCode).toBe(502);
    expect(res.json().error.code).toBe('ONB_OTP_SEND_FAILED');
  });
});

describe('per-user limit of the code routes', () => {
  it('sends at most 20 codes per account per hour, whatever the destination', async () => {
    const limited = await buildTestApp({
      config: { rateLimitMax: 300 },
      rateLimitNameSpace: `contact-${Date.now()}-`,
    });
    const owner = await ownerWithLead(limited);
    for (let i = 0; i < 20; i++) {
      const res = await sendOtp(owner.cookie, owner.id, { channel: 'email', value: uniqueEmail() }, limited);
      expect(res.statusCode, res.body).toBe(200);
    }
    const over = await sendOtp(owner.cookie, owner.id, { channel: 'email', value: uniqueEmail() }, limited);
    expect(over.statusCode).toBe(429);
    expect(over.json().error).toMatchObject({
      code: 'ONB_RATE_LIMITED',
      message: 'Please try after some time.',
    });
    const another = await ownerWithLead(limited);
    expect(
      (await sendOtp(another.cookie, another.id, { channel: 'email', value: uniqueEmail() }, limited))
        .statusCode,
    ).toBe(200);
  });
});

describe('OpenAPI', () => {
  it('lists the three operations under the contact tag', async () => {
    const doc = (await app.inject('/hms_ms/api/openapi.json')).json();
    type Operation = { operationId: string; tags: string[]; requestBody?: unknown };
    const ops: Record<string, Operation> = {};
    for (const methods of Object.values(doc.paths) as Record<string, Operation>[])
      for (const op of Object.values(methods)) ops[op.operationId] = op;
    for (const id of ['sendContactOtp', 'verifyContactOtp', 'switchProfile']) {
      expect(ops[id], id).toBeDefined();
      expect(ops[id]!.tags).toEqual(['contact']);
      expect(ops[id]!.requestBody, id).toBeDefined();
    }
    expect(
      doc.paths['/hms_ms/api/v1/onboard/leads/{property_unique_id}/kyc/contact/otp'].post.operationId,
    ).toBe('sendContactOtp');
    expect(doc.paths['/hms_ms/api/v1/users/switch_profile'].post.operationId).toBe('switchProfile');
  });
});
