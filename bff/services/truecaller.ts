import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import { onboardError } from '../errors';
import { normalisePhone } from './otp';
import { sha256Hex } from './social-login';

/** A Truecaller request must be answered and polled within this many ms (5 minutes). */
export const TRUECALLER_REQUEST_TTL_MS = 5 * 60_000;

/** How long the server waits for Truecaller's profile endpoint, in ms. */
export const TRUECALLER_PROFILE_TIMEOUT_MS = 5000;

/** The callback body Truecaller's servers send (schemas/api/truecaller-callback.schema.json). */
export interface TruecallerCallback {
  requestId: string;
  accessToken?: string;
  endpoint?: string;
  status?: string;
}

/** What a poll finds once the callback came (SPEC §4). */
export type TruecallerOutcome =
  | { status: 'verified'; phone: string; country_code: string; email: string | null }
  | { status: 'used_another_number' };

/** Truecaller sign-in (issue 11 item 3; SPEC §4, §7, §9). */
export interface TruecallerService {
  /** True when TRUECALLER_PARTNER_KEY is set (the button shows). */
  enabled(): boolean;
  /**
   * A new request bound to `browserToken`: a random request nonce (stored with the SHA-256 of the token, for
   * TRUECALLER_REQUEST_TTL_MS) and the deep link that opens Truecaller's verification sheet.
   * Throws ONB_SOCIAL_PROVIDER_UNKNOWN when Truecaller is not configured.
   */
  begin(browserToken: string, language: string): Promise<{ request_nonce: string; deep_link: string }>;
  /**
   * Truecaller's server-to-server callback: for a pending request only (else ONB_NOT_FOUND), records a
   * refusal / 'use another number', or reads the profile with the access token from `endpoint` — only over
   * https from an allow-listed host (TRUECALLER_PROFILE_HOSTS; plain http only for loopback hosts outside
   * production), without following redirects — and stores the verified number on that request.
   * ONB_TRUECALLER_ENDPOINT_REFUSED for any other endpoint; ONB_SOCIAL_PROVIDER_UNAVAILABLE when the profile
   * cannot be read.
   */
  callback(body: TruecallerCallback): Promise<void>;
  /**
   * The outcome for `requestNonce`, asked by the browser that began it (same cookie), once: ONB_TRUECALLER_PENDING
   * ('No callback received': poll again) until the callback came; ONB_TRUECALLER_REJECTED when the user
   * refused, or for an unknown, expired, used or foreign request.
   */
  poll(requestNonce: string, browserToken: string | null): Promise<TruecallerOutcome>;
}

/** Hosts of `list` as `host` or `host:port` (lower case). */
function hostAllowed(url: URL, list: readonly string[], production: boolean): boolean {
  if (url.username || url.password) return false;
  const loopback = url.hostname === '127.0.0.1' || url.hostname === 'localhost';
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && loopback && !production)) return false;
  return list.includes(url.host.toLowerCase());
}

