import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config';
import type { Utm } from '../../db/schema';

declare module 'fastify' {
  interface FastifyRequest {
    /** The campaign the visitor arrived with (cookie {@link UTM_COOKIE}), or null. */
    utm: Utm | null;
  }
}

/** The cookie that keeps the entry's campaign across in-app navigation and sign-in (HttpOnly, 30 days). */
export const UTM_COOKIE = 'onboard_utm';
/** The campaign parameters read (SPEC §3). */
export const UTM_KEYS = ['utm_source', 'utm_medium', 'utm_campaign'] as const;
/** Longest value kept, in characters; a longer one is dropped (ours: SPEC §3 names the parameters, no limit). */
const MAX_LENGTH = 100;
/** How long the campaign is kept without a new one, in seconds (30 days; ours, SPEC §3 gives no period). */
const MAX_AGE_S = 30 * 24 * 3600;
/** A value kept: 1–100 printable characters (no control characters). */
const VALUE = new RegExp(`^[^\\p{Cc}]{1,${MAX_LENGTH}}$`, 'u');

/**
 * The campaign of `source` (a query object or a parsed cookie): each of {@link UTM_KEYS} that is a string
 * of 1–100 printable characters after trimming; null when none is. Pure.
 */
export function readUtm(source: unknown): Utm | null {
  if (!source || typeof source !== 'object') return null;
  const utm: Utm = {};
  for (const key of UTM_KEYS) {
    const value = (source as Record<string, unknown>)[key];
    if (typeof value === 'string' && VALUE.test(value.trim())) utm[key] = value.trim();
  }
  return Object.keys(utm).length > 0 ? utm : null;
}

/** Pages of the app (not the API, not static files): where an entry link lands. */
const isPage = (request: FastifyRequest) =>
  request.method === 'GET' &&
  !/^\/(hms_ms|owner_ms|__|propertyOnboard\/(assets|fonts|samples)\/)/.test(request.url);

/**
 * Campaign attribution (issue 15 item 6, SPEC §3): a page opened with `utm_source`, `utm_medium` or
 * `utm_campaign` in its address sets {@link UTM_COOKIE} (HttpOnly, SameSite Lax, Secure in production, 30
 * days; a later campaign replaces it), so the campaign survives in-app navigation, reloads and sign-in
 * without the client carrying it. `request.utm` reads it back (validated again) for every request: sign-in
 * stores it with the user the first time (`startSession`), lead creation with the lead, and analytics with
 * each event.
 */
export default fp<{ config: Config }>(
  async (app, { config }) => {
    app.decorateRequest('utm', null);
    // Synchronous: no promise per request (issue 13 item 6).
    app.addHook('onRequest', (request, reply, done) => {
      const cookie = request.cookies[UTM_COOKIE];
      if (cookie) {
        try {
          request.utm = readUtm(JSON.parse(cookie));
        } catch {
          request.utm = null;
        }
      }
      if (!request.url.includes('utm_') || !isPage(request)) return done();
      const fromQuery = readUtm(request.query);
      if (!fromQuery) return done();
      request.utm = fromQuery;
      reply.setCookie(UTM_COOKIE, JSON.stringify(fromQuery), {
        path: '/',
        httpOnly: true,
        sameSite: 'lax',
        secure: config.nodeEnv === 'production',
        maxAge: MAX_AGE_S,
      });
      done();
    });
  },
  { name: 'utm' },
);
