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
 * Security headers, with the Content-Security-Policy of DESIGN "schemas/": no inline or eval'd script
 * (validators are compiled ahead of time); inline styles allowed because MUI/emotion injects them.
 * Images also from the map tile server when MAP_TILE_URL is set.
 * `upgrade-insecure-requests` only in production, so plain-http development on a LAN address works.
 */
export default fp<{ production: boolean; mapTileUrl?: string | null }>(
  async (app, { production, mapTileUrl }) => {
    await app.register(helmet, {
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          // Map tiles come from the configured tile server (MAP_TILE_URL) when there is one.
          imgSrc: ["'self'", 'data:', 'blob:', ...tileOrigin(mapTileUrl)],
          fontSrc: ["'self'", 'data:'],
          connectSrc: ["'self'"],
          objectSrc: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
          ...(production ? { upgradeInsecureRequests: [] } : {}),
        },
      },
      hsts: production,
    });
  },
  { name: 'helmet' },
);