/** Creates the service; `fetch` is injectable for tests (default the global one). */
export function createTruecallerService(
  db: Kysely<Database>,
  options: {
    settings: { partnerKey: string; partnerName: string } | null;
    profileHosts: readonly string[];
    now: () => number;
    fetch: typeof fetch;
    production?: boolean;
  },
): TruecallerService {
  const { settings, profileHosts, now } = options;
  const production = options.production ?? false;

  const readProfile = async (endpoint: URL, accessToken: string) => {
    let res: Response;
    try {
      res = await options.fetch(endpoint, {
        headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
        redirect: 'error',
        signal: AbortSignal.timeout(TRUECALLER_PROFILE_TIMEOUT_MS),
      });
    } catch {
      throw onboardError('ONB_SOCIAL_PROVIDER_UNAVAILABLE');
    }
    if (!res.ok) throw onboardError('ONB_SOCIAL_PROVIDER_UNAVAILABLE');
    const profile = (await res.json().catch(() => null)) as {
      phoneNumbers?: unknown[];
      addresses?: { countryCode?: unknown }[];
      onlineIdentities?: { email?: unknown };
    } | null;
    const first = profile?.phoneNumbers?.[0];
    const digits =
      typeof first === 'number' || typeof first === 'string' ? String(first).replace(/\D/g, '') : '';
    const country = profile?.addresses?.[0]?.countryCode;
    const phone = digits
      ? normalisePhone(`+${digits}`, typeof country === 'string' ? country.toUpperCase() : 'IN')
      : null;
    if (!phone) throw onboardError('ONB_SOCIAL_PROVIDER_UNAVAILABLE');
    const email = profile?.onlineIdentities?.email;
    return {
      phone: phone.e164,
      country_code: phone.country || (typeof country === 'string' ? country.toUpperCase() : 'IN'),
      email: typeof email === 'string' && email.includes('@') ? email.trim().toLowerCase() : null,
    };
  };

  return {
    enabled: () => settings !== null,

    async begin(browserToken, language) {
      if (!settings) throw onboardError('ONB_SOCIAL_PROVIDER_UNKNOWN');
      const nonce = randomBytes(24).toString('base64url');
      const at = now();
      await db
        .insertInto('truecaller_requests')
        .values({
          id: nonce,
          browser_hash: sha256Hex(browserToken),
          created_at: new Date(at),
          expires_at: new Date(at + TRUECALLER_REQUEST_TTL_MS),
          phone: null,
          country_code: null,
          email: null,
          consumed_at: null,
        })
        .execute();
      const query = new URLSearchParams({
        type: 'btmsheet',
        requestNonce: nonce,
        partnerKey: settings.partnerKey,
        partnerName: settings.partnerName,
        lang: language.slice(0, 2),
        loginPrefix: 'continue',
        loginSuffix: 'login',
        ctaPrefix: 'continuewith',
        btnShape: 'round',
        skipOption: 'useanothernum',
        ttl: String(TRUECALLER_REQUEST_TTL_MS),
      });
      return { request_nonce: nonce, deep_link: `truecallersdk://truesdk/web_verify?${query.toString()}` };
    },

    async callback(body) {
      const pending = await db
        .selectFrom('truecaller_requests')
        .select(['id'])
        .where('id', '=', body.requestId)
        .where('status', '=', 'pending')
        .where('expires_at', '>', new Date(now()))
        .executeTakeFirst();
      if (!pending) throw onboardError('ONB_NOT_FOUND');
      if (!body.accessToken || !body.endpoint) {
        const status =
          body.status === 'used_another_number' || body.status === 'use_another_number'
            ? 'used_another_number'
            : 'rejected';
        await db
          .updateTable('truecaller_requests')
          .set({ status })
          .where('id', '=', pending.id)
          .where('status', '=', 'pending')
          .execute();
        return;
      }
      let endpoint: URL;
      try {
        endpoint = new URL(body.endpoint);
      } catch {
        throw onboardError('ONB_TRUECALLER_ENDPOINT_REFUSED');
      }
      if (!hostAllowed(endpoint, profileHosts, production))
        throw onboardError('ONB_TRUECALLER_ENDPOINT_REFUSED');
      const profile = await readProfile(endpoint, body.accessToken);
      await db
        .updateTable('truecaller_requests')
        .set({ status: 'verified', ...profile })
        .where('id', '=', pending.id)
        .where('status', '=', 'pending')
        .execute();
    },

    async poll(requestNonce, browserToken) {
      if (!browserToken) throw onboardError('ONB_TRUECALLER_REJECTED');
      const row = await db
        .selectFrom('truecaller_requests')
        .selectAll()
        .where('id', '=', requestNonce)
        .where('browser_hash', '=', sha256Hex(browserToken))
        .where('consumed_at', 'is', null)
        .where('expires_at', '>', new Date(now()))
        .executeTakeFirst();
      if (!row) throw onboardError('ONB_TRUECALLER_REJECTED');
      if (row.status === 'pending') throw onboardError('ONB_TRUECALLER_PENDING');
      const taken = await db
        .updateTable('truecaller_requests')
        .set({ consumed_at: new Date(now()) })
        .where('id', '=', row.id)
        .where('consumed_at', 'is', null)
        .returning('id')
        .executeTakeFirst();
      if (!taken) throw onboardError('ONB_TRUECALLER_REJECTED');
      if (row.status === 'used_another_number') return { status: 'used_another_number' };
      if (row.status !== 'verified' || !row.phone) throw onboardError('ONB_TRUECALLER_REJECTED');
      return {
        status: 'verified',
        phone: row.phone,
        country_code: row.country_code ?? 'IN',
        email: row.email,
      };
    },
  };
}
