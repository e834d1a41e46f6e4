/**
 * Whether and how performance tracing runs (issue 15 item 4; SPEC §9 'Performance tracing is off in
 * staging'), read from the standard OpenTelemetry variables so any collector's documentation applies:
 *
 * - `OTEL_EXPORTER_OTLP_ENDPOINT`: the collector's base URL (OTLP over HTTP, JSON; spans go to
 *   `<endpoint>/v1/traces`). Unset: tracing is off and costs nothing (no OpenTelemetry module is loaded).
 * - `OTEL_TRACES_SAMPLER_ARG`: the share of traces kept, 0–1 (default 1); a trace started in the browser
 *   keeps the browser's decision (parent-based sampling).
 * - `DEPLOYMENT_ENVIRONMENT`: `production`, `staging`, … (default NODE_ENV); `staging` turns tracing off.
 * - `OTEL_SDK_DISABLED=true`: off, whatever else is set.
 * - `OTEL_SERVICE_NAME`: the service's name in traces (default `property-onboard-bff`).
 *
 * Pure: reads only the given environment (tests pass their own).
 */
export interface TracingSettings {
  enabled: boolean;
  /** The OTLP/HTTP base URL, without `/v1/traces`; null when off. */
  endpoint: string | null;
  /** Share of traces kept, 0–1. */
  sampleRatio: number;
  /** `deployment.environment.name` of the spans. */
  environment: string;
  serviceName: string;
}

/** Reads {@link TracingSettings} from `env`; an endpoint that is not an http(s) URL, or a ratio outside 0–1, throws. */
export function tracingSettings(env: NodeJS.ProcessEnv = process.env): TracingSettings {
  const environment = env.DEPLOYMENT_ENVIRONMENT || env.NODE_ENV || 'development';
  const raw = env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || null;
  if (raw && !/^https?:\/\/[^/]/.test(raw))
    throw new Error(`OTEL_EXPORTER_OTLP_ENDPOINT must be an http(s) URL, got ${raw}`);
  const ratio = env.OTEL_TRACES_SAMPLER_ARG === undefined ? 1 : Number(env.OTEL_TRACES_SAMPLER_ARG);
  if (!Number.isFinite(ratio) || ratio < 0 || ratio > 1)
    throw new Error(
      `OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1, got ${env.OTEL_TRACES_SAMPLER_ARG}`,
    );
  const enabled = raw !== null && environment !== 'staging' && env.OTEL_SDK_DISABLED !== 'true';
  return {
    enabled,
    endpoint: enabled ? raw!.replace(/\/+$/, '') : null,
    sampleRatio: ratio,
    environment,
    serviceName: env.OTEL_SERVICE_NAME || 'property-onboard-bff',
  };
}
