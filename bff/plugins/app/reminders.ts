import fp from 'fastify-plugin';
import type { Config } from '../../config';
import type { DatabaseTarget } from '../../db';
import { createReminders, type Reminders } from '../../services/reminders';
import {
  createInProcessScheduler,
  createPgBossScheduler,
  type ReminderScheduler,
} from '../../services/reminder-queue';

declare module 'fastify' {
  interface FastifyInstance {
    /** Reminders by web push: subscriptions and the reminder job's steps (issue 15 item 5). */
    reminders: Reminders;
    /** The background scheduler of reminder rounds; null when reminders are off or REMINDER_CHECK_MS is 0. */
    reminderScheduler: ReminderScheduler | null;
  }
}

/** Options: the configuration, the clock, where the data lives (decides the scheduler), and `fetch` for tests. */
export interface RemindersPluginOptions {
  config: Config;
  now: () => number;
  database: { kind: DatabaseTarget['kind']; url?: string; schema?: string };
  fetch?: typeof fetch;
}

/**
 * Decorates `app.reminders` and `app.reminderScheduler`. With VAPID keys configured and REMINDER_CHECK_MS
 * above 0, once the database is ready it starts the scheduler: pg-boss on PostgreSQL (a job queue shared by
 * every instance), a timer in the process on PGlite (see bff/services/reminder-queue.ts); stopped when the
 * app closes.
 */
export default fp<RemindersPluginOptions>(
  async (app, { config, now, database, fetch: fetchImpl }) => {
    const reminders = createReminders({
      db: app.db,
      vapid: config.vapid,
      pushServiceHosts: config.pushServiceHosts,
      afterMs: config.reminderAfterMs,
      periodMs: config.reminderPeriodMs,
      translate: app.translations.translate,
      now,
      ...(fetchImpl ? { fetch: fetchImpl } : {}),
      onError: (err, context) => app.log.warn({ err, ...context }, 'reminder not sent'),
    });
    app.decorate('reminders', reminders);
    let scheduler: ReminderScheduler | null = null;
    if (reminders.enabled && config.reminderCheckMs > 0) {
      const onError = (err: unknown) => app.log.warn({ err }, 'reminder job failed');
      scheduler =
        database.kind === 'postgres' && database.url
          ? createPgBossScheduler({
              url: database.url,
              ...(database.schema ? { schema: `${database.schema}_pgboss` } : {}),
              reminders,
              everyMs: config.reminderCheckMs,
              onError,
            })
          : createInProcessScheduler(reminders, config.reminderCheckMs, onError);
    }
    app.decorate('reminderScheduler', scheduler);
    let started: Promise<void> = Promise.resolve();
    app.addHook('onReady', async () => {
      if (!scheduler) return;
      const s = scheduler;
      started = app.dbReadiness.whenReady
        .then(() => s.start())
        .then(() => app.log.info({ scheduler: s.kind }, 'reminders by web push started'))
        .catch((err: unknown) => app.log.error({ err }, 'reminder scheduler did not start'));
    });
    app.addHook('onClose', async () => {
      if (!scheduler) return;
      await started;
      await scheduler.stop();
    });
  },
  { name: 'reminders', dependencies: ['db', 'translations'] },
);
