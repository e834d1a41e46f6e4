import { createHmac, randomInt, randomUUID, timingSafeEqual } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';
import type { Database } from '../db/schema';
import { onboardError } from '../errors';

/**
 * Why a code is asked for: creating an owner account or signing in to an existing one (SPEC §4), proving
 * an e-mail address or phone number given in the property flow (SPEC §3 KYC, §4 OTP), proving the address
 * of an e-mail sign-up (`email_verify`), or setting a new password by phone (`password_reset`, 6 digits
 * like sign-in).
 */
export type OtpPurpose =
  'sign_up' | 'login' | 'contact_email' | 'contact_phone' | 'email_verify' | 'password_reset';

/** Digits of the codes of the property flow (SPEC §5 'OTP: 4 digits in the property flow, 6 in the login flow'). */
export const CONTACT_OTP_LENGTH = 4;

/** A phone number after validation: E.164 and the country it belongs to. */
export interface NormalisedPhone {
  /** E.164, e.g. +919876543210. */
  e164: string;
  /** ISO2 of the number's country, e.g. IN. */
  country: string;
}

/**
 * Validates and normalises a phone number with libphonenumber-js (`parsePhoneNumberFromString(phone,
 * country)`): accepts '+91 98765 43210' and, with country IN, '9876543210'. Returns null when the number
 * is not a valid number (SPEC §5: phone must be valid).
 */
export function normalisePhone(phone: string, country: string | undefined): NormalisedPhone | null {
  const parsed = parsePhoneNumberFromString(
    phone.trim(),
    (country?.toUpperCase() as CountryCode) || undefined,
  );
  if (!parsed || !parsed.isValid()) return null;
  return { e164: parsed.number, country: parsed.country ?? country?.toUpperCase() ?? '' };
}

/** Settings of the OTP service (from the configuration; durations in ms). */
export interface OtpSettings {
  secret: string;
  /** Digits of a code (the sign-in flow's, OTP_LENGTH). */
  length: number;
  /** Digits per purpose where they differ from `length` (the property flow's 4, SPEC §5). */
  lengthByPurpose?: Partial<Record<OtpPurpose, number>>;
  ttlMs: number;
  maxAttempts: number;
  maxPerHour: number;
  resendCooldownMs: number;
}

/** What {@link OtpService.issue} returns: the code to send and the timings to show. */
export interface IssuedCode {
  code: string;
  /** Seconds the code stays valid. */
  expiresInS: number;
  /** Seconds before another code may be asked for. */
  resendAfterS: number;
}

/** One-time codes: issue, verify, with hashing, expiry, attempts and rate limits (SPEC §4, §5). */
export interface OtpService {
  /** Digits of a code of `purpose`. */
  lengthOf(purpose: OtpPurpose): number;
  /**
   * Creates a code for `destination` (an E.164 number or a normalised e-mail address) and `purpose`,
   * voiding earlier unused codes of that pair. The cooldown and the hourly count are per destination,
   * whatever the purpose. Throws ONB_OTP_RESEND_COOLDOWN (429) within the cooldown of the last code for
   * the destination, and ONB_OTP_RATE_LIMITED (429, 'Please try after some time.') after `maxPerHour`
   * codes in the last hour.
   */
  issue(destination: string, purpose: OtpPurpose): Promise<IssuedCode>;
  /** Marks a code unusable (e.g. when sending it failed). */
  discard(destination: string, purpose: OtpPurpose): Promise<void>;
  /**
   * Checks `code` against the latest code of `destination` and `purpose` and consumes it on success.
   * Throws ONB_OTP_INCORRECT (no code, or wrong), ONB_OTP_EXPIRED, or ONB_OTP_TOO_MANY_ATTEMPTS (the
   * `maxAttempts`-th wrong try voids the code; later tries get the same error).
   */
  verify(destination: string, purpose: OtpPurpose, code: string): Promise<void>;
}

