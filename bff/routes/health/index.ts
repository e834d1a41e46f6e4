import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { ref } from '../responses';

/** Retry-After of a 503 of /readyz, in seconds. */
const READY_RETRY_AFTER_S = '1';

/**
 * GET /healthz (process alive: answers as soon as the server listens, whatever the database or the load)
 * and GET /readyz (the database is open and migrated and answers `select 1`, and the process is not under
 * pressure: 200; else 503 with `Retry-After`, so a load balancer sends traffic elsewhere; issue 13 item 5,
 * issue 14 item 4). Neither is shed by @fastify/under-pressure nor counted by the rate limit.
 */
export default async function healthRoutes(app: FastifyInstance) {
  const response = { 200: ref('api/health.schema.json'), 503: ref('api/health.schema.json') };
  app.get(
    '/healthz',
    { config: { public: true }, schema: { operationId: 'getHealth', tags: ['health'], response } },
    async () => ({ status: 'ok' }),
  );
  app.get(
    '/readyz',
    { config: { public: true }, schema: { operationId: 'getReadiness', tags: ['health'], response } },
    async (request, reply) => {
      const unavailable = () =>
        reply.code(503).header('retry-after', READY_RETRY_AFTER_S).send({ status: 'unavailable' });
      if (!app.dbReadiness.ready || app.lifecycle.draining) return unavailable();
      if (app.hasDecorator('isUnderPressure') && app.isUnderPressure()) return unavailable();
      try {
        await sql`select 1`.execute(app.db);
        return { status: 'ok' };
      } catch (err) {
        request.log.error({ err }, 'readiness check failed');
        return unavailable();
      }
    },
  );
}
