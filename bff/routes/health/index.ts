import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { ref } from '../responses';

/**
 * GET /healthz (process alive: answers as soon as the server listens) and GET /readyz (the database is
 * open and migrated and answers `select 1`; 503 with `Retry-After` until then, or when it does not
 * answer; issue 13 item 5).
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
      if (!app.dbReadiness.ready) {
        return reply.code(503).header('retry-after', '1').send({ status: 'unavailable' });
      }
      try {
        await sql`select 1`.execute(app.db);
        return { status: 'ok' };
      } catch (err) {
        request.log.error({ err }, 'readiness check failed');
        return reply.code(503).send({ status: 'unavailable' });
      }
    },
  );
}
