import { randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { migrateToLatest, type Database } from '../db';
import { isOnboardError, type OnboardError } from '../errors';
import { sharedDatabase, uniquePhone } from '../test-helpers';
import {
  createContactVerificationService,
  maskContact,
  normaliseContact,
  PROFILE_SWITCH_TTL_MS,
  type ContactVerificationService,
} from './contact-verification';
import { CONTACT_OTP_LENGTH, createOtpService, type OtpService } from './otp';
import { hashToken } from './sessions';
import { createTranslations } from './translations';
import {
  createDevTransport,
  type DevTransport,
  type MessageTransport,
  type OutgoingMessage,
} from './transport';

let db: Kysely<Database>;
let t = Date.now();
const now = () => t;
let otp: OtpService;
let sms: DevTransport;
let mail: DevTransport;
let service: ContactVerificationService;
const translate = createTranslations().translate;

const build = (over: { sms?: MessageTransport; mail?: MessageTransport } = {}) =>
  createContactVerificationService({
    db,
    otp,
    sms: over.sms ?? sms,
    mail: over.mail ?? mail,
    translate,
    now,
  });

beforeAll(async () => {
  const handle = await sharedDatabase();
  await migrateToLatest(handle.db, handle.schema);
  db = handle.db;
  otp = createOtpService(
    db,
    {
      secret: 'test-secret',
      length: 6,
      lengthByPurpose: { contact_email: CONTACT_OTP_LENGTH, contact_phone: CONTACT_OTP_LENGTH },
      ttlMs: 300_000,
      maxAttempts: 5,
      maxPerHour: 5,
      resendCooldownMs: 30_000,
    },
    now,
  );
  sms = createDevTransport({ now });
  mail = createDevTransport({ now });
  service = build();
});

let emailCounter = 0;
const uniqueEmail = () => `owner.${Date.now()}.${++emailCounter}@example.com`;

/** A user (owner) with a new phone number and a live session; answers their ids. */
async function newUser(email: string | null = null) {
  const id = randomUUID();
  const phone = uniquePhone();
  await db
    .insertInto('users')
    .values({
      id,
      phone,
      country_code: 'IN',
      language: 'en-GB',
      devise_role: 'Owner_Portal_User',
      email,
      team: null,
    })
    .execute();
  const sessionId = hashToken(randomBytes(32).toString('base64url'));
  await db
    .insertInto('sessions')
    .values({
      id: sessionId,
      user_id: id,
      created_at: new Date(t),
      last_seen_at: new Date(t),
      expires_at: new Date(t + 86_400_000),
      user_agent: null,
      ip: null,
    })
    .execute();
  return { id, phone, sessionId };
}

const lastCode = (transport: DevTransport, to: string) => {
  const entry = transport.outbox().find((e) => e.to === to);
  if (!entry) throw new Error(`nothing sent to ${to}`);
  return entry;
};

async function errorOf(p: Promise<unknown>): Promise<OnboardError> {
  try {
    await p;
  } catch (err) {
    if (isOnboardError(err)) return err;
    throw err;
  }
  throw new Error('expected an error');
}

/** Sends a code (after the resend cooldown of any earlier code) and checks it: the verify answer. */
async function prove(
  user: { id: string; sessionId: string },
  channel: 'email' | 'phone',
  value: string,
  country?: string,
) {
  t += 31_000;
  const sent = await service.send({ userId: user.id, locale: 'en-GB', channel, value, country });
  const { code } = lastCode(channel === 'email' ? mail : sms, sent.destination);
  return service.verify({ userId: user.id, sessionId: user.sessionId, channel, value, country, otp: code });
}

describe('normaliseContact (SPEC §5 e-mail and phone must be valid)', () => {
  it('trims and lower-cases e-mail addresses and refuses invalid ones', () => {
    expect(normaliseContact('email', '  Ravi.Kumar@Example.COM ')).toBe('ravi.kumar@example.com');
    expect(normaliseContact('email', 'ravi+kyc@example.co.in')).toBe('ravi+kyc@example.co.in');
    for (const bad of ['ravi', 'ravi@', '@example.com', 'ravi kumar@example.com', 'ravi@@example.com', ''])
      expect(normaliseContact('email', bad), bad).toBeNull();
    const local = 'a'.repeat(64);
    const long = `${local}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(63)}.com`;
    expect(long.length).toBeGreaterThan(254);
    expect(normaliseContact('email', long)).toBeNull();
  });

  it('reads phone numbers in E.164, a national one in the given country', () => {
    expect(normaliseContact('phone', '+91 98765 43210')).toBe('+919876543210');
    expect(normaliseContact('phone', '98765 43210', 'IN')).toBe('+919876543210');
    expect(normaliseContact('phone', '07911 123456', 'GB')).toBe('+447911123456');
    expect(normaliseContact('phone', '98765 43210')).toBeNull();
    expect(normaliseContact('phone', '12345', 'IN')).toBeNull();
  });
});

describe('maskContact', () => {
  it('keeps the first character and the domain of an address, the calling code and last 4 digits of a number', () => {
    expect(maskContact('email', 'ravi@example.com')).toBe('r***@example.com');
    expect(maskContact('phone', '+919876543210')).toBe('+91******3210');
    expect(maskContact('phone', '+447911123456')).toBe('+44******3456');
  });
});

describe('send', () => {
  it('mails a 4-digit code with a subject and text in the language asked for', async () => {
    const user = await newUser();
    const email = uniqueEmail();
    const sent = await service.send({
      userId: user.id,
      locale: 'en-GB',
      channel: 'email',
      value: ` ${email.toUpperCase()} `,
    });
    expect(sent).toEqual({
      channel: 'email',
      destination: email,
      otp_length: 4,
      expires_in_s: 300,
      resend_after_s: 30,
    });
    const msg = lastCode(mail, email);
    expect(msg.channel).toBe('email');
    expect(msg.code).toMatch(/^[0-9]{4}$/);
    expect(msg.subject).toBe('Your verification code');
    expect(msg.text).toBe(
      `Your verification code is ${msg.code}. It expires in 5 minutes. If you did not ask for this code, you can ignore this e-mail.`,
    );
    expect(sms.outbox().some((e) => e.to === email)).toBe(false);

    const arabic = uniqueEmail();
    await service.send({ userId: user.id, locale: 'ar', channel: 'email', value: arabic });
    const ar = lastCode(mail, arabic);
    expect(ar.subject).toBe('رمز التحقق الخاص بك');
    expect(ar.text).toContain(`رمز التحقق الخاص بك هو ${ar.code}`);
  });

  it('texts a 4-digit code to a phone number', async () => {
    const user = await newUser();
    const phone = uniquePhone();
    const sent = await service.send({
      userId: user.id,
      locale: 'en-GB',
      channel: 'phone',
      value: phone.slice(3),
      country: 'IN',
    });
    expect(sent).toMatchObject({ channel: 'phone', destination: phone, otp_length: 4 });
    const msg = lastCode(sms, phone);
    expect(msg.channel).toBe('sms');
    expect(msg.code).toMatch(/^[0-9]{4}$/);
    expect(msg.text).toContain(msg.code);
    expect(mail.outbox().some((e) => e.to === phone)).toBe(false);
  });

  it('refuses invalid values on field value, and the cooldown and hourly limit on field value', async () => {
    const user = await newUser();
    const email = await errorOf(
      service.send({ userId: user.id, locale: 'en-GB', channel: 'email', value: 'x@' }),
    );
    expect(email).toMatchObject({ code: 'ONB_INVALID_EMAIL', statusCode: 400, field: 'value' });
    const phone = await errorOf(
      service.send({ userId: user.id, locale: 'en-GB', channel: 'phone', value: '123', country: 'IN' }),
    );
    expect(phone).toMatchObject({ code: 'ONB_INVALID_PHONE', statusCode: 400, field: 'value' });

    const address = uniqueEmail();
    await service.send({ userId: user.id, locale: 'en-GB', channel: 'email', value: address });
    const again = await errorOf(
      service.send({ userId: user.id, locale: 'en-GB', channel: 'email', value: address }),
    );
    expect(again).toMatchObject({ code: 'ONB_OTP_RESEND_COOLDOWN', statusCode: 429, field: 'value' });
    expect(again.retryAfterS).toBeGreaterThan(0);
    for (let i = 0; i < 4; i++) {
      t += 31_000;
      await service.send({ userId: user.id, locale: 'en-GB', channel: 'email', value: address });
    }
    t += 31_000;
    const sixth = await errorOf(
      service.send({ userId: user.id, locale: 'en-GB', channel: 'email', value: address }),
    );
    expect(sixth).toMatchObject({ code: 'ONB_OTP_RATE_LIMITED', statusCode: 429, field: 'value' });
  });

  it('discards the code and answers ONB_OTP_SEND_FAILED when delivery fails', async () => {
    const user = await newUser();
    const attempted: OutgoingMessage[] = [];
    const failing: MessageTransport = {
      kind: 'failing',
      async send(msg) {
        attempted.push(msg);
        throw new Error('SMTP delivery to o***@example.com failed: 550 Mailbox unavailable');
      },
    };
    const withFailingMail = build({ mail: failing });
    const email = uniqueEmail();
    const err = await errorOf(
      withFailingMail.send({ userId: user.id, locale: 'en-GB', channel: 'email', value: email }),
    );
    expect(err).toMatchObject({ code: 'ONB_OTP_SEND_FAILED', statusCode: 502 });
    expect(String((err.cause as Error).message)).toContain('550 Mailbox unavailable');
    const code = attempted[0]!.code;
    const rows = await db.selectFrom('otp_codes').selectAll().where('destination', '=', email).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.consumed_at).not.toBeNull();
    const verify = await errorOf(
      service.verify({
        userId: user.id,
        sessionId: user.sessionId,
        channel: 'email',
        value: email,
        otp: code,
      }),
    );
    expect(verify.code).toBe('ONB_OTP_INCORRECT');
  });
});

