import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { sendError } from '../app/errors';
import { onboardError } from '../../errors';

/** Base path of the client (SPEC §2). */
export const BASE_PATH = '/propertyOnboard';

/** Paths that belong to the server, never to the client's router. */
const serverPrefixes = ['/hms_ms/', '/owner_ms/', '/__dev/', '/healthz', '/readyz', `${BASE_PATH}/assets/`];

/** The auth pages of SPEC §2 served at the top level (exact paths; the client's route-table TOP_LEVEL_ROUTES). */
const topLevelAuthPages = new Set([
  '/login',
  '/login-through-otp',
  '/forgot-password-mail',
  '/forgot-password-phone',
  '/reset-password',
  '/privacy-policy',
  '/terms',
]);

/**
 * True for paths the client's router owns: /propertyOnboard/…, /404, the redirect entry and the top-level
 * auth pages (SPEC §2), and
 * any other page a browser asks for as HTML, so that the client shows its not-found page for an unknown
 * path ("any unmatched path", SPEC §2). API paths and missing build assets are never answered with HTML.
 */
export function isClientRoute(url: string, accept = ''): boolean {
  const path = url.split('?')[0] ?? '';
  if (serverPrefixes.some((p) => path.startsWith(p))) return false;
  return (
    path === BASE_PATH ||
    path.startsWith(`${BASE_PATH}/`) ||
    path === '/404' ||
    topLevelAuthPages.has(path.replace(/\/+$/, '')) ||
    path === '/route/redirect/propertyOnboard' ||
    path.startsWith('/route/redirect/propertyOnboard/') ||
    accept.includes('text/html')
  );
}

/**
 * Serves the built client (dist/client) under /propertyOnboard/ with an SPA fallback: any GET of a client
 * route that is not a file answers index.html (no-cache); hashed assets are cached for a year. `/` → 302
 * /propertyOnboard. Without a build, client routes answer 503 text asking for `npm run build`.
 * Other unknown paths → 404 ONB_NOT_FOUND; the not-found handler is rate limited when the limiter is on.
 */
export default fp<{ clientDir: string }>(
  async (app, { clientDir }) => {
    const built = existsSync(join(clientDir, 'index.html'));
    if (built) {
      await app.register(fastifyStatic, {
        root: clientDir,
        prefix: `${BASE_PATH}/`,
        wildcard: true,
        index: false,
        setHeaders: (reply, path) => {
          reply.header(
            'cache-control',
            path.includes('/assets/') ? 'public, max-age=31536000, immutable' : 'no-cache',
          );
        },
      });
    }

    app.get('/', { schema: { hide: true } }, async (_request, reply) => reply.redirect(BASE_PATH, 302));

    const notFound = async (request: FastifyRequest, reply: FastifyReply) => {
      if (
        (request.method === 'GET' || request.method === 'HEAD') &&
        isClientRoute(request.url, request.headers.accept)
      ) {
        if (!built) {
          return reply
            .code(503)
            .type('text/plain; charset=utf-8')
            .send('The client is not built yet: run `npm run build`, then reload this page.\n');
        }
        return reply.header('cache-control', 'no-cache').sendFile('index.html', clientDir);
      }
      return sendError(reply, onboardError('ONB_NOT_FOUND'));
    };
    const limited = typeof app.rateLimit === 'function';
    app.setNotFoundHandler(limited ? { preHandler: app.rateLimit() } : {}, notFound);
  },
  { name: 'static', dependencies: ['errors'] },
);
