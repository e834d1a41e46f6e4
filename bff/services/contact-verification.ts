import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { sharedAjv } from '../../schemas/ajv';
import type {
  ContactChannel,
  Locale,
  SendContactOtpResult,
  VerifyContactOtpResult,
} from '../../schemas/generated/types';
import type { Database, UserRow } from '../db/schema';
import { isOnboardError, onboardError } from '../errors';
import { normalisePhone, type OtpPurpose, type OtpService } from './otp';
import type { MessageTransport, OutgoingMessage } from './transport';

export type { ContactChannel } from '../../schemas/generated/types';

/** How long a session may switch to the account a proven destination belongs to: 10 minutes, in ms. */
export const PROFILE_SWITCH_TTL_MS = 10 * 60_000;

/** Longest e-mail address accepted, in characters (RFC 5321 path limit). */
const MAX_EMAIL_LENGTH = 254;

const isEmail = sharedAjv().compile({ type: 'string', format: 'email' });

const purposeOf = (channel: ContactChannel): OtpPurpose =>
  channel === 'email' ? 'contact_email' : 'contact_phone';

/**
 * The normalised form of a contact detail, or null when it is not valid (SPEC §5 'E-mail must be valid;
 * phone must be valid'): an e-mail address trimmed and in lower case (at most 254 characters, ajv-formats
 * `email`); a phone number in E.164 (libphonenumber-js; a national number is read in `country`, ISO2).
 */
export function normaliseContact(channel: ContactChannel, value: string, country?: string): string | null {
  if (channel === 'phone') return normalisePhone(value, country)?.e164 ?? null;
  const email = value.trim().toLowerCase();
  return email.length <= MAX_EMAIL_LENGTH && isEmail(email) ? email : null;
}

/**
 * A normalised destination with most of it hidden, for a screen that must not show it whole: an
 * address keeps its first character and its domain (r***@example.com); a number keeps its country
 * calling code and last 4 digits (+91******3210).
 */
export function maskContact(channel: ContactChannel, destination: string): string {
  if (channel === 'email') {
    const at = destination.lastIndexOf('@');
    return at > 0 ? `${destination[0]}***${destination.slice(at)}` : '***';
  }
  const parsed = parsePhoneNumberFromString(destination);
  const prefix = parsed ? `+${parsed.countryCallingCode}` : '+';
  const digits = parsed ? String(parsed.nationalNumber) : destination.replace(/\D/g, '');
  const shown = Math.min(4, digits.length);
  return `${prefix}${'*'.repeat(digits.length - shown)}${digits.slice(digits.length - shown)}`;
}

/** The pending profile switch of a session, as the 'Resolve an issue' screen shows it. */
export interface PendingProfileSwitch {
  channel: ContactChannel;
  /** e.g. r***@example.com or +91******3210. */
  masked_destination: string;
  /** ISO 8601 date-time after which switchProfile answers 409 ONB_NO_PROFILE_SWITCH. */
  expires_at: string;
}

/**
 * Verifying the e-mail address and phone number an owner gives in the property flow by a 4-digit code
 * (SPEC §3 kycDetails is_mail_verified / is_phone_verified / is_another_user_present, §4 OTP mobile and
 * e-mail, §5 'OTP: 4 digits in the property flow'), and switching to the account such a destination
 * already belongs to (SPEC §6 'Switching profile is possible when a mobile number or e-mail is linked to
 * another profile').
 */
