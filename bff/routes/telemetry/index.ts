import type { FastifyInstance } from 'fastify';
import type { BrowserTracesBody } from '../../../schemas/generated/types';
import type { TracingSettings } from '../../telemetry/settings';
import { errorResponses, ok, ref } from '../responses';

/** Where the browser posts its spans (global_info `tracing.traces_path`). */
export const BROWSER_TRACES_PATH = '/hms_ms/api/v1/telemetry/traces';
/** The largest batch of spans accepted, in bytes (512 KiB; ours: the browser batches a few dozen spans). */
const TRACES_BODY_LIMIT = 512 * 1024;
/** How long forwarding one batch to the collector may take, in ms (ours: the OTLP exporters' default 10 s, halved). */
const FORWARD_TIMEOUT_MS = 5_000;

/**
 * POST /hms_ms/api/v1/telemetry/traces (public: the sign-in pages are traced too): the browser's spans (issue
 * 15 item 4), an OTLP/HTTP JSON export request, forwarded to the collector's `<endpoint>/v1/traces`. First
 * party, so no collector address in the page's CSP and nothing for a blocker to stop. Answers 202 at once
 * (`forwarded` false when tracing is off: dropped); forwarding runs after the answer, and a collector that
 * fails or is slow ({@link FORWARD_TIMEOUT_MS}) is logged, never the caller's problem. A body outside
 * api/browser-traces.schema.json or over {@link TRACES_BODY_LIMIT} → 400 / 413. The global rate limit
 * applies per client.
 */
export default async function telemetryRoutes(app: FastifyInstance, opts: { tracing: TracingSettings }) {
  const target = opts.tracing.enabled ? `${opts.tracing.endpoint}/v1/traces` : null;
  app.post<{ Body: BrowserTracesBody }>(
    BROWSER_TRACES_PATH,
    {
      bodyLimit: TRACES_BODY_LIMIT,
      config: { public: true },
      schema: {
        operationId: 'postBrowserTraces',
        tags: ['telemetry'],
        summary: "Forward the browser's spans to the tracing collector (OTLP/HTTP JSON)",
        description:
          'Public. Dropped (forwarded: false) when tracing is off: no OTEL_EXPORTER_OTLP_ENDPOINT, staging, or OTEL_SDK_DISABLED.',
        body: ref('api/browser-traces.schema.json'),
        response: { 202: ok(ref('api/browser-traces-result.schema.json'), 'Accepted'), ...errorResponses },
      },
    },
    async (request, reply) => {
      if (target) {
        const body = JSON.stringify(request.body);
        const log = request.log;
        setImmediate(() => {
          fetch(target, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body,
            signal: AbortSignal.timeout(FORWARD_TIMEOUT_MS),
          }).then(
            async (res) => {
              await res.arrayBuffer().catch(() => undefined);
              if (!res.ok) log.warn({ status: res.status }, 'the tracing collector refused browser spans');
            },
            (err: unknown) => log.warn({ err }, 'browser spans could not reach the tracing collector'),
          );
        });
      }
      return reply.code(202).send({ success: true, data: { forwarded: target !== null } });
    },
  );
}
