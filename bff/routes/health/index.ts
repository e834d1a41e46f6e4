import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { ref } from '../responses';

/** GET /healthz (process alive) and GET /readyz (database answers `select 1`; 503 when it does not). */
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
