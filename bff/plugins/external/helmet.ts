import helmet from '@fastify/helmet';
import fp from 'fastify-plugin';

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

/** The frames of the staff preview (renderer/preview), drawn inside /__preview/screens. */
const PREVIEW_FRAME_PATH = '/__preview/screens/frame';

/**
 * Security headers (helmet's defaults, HSTS in production) and the {@link contentSecurityPolicy}. The
 * policy is written once at start and set as it is on every answer: helmet would rebuild and re-check it
 * on every request (issue 13 item 6, ≈4–5 % of a screen request's CPU).
 */
export default fp<{ production: boolean; mapTileUrl?: string | null }>(
  async (app, { production, mapTileUrl }) => {
    await app.register(helmet, { contentSecurityPolicy: false, hsts: production });
    const csp = contentSecurityPolicy(production, mapTileUrl);
    const framedCsp = contentSecurityPolicy(production, mapTileUrl, "'self'");
    app.addHook('onRequest', (request, reply, done) => {
      reply.header('content-security-policy', request.url.startsWith(PREVIEW_FRAME_PATH) ? framedCsp : csp);
      done();
    });
  },
  { name: 'helmet' },
);