/** Creates the service over `db`; `now` (ms) lets tests move time. */
export function createOtpService(
  db: Kysely<Database>,
  settings: OtpSettings,
  now: () => number = Date.now,
): OtpService {
  const hash = (destination: string, purpose: OtpPurpose, code: string) =>
    createHmac('sha256', settings.secret).update(`${purpose}:${destination}:${code}`).digest('hex');
  const lengthOf = (purpose: OtpPurpose) => settings.lengthByPurpose?.[purpose] ?? settings.length;

  // Serialises work on one destination across requests (and across instances on PostgreSQL).
  const lockDestination = (trx: Kysely<Database>, destination: string) =>
    sql`select pg_advisory_xact_lock(hashtext(${destination}))`.execute(trx);

  return {
    lengthOf,

    async issue(destination, purpose) {
      return db.transaction().execute(async (trx) => {
        await lockDestination(trx, destination);
        const t = now();
        const recent = await trx
          .selectFrom('otp_codes')
          .select('created_at')
          .where('destination', '=', destination)
          .where('created_at', '>', new Date(t - 3600_000))
          .orderBy('created_at', 'desc')
          .execute();
        const latest = recent[0] ? new Date(recent[0].created_at).getTime() : null;
        if (latest !== null && t - latest < settings.resendCooldownMs) {
          const seconds = Math.max(1, Math.ceil((latest + settings.resendCooldownMs - t) / 1000));
          throw onboardError('ONB_OTP_RESEND_COOLDOWN', { values: { seconds }, retryAfterS: seconds });
        }
        if (recent.length >= settings.maxPerHour) {
          const oldest = new Date(recent[recent.length - 1]!.created_at).getTime();
          throw onboardError('ONB_OTP_RATE_LIMITED', {
            retryAfterS: Math.max(1, Math.ceil((oldest + 3600_000 - t) / 1000)),
          });
        }
        await trx
          .updateTable('otp_codes')
          .set({ consumed_at: new Date(t) })
          .where('destination', '=', destination)
          .where('purpose', '=', purpose)
          .where('consumed_at', 'is', null)
          .execute();
        const length = lengthOf(purpose);
        const code = String(randomInt(0, 10 ** length)).padStart(length, '0');
        await trx
          .insertInto('otp_codes')
          .values({
            id: randomUUID(),
            destination,
            purpose,
            code_hash: hash(destination, purpose, code),
            created_at: new Date(t),
            expires_at: new Date(t + settings.ttlMs),
            consumed_at: null,
          })
          .execute();
        return {
          code,
          expiresInS: Math.ceil(settings.ttlMs / 1000),
          resendAfterS: Math.ceil(settings.resendCooldownMs / 1000),
        };
      });
    },

    async discard(destination, purpose) {
      await db
        .updateTable('otp_codes')
        .set({ consumed_at: new Date(now()) })
        .where('destination', '=', destination)
        .where('purpose', '=', purpose)
        .where('consumed_at', 'is', null)
        .execute();
    },

    async verify(destination, purpose, code) {
      await db
        .transaction()
        .execute(async (trx) => {
          await lockDestination(trx, destination);
          const t = now();
          const row = await trx
            .selectFrom('otp_codes')
            .selectAll()
            .where('destination', '=', destination)
            .where('purpose', '=', purpose)
            .orderBy('created_at', 'desc')
            .limit(1)
            .executeTakeFirst();
          if (!row) throw onboardError('ONB_OTP_INCORRECT');
          if (row.consumed_at) {
            throw onboardError(
              row.attempts >= settings.maxAttempts ? 'ONB_OTP_TOO_MANY_ATTEMPTS' : 'ONB_OTP_INCORRECT',
            );
          }
          if (new Date(row.expires_at).getTime() <= t) throw onboardError('ONB_OTP_EXPIRED');
          const expected = Buffer.from(row.code_hash, 'hex');
          const given = Buffer.from(hash(destination, purpose, code), 'hex');
          if (expected.length === given.length && timingSafeEqual(expected, given)) {
            await trx
              .updateTable('otp_codes')
              .set({ consumed_at: new Date(t) })
              .where('id', '=', row.id)
              .execute();
            return;
          }
          const attempts = row.attempts + 1;
          const voided = attempts >= settings.maxAttempts;
          await trx
            .updateTable('otp_codes')
            .set({ attempts, ...(voided ? { consumed_at: new Date(t) } : {}) })
            .where('id', '=', row.id)
            .execute();
          if (voided) return 'voided' as const;
          return 'wrong' as const;
        })
        .then((outcome) => {
          // Thrown after commit so the attempt count is kept.
          if (outcome === 'voided') throw onboardError('ONB_OTP_TOO_MANY_ATTEMPTS');
          if (outcome === 'wrong') throw onboardError('ONB_OTP_INCORRECT');
        });
    },
  };
}
