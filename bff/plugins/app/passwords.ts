import fp from 'fastify-plugin';
import type { Config } from '../../config';
import { sharedCountersRedis } from '../external/rate-limit';
import {
  createAttemptLimiter,
  createMemoryCounterStore,
  createFallbackCounterStore,
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
 * shares them; keys under `nameSpace`, default `onboard-passwords-`), else in memory. While Redis does not
 * answer, this instance counts in memory and logs one warning per outage (issue 14 item 2).
 */
export default fp<{ config: Config; now: () => number; nameSpace?: string }>(
  async (app, { config, now, nameSpace }) => {
    let store = createMemoryCounterStore(now);
    if (config.redisUrl) {
      // While disconnected a command fails at once and the memory counters answer.
      const redis = await sharedCountersRedis(app, config.redisUrl, 'password throttle');
      store = createFallbackCounterStore(
        createRedisCounterStore(redis, `${nameSpace ?? 'onboard-'}passwords-`),
        store,
        (down, err) =>
          down
            ? app.log.warn(
                { err },
                'password throttle: Redis unavailable; counting per instance until it is back',
              )
            : app.log.warn('password throttle: Redis answers again; counts are shared by every instance'),
      );
    }
    app.decorate('passwords', {
      resetTokens: createResetTokenStore(app.db, now),
      limiter: createAttemptLimiter(store),
    });
  },
  { name: 'passwords', dependencies: ['db'] },
);
