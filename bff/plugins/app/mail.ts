import fp from 'fastify-plugin';
import type { Config } from '../../config';
import { createSmtpTransport } from '../../services/mail';
import type { MessageTransport } from '../../services/transport';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Delivers e-mail codes: over SMTP when SMTP_URL is set, else `app.transport` (dev: console and
     * development outbox; webhook: the gateway with channel `email`).
     */
    mail: MessageTransport;
  }
}

/** Decorates `app.mail` as SMTP_URL and MAIL_FROM say (assertConfigUsable has checked MAIL_FROM). */
export default fp<{ config: Config }>(
  async (app, { config }) => {
    if (config.smtpUrl && config.mailFrom) {
      const smtp = createSmtpTransport({ url: config.smtpUrl, from: config.mailFrom });
      app.addHook('onClose', async () => smtp.close());
      app.decorate('mail', smtp);
    } else {
      app.decorate('mail', app.transport);
    }
  },
  { name: 'mail', dependencies: ['transport'] },
);
