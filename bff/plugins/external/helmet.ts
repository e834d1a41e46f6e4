import type { IncomingMessage, ServerResponse } from 'node:http';
import fp from 'fastify-plugin';
import helmet from 'helmet';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route, under the API's prefix, answers a document a browser draws (the staff funnel's HTML page): it
     * gets the pages' security headers ({@link securityHeaders}, {@link contentSecurityPolicy}), not the API's.
     */
    document?: boolean;
  }
}

/**
 * Whether `url` is the API's (`/hms_ms/…`, `/owner_ms/…`: JSON, a JPEG, an attachment, an event stream), never
 * a page to draw.
 */
function isApiUrl(url: string): boolean {
  return url.startsWith('/hms_ms/') || url.startsWith('/owner_ms/');
}

/** The origin of a tile URL template (`https://{s}.tile.example.org/{z}/{x}/{y}.png` → `https://*.tile.example.org`). */
export function tileOrigin(template: string | null | undefined): string[] {
  if (!template) return [];
  const m = /^https:\/\/([^/]+)/.exec(template);
  if (!m?.[1]) return [];
  return [`https://${m[1].replace(/\{[a-z]+\}/g, '*')}`];
}

/**
 * The Content-Security-Policy of DESIGN "schemas/" as one header value: no inline or eval'd script
 * (validators are compiled ahead of time); inline styles allowed because MUI/emotion injects them. Images
 * also from the map tile server when MAP_TILE_URL is set. `upgrade-insecure-requests` only in production,
 * so plain-http development on a LAN address works. No page may be framed (`frame-ancestors 'none'`) but
 * the frames of the staff preview, by the preview page of the same origin (`frameAncestors` `'self'`).
 */
export function contentSecurityPolicy(
  production: boolean,
  mapTileUrl?: string | null,
  frameAncestors: string = "'none'",
): string {
  const directives: [string, string[]][] = [
    ['default-src', ["'self'"]],
    ['script-src', ["'self'"]],
    ['style-src', ["'self'", "'unsafe-inline'"]],
    // Map tiles come from the configured tile server (MAP_TILE_URL) when there is one.
    ['img-src', ["'self'", 'data:', 'blob:', ...tileOrigin(mapTileUrl)]],
    ['font-src', ["'self'", 'data:']],
    ['connect-src', ["'self'"]],
    ['object-src', ["'none'"]],
    ['base-uri', ["'self'"]],
    ['form-action', ["'self'"]],
    ['frame-ancestors', [frameAncestors]],
    ...(production ? ([['upgrade-insecure-requests', []]] as [string, string[]][]) : []),
  ];
  return directives.map(([name, values]) => (values.length ? `${name} ${values.join(' ')}` : name)).join(';');
}

/**
 * The security headers of an API answer, as OWASP's REST Security Cheat Sheet sets them for answers no browser
 * draws as a page: `Content-Security-Policy: default-src 'none'; frame-ancestors 'none'` (an answer opened by
 * itself runs and loads nothing, and is never framed), `X-Frame-Options: DENY`, `X-Content-Type-Options:
 * nosniff`, `Referrer-Policy: no-referrer`, `Cross-Origin-Resource-Policy: same-origin`, and HSTS in
 * production as helmet writes it. Helmet's other headers (COOP, Origin-Agent-Cluster, X-DNS-Prefetch-Control,
 * X-Download-Options, X-Permitted-Cross-Domain-Policies, X-XSS-Protection) act only on documents; each header
 * costs the answer's writing its share (issue 13 item 6: 15 headers of ≈55 B took 27 % off a bare Fastify's
 * req/s in this machine's bench).
 */
export function apiSecurityHeaders(production: boolean): Readonly<Record<string, string>> {
  const hsts = securityHeaders(production)['strict-transport-security'];
  return {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cross-origin-resource-policy': 'same-origin',
    ...(hsts ? { 'strict-transport-security': hsts } : {}),
  };
}

/** The frames of the staff preview (renderer/preview), drawn inside /__preview/screens. */
const PREVIEW_FRAME_PATH = '/__preview/screens/frame';

/**
 * The headers helmet sets by default, as @fastify/helmet registered with `contentSecurityPolicy: false` sends
 * them, with `Strict-Transport-Security` only when `production` (helmet's `hsts` option): helmet's own
 * middleware run once on a response that only records what it sets (`helmet.test.ts` checks they agree with
 * @fastify/helmet's answer). Names are lower case, as Fastify keeps them.
 */
export function securityHeaders(production: boolean): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet({ contentSecurityPolicy: false, hsts: production })(
    {} as IncomingMessage,
    recorder as unknown as ServerResponse,
    () => undefined,
  );
  return headers;
}

/**
 * Security headers from one synchronous hook: on pages, assets and every answer outside the API's prefixes,
 * helmet's defaults (HSTS in production: {@link securityHeaders}) and the {@link contentSecurityPolicy}; on
 * the API's answers (`/hms_ms/…`, `/owner_ms/…`, but a route whose config says `document`),
 * {@link apiSecurityHeaders}. All are written once at start and set as they are (issue 13 item 6): @fastify/helmet ran helmet's eleven middlewares and an async hook that
 * built a `reply.helmet` closure on every request, and its `setHeader` calls on the raw response made Node
 * validate every header again when the answer was written. An answer written on the raw response after
 * `reply.hijack()` (the support chat's event stream) must copy `reply.getHeaders()` itself.
 */
export default fp<{ production: boolean; mapTileUrl?: string | null }>(
  async (app, { production, mapTileUrl }) => {
    const headers = securityHeaders(production);
    const plain = { ...headers, 'content-security-policy': contentSecurityPolicy(production, mapTileUrl) };
    const framed = {
      ...headers,
      'content-security-policy': contentSecurityPolicy(production, mapTileUrl, "'self'"),
    };
    const api = apiSecurityHeaders(production);
    app.addHook('onRequest', (request, reply, done) => {
      const { url } = request;
      if (isApiUrl(url) && request.routeOptions.config.document !== true) reply.headers(api);
      else reply.headers(url.startsWith(PREVIEW_FRAME_PATH) ? framed : plain);
      done();
    });
  },
  { name: 'helmet' },
);
