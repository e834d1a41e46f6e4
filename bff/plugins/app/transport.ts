import fp from 'fastify-plugin';
import type { Config } from '../../config';
import { createDevTransport, createWebhookTransport, type MessageTransport } from '../../services/transport';

declare module 'fastify' {
  interface FastifyInstance {
    /** Delivers one-time codes (development outbox, or a webhook gateway). */
    transport: MessageTransport;
  }
}

/** Options: the configuration, or a transport to use instead (tests). */
export interface TransportPluginOptions {
  config: Config;
  transport?: MessageTransport;
  now: () => number;
}

/** Decorates `app.transport` as MESSAGE_TRANSPORT says. */
export default fp<TransportPluginOptions>(
  async (app, opts) => {
    const transport =
      opts.transport ??
      (opts.config.messageTransport === 'webhook' && opts.config.messageWebhookUrl
        ? createWebhookTransport(opts.config.messageWebhookUrl)
        : createDevTransport({
            now: opts.now,
            print: (msg) => app.log.info({ channel: msg.channel, to: msg.to }, `[dev transport] ${msg.text}`),
          }));
    app.decorate('transport', transport);
  },
  { name: 'transport' },
);
