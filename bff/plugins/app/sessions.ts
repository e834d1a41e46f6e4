import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Lead, UserDetails } from '../../../schemas/generated/types';
import type { Config } from '../../config';
import { onboardError } from '../../errors';
import {
  createSessionStore,
  LOGGED_IN_COOKIE,
  SESSION_COOKIE,
  type SessionStore,
} from '../../services/sessions';
import { toUserDetails } from '../../services/users';

declare module 'fastify' {
  interface FastifyInstance {
    /** Server-side sessions. */
    sessions: SessionStore;
    /** Sets both session cookies for `token` (HttpOnly onboard_sid + readable isLoggedIn=true). */
    startSession(reply: FastifyReply, userId: string, request: FastifyRequest): Promise<void>;
    /** Ends the request's session (if any) and clears both cookies. */
    endSession(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  }
  interface FastifyRequest {
    /** The signed-in user, or null (set before every handler from the onboard_sid cookie). */
    user: UserDetails | null;
    /**
     * On a route with `config.withNewestOpenLead` asked without `property_unique_id`: the signed-in user's
     * newest open lead (or null), read with the session. Else null: not read.
     */
    newestOpenLead: { lead: Lead | null } | null;
  }
  interface FastifyContextConfig {
    /** Served without a session (SPEC §6 public calls). Routes without it answer 401 when signed out. */
    public?: boolean;
    /**
     * The route draws the user's newest open lead unless asked for one (`property_unique_id`): the session
     * query reads it too (`request.newestOpenLead`), one round trip instead of two (issue 13 item 6).
     */
    withNewestOpenLead?: boolean;
  }
}

/**
 * Whether a route needs a session: its path is under the API's prefixes (`/hms_ms/`, `/owner_ms/`) and its
 * config does not mark it `public`. Without a signed-in user such a route answers 401 ONB_UNAUTHORIZED
 * ('Session Expired', SPEC §8) before anything else of it runs; its OpenAPI operation names the `session`
 * scheme (plugins/external/swagger.ts).
 */
export function needsSession(path: string, config: { public?: boolean } | undefined): boolean {
  return (path.startsWith('/hms_ms/') || path.startsWith('/owner_ms/')) && config?.public !== true;
}

/**
 * Sessions and the authentication gate (SPEC §6): resolves `request.user` from the session cookie, and
 * answers 401 ONB_UNAUTHORIZED ('Session Expired') on API routes not marked `config: { public: true }`.
 * Only paths under /hms_ms/ and /owner_ms/ are gated; static files and health checks are not.
 */
export default fp<{ config: Config; now: () => number }>(
  async (app, { config, now }) => {
    const store = createSessionStore(app.db, {
      idleMs: config.sessionIdleMs,
      absoluteMs: config.sessionAbsoluteMs,
      now,
    });
    const secure = config.nodeEnv === 'production';
    const cookieBase = { path: '/', sameSite: 'lax' as const, secure };
    const maxAge = Math.floor(config.sessionAbsoluteMs / 1000);

    app.decorate('sessions', store);
    app.decorateRequest('user', null);
    app.decorateRequest('newestOpenLead', null);

    app.decorate('startSession', async (reply: FastifyReply, userId: string, request: FastifyRequest) => {
      // Rotation: the old session (if any) never survives a sign-in.
      const old = request.cookies[SESSION_COOKIE];
      if (old) await store.destroy(old);
      const token = await store.create(userId, {
        userAgent: request.headers['user-agent'] ?? null,
        ip: request.ip,
      });
      // The campaign the person arrived with is theirs from their first sign-in on (issue 15 item 6).
      if (request.utm)
        await app.db
          .updateTable('users')
          .set({ utm: JSON.stringify(request.utm) })
          .where('id', '=', userId)
          .where('utm', 'is', null)
          .execute();
      reply.setCookie(SESSION_COOKIE, token, { ...cookieBase, httpOnly: true, maxAge });
      reply.setCookie(LOGGED_IN_COOKIE, 'true', { ...cookieBase, httpOnly: false, maxAge });
      // Each way in (OTP, password, social, SSO, Truecaller) ends here: one sign-in step event (issue 15).
      await app.analytics.record(request, 'signed_in', { route: request.routeOptions.url ?? null }, userId);
    });

    app.decorate('endSession', async (request: FastifyRequest, reply: FastifyReply) => {
      const token = request.cookies[SESSION_COOKIE];
      if (token) await store.destroy(token);
      reply.clearCookie(SESSION_COOKIE, { ...cookieBase, httpOnly: true });
      reply.clearCookie(LOGGED_IN_COOKIE, { ...cookieBase, httpOnly: false });
    });

    /** The gate: 401 on a route that needs a session ({@link needsSession}) without a user; else null. */
    const refusal = (request: FastifyRequest) =>
      request.routeOptions.url && needsSession(request.url, request.routeOptions.config) && !request.user
        ? onboardError('ONB_UNAUTHORIZED')
        : null;
    // Synchronous without a session cookie: no promise per signed-out request (issue 13 item 6).
    app.addHook('onRequest', (request, _reply, done) => {
      const token = request.cookies[SESSION_COOKIE];
      if (!token) return done(refusal(request) ?? undefined);
      const query = request.query as Record<string, unknown> | undefined;
      if (request.routeOptions.config.withNewestOpenLead && !query?.property_unique_id) {
        store.resolveWithNewestOpenLead(token).then((found) => {
          request.user = found ? toUserDetails(found.user) : null;
          request.newestOpenLead = found ? { lead: found.lead } : null;
          done(refusal(request) ?? undefined);
        }, done);
        return;
      }
      store.resolve(token).then((row) => {
        request.user = row ? toUserDetails(row) : null;
        done(refusal(request) ?? undefined);
      }, done);
    });
  },
  { name: 'sessions', dependencies: ['db'] },
);
