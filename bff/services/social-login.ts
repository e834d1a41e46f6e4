import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import * as oidc from 'openid-client';
import type { SocialProviderConfig, SocialProviderName } from '../config';
import type { Database, UserRow } from '../db/schema';
import { onboardError } from '../errors';
import { OWNER_ROLE } from './users';

/** The providers of SPEC §9 that sign in through OpenID Connect / OAuth 2.0 (Truecaller has its own flow). */
export const SOCIAL_PROVIDERS = [
  'google',
  'facebook',
  'apple',
] as const satisfies readonly SocialProviderName[];

/** Display names, used in messages ('Signing in with Google did not work…'). */
export const PROVIDER_LABELS: Record<SocialProviderName, string> = {
  google: 'Google',
  facebook: 'Facebook',
  apple: 'Apple',
};

/** Name of the HttpOnly cookie binding an authorization request (and a Truecaller request) to the browser. */
export const BROWSER_BINDING_COOKIE = 'onboard_oauth';

/** An authorization request must come back within this many ms (10 minutes). */
export const SOCIAL_LOGIN_TTL_MS = 10 * 60_000;

/** True when `value` is one of {@link SOCIAL_PROVIDERS}. */
export function isSocialProvider(value: string): value is SocialProviderName {
  return (SOCIAL_PROVIDERS as readonly string[]).includes(value);
}

/** SHA-256 in hex: state and browser tokens are stored only hashed. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/** A fresh browser-binding token (256 bits, base64url). */
export function newBrowserToken(): string {
  return randomBytes(32).toString('base64url');
}

/** True for a browser-binding token this server could have issued (43 base64url characters). */
export function isBrowserToken(value: string | undefined): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{43}$/.test(value);
}

/** The account the provider vouched for, after every protocol check passed. */
export interface ProviderProfile {
  provider: SocialProviderName;
  /** The provider's stable id of the account (`sub`, or Facebook Graph `id`). */
  subject: string;
  /** Lower-cased e-mail, when the provider gave one. */
  email: string | null;
  /** True only when the provider says so (`email_verified` true, or Apple's "true"). */
  emailVerified: boolean;
  /** Set when the attempt was started by a signed-in owner to link this provider (Account). */
  linkUserId: string | null;
}

/** The result of {@link SocialLoginService.resolveUser}. */
export interface ResolvedSocialUser {
  user: UserRow;
  /** How the user was found: an existing link, a new link by verified e-mail, a new account, or an Account link. */
  how: 'identity' | 'linked_by_email' | 'created' | 'linked_from_account';
}

/** Sign-in through Google, Facebook and Apple (issue 11 item 2; SPEC §1, §2, §7, §9). */
export interface SocialLoginService {
  /** Providers configured (each shows a button); in SPEC §9 order. */
  enabled(): SocialProviderName[];
  /**
   * Starts an authorization request: fresh `state`, `nonce` and PKCE verifier (openid-client), stored
   * server-side against the SHA-256 of `state` and of `browserToken`, valid {@link SOCIAL_LOGIN_TTL_MS}.
   * Returns the provider's authorization URL. Throws ONB_SOCIAL_PROVIDER_UNKNOWN for an unconfigured
   * provider, ONB_SOCIAL_PROVIDER_UNAVAILABLE when discovery fails.
   */
  begin(input: {
    provider: SocialProviderName;
    browserToken: string;
    redirectUri: string;
    linkUserId: string | null;
  }): Promise<URL>;
  /**
   * Finishes the flow for the authorization response `callbackQuery` (`?code=…&state=…`) that came back to
   * `redirectUri`: takes the stored attempt for `state` once (only from the browser that started it, before
   * it expires), then openid-client checks state, exchanges the code with the PKCE verifier and checks the
   * ID token (issuer, audience, expiry, nonce). Any failure is ONB_SOCIAL_LOGIN_FAILED; a used or forged
   * state too (and the attempt is gone, so a replayed code never works).
   */
  finish(input: {
    provider: SocialProviderName;
    browserToken: string | null;
    redirectUri: string;
    callbackQuery: string;
  }): Promise<ProviderProfile>;
  /**
   * The user for a verified provider profile: its linked user; else (linking from Account) the signed-in
   * owner; else the owner with the same e-mail only when the provider verified it (SPEC: link only through a
   * verified e-mail; an unverified one matching an owner is ONB_SOCIAL_EMAIL_UNVERIFIED); else a new owner
   * (Owner_Portal_User, no phone, e-mail only when verified). A matched account that is not an owner is
   * ONB_SOCIAL_NOT_OWNER; a provider account linked to someone else than the linking owner is
   * ONB_SOCIAL_ALREADY_LINKED.
   */
  resolveUser(
    profile: ProviderProfile,
    defaults: { country_code: string; language: string },
  ): Promise<ResolvedSocialUser>;
  /** Providers linked to `userId`. */
  linkedProviders(userId: string): Promise<SocialProviderName[]>;
}

