import fp from 'fastify-plugin';
import type { Config } from '../../config';
import type { DatabaseTarget } from '../../db';
import { createSupportChatService, type SupportChatService } from '../../services/support-chat';
import { createInProcessBus, createPostgresBus, type SupportEventBus } from '../../services/support-events';

declare module 'fastify' {
  interface FastifyInstance {
    /** The support chat: messages of owners and staff (issue 6 item 7). */
    supportChat: SupportChatService;
    /** Announcements of new support messages to open streams. */
    supportBus: SupportEventBus;
    /** Open support streams; each is ended (its function called) when the app closes. */
    supportStreams: Set<() => void>;
  }
}

/** Options: the configuration, the clock, and where the data lives (decides the event bus). */
export interface SupportChatPluginOptions {
  config: Config;
  now: () => number;
  /** PostgreSQL (with its URL) → LISTEN/NOTIFY bus shared by every instance; PGlite → in-process bus. */
  database: { kind: DatabaseTarget['kind']; url?: string };
}

/**
 * Decorates `app.supportChat`, `app.supportBus` and `app.supportStreams`. With PostgreSQL the bus is
 * LISTEN/NOTIFY on channel `support_chat`, so a staff reply handled by one instance reaches the owner's
 * stream held by another; with PGlite (one process) it is in-process. Open streams are ended before the
 * server closes, then the bus.
 */
export default fp<SupportChatPluginOptions>(
  async (app, { config, now, database }) => {
    let bus: SupportEventBus;
    if (database.kind === 'postgres' && database.url) {
      const pgBus = createPostgresBus(app.db, database.url, {
        onError: (err) => app.log.warn({ err }, 'support chat LISTEN connection failed'),
      });
      await pgBus.start();
      bus = pgBus;
    } else {
      bus = createInProcessBus();
    }
    const streams = new Set<() => void>();
    app.decorate('supportBus', bus);
    app.decorate('supportStreams', streams);
    app.decorate(
      'supportChat',
      createSupportChatService(app.db, { bus, messagesPerMinute: config.supportMessagesPerMinute, now }),
    );
    app.addHook('preClose', async () => {
      for (const end of [...streams]) end();
    });
    app.addHook('onClose', async () => bus.close());
  },
  { name: 'support-chat', dependencies: ['db'] },
);
