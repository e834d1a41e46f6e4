import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { tracingSettings } from './settings';

const ENDPOINT = 'http://127.0.0.1:4318';

describe('tracingSettings (issue 15 item 4; SPEC §9 off in staging)', () => {
  it('is off without an endpoint: nothing is loaded', () => {
    expect(tracingSettings({ NODE_ENV: 'production' })).toMatchObject({ enabled: false, endpoint: null });
  });

  it('is on with an endpoint, keeping every trace by default', () => {
    expect(tracingSettings({ NODE_ENV: 'production', OTEL_EXPORTER_OTLP_ENDPOINT: `${ENDPOINT}/` })).toEqual({
      enabled: true,
      endpoint: ENDPOINT,
      sampleRatio: 1,
      environment: 'production',
      serviceName: 'property-onboard-bff',
    });
  });

  it('is off in staging, and when the SDK is disabled, even with an endpoint', () => {
    expect(
      tracingSettings({ DEPLOYMENT_ENVIRONMENT: 'staging', OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT }).enabled,
    ).toBe(false);
    expect(tracingSettings({ NODE_ENV: 'staging', OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT }).enabled).toBe(
      false,
    );
    expect(
      tracingSettings({ OTEL_SDK_DISABLED: 'true', OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT }).enabled,
    ).toBe(false);
  });

  it('reads the sampling ratio and refuses one outside 0–1 or an endpoint that is not http(s)', () => {
    expect(
      tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT, OTEL_TRACES_SAMPLER_ARG: '0.25' }).sampleRatio,
    ).toBe(0.25);
    expect(() => tracingSettings({ OTEL_TRACES_SAMPLER_ARG: '2' })).toThrow(/from 0 to 1/);
    expect(() => tracingSettings({ OTEL_TRACES_SAMPLER_ARG: 'half' })).toThrow(/from 0 to 1/);
    expect(() => tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'collector:4318' })).toThrow(/http\(s\) URL/);
  });

  it('is part of the configuration, so a bad value stops the server at start', () => {
    expect(loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: ENDPOINT }).tracing.enabled).toBe(true);
    expect(() => loadConfig({ OTEL_TRACES_SAMPLER_ARG: '-1' })).toThrow();
  });
});
