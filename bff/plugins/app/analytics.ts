import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config';
import type { AnalyticsEventName } from '../../screens/analytics-catalogue';
import { createAnalyticsForwarder, type AnalyticsForwarder } from '../../services/analytics-sink';
import {
  ensureAnalyticsPartitions,
  recordServerEvent,
  type EventValue,
} from '../../services/analytics-store';

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
  }
}

/** How often the day partitions of analytics_events are checked, in ms (today and the next two days). */
export const PARTITION_CHECK_MS = 6 * 3600_000;

/**
 * Decorates `app.analytics`. Once the database is ready it creates the day partitions of
 * `analytics_events` (every {@link PARTITION_CHECK_MS} again) and, when a sink is configured, starts the
 * forwarder; both stop when the app closes.
 */
export default fp<{ config: Config; now: () => number }>(
  async (app, { config, now }) => {
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

    let checking: Promise<void> = Promise.resolve();
    const partitions = () =>
      (checking = ensureAnalyticsPartitions(app.db, now())
        .then(({ created, skipped }) => {
          if (created.length > 0 || skipped.length > 0) {
            app.log.info({ created, skipped }, 'analytics_events day partitions');
          }
        })
        .catch((err: unknown) => app.log.warn({ err }, 'analytics_events partitions not created')));
    let closed = false;
    const timer = setInterval(() => void partitions(), PARTITION_CHECK_MS);
    timer.unref();
    app.dbReadiness.whenReady
      .then(async () => {
        if (closed) return;
        await partitions();
        if (!closed) forwarder?.start();
      })
      .catch(() => undefined);
    app.addHook('onClose', async () => {
      closed = true;
      clearInterval(timer);
      await forwarder?.stop();
      await checking;
    });
  },
  { name: 'analytics', dependencies: ['db'] },
);