/** Loopback hosts, where plain http is allowed outside production (the tests' stand-in providers). */
function isLoopback(url: string): boolean {
  const host = new URL(url).hostname;
  return host === '127.0.0.1' || host === 'localhost' || host === '[::1]';
}

/**
 * Creates the service. `providers` comes from the configuration (null entries are not configured);
 * `production` refuses plain-http providers even on loopback.
 */
export function createSocialLoginService(
  db: Kysely<Database>,
  options: {
    providers: Record<SocialProviderName, SocialProviderConfig | null>;
    production: boolean;
    now: () => number;
  },
): SocialLoginService {
  const { providers, production, now } = options;
  const configurations = new Map<SocialProviderName, Promise<oidc.Configuration>>();

  const settingsOf = (provider: SocialProviderName): SocialProviderConfig => {
    const settings = providers[provider];
    if (!settings) throw onboardError('ONB_SOCIAL_PROVIDER_UNKNOWN');
    return settings;
  };

  const insecureAllowed = (settings: SocialProviderConfig) => {
    const urls = [settings.issuer, ...(settings.endpoints ? Object.values(settings.endpoints) : [])];
    return !production && urls.every(isLoopback) && urls.some((u) => u.startsWith('http:'));
  };

  const configurationOf = (provider: SocialProviderName): Promise<oidc.Configuration> => {
    const cached = configurations.get(provider);
    if (cached) return cached;
    const settings = settingsOf(provider);
    const insecure = insecureAllowed(settings);
    const made = (async () => {
      if (settings.endpoints) {
        const config = new oidc.Configuration(
          {
            issuer: settings.issuer,
            authorization_endpoint: settings.endpoints.authorization,
            token_endpoint: settings.endpoints.token,
            userinfo_endpoint: settings.endpoints.userinfo,
          },
          settings.clientId,
          settings.clientSecret,
        );
        if (insecure) oidc.allowInsecureRequests(config);
        return config;
      }
      return oidc.discovery(
        new URL(settings.issuer),
        settings.clientId,
        settings.clientSecret,
        undefined,
        insecure ? { execute: [oidc.allowInsecureRequests] } : undefined,
      );
    })();
    configurations.set(provider, made);
    // A failed discovery is tried again on the next request rather than cached.
    made.catch(() => configurations.delete(provider));
    return made;
  };

  const usesOpenId = (settings: SocialProviderConfig) => settings.scope.split(' ').includes('openid');

  return {
    enabled: () => SOCIAL_PROVIDERS.filter((p) => providers[p] !== null),

    async begin({ provider, browserToken, redirectUri, linkUserId }) {
      const settings = settingsOf(provider);
      let config: oidc.Configuration;
      try {
        config = await configurationOf(provider);
      } catch {
        throw onboardError('ONB_SOCIAL_PROVIDER_UNAVAILABLE');
      }
      const state = oidc.randomState();
      const nonce = oidc.randomNonce();
      const codeVerifier = oidc.randomPKCECodeVerifier();
      const parameters: Record<string, string> = {
        redirect_uri: redirectUri,
        scope: settings.scope,
        response_type: 'code',
        state,
        code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
      };
      if (usesOpenId(settings)) parameters.nonce = nonce;
      // Apple returns the code (and the user's name on first consent) as a form POST (SPEC §7).
      if (provider === 'apple') parameters.response_mode = 'form_post';
      const at = now();
      await db
        .insertInto('social_login_attempts')
        .values({
          id: sha256Hex(state),
          provider,
          browser_hash: sha256Hex(browserToken),
          nonce,
          code_verifier: codeVerifier,
          link_user_id: linkUserId,
          created_at: new Date(at),
          expires_at: new Date(at + SOCIAL_LOGIN_TTL_MS),
        })
        .execute();
      return oidc.buildAuthorizationUrl(config, parameters);
    },

    async finish({ provider, browserToken, redirectUri, callbackQuery }) {
      const settings = settingsOf(provider);
      const failed = () =>
        onboardError('ONB_SOCIAL_LOGIN_FAILED', { values: { provider: PROVIDER_LABELS[provider] } });
      const query = new URLSearchParams(
        callbackQuery.startsWith('?') ? callbackQuery.slice(1) : callbackQuery,
      );
      const state = query.get('state');
      if (!state || !browserToken) throw failed();
      // Single use: the attempt is consumed before the code is sent anywhere.
      const attempt = await db
        .updateTable('social_login_attempts')
        .set({ consumed_at: new Date(now()) })
        .where('id', '=', sha256Hex(state))
        .where('provider', '=', provider)
        .where('browser_hash', '=', sha256Hex(browserToken))
        .where('consumed_at', 'is', null)
        .where('expires_at', '>', new Date(now()))
        .returningAll()
        .executeTakeFirst();
      if (!attempt) throw failed();

      let config: oidc.Configuration;
      try {
        config = await configurationOf(provider);
      } catch {
        throw onboardError('ONB_SOCIAL_PROVIDER_UNAVAILABLE');
      }
      const currentUrl = new URL(redirectUri);
      currentUrl.search = query.toString();
      const openId = usesOpenId(settings);
      let claims: Record<string, unknown>;
      try {
        const tokens = await oidc.authorizationCodeGrant(config, currentUrl, {
          pkceCodeVerifier: attempt.code_verifier,
          expectedState: state,
          ...(openId ? { expectedNonce: attempt.nonce, idTokenExpected: !settings.endpoints } : {}),
        });
        if (settings.endpoints) {
          // Facebook's Graph API (`FACEBOOK_USERINFO_URL`) answers `id`, not `sub`: read it as a protected resource.
          const res = await oidc.fetchProtectedResource(
            config,
            tokens.access_token,
            new URL(settings.endpoints.userinfo),
            'GET',
          );
          if (!res.ok) throw new Error(`userinfo answered ${res.status}`);
          const body = (await res.json()) as Record<string, unknown>;
          const idClaims = tokens.claims();
          const subject = body.id ?? body.sub;
          if (idClaims && subject !== idClaims.sub) throw new Error('userinfo names another account');
          claims = { ...body, sub: subject };
        } else {
          const idClaims = tokens.claims();
          if (!idClaims) throw new Error('no ID token');
          claims = { ...idClaims };
          // A provider that keeps the e-mail out of the ID token gives it at userinfo (same subject checked).
          if (claims.email === undefined && config.serverMetadata().userinfo_endpoint) {
            const info = await oidc.fetchUserInfo(config, tokens.access_token, idClaims.sub);
            claims = { ...info, ...idClaims, email: info.email, email_verified: info.email_verified };
          }
        }
      } catch (err) {
        if (err && typeof err === 'object' && 'code' in err && err.code === 'ONB_SOCIAL_PROVIDER_UNAVAILABLE')
          throw err;
        const e = failed();
        e.cause = err;
        throw e;
      }
      const subject = claims.sub;
      if (typeof subject !== 'string' || subject === '') throw failed();
      const email =
        typeof claims.email === 'string' && claims.email.includes('@')
          ? claims.email.trim().toLowerCase()
          : null;
      return {
        provider,
        subject,
        email,
        emailVerified: email !== null && (claims.email_verified === true || claims.email_verified === 'true'),
        linkUserId: attempt.link_user_id,
      };
    },

    async resolveUser(profile, defaults) {
      const label = PROVIDER_LABELS[profile.provider];
      /** The user this provider account is linked to, if any. */
      const linkedUser = () =>
        db
          .selectFrom('social_identities')
          .innerJoin('users', 'users.id', 'social_identities.user_id')
          .selectAll('users')
          .where('social_identities.provider', '=', profile.provider)
          .where('social_identities.subject', '=', profile.subject)
          .executeTakeFirst();
      const linked = await linkedUser();

      const link = async (userId: string) => {
        const inserted = await db
          .insertInto('social_identities')
          .values({
            id: randomUUID(),
            provider: profile.provider,
            subject: profile.subject,
            user_id: userId,
            email: profile.email,
          })
          .onConflict((oc) => oc.doNothing())
          .returning('user_id')
          .executeTakeFirst();
        if (inserted) return;
        // Another request linked the same provider account (or this user already has one of this provider).
        const owner = await db
          .selectFrom('social_identities')
          .select('user_id')
          .where('provider', '=', profile.provider)
          .where('subject', '=', profile.subject)
          .executeTakeFirst();
        if (owner?.user_id !== userId)
          throw onboardError('ONB_SOCIAL_ALREADY_LINKED', { values: { provider: label } });
      };

      if (profile.linkUserId) {
        if (linked && linked.id !== profile.linkUserId)
          throw onboardError('ONB_SOCIAL_ALREADY_LINKED', { values: { provider: label } });
        const user = await db
          .selectFrom('users')
          .selectAll()
          .where('id', '=', profile.linkUserId)
          .executeTakeFirst();
        if (!user) throw onboardError('ONB_UNAUTHORIZED');
        if (!linked) await link(user.id);
        return { user, how: 'linked_from_account' };
      }

      if (linked) {
        if (linked.devise_role !== OWNER_ROLE) throw onboardError('ONB_SOCIAL_NOT_OWNER');
        return { user: linked, how: 'identity' };
      }

      if (profile.email) {
        const sameEmail = await db
          .selectFrom('users')
          .selectAll()
          .where(sql<string>`lower(email)`, '=', profile.email)
          .orderBy('created_at')
          .executeTakeFirst();
        if (sameEmail) {
          if (!profile.emailVerified)
            throw onboardError('ONB_SOCIAL_EMAIL_UNVERIFIED', { values: { provider: label } });
          if (sameEmail.devise_role !== OWNER_ROLE) throw onboardError('ONB_SOCIAL_NOT_OWNER');
          if (!sameEmail.email_verified_at) {
            // An e-mail sign-up nobody confirmed yet: the provider has just proved who holds the address, so a
            // password chosen by whoever started that sign-up must not survive (pre-account takeover).
            await db
              .updateTable('users')
              .set({ email_verified_at: new Date(now()), password_hash: null })
              .where('id', '=', sameEmail.id)
              .execute();
          }
          await link(sameEmail.id);
          return { user: sameEmail, how: 'linked_by_email' };
        }
      }

      const id = randomUUID();
      await db
        .transaction()
        .execute(async (trx) => {
          await trx
            .insertInto('users')
            .values({
              id,
              phone: null,
              country_code: defaults.country_code,
              language: defaults.language,
              devise_role: OWNER_ROLE,
              // An address the provider did not verify is not kept: it would block its real holder later.
              email: profile.emailVerified ? profile.email : null,
              email_verified_at: profile.emailVerified ? new Date(now()) : null,
              team: null,
            })
            .execute();
          await trx
            .insertInto('social_identities')
            .values({
              id: randomUUID(),
              provider: profile.provider,
              subject: profile.subject,
              user_id: id,
              email: profile.email,
            })
            .execute();
        })
        .catch(async (err: unknown) => {
          // Two returns of the same new account at once: the loser signs in as the winner's user.
          const again = await db
            .selectFrom('social_identities')
            .select('user_id')
            .where('provider', '=', profile.provider)
            .where('subject', '=', profile.subject)
            .executeTakeFirst();
          if (!again) throw err;
        });
      const user = await linkedUser();
      if (!user) throw new Error('social identity vanished after insert');
      return { user, how: user.id === id ? 'created' : 'identity' };
    },

    async linkedProviders(userId) {
      const rows = await db
        .selectFrom('social_identities')
        .select('provider')
        .where('user_id', '=', userId)
        .execute();
      return SOCIAL_PROVIDERS.filter((p) => rows.some((r) => r.provider === p));
    },
  };
}