export interface ContactVerificationService {
  /**
   * Sends a code to the normalised `value`: an e-mail by the mail transport (subject and plain text in
   * `locale`), a phone number by SMS. Same hashing, expiry, attempts, cooldown and hourly count as sign-in
   * codes; the cooldown and count are per destination.
   * @throws ONB_INVALID_EMAIL / ONB_INVALID_PHONE (400, field `value`) for a value that is not valid;
   *   ONB_OTP_RESEND_COOLDOWN / ONB_OTP_RATE_LIMITED (429, field `value`); ONB_OTP_SEND_FAILED (502)
   *   when the transport fails (the code is discarded; the transport's error is the `cause`).
   */
  send(i: {
    userId: string;
    locale: Locale;
    channel: ContactChannel;
    value: string;
    country?: string;
  }): Promise<SendContactOtpResult>;
  /**
   * Checks the code. A right code for a destination that belongs to another account (its sign-in number,
   * or its e-mail, or verified there) answers `{verified: false, is_another_user_present: true}` and
   * records a profile switch for `sessionId` (`sessions.id`) valid {@link PROFILE_SWITCH_TTL_MS};
   * otherwise the destination is stored as verified for `userId` (again: idempotent) and, for an e-mail,
   * becomes `users.email` when the account has none.
   * @throws ONB_INVALID_EMAIL / ONB_INVALID_PHONE (400, field `value`); ONB_OTP_INCORRECT,
   *   ONB_OTP_EXPIRED, ONB_OTP_TOO_MANY_ATTEMPTS (400, field `otp`).
   */
  verify(i: {
    userId: string;
    sessionId: string;
    channel: ContactChannel;
    value: string;
    country?: string;
    otp: string;
  }): Promise<VerifyContactOtpResult>;
  /** destination normalised; the account's own sign-in phone counts as verified */
  isVerified(userId: string, channel: ContactChannel, destination: string): Promise<boolean>;
  /** the pending switch of this session (for the 'Resolve an issue' screen), destination masked e.g. r***@example.com / +91******3210 */
  pendingSwitch(sessionId: string): Promise<PendingProfileSwitch | undefined>;
  /**
   * Takes the session's pending switch (the row is deleted whatever happens) and answers the account to
   * sign in to. The proven destination is recorded as verified for that account (and, for an e-mail,
   * becomes its `users.email` when it has none), since the person switching has just proven it.
   * @throws ONB_NO_PROFILE_SWITCH (409) when the session has no switch, it expired, or the account is gone.
   */
  takeSwitch(sessionId: string): Promise<UserRow>;
}

/** What {@link createContactVerificationService} needs. */
export interface ContactVerificationDeps {
  db: Kysely<Database>;
  otp: OtpService;
  /** Delivers SMS codes (`app.transport`). */
  sms: MessageTransport;
  /** Delivers e-mail codes (`app.mail`: SMTP, or the message transport). */
  mail: MessageTransport;
  /** Translation of `errors.*` texts (`app.translations.translate`). */
  translate: (locale: Locale, key: string, values?: Record<string, unknown>) => string;
  /** Clock in ms since the epoch (default Date.now). */
  now?: () => number;
}

