import {
  createRemoteJWKSet,
  errors as joseErrors,
  jwtVerify,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Locale } from '../../schemas/generated/types';
import type { SsoConfig } from '../config';
import type { Database, UserRow } from '../db/schema';
import type { ErrorCode } from '../errors';
import { normalisePhone } from './otp';
import { OWNER_ROLE, type UserRepository } from './users';

/**
 * Why a main-app token was refused (issue 11 item 4). `code` is the error answered (bff/errors.ts);
 * `reason` is a short word for the log only (expired, issuer, audience, signature, algorithm, lifetime,
 * claims, malformed, replayed, keys, not_owner, no_account), never shown to the user.
 */
export class SsoRefusal extends Error {
  override name = 'SsoRefusal';
  readonly code: ErrorCode;
  readonly reason: string;

  constructor(code: ErrorCode, reason: string) {
    super(`sso token refused: ${reason}`);
    this.code = code;
    this.reason = reason;
  }
}

/** The person a verified main-app token names (SPEC §3 user details; issue 11 item 4 claims). */
export interface SsoIdentity {
  /** `iss`, equal to SSO_ISSUER. */
  issuer: string;
  /** `sub`: the main app's id of the person (1–255 characters). */
  subject: string;
  /** `jti`: the token's id, used once (1–255 characters). */
  jti: string;
  /** `exp` as a Date. */
  expiresAt: Date;
  /** `phone` in E.164 (normalised with the default country when it has no +), or null when absent. */
  phone: string | null;
  /** Country (ISO2) of `phone`, or null. */
  phoneCountry: string | null;
  /** `email` trimmed and lower case, or null when absent. */
  email: string | null;
}

/** What {@link createSsoService} needs. */
export interface SsoServiceOptions {
  settings: SsoConfig;
  db: Kysely<Database>;
  users: UserRepository;
  /** Country used for a `phone` claim without a leading + (DEFAULT_COUNTRY). */
  defaultCountry: string;
  /** Clock in ms since the epoch. */
  now: () => number;
  /** Key lookup instead of the remote JWKS at `settings.jwksUrl` (tests of the service alone). */
  keys?: JWTVerifyGetKey;
}

/** The hand-off from the main app: token verification, single use, and the owner it signs in. */
export interface SsoService {
  /**
   * Verifies `token` (compact JWS): signature against the keys at SSO_JWKS_URL with one of the configured
   * asymmetric algorithms, `iss` = SSO_ISSUER, `aud` containing SSO_AUDIENCE, `exp` in the future and `iat`
   * not in the future nor older than the maximum lifetime (both with the clock tolerance), `exp − iat` at
   * most SSO_MAX_TOKEN_LIFETIME_S, `sub` and `jti` present, and `phone` and/or `email`.
   * Does not mark the token used. Rejects with {@link SsoRefusal}.
   */
  verify(token: string): Promise<SsoIdentity>;
  /**
   * Marks the token used (row of `sso_used_tokens`, primary key issuer + jti; atomic across instances).
   * Rejects with SsoRefusal ONB_SSO_TOKEN_USED when it was used before.
   */
  consume(identity: SsoIdentity): Promise<void>;
  /**
   * The owner the identity names (issue 11 item 4, SPEC §6): by `phone` → the user with that number, created
   * as an Owner_Portal_User when none exists; without `phone`, by `email` → the one user with that address.
   * Rejects with SsoRefusal ONB_SSO_NOT_OWNER for a user of another role (never a PropertyManager session
   * for owner pages), ONB_SSO_NO_ACCOUNT when only an unknown e-mail is given. Records the user on the
   * token's row.
   */
  resolveOwner(identity: SsoIdentity, language: Locale): Promise<UserRow>;
  /** Deletes rows of tokens past their expiry (they would be refused as expired anyway). */
  purgeExpired(): Promise<void>;
}

