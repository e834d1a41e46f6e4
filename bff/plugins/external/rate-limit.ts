import rateLimit from '@fastify/rate-limit';
import fp from 'fastify-plugin';
import { onboardError } from '../../errors';

/**
 * Global rate limit: `max` requests per minute per client IP, in memory (one instance's view; a Redis
 * store would need `ioredis`, which is not installed). `max` 0 turns it off. Health checks are exempt.
 * Over the limit → 429 ONB_RATE_LIMITED 'Please try after some time.' (SPEC §8).
 */
export default fp<{ max: number }>(
  async (app, { max }) => {
    if (max <= 0) return;
    await app.register(rateLimit, {
      global: true,
      max,
      timeWindow: 60_000,
      allowList: (request) => request.url === '/healthz' || request.url === '/readyz',
      errorResponseBuilder: (_request, context) =>
        onboardError('ONB_RATE_LIMITED', { retryAfterS: Math.max(1, Math.ceil(context.ttl / 1000)) }),
    });
  },
  { name: 'rate-limit' },
);
