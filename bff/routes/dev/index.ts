import type { FastifyInstance } from 'fastify';
import { isDevTransport } from '../../services/transport';
import { ref } from '../responses';

/** GET /__dev/outbox — messages sent by the development transport, newest first. Absent otherwise. */
export default async function devRoutes(app: FastifyInstance) {
  const transport = app.transport;
  if (!isDevTransport(transport)) return;
  app.get(
    '/__dev/outbox',
    {
      config: { public: true },
      schema: {
        operationId: 'getDevOutbox',
        tags: ['dev'],
        summary: 'Development transport only: one-time codes sent, newest first',
        response: { 200: ref('api/outbox.schema.json') },
      },
    },
    async (_request, reply) => reply.header('cache-control', 'no-store').send(transport.outbox()),
  );
}