const MAX_ID_LENGTH = 255;
const emailPattern = /^[^\s@]{1,64}@[^\s@]{1,255}\.[^\s@]{1,63}$/;

function stringClaim(payload: JWTPayload, name: string): string | null {
  const value = payload[name];
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed === '' ? null : trimmed;
}

/** Maps a jose error to our refusal; anything else (a failing key fetch) to ONB_SSO_KEYS_UNAVAILABLE. */
function refusalOf(err: unknown): SsoRefusal {
  if (err instanceof joseErrors.JWTClaimValidationFailed) {
    if (err.reason === 'missing') return new SsoRefusal('ONB_SSO_CLAIMS_MISSING', `claims: ${err.claim}`);
    if (err.claim === 'iss') return new SsoRefusal('ONB_SSO_TOKEN_UNTRUSTED', 'issuer');
    if (err.claim === 'aud') return new SsoRefusal('ONB_SSO_TOKEN_UNTRUSTED', 'audience');
    return new SsoRefusal('ONB_SSO_TOKEN_INVALID', `claim ${err.claim}`);
  }
  if (err instanceof joseErrors.JWTExpired) return new SsoRefusal('ONB_SSO_TOKEN_EXPIRED', 'expired');
  if (err instanceof joseErrors.JOSEAlgNotAllowed)
    return new SsoRefusal('ONB_SSO_TOKEN_INVALID', 'algorithm');
  if (err instanceof joseErrors.JWSSignatureVerificationFailed)
    return new SsoRefusal('ONB_SSO_TOKEN_INVALID', 'signature');
  if (err instanceof joseErrors.JWKSNoMatchingKey)
    return new SsoRefusal('ONB_SSO_TOKEN_INVALID', 'no matching key');
  if (err instanceof joseErrors.JWKSTimeout || err instanceof joseErrors.JWKSInvalid)
    return new SsoRefusal('ONB_SSO_KEYS_UNAVAILABLE', 'keys');
  if (err instanceof joseErrors.JOSEError)
    return new SsoRefusal('ONB_SSO_TOKEN_INVALID', `malformed: ${err.code}`);
  return new SsoRefusal('ONB_SSO_KEYS_UNAVAILABLE', 'keys');
}

