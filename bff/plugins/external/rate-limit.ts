import rateLimit from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import { onboardError } from '../../errors';

/**
 * Global rate limit: `max` requests per minute per client IP. In memory, or in Redis when `redisUrl` is
 * set, so that several BFF instances behind a load balancer share the counts (DESIGN "bff/"). `max` 0
 * turns it off. Health checks are exempt, and so is every request `exempt` says (the built client's
 * files: a cold page load asks for a dozen of them, and owners behind a carrier's shared address must
 * not get 429 on JavaScript; issue 13 item 8). Over the limit → 429 ONB_RATE_LIMITED 'Please try after some
 * time.' (SPEC §8). A Redis that stops answering does not stop the app: the limiter lets requests through
 * (`skipOnError`) and logs.
 */
export default fp<{
  max: number;
  redisUrl: string | null;
  nameSpace?: string;
  /** Requests not counted (besides /healthz and /readyz). */
  exempt?: (request: FastifyRequest) => boolean;
}>(
  async (app, { max, redisUrl, nameSpace, exempt }) => {
    if (max <= 0) return;
    let redis: Redis | undefined;
    if (redisUrl) {
      redis = new Redis(redisUrl, {
        connectTimeout: 1000,
        maxRetriesPerRequest: 1,
        enableOfflineQueue: true,
      });
      redis.on('error', (err) => app.log.warn({ err }, 'rate-limit redis error'));
      app.addHook('onClose', async () => {
        await redis?.quit().catch(() => redis?.disconnect());
      });
    }
    await app.register(rateLimit, {
      global: true,
      max,
      timeWindow: 60_000,
      ...(redis ? { redis, nameSpace: nameSpace ?? 'onboard-rate-limit-', skipOnError: true } : {}),
      allowList: (request) =>
        request.url === '/healthz' || request.url === '/readyz' || (exempt?.(request) ?? false),
      errorResponseBuilder: (_request, context) =>
        onboardError('ONB_RATE_LIMITED', { retryAfterS: Math.max(1, Math.ceil(context.ttl / 1000)) }),
    });
  },
  { name: 'rate-limit' },
);
