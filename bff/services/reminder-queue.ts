import type PgBoss from 'pg-boss';
import { createInProcessJob, loadPgBoss } from './periodic-job';
import type { Reminders } from './reminders';

/** pg-boss queue of reminder rounds: one job per REMINDER_CHECK_MS across every instance (throttled). */
export const ROUND_QUEUE = 'reminder-round';
/** pg-boss queue of reminders to send: one job per owner (`stately`: at most one queued and one active). */
export const SEND_QUEUE = 'reminder-send';

/** Runs reminder rounds in the background until stopped. */
export interface ReminderScheduler {
  /** `pg-boss` (PostgreSQL) or `in-process` (PGlite). */
  readonly kind: 'pg-boss' | 'in-process';
  start(): Promise<void>;
  /** Stops taking work and waits for the reminder being sent (at most a few seconds). */
  stop(): Promise<void>;
}

/**
 * The scheduler used on PGlite (one process, one in-process connection): a timer that runs
 * `reminders.runRound()` every `everyMs`, never two at once. `remind` claims each owner's period in the
 * database, so a round that is cut short is simply carried on by the next.
 */
export function createInProcessScheduler(
  reminders: Reminders,
  everyMs: number,
  onError: (err: unknown) => void,
): ReminderScheduler {
  return createInProcessJob(() => reminders.runRound(), everyMs, onError);
}

/** Options of {@link createPgBossScheduler}. */
export interface PgBossSchedulerOptions {
  /** PostgreSQL URL (DATABASE_URL). */
  url: string;
  /** The schema of pg-boss's tables (default `pgboss`; tests use their own). */
  schema?: string;
  reminders: Reminders;
  /** How often a round is queued (REMINDER_CHECK_MS), ms. */
  everyMs: number;
  onError: (err: unknown) => void;
}

/**
 * The scheduler used on PostgreSQL: a job queue with pg-boss (its own schema, created on first start).
 * Every instance queues a round every `everyMs` with a singleton slot of that length, so one round runs per
 * slot whichever instances are up; the round's worker queues one `reminder-send` job per due owner (keyed by
 * the owner, so an owner is never queued twice), and any instance's worker sends it. A send that reached no
 * subscription is retried by pg-boss (3 times, with backoff); the `push_reminders` claim keeps it to one
 * reminder per period.
 */
export function createPgBossScheduler(opts: PgBossSchedulerOptions): ReminderScheduler {
  const slotS = Math.max(1, Math.round(opts.everyMs / 1000));
  const pollS = Math.min(2, Math.max(0.5, opts.everyMs / 2000));
  let boss: PgBoss | null = null;
  let timer: NodeJS.Timeout | null = null;
  const queueRound = () => {
    boss?.send(ROUND_QUEUE, {}, { singletonKey: 'round', singletonSeconds: slotS }).catch(opts.onError);
  };
  return {
    kind: 'pg-boss',
    async start() {
      const PgBossClass = await loadPgBoss();
      const started = new PgBossClass({
        connectionString: opts.url,
        schema: opts.schema ?? 'pgboss',
        max: 2,
        application_name: 'reminders',
        schedule: false,
      });
      boss = started;
      started.on('error', opts.onError);
      await started.start();
      await started.createQueue(ROUND_QUEUE, { name: ROUND_QUEUE, policy: 'standard', retryLimit: 0 });
      await started.createQueue(SEND_QUEUE, {
        name: SEND_QUEUE,
        policy: 'stately',
        retryLimit: 3,
        retryDelay: 60,
        retryBackoff: true,
      });
      await started.work(ROUND_QUEUE, { pollingIntervalSeconds: pollS }, async () => {
        for (const due of await opts.reminders.findDue()) {
          await started.send(SEND_QUEUE, { user_id: due.userId }, { singletonKey: due.userId });
        }
      });
      await started.work<{ user_id: string }>(
        SEND_QUEUE,
        { pollingIntervalSeconds: pollS },
        async ([job]) => {
          if (job) await opts.reminders.remind(job.data.user_id);
        },
      );
      queueRound();
      timer = setInterval(queueRound, opts.everyMs).unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      await boss?.stop({ graceful: true, wait: true, timeout: 5000 });
    },
  };
}