/** Creates the service; the remote key set is fetched on first use and cached (jose's createRemoteJWKSet). */
export function createSsoService(opts: SsoServiceOptions): SsoService {
  const { settings, db, users, now, defaultCountry } = opts;
  const keys =
    opts.keys ??
    createRemoteJWKSet(new URL(settings.jwksUrl), {
      timeoutDuration: settings.jwksTimeoutMs,
      cooldownDuration: 30_000,
      cacheMaxAge: 10 * 60_000,
    });

  return {
    async verify(token) {
      let payload: JWTPayload;
      try {
        ({ payload } = await jwtVerify(token, keys, {
          algorithms: settings.algorithms,
          issuer: settings.issuer,
          audience: settings.audience,
          clockTolerance: settings.clockToleranceS,
          maxTokenAge: settings.maxTokenLifetimeS,
          requiredClaims: ['exp', 'iat', 'sub', 'jti'],
          currentDate: new Date(now()),
        }));
      } catch (err) {
        throw refusalOf(err);
      }
      const { exp, iat } = payload;
      if (typeof exp !== 'number' || typeof iat !== 'number') {
        throw new SsoRefusal('ONB_SSO_CLAIMS_MISSING', 'claims: exp/iat');
      }
      if (exp - iat > settings.maxTokenLifetimeS) throw new SsoRefusal('ONB_SSO_TOKEN_LIFETIME', 'lifetime');
      const subject = stringClaim(payload, 'sub');
      const jti = stringClaim(payload, 'jti');
      if (!subject || !jti || subject.length > MAX_ID_LENGTH || jti.length > MAX_ID_LENGTH) {
        throw new SsoRefusal('ONB_SSO_CLAIMS_MISSING', 'claims: sub/jti');
      }
      const rawPhone = stringClaim(payload, 'phone');
      const rawEmail = stringClaim(payload, 'email')?.toLowerCase() ?? null;
      const phone = rawPhone ? normalisePhone(rawPhone, defaultCountry) : null;
      if (rawPhone && !phone) throw new SsoRefusal('ONB_SSO_CLAIMS_MISSING', 'claims: phone invalid');
      if (rawEmail && !emailPattern.test(rawEmail)) {
        throw new SsoRefusal('ONB_SSO_CLAIMS_MISSING', 'claims: email invalid');
      }
      if (!phone && !rawEmail) throw new SsoRefusal('ONB_SSO_CLAIMS_MISSING', 'claims: phone/email');
      return {
        issuer: settings.issuer,
        subject,
        jti,
        expiresAt: new Date(exp * 1000),
        phone: phone?.e164 ?? null,
        phoneCountry: phone?.country || null,
        email: rawEmail,
      };
    },

    async consume(identity) {
      const inserted = await db
        .insertInto('sso_used_tokens')
        .values({
          issuer: identity.issuer,
          jti: identity.jti,
          subject: identity.subject,
          user_id: null,
          used_at: new Date(now()),
          expires_at: new Date(identity.expiresAt.getTime() + settings.clockToleranceS * 1000),
        })
        .onConflict((oc) => oc.columns(['issuer', 'jti']).doNothing())
        .returning('jti')
        .executeTakeFirst();
      if (!inserted) throw new SsoRefusal('ONB_SSO_TOKEN_USED', 'replayed');
    },

    async resolveOwner(identity, language) {
      let user: UserRow | undefined;
      if (identity.phone) {
        user =
          (await users.findByPhone(identity.phone)) ??
          (await users.findOrCreateOwner({
            phone: identity.phone,
            country_code: identity.phoneCountry ?? defaultCountry,
            language,
          }));
      } else if (identity.email) {
        const matches = await db
          .selectFrom('users')
          .selectAll()
          .where(sql<string>`lower(email)`, '=', identity.email)
          .limit(2)
          .execute();
        // Two accounts with one address (only possible before migration 0012 made addresses unique): the token
        // does not say which, so neither is chosen.
        if (matches.length > 1) throw new SsoRefusal('ONB_SSO_NO_ACCOUNT', 'no_account');
        user = matches[0];
        if (user && !user.email_verified_at) {
          // The main app vouches for the address; a password chosen by whoever started an unconfirmed e-mail
          // sign-up with it must not survive (pre-account takeover).
          await db
            .updateTable('users')
            .set({ email_verified_at: new Date(now()), password_hash: null })
            .where('id', '=', user.id)
            .execute();
        }
        if (!user) {
          // A new owner known by the address alone (no phone: SPEC §3 user details allow either).
          await db
            .insertInto('users')
            .values({
              id: randomUUID(),
              phone: null,
              email: identity.email,
              email_verified_at: new Date(now()),
              country_code: defaultCountry,
              language,
              devise_role: OWNER_ROLE,
              team: null,
            })
            .onConflict((oc) => oc.doNothing())
            .execute();
          user = await db
            .selectFrom('users')
            .selectAll()
            .where(sql<string>`lower(email)`, '=', identity.email)
            .executeTakeFirst();
        }
      }
      if (!user) throw new SsoRefusal('ONB_SSO_CLAIMS_MISSING', 'claims: phone/email');
      if (user.devise_role !== OWNER_ROLE) throw new SsoRefusal('ONB_SSO_NOT_OWNER', 'not_owner');
      await db
        .updateTable('sso_used_tokens')
        .set({ user_id: user.id })
        .where('issuer', '=', identity.issuer)
        .where('jti', '=', identity.jti)
        .execute();
      return user;
    },

    async purgeExpired() {
      await db.deleteFrom('sso_used_tokens').where('expires_at', '<=', new Date(now())).execute();
    },
  };
}
