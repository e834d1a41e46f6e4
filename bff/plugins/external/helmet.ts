import helmet from '@fastify/helmet';
import fp from 'fastify-plugin';

/**
 * Security headers, with the Content-Security-Policy of DESIGN "schemas/": no inline or eval'd script
 * (validators are compiled ahead of time); inline styles allowed because MUI/emotion injects them.
 * `upgrade-insecure-requests` only in production, so plain-http development on a LAN address works.
 */
export default fp<{ production: boolean }>(
  async (app, { production }) => {
    await app.register(helmet, {
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:'],
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
