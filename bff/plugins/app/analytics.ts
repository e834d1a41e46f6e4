import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config';
import type { DatabaseTarget } from '../../db';
import type { AnalyticsEventName } from '../../screens/analytics-catalogue';
import { createAnalyticsForwarder, type AnalyticsForwarder } from '../../services/analytics-sink';
import {
  dropOldAnalyticsPartitions,
  ensureAnalyticsPartitions,
  recordServerEvent,
  type EventValue,
} from '../../services/analytics-store';
import { createInProcessJob, createPgBossJob, type PeriodicJob } from '../../services/periodic-job';

/** Server-side analytics (issue 15 item 1): events recorded where the state changes, and the sink. */
export interface ServerAnalytics {
  /**
   * Stores event `name` (one of the catalogue, bff/screens/data/analytics-events.json) for the request's signed-in user (or `userId` when given: sign-in sets the user
   * after the request began), source `server`. Never rejects and never fails the request: a failure to
   * store is logged with the request id.
   */
  record(
    request: FastifyRequest,
    name: AnalyticsEventName,
    properties?: Record<string, EventValue>,
    userId?: string | null,
  ): Promise<void>;
  /** The forwarder to the sink; null when ANALYTICS_SINK_URL is unset. */
  forwarder: AnalyticsForwarder | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Server-side analytics events and their forwarding (issue 15 item 1). */
    analytics: ServerAnalytics;
    /**
     * The upkeep of the day partitions of analytics_events (made ahead, dropped after
     * ANALYTICS_RETENTION_DAYS); null when ANALYTICS_MAINTENANCE_MS is 0 (then it runs once at start).
     */
    analyticsMaintenance: PeriodicJob | null;
  }
}

/** The pg-boss queue of the analytics partitions' upkeep. */
export const ANALYTICS_MAINTENANCE_QUEUE = 'analytics-partitions';

/**
 * Decorates `app.analytics` and `app.analyticsMaintenance`. Once the database is ready it creates the day
 * partitions of `analytics_events` (today and the next two days) and drops those older than
 * ANALYTICS_RETENTION_DAYS, then again every ANALYTICS_MAINTENANCE_MS on the job runner of the reminders:
 * pg-boss on PostgreSQL (one run per period across every instance), a timer in the process on PGlite. When
 * a sink is configured, it starts the forwarder; all stop when the app closes.
 */
export default fp<{
  config: Config;
  now: () => number;
  database: { kind: DatabaseTarget['kind']; url?: string; schema?: string };
}>(
  async (app, { config, now, database }) => {
    const forwarder = config.analyticsSink
      ? createAnalyticsForwarder({ db: app.db, sink: config.analyticsSink, now, log: app.log })
      : null;
    app.decorate('analytics', {
      async record(request, name, properties = {}, userId) {
        try {
          await recordServerEvent(app.db, {
            userId: userId === undefined ? (request.user?.id ?? null) : userId,
            name,
            properties,
            at: now(),
          });
        } catch (err) {
          request.log.warn({ err, event: name }, 'analytics event not stored');
        }
      },
      forwarder,
    } satisfies ServerAnalytics);

    const upkeep = async () => {
      const { created, skipped } = await ensureAnalyticsPartitions(app.db, now());
      const { dropped, deleted } = await dropOldAnalyticsPartitions(
        app.db,
        now(),
        config.analyticsRetentionDays,
      );
      if (created.length > 0 || skipped.length > 0 || dropped.length > 0 || deleted > 0) {
        app.log.info({ created, skipped, dropped, deleted }, 'analytics_events day partitions');
      }
    };
    const onError = (err: unknown) => app.log.warn({ err }, 'analytics_events partitions not maintained');
    const everyMs = config.analyticsMaintenanceMs;
    const job: PeriodicJob | null =
      everyMs <= 0
        ? null
        : database.kind === 'postgres' && database.url
          ? createPgBossJob({
              url: database.url,
              ...(database.schema ? { schema: `${database.schema}_pgboss` } : {}),
              queue: ANALYTICS_MAINTENANCE_QUEUE,
              everyMs,
              run: upkeep,
              onError,
            })
          : createInProcessJob(upkeep, everyMs, onError);
    app.decorate('analyticsMaintenance', job);

    let closed = false;
    let started: Promise<void> = Promise.resolve();
    app.dbReadiness.whenReady
      .then(async () => {
        if (closed) return;
        // Once at once (events may come in now), then on the job's schedule.
        started = upkeep()
          .catch(onError)
          .then(() => (closed ? undefined : job?.start()));
        await started.catch(onError);
        if (!closed) forwarder?.start();
      })
      .catch(() => undefined);
    app.addHook('onClose', async () => {
      closed = true;
      await started.catch(() => undefined);
      await job?.stop();
      await forwarder?.stop();
    });
  },
  { name: 'analytics', dependencies: ['db'] },
);
