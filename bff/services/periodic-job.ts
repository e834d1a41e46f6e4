import type PgBoss from 'pg-boss';
import { onFirstUse } from '../on-first-use';

/** A task run in the background every so often until stopped (e.g. the analytics partitions' upkeep). */
export interface PeriodicJob {
  /** `pg-boss` (PostgreSQL: one run per period across every instance) or `in-process` (PGlite). */
  readonly kind: 'pg-boss' | 'in-process';
  start(): Promise<void>;
  /** Stops taking work and waits for the run under way (pg-boss: at most 5 s). */
  stop(): Promise<void>;
}

/**
 * The runner used on PGlite (one process): runs `run` at once, then `everyMs` after each run ends, never two
 * at once; a failure goes to `onError` and the next run still comes. The reminders' in-process scheduler
 * (bff/services/reminder-queue.ts) is this runner too.
 */
export function createInProcessJob(
  run: () => Promise<unknown>,
  everyMs: number,
  onError: (err: unknown) => void,
): PeriodicJob {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const tick = () => {
    running = run()
      .catch(onError)
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, everyMs).unref();
      });
  };
  return {
    kind: 'in-process',
    async start() {
      stopped = false;
      timer = setTimeout(tick, 0).unref();
    },
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}

/** pg-boss, loaded when a job on PostgreSQL starts (issue 13 item 5: never on the embedded database). */
export const loadPgBoss = onFirstUse(async () => (await import('pg-boss')).default);

/** Options of {@link createPgBossJob}. */
export interface PgBossJobOptions {
  /** PostgreSQL URL (DATABASE_URL). */
  url: string;
  /** The schema of pg-boss's tables (default `pgboss`, shared with the reminders; tests use their own). */
  schema?: string;
  /** The pg-boss queue of this job, e.g. `analytics-partitions`. */
  queue: string;
  /** How often a run is queued, ms. */
  everyMs: number;
  run: () => Promise<unknown>;
  onError: (err: unknown) => void;
}

/**
 * The runner used on PostgreSQL, as the reminders' (bff/services/reminder-queue.ts): pg-boss, its queue in
 * the pg-boss schema. Every instance queues a run at start and every `everyMs` in a singleton slot of that
 * length, so one run happens per slot whichever instances are up, on whichever instance's worker takes it.
 * A failed run is not retried (the next slot runs again).
 */
export function createPgBossJob(opts: PgBossJobOptions): PeriodicJob {
  const slotS = Math.max(1, Math.round(opts.everyMs / 1000));
  const pollS = Math.min(2, Math.max(0.5, opts.everyMs / 2000));
  let boss: PgBoss | null = null;
  let timer: NodeJS.Timeout | null = null;
  const queueRun = () => {
    boss?.send(opts.queue, {}, { singletonKey: 'run', singletonSeconds: slotS }).catch(opts.onError);
  };
  return {
    kind: 'pg-boss',
    async start() {
      const PgBossClass = await loadPgBoss();
      boss = new PgBossClass({
        connectionString: opts.url,
        schema: opts.schema ?? 'pgboss',
        max: 1,
        application_name: opts.queue,
        schedule: false,
      });
      boss.on('error', opts.onError);
      await boss.start();
      await boss.createQueue(opts.queue, { name: opts.queue, policy: 'standard', retryLimit: 0 });
      await boss.work(opts.queue, { pollingIntervalSeconds: pollS }, async () => {
        await opts.run();
      });
      queueRun();
      timer = setInterval(queueRun, opts.everyMs).unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      await boss?.stop({ graceful: true, wait: true, timeout: 5000 });
    },
  };
}
