import underPressure from '@fastify/under-pressure';
import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config';
import { onboardError } from '../../errors';

/** Paths never shed: liveness answers whatever the load; readiness says 503 itself when under pressure. */
const NOT_SHED = new Set(['/healthz', '/readyz']);

/**
 * Load shedding (issue 14 item 4) with @fastify/under-pressure: every `sampleIntervalMs` the mean event-loop
 * delay, the V8 heap used and the resident set size are measured; while one is past its limit
 * (`Config.pressure`, a limit of 0 is off) every request but /healthz and /readyz is answered at once 503
 * ONB_UNDER_PRESSURE in the API's error shape (bff/errors.ts, the generic error text of SPEC §8) with
 * `Retry-After: retryAfterS`. Nothing is shed while starting: until two samples after the database is ready
 * (its delay would read as pressure). Decorates `app.isUnderPressure()` and `app.memoryUsage()`.
 */
export default fp<{ pressure: Config['pressure'] }>(
  async (app, { pressure }) => {
    // Start-up (screen definitions checked, PGlite opened: seconds of CPU with few event-loop samples)
    // reads as a long delay: nothing is shed until two samples after the database is ready.
    let sheddingFrom = Number.POSITIVE_INFINITY;
    app.addHook('onReady', async () => {
      const settle = () => {
        sheddingFrom = Date.now() + 2 * pressure.sampleIntervalMs;
      };
      app.dbReadiness.whenReady.then(settle, settle);
    });
    await app.register(underPressure, {
      maxEventLoopDelay: pressure.maxEventLoopDelayMs,
      maxHeapUsedBytes: pressure.maxHeapUsedBytes,
      maxRssBytes: pressure.maxRssBytes,
      sampleInterval: pressure.sampleIntervalMs,
      pressureHandler: async (request: FastifyRequest, _reply, type, value) => {
        if (NOT_SHED.has(request.url.split('?', 1)[0] ?? '') || Date.now() < sheddingFrom) return;
        request.log.debug({ type, value }, 'under pressure: request shed');
        throw onboardError('ONB_UNDER_PRESSURE', { retryAfterS: pressure.retryAfterS });
      },
    });
  },
  { name: 'under-pressure', dependencies: ['errors'] },
);
