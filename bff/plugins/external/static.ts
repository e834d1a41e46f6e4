import { existsSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
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

/** Whether a path asks for a source map (`….map`): never a page, and not served at all in production. */
export function isSourceMapPath(path: string): boolean {
  return path.endsWith('.map');
}

/**
 * The URL paths (`/propertyOnboard/assets/index-abc.js`, …) of every file of the built client under
 * `clientDir`, read once at start (the build does not change while the server runs); empty when there is
 * no build. Source maps are left out when `production` (they are not served then). The rate limiter does
 * not count requests for these paths (issue 13 item 8).
 */
export function clientFilePaths(clientDir: string, production: boolean): Set<string> {
  const paths = new Set<string>();
  if (!existsSync(clientDir)) return paths;
  for (const entry of readdirSync(clientDir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const rel = relative(clientDir, join(entry.parentPath, entry.name)).split(sep).join('/');
    if (production && isSourceMapPath(rel)) continue;
    paths.add(`${BASE_PATH}/${rel}`);
  }
  return paths;
}

/**
 * True for paths the client's router owns: /propertyOnboard/…, /404, the redirect entry and the top-level
 * auth pages (SPEC §2), and
 * any other page a browser asks for as HTML, so that the client shows its not-found page for an unknown
 * path ("any unmatched path", SPEC §2). API paths and missing build assets are never answered with HTML.
 */
export function isClientRoute(url: string, accept = ''): boolean {
  const path = url.split('?')[0] ?? '';
  if (serverPrefixes.some((p) => path.startsWith(p)) || isSourceMapPath(path)) return false;
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

/** Cache-Control of the content-hashed files under `assets/`: their name changes with their content. */
export const IMMUTABLE_CACHE = 'public, max-age=31536000, immutable';

/**
 * Serves the built client (dist/client) under /propertyOnboard/ with an SPA fallback: any GET of a client
 * route that is not a file answers index.html (no-cache); hashed assets are cached for a year
 * ({@link IMMUTABLE_CACHE}), other files (index.html, icons) are `no-cache` (revalidated with their
 * ETag / Last-Modified). Files are sent precompressed (issue 13 item 1): the build writes `.br` and `.gz`
 * beside every text asset, and `preCompressed` picks the one the request's `Accept-Encoding` allows
 * (brotli first), with `Vary: Accept-Encoding` on every file answer. In `production`, source maps answer
 * 404 ONB_NOT_FOUND. `/` → 302 /propertyOnboard. Without a build, client routes answer 503 text asking for
 * `npm run build`. Other unknown paths → 404 ONB_NOT_FOUND; the not-found handler is rate limited when
 * the limiter is on.
 */
export default fp<{ clientDir: string; production?: boolean }>(
  async (app, { clientDir, production = false }) => {
    const built = existsSync(join(clientDir, 'index.html'));
    if (built) {
      await app.register(fastifyStatic, {
        root: clientDir,
        prefix: `${BASE_PATH}/`,
        wildcard: true,
        index: false,
        preCompressed: true,
        ...(production ? { allowedPath: (path: string) => !isSourceMapPath(path) } : {}),
        setHeaders: (reply, path) => {
          const rel = relative(clientDir, path).split(sep).join('/');
          reply.header('cache-control', rel.startsWith('assets/') ? IMMUTABLE_CACHE : 'no-cache');
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
    // Unknown paths are counted by the rate limit's own onRequest hook, like every request.
    app.setNotFoundHandler(notFound);
  },
  { name: 'static', dependencies: ['errors'] },
);