/** Creates the service. */
export function createContactVerificationService(deps: ContactVerificationDeps): ContactVerificationService {
  const { db, otp } = deps;
  const now = deps.now ?? Date.now;

  const destinationOf = (channel: ContactChannel, value: string, country?: string): string => {
    const d = normaliseContact(channel, value, country);
    if (d === null)
      throw onboardError(channel === 'email' ? 'ONB_INVALID_EMAIL' : 'ONB_INVALID_PHONE', { field: 'value' });
    return d;
  };

  const messageOf = (
    channel: ContactChannel,
    to: string,
    locale: Locale,
    code: string,
    minutes: number,
  ): OutgoingMessage =>
    channel === 'email'
      ? {
          channel: 'email',
          to,
          code,
          subject: deps.translate(locale, 'errors.email.otp_subject', { code, minutes }),
          text: deps.translate(locale, 'errors.email.otp_text', { code, minutes }),
        }
      : { channel: 'sms', to, code, text: deps.translate(locale, 'errors.sms.otp', { code, minutes }) };

  /** Another account the destination belongs to: its sign-in number or e-mail first, then a verification. */
  const otherOwner = async (
    trx: Kysely<Database>,
    userId: string,
    channel: ContactChannel,
    destination: string,
  ): Promise<string | undefined> => {
    const own =
      channel === 'phone'
        ? await trx
            .selectFrom('users')
            .select('id')
            .where('phone', '=', destination)
            .where('id', '!=', userId)
            .executeTakeFirst()
        : await trx
            .selectFrom('users')
            .select('id')
            .where(sql<string>`lower(email)`, '=', destination)
            .where('id', '!=', userId)
            .orderBy('created_at')
            .limit(1)
            .executeTakeFirst();
    if (own) return own.id;
    const verified = await trx
      .selectFrom('contact_verifications')
      .select('user_id')
      .where('channel', '=', channel)
      .where('destination', '=', destination)
      .where('user_id', '!=', userId)
      .orderBy('verified_at')
      .limit(1)
      .executeTakeFirst();
    return verified?.user_id;
  };

  /** Stores the destination as verified for `userId`; an e-mail also fills an empty `users.email`. */
  const recordVerified = async (
    trx: Kysely<Database>,
    userId: string,
    channel: ContactChannel,
    destination: string,
    at: Date,
  ) => {
    await trx
      .insertInto('contact_verifications')
      .values({ id: randomUUID(), user_id: userId, channel, destination, verified_at: at })
      .onConflict((oc) => oc.columns(['user_id', 'channel', 'destination']).doUpdateSet({ verified_at: at }))
      .execute();
    if (channel === 'email') {
      await trx
        .updateTable('users')
        .set({ email: destination })
        .where('id', '=', userId)
        .where('email', 'is', null)
        .execute();
    }
  };

  return {
    async send({ locale, channel, value, country }) {
      const destination = destinationOf(channel, value, country);
      const purpose = purposeOf(channel);
      let issued;
      try {
        issued = await otp.issue(destination, purpose);
      } catch (err) {
        // The limits belong to the field the owner typed, not to a sign-in phone field.
        if (isOnboardError(err) && err.statusCode === 429) err.field = 'value';
        throw err;
      }
      const msg = messageOf(channel, destination, locale, issued.code, Math.ceil(issued.expiresInS / 60));
      try {
        await (channel === 'email' ? deps.mail : deps.sms).send(msg);
      } catch (cause) {
        await otp.discard(destination, purpose);
        const err = onboardError('ONB_OTP_SEND_FAILED');
        err.cause = cause;
        throw err;
      }
      return {
        channel,
        destination,
        otp_length: otp.lengthOf(purpose),
        expires_in_s: issued.expiresInS,
        resend_after_s: issued.resendAfterS,
      };
    },

    async verify({ userId, sessionId, channel, value, country, otp: code }) {
      const destination = destinationOf(channel, value, country);
      await otp.verify(destination, purposeOf(channel), code);
      return db.transaction().execute(async (trx) => {
        // Two accounts proving one destination at once must not both keep it.
        await sql`select pg_advisory_xact_lock(hashtext(${`contact:${channel}:${destination}`}))`.execute(
          trx,
        );
        const t = now();
        const other = await otherOwner(trx, userId, channel, destination);
        if (other) {
          const row = {
            target_user_id: other,
            channel,
            destination,
            created_at: new Date(t),
            expires_at: new Date(t + PROFILE_SWITCH_TTL_MS),
          };
          await trx
            .insertInto('profile_switches')
            .values({ session_id: sessionId, ...row })
            .onConflict((oc) => oc.column('session_id').doUpdateSet(row))
            .execute();
          return { channel, destination, verified: false, is_another_user_present: true };
        }
        await recordVerified(trx, userId, channel, destination, new Date(t));
        return { channel, destination, verified: true, is_another_user_present: false };
      });
    },

    async isVerified(userId, channel, destination) {
      const d = channel === 'email' ? destination.trim().toLowerCase() : destination;
      if (channel === 'phone') {
        const user = await db.selectFrom('users').select('phone').where('id', '=', userId).executeTakeFirst();
        if (user?.phone === d) return true;
      }
      const row = await db
        .selectFrom('contact_verifications')
        .select('id')
        .where('user_id', '=', userId)
        .where('channel', '=', channel)
        .where('destination', '=', d)
        .executeTakeFirst();
      return !!row;
    },

    async pendingSwitch(sessionId) {
      const row = await db
        .selectFrom('profile_switches')
        .select(['channel', 'destination', 'expires_at'])
        .where('session_id', '=', sessionId)
        .where('expires_at', '>', new Date(now()))
        .executeTakeFirst();
      if (!row) return undefined;
      const channel = row.channel as ContactChannel;
      return {
        channel,
        masked_destination: maskContact(channel, row.destination),
        expires_at: new Date(row.expires_at).toISOString(),
      };
    },

    async takeSwitch(sessionId) {
      const user = await db.transaction().execute(async (trx) => {
        const row = await trx
          .deleteFrom('profile_switches')
          .where('session_id', '=', sessionId)
          .returningAll()
          .executeTakeFirst();
        const t = now();
        if (!row || new Date(row.expires_at).getTime() <= t) return undefined;
        const target = await trx
          .selectFrom('users')
          .selectAll()
          .where('id', '=', row.target_user_id)
          .executeTakeFirst();
        if (!target) return undefined;
        const channel = row.channel as ContactChannel;
        await recordVerified(trx, target.id, channel, row.destination, new Date(t));
        return trx.selectFrom('users').selectAll().where('id', '=', target.id).executeTakeFirstOrThrow();
      });
      // Thrown after commit, so an expired switch is gone for good.
      if (!user) throw onboardError('ONB_NO_PROFILE_SWITCH');
      return user;
    },
  };
}
