import { FastifyOtelInstrumentation } from '@fastify/otel';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  NodeTracerProvider,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
} from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { TracingSettings } from './settings';

/** Paths never traced: health checks and static client files (they would drown the owners' requests). */
const UNTRACED =
  /^\/(healthz|readyz)(\?|$)|^\/propertyOnboard\/(assets|fonts|samples)\/|^\/propertyOnboard\/[^/?]+\.(svg|png|ico|js)(\?|$)/;

/**
 * Starts the tracer provider (OTLP/HTTP JSON export to `<endpoint>/v1/traces`, batched; parent-based
 * sampling with {@link TracingSettings.sampleRatio} for traces that start here) and the instrumentations:
 * incoming and outgoing HTTP (`traceparent` read from the browser's calls, W3C trace context), Fastify's
 * routes and hooks (`@fastify/otel`, registered on every Fastify instance as it is created), and `pg`
 * (PostgreSQL). PGlite's queries get their spans from `bff/db/traced-dialect.ts`. The server flushes what
 * is left when it closes (`flushTraces`). The exporter's own calls to the collector are not traced (it
 * suppresses tracing around them).
 */
export function startTracing(settings: TracingSettings): NodeTracerProvider {
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({
      [ATTR_SERVICE_NAME]: settings.serviceName,
      'deployment.environment.name': settings.environment,
    }),
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(settings.sampleRatio) }),
    spanProcessors: [
      new BatchSpanProcessor(new OTLPTraceExporter({ url: `${settings.endpoint}/v1/traces` }), {
        scheduledDelayMillis: 1000,
      }),
    ],
  });
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => UNTRACED.test(req.url ?? ''),
      }),
      new FastifyOtelInstrumentation({ registerOnInitialization: true }),
      new PgInstrumentation({ enhancedDatabaseReporting: false }),
    ],
  });
  return provider;
}
