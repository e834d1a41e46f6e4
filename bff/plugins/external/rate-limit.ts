import { createRequire } from 'node:module';
import rateLimit, { type FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { onboardError } from '../../errors';

/** The result a rate-limit store reports for one counted request: the count in the window, ms left. */
interface StoreResult {
  current: number;
  ttl: number;
}
type StoreCallback = (err: Error | null, result: StoreResult | null) => void;
/** The store contract of `@fastify/rate-limit` (its `store` option). */
interface RateLimitStore {
  incr(key: string, cb: StoreCallback, timeWindow: number, max: number): void;
  read?(key: string, cb: StoreCallback, timeWindow: number, max: number): void;
  child(routeOptions: {
    continueExceeding: boolean;
    exponentialBackoff: boolean;
    routeInfo: { method?: string; url?: string };
  }): RateLimitStore;
}
type RedisStoreClass = new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  redis: Redis,
  key?: string,
) => RateLimitStore;
type LocalStoreClass = new (
  continueExceeding: boolean,
  exponentialBackoff: boolean,
  cache?: number,
) => RateLimitStore;

// The library's own stores (CommonJS files without types of their own).
const require = createRequire(import.meta.url);
const RedisStore = require('@fastify/rate-limit/store/RedisStore.js') as RedisStoreClass;
const LocalStore = require('@fastify/rate-limit/store/LocalStore.js') as LocalStoreClass;

/**
 * Counts in Redis, shared by every instance; when Redis does not answer, counts in this instance's memory
 * instead and logs a warning once per outage (and once when Redis is back), so losing Redis degrades the
 * limit to per instance — never to no limit and never to a 500 (issue 14 item 2).
 */
class RedisWithLocalFallback implements RateLimitStore {
  private failing = false;

  constructor(
    private readonly redis: RateLimitStore,
    private readonly local: RateLimitStore,
    private readonly log: FastifyBaseLogger,
  ) {}

  incr(key: string, cb: StoreCallback, timeWindow: number, max: number): void {
    this.redis.incr(
      key,
      (err, result) => {
        if (!err && result) {
          if (this.failing) {
            this.failing = false;
            this.log.warn('rate limit: Redis answers again; counts are shared by every instance');
          }
          cb(null, result);
          return;
        }
        if (!this.failing) {
          this.failing = true;
          this.log.warn({ err }, 'rate limit: Redis unavailable; counting per instance until it is back');
        }
        this.local.incr(key, cb, timeWindow, max);
      },
      timeWindow,
      max,
    );
  }

  child(routeOptions: Parameters<RateLimitStore['child']>[0]): RateLimitStore {
    return new RedisWithLocalFallback(
      this.redis.child(routeOptions),
      this.local.child(routeOptions),
      this.log,
    );
  }
}

/**
 * Global rate limit: `max` requests per minute per client address (`request.ip`: the socket's address, or
 * the one a configured proxy forwarded, see TRUST_PROXY). In memory, or in Redis when `redisUrl` is set, so
 * that several BFF instances behind a load balancer share the counts (DESIGN "bff/"); a Redis that stops
 * answering degrades the limit to per instance with a logged warning (issue 14 item 2). `max` 0 turns it
 * off. Every request is counted in an `onRequest` hook that runs before any other check (the session gate,
 * the database, routing: signed-out calls of routes that need a session and unknown paths count too; issue
 * 14 item 3). Health checks are exempt, and so is every request `exempt` says (the built client's files: a
 * cold page load asks for a dozen of them, and owners behind a carrier's shared address must not get 429 on
 * JavaScript; issue 13 item 8). Over the limit → 429 ONB_RATE_LIMITED 'Please try after some time.' (SPEC §8)
 * with `Retry-After` in seconds.
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
    let store: FastifyRateLimitStoreCtor | undefined;
    if (redisUrl) {
      const redis = await sharedCountersRedis(app, redisUrl, 'rate-limit');
      const shared = new RedisStore(false, false, redis, nameSpace ?? 'onboard-rate-limit-');
      const local = new LocalStore(false, false);
      const fallback = new RedisWithLocalFallback(shared, local, app.log);
      store = function FallbackStore() {
        return fallback;
      } as unknown as FastifyRateLimitStoreCtor;
    }
    await app.register(rateLimit, {
      global: false,
      max,
      timeWindow: 60_000,
      ...(store ? { store } : {}),
      allowList: (request) =>
        request.url === '/healthz' || request.url === '/readyz' || (exempt?.(request) ?? false),
      errorResponseBuilder: (_request, context) =>
        onboardError('ONB_RATE_LIMITED', { retryAfterS: Math.max(1, Math.ceil(context.ttl / 1000)) }),
    });
    // A root-level hook, added before the session gate and every route: it counts every request first. It
    // is built on `createRateLimit` rather than `rateLimit()`, whose handler marks the request as limited and
    // would make routes with a limit of their own (`config.rateLimit`, e.g. codes per account) skip theirs.
    const limit = app.createRateLimit();
    app.addHook('onRequest', async (request, reply) => {
      const result = await limit(request);
      if (result.isAllowed) return;
      reply.header('x-ratelimit-limit', result.max);
      reply.header('x-ratelimit-remaining', result.remaining);
      reply.header('x-ratelimit-reset', result.ttlInSeconds);
      if (result.isExceeded) {
        throw onboardError('ONB_RATE_LIMITED', { retryAfterS: Math.max(1, result.ttlInSeconds) });
      }
    });
  },
  { name: 'rate-limit' },
);

/**
 * A Redis client of `url` for counters every instance shares (the rate limit, the password throttle), with
 * ioredis loaded only then (issue 13 item 5: not at every start). No offline queue: while disconnected a
 * command fails at once, so the per-instance fallback answers without waiting. Resolves once it is connected
 * or its first attempt failed ({@link redisReady}, bounded by its 1 s connect timeout), so the first requests
 * are counted in Redis, not per instance; quit when `app` closes. Its errors are logged at debug level, as
 * `<what> redis error`.
 */
export async function sharedCountersRedis(app: FastifyInstance, url: string, what: string): Promise<Redis> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, { connectTimeout: 1000, maxRetriesPerRequest: 1, enableOfflineQueue: false });
  redis.on('error', (err) => app.log.debug({ err }, `${what} redis error`));
  await redisReady(redis);
  app.addHook('onClose', async () => {
    await redis.quit().catch(() => redis.disconnect());
  });
  return redis;
}

/**
 * Resolves once `redis` is connected, or once its first attempt failed (then the per-instance fallback
 * counts until it connects); never rejects.
 */
export function redisReady(redis: Redis): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      redis.off('ready', done);
      redis.off('error', done);
      resolve();
    };
    redis.once('ready', done);
    redis.once('error', done);
  });
}
