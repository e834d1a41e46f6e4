import type { FastifyInstance } from 'fastify';

/** GET /hms_ms/api/openapi.json — the OpenAPI 3.1 document of every route. */
export default async function metaRoutes(app: FastifyInstance) {
  app.get(
    '/hms_ms/api/openapi.json',
    { config: { public: true }, schema: { operationId: 'getOpenApi', tags: ['global'], hide: true } },
    async () => app.swagger(),
  );
}
