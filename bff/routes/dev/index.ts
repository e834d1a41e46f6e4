import { isIP } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { onboardError } from '../../errors';
import { isDevTransport } from '../../services/transport';
import { ref } from '../responses';

/**
 * True when the TCP peer of `request` is this machine (127.0.0.0/8, ::1, or IPv4 loopback mapped into
 * IPv6). Reads the socket's own address, never X-Forwarded-For or `request.ip`, which a client or a
 * proxy setting could make say anything.
 */
export function isLoopbackPeer(request: FastifyRequest): boolean {
  const address = request.socket.remoteAddress ?? '';
  if (isIP(address) === 0) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return address === '::1' || (isIP(v4) === 4 && v4.startsWith('127.'));
}

/**
 * GET /__dev/outbox — messages sent by the development transport, newest first, for `npm start` on a
 * developer's machine (issue 11 item 7). Registered only with the development transport and never when
 * NODE_ENV is production; answers only loopback peers (others: 404, as if it did not exist).
 */
export default async function devRoutes(app: FastifyInstance, opts: { nodeEnv: string }) {
  const transport = app.transport;
  if (!isDevTransport(transport) || opts.nodeEnv === 'production') return;
  app.get(
    '/__dev/outbox',
    {
      config: { public: true },
      schema: {
        operationId: 'getDevOutbox',
        tags: ['dev'],
        summary: 'Development transport only, loopback clients only: one-time codes sent, newest first',
        response: { 200: ref('api/outbox.schema.json') },
      },
    },
    async (request, reply) => {
      if (!isLoopbackPeer(request)) throw onboardError('ONB_NOT_FOUND');
      return reply.header('cache-control', 'no-store').send(transport.outbox());
    },
  );
}
