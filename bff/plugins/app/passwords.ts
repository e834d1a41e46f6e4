import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import type { Config } from '../../config';
import {
  createAttemptLimiter,
  createMemoryCounterStore,
  createRedisCounterStore,
  createResetTokenStore,
  type AttemptLimiter,
  type ResetTokenStore,
} from '../../services/passwords';

declare module 'fastify' {
  interface FastifyInstance {
    /** Forgot-password links and the password-guessing throttle (SPEC §4, §5; issue 11). */
    passwords: { resetTokens: ResetTokenStore; limiter: AttemptLimiter };
  }
}

/**
 * Decorates `app.passwords`. The throttle's counters live in Redis when REDIS_URL is set (every instance
 * shares them; keys under `nameSpace`, default `onboard-passwords-`), else in memory. A Redis that stops
 * answering makes the throttle fail closed for that request (500 is never the answer to input: the
 * error handler hides it as 'Internal Server Error'), and is logged.
 */
export default fp<{ config: Config; now: () => number; nameSpace?: string }>(
  async (app, { config, now, nameSpace }) => {
    let store = createMemoryCounterStore(now);
    if (config.redisUrl) {
      const redis = new Redis(config.redisUrl, { connectTimeout: 1000, maxRetriesPerRequest: 1 });
      redis.on('error', (err) => app.log.warn({ err }, 'password throttle redis error'));
      app.addHook('onClose', async () => {
        await redis.quit().catch(() => redis.disconnect());
      });
      store = createRedisCounterStore(redis, `${nameSpace ?? 'onboard-'}passwords-`);
    }
    app.decorate('passwords', {
      resetTokens: createResetTokenStore(app.db, now),
      limiter: createAttemptLimiter(store),
    });
  },
  { name: 'passwords', dependencies: ['db'] },
);