describe('verify', () => {
  it('stores a verified e-mail, fills an empty users.email, and is idempotent', async () => {
    const user = await newUser();
    const email = uniqueEmail();
    expect(await service.isVerified(user.id, 'email', email)).toBe(false);
    expect(await prove(user, 'email', email.toUpperCase())).toEqual({
      channel: 'email',
      destination: email,
      verified: true,
      is_another_user_present: false,
    });
    expect(await service.isVerified(user.id, 'email', email)).toBe(true);
    expect(await service.isVerified(user.id, 'email', ` ${email.toUpperCase()}`)).toBe(true);
    const row = await db
      .selectFrom('users')
      .select('email')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(row.email).toBe(email);

    expect((await prove(user, 'email', email)).verified).toBe(true);
    const rows = await db
      .selectFrom('contact_verifications')
      .selectAll()
      .where('user_id', '=', user.id)
      .execute();
    expect(rows).toHaveLength(1);
    expect(new Date(rows[0]!.verified_at).getTime()).toBe(t);

    // A second address is verified too, but users.email keeps the first.
    const second = uniqueEmail();
    expect((await prove(user, 'email', second)).verified).toBe(true);
    expect(await service.isVerified(user.id, 'email', second)).toBe(true);
    const after = await db
      .selectFrom('users')
      .select('email')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(after.email).toBe(email);
  });

  it('counts the own sign-in number as verified, and verifying it is no conflict', async () => {
    const user = await newUser();
    expect(await service.isVerified(user.id, 'phone', user.phone)).toBe(true);
    expect(await prove(user, 'phone', user.phone)).toMatchObject({
      verified: true,
      is_another_user_present: false,
    });
    const other = uniquePhone();
    expect(await service.isVerified(user.id, 'phone', other)).toBe(false);
    expect((await prove(user, 'phone', other.slice(3), 'IN')).verified).toBe(true);
    expect(await service.isVerified(user.id, 'phone', other)).toBe(true);
  });

  it('refuses a wrong code, and a right code never proves another destination', async () => {
    const user = await newUser();
    const email = uniqueEmail();
    await service.send({ userId: user.id, locale: 'en-GB', channel: 'email', value: email });
    const { code } = lastCode(mail, email);
    const wrong = code === '0000' ? '1111' : '0000';
    const err = await errorOf(
      service.verify({
        userId: user.id,
        sessionId: user.sessionId,
        channel: 'email',
        value: email,
        otp: wrong,
      }),
    );
    expect(err.code).toBe('ONB_OTP_INCORRECT');
    const elsewhere = await errorOf(
      service.verify({
        userId: user.id,
        sessionId: user.sessionId,
        channel: 'email',
        value: uniqueEmail(),
        otp: code,
      }),
    );
    expect(elsewhere.code).toBe('ONB_OTP_INCORRECT');
    expect(await service.isVerified(user.id, 'email', email)).toBe(false);
  });

  it("reports another account's sign-in number as a conflict, stores nothing, and offers a switch", async () => {
    const owner = await newUser();
    const user = await newUser();
    const result = await prove(user, 'phone', owner.phone);
    expect(result).toEqual({
      channel: 'phone',
      destination: owner.phone,
      verified: false,
      is_another_user_present: true,
    });
    expect(await service.isVerified(user.id, 'phone', owner.phone)).toBe(false);
    const pending = await service.pendingSwitch(user.sessionId);
    expect(pending).toEqual({
      channel: 'phone',
      masked_destination: maskContact('phone', owner.phone),
      expires_at: new Date(t + PROFILE_SWITCH_TTL_MS).toISOString(),
    });
    expect(pending!.masked_destination).toMatch(/^\+91\*{6}[0-9]{4}$/);
    expect(await service.pendingSwitch(owner.sessionId)).toBeUndefined();

    const target = await service.takeSwitch(user.sessionId);
    expect(target.id).toBe(owner.id);
    expect(target.phone).toBe(owner.phone);
    expect(await service.pendingSwitch(user.sessionId)).toBeUndefined();
    expect((await errorOf(service.takeSwitch(user.sessionId))).code).toBe('ONB_NO_PROFILE_SWITCH');
  });

  it("reports another account's verified e-mail or users.email (any case) as a conflict", async () => {
    const owner = await newUser();
    const email = uniqueEmail();
    expect((await prove(owner, 'email', email)).verified).toBe(true);
    const user = await newUser();
    expect(await prove(user, 'email', email)).toMatchObject({
      verified: false,
      is_another_user_present: true,
    });
    expect(await service.isVerified(user.id, 'email', email)).toBe(false);
    const mine = await db
      .selectFrom('users')
      .select('email')
      .where('id', '=', user.id)
      .executeTakeFirstOrThrow();
    expect(mine.email).toBeNull();
    expect((await service.pendingSwitch(user.sessionId))?.masked_destination).toBe('o***@example.com');
    expect((await service.takeSwitch(user.sessionId)).id).toBe(owner.id);

    const staffEmail = uniqueEmail();
    const staffSet = await newUser(staffEmail.toUpperCase());
    const third = await newUser();
    expect(await prove(third, 'email', staffEmail)).toMatchObject({ is_another_user_present: true });
    // The one who proved the address switches to the account, which now has it verified.
    const target = await service.takeSwitch(third.sessionId);
    expect(target.id).toBe(staffSet.id);
    expect(await service.isVerified(staffSet.id, 'email', staffEmail)).toBe(true);
  });

  it('replaces the pending switch of a session at a new conflict', async () => {
    const first = await newUser();
    const phone = uniquePhone();
    expect((await prove(first, 'phone', phone)).verified).toBe(true);
    const second = await newUser();
    expect((await prove(second, 'phone', phone)).is_another_user_present).toBe(true);
    // A new try of the same session replaces its pending switch.
    expect((await prove(second, 'phone', phone)).is_another_user_present).toBe(true);
    const rows = await db
      .selectFrom('profile_switches')
      .selectAll()
      .where('session_id', '=', second.sessionId)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.target_user_id).toBe(first.id);
  });

  it('lets a switch expire after 10 minutes, and deletes it', async () => {
    const owner = await newUser();
    const user = await newUser();
    await prove(user, 'phone', owner.phone);
    t += PROFILE_SWITCH_TTL_MS - 1;
    expect(await service.pendingSwitch(user.sessionId)).toBeDefined();
    t += 1;
    expect(await service.pendingSwitch(user.sessionId)).toBeUndefined();
    expect((await errorOf(service.takeSwitch(user.sessionId))).code).toBe('ONB_NO_PROFILE_SWITCH');
    const rows = await db
      .selectFrom('profile_switches')
      .selectAll()
      .where('session_id', '=', user.sessionId)
      .execute();
    expect(rows).toHaveLength(0);
  });

  it('ends a pending switch with its session', async () => {
    const owner = await newUser();
    const user = await newUser();
    await prove(user, 'phone', owner.phone);
    await db.deleteFrom('sessions').where('id', '=', user.sessionId).execute();
    expect(await service.pendingSwitch(user.sessionId)).toBeUndefined();
  });
});
