import { createServer, type Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tracingSettings } from '../../telemetry/settings';
import { buildTestApp } from '../../test-helpers';
import { BROWSER_TRACES_PATH } from '.';

/** An OTLP export request as the browser's exporter sends it (one resource, one span). */
const batch = {
  resourceSpans: [
    {
      resource: { attributes: [{ key: 'service.name', value: { stringValue: 'property-onboard-web' } }] },
      scopeSpans: [
        {
          scope: { name: '@opentelemetry/instrumentation-fetch' },
          spans: [{ traceId: 'a'.repeat(32), spanId: 'b'.repeat(16), name: 'HTTP GET', kind: 3 }],
        },
      ],
    },
  ],
};

describe('POST /hms_ms/api/v1/telemetry/traces, tracing off (the default)', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp();
  });

  it('drops the spans with 202 forwarded false, and global info has no tracing', async () => {
    const res = await app.inject({ method: 'POST', url: BROWSER_TRACES_PATH, payload: batch });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ success: true, data: { forwarded: false } });
    const info = await app.inject({ method: 'GET', url: '/hms_ms/api/v1/global_info' });
    expect(info.json().data).not.toHaveProperty('tracing');
  });
});

describe('POST /hms_ms/api/v1/telemetry/traces, tracing on', () => {
  let app: FastifyInstance;
  let collector: Server;
  const received: { url: string; type: string; body: unknown }[] = [];

  beforeAll(async () => {
    collector = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({
          url: req.url ?? '',
          type: req.headers['content-type'] ?? '',
          body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
        });
        res.writeHead(200).end('{}');
      });
    });
    await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
    const { port } = collector.address() as { port: number };
    const tracing = tracingSettings({
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
      OTEL_TRACES_SAMPLER_ARG: '0.5',
    });
    app = await buildTestApp({ config: { tracing } });
  });
  afterAll(async () => {
    await new Promise((resolve) => collector.close(resolve));
  });

  it("forwards the browser's spans to the collector's /v1/traces as they came", async () => {
    const res = await app.inject({ method: 'POST', url: BROWSER_TRACES_PATH, payload: batch });
    expect(res.statusCode).toBe(202);
    expect(res.json().data).toEqual({ forwarded: true });
    await expect.poll(() => received.length, { timeout: 10_000 }).toBe(1);
    expect(received[0]).toEqual({ url: '/v1/traces', type: 'application/json', body: batch });
  });

  it('tells the browser through global info, with the sampling ratio', async () => {
    const info = await app.inject({ method: 'GET', url: '/hms_ms/api/v1/global_info' });
    expect(info.json().data.tracing).toEqual({ sample_ratio: 0.5, traces_path: BROWSER_TRACES_PATH });
  });

  it('refuses what is not an OTLP export request, and forwards nothing', async () => {
    const before = received.length;
    for (const payload of [
      {},
      { resourceSpans: [] },
      { ...batch, extra: 1 },
      { resourceSpans: [{ spans: [] }] },
    ]) {
      const res = await app.inject({ method: 'POST', url: BROWSER_TRACES_PATH, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toMatchObject({ success: false, error: { code: 'ONB_INVALID_INPUT' } });
    }
    const big = { resourceSpans: [{ scopeSpans: [{ spans: [{ name: 'x'.repeat(600_000) }] }] }] };
    expect((await app.inject({ method: 'POST', url: BROWSER_TRACES_PATH, payload: big })).statusCode).toBe(
      413,
    );
    expect(received.length).toBe(before);
  });
});
