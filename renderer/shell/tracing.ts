import { trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { DocumentLoadInstrumentation } from '@opentelemetry/instrumentation-document-load';
import { FetchInstrumentation } from '@opentelemetry/instrumentation-fetch';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BatchSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  WebTracerProvider,
} from '@opentelemetry/sdk-trace-web';
import { onCLS, onINP, onLCP, type Metric } from 'web-vitals';
import type { GlobalInfo } from '../../schemas/generated/types';

/** A pattern matching `path` anywhere in a URL (its characters taken literally). */
const pathPattern = (path: string) => new RegExp(path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));

/**
 * The analytics beacons' endpoint (./analytics `ANALYTICS_ENDPOINT`), read from the same build-time constant
 * rather than imported: an import would make ./analytics a chunk shared by this one and the app's deferred
 * analytics, fetched through one more file after every first paint (issue 13 item 2).
 */
const ANALYTICS_ENDPOINT: string = import.meta.env.VITE_ANALYTICS_ENDPOINT;

/**
 * Performance tracing in the browser (issue 15 item 4), started when global info carries `tracing` (the
 * server has a collector and is not staging, SPEC §9); its own chunk, loaded after the first screen. Traces
 * the document load, every same-origin `fetch` (which then sends a W3C `traceparent`, so the BFF's spans
 * down to the SQL join the owner's trace) and the Web Vitals LCP, INP and CLS (`web-vitals`; one span each,
 * `web_vital.value` in ms or, for CLS, unitless). Parent-based sampling at `sample_ratio`; spans are batched
 * and posted to `traces_path` (first party: the BFF forwards them), and flushed when the page is hidden.
 */
export function startBrowserTracing(settings: NonNullable<GlobalInfo['tracing']>): WebTracerProvider {
  const provider = new WebTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'property-onboard-web' }),
    sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(settings.sample_ratio) }),
    spanProcessors: [
      new BatchSpanProcessor(new OTLPTraceExporter({ url: settings.traces_path }), {
        scheduledDelayMillis: 2000,
      }),
    ],
  });
  provider.register();
  registerInstrumentations({
    tracerProvider: provider,
    instrumentations: [
      new DocumentLoadInstrumentation(),
      // Never traced: the exports themselves and the analytics beacons (matched within the whole URL).
      new FetchInstrumentation({ ignoreUrls: [settings.traces_path, ANALYTICS_ENDPOINT].map(pathPattern) }),
    ],
  });
  const tracer = trace.getTracer('property-onboard-web');
  const report = (metric: Metric) => {
    tracer
      .startSpan(`web_vital ${metric.name}`, {
        attributes: {
          'web_vital.name': metric.name,
          'web_vital.value': metric.value,
          'web_vital.rating': metric.rating,
          'web_vital.navigation_type': metric.navigationType,
          'url.path': window.location.pathname,
        },
      })
      .end();
  };
  onLCP(report);
  onINP(report);
  onCLS(report);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') void provider.forceFlush();
  });
  return provider;
}
