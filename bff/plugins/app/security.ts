import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { onboardError } from '../../errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route takes cross-site POSTs by design (a provider's form_post return, a provider's server
     * callback) and changes nothing on the strength of the browser's cookies alone.
     */
    crossSite?: boolean;
  }
}

const unsafeMethods = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** The request's own origin (`<protocol>://<host>`), as the browser would write it. */
export function ownOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}`;
}

/**
 * Cross-site request refusal for state-changing calls (POST/PUT/PATCH/DELETE): a present `Origin` that is
 * neither the request's own origin nor `publicOrigin` → 403 ONB_FORBIDDEN_ORIGIN; without `Origin`, a
 * `Sec-Fetch-Site` of `cross-site` or `same-site` → 403. Requests with neither header (curl, server-to-server,
 * inject) pass: a browser always sends one of them on a cross-site POST. Complements SameSite=Lax cookies.
 */
export default fp<{ publicOrigin: string | null }>(
  async (app, { publicOrigin }) => {
    // Synchronous: no promise per request (issue 13 item 6).
    app.addHook('onRequest', (request, _reply, done) => {
      if (!unsafeMethods.has(request.method)) return done();
      if (request.routeOptions.config.crossSite === true) return done();
      const origin = request.headers.origin;
      if (origin !== undefined) {
        if (origin !== ownOrigin(request) && origin !== publicOrigin) {
          request.log.warn({ origin }, 'cross-origin state-changing request refused');
          return done(onboardError('ONB_FORBIDDEN_ORIGIN'));
        }
        return done();
      }
      const site = request.headers['sec-fetch-site'];
      if (site === 'cross-site' || site === 'same-site') return done(onboardError('ONB_FORBIDDEN_ORIGIN'));
      done();
    });
  },
  { name: 'security' },
);
