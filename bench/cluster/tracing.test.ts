import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  attributeOf,
  SPAN_KIND,
  startOtlpCollector,
  type OtlpCollector,
} from '../../bff/test-support/otlp-collector';
import { freePort, SERVER, waitFor200 } from './topology';

/**
 * Tracing of the built server (issue 15 item 4), as `npm run serve` starts it (`--import
 * ./dist/server/instrument.js`), exporting to a loopback stand-in of an OTLP/HTTP collector: a call that
 * carries the browser's `traceparent` gives one trace in which the server's span is the browser span's child
 * and the database's spans (PGlite, the embedded default) belong to it.
 */
describe('tracing of the built server', () => {
  let collector: OtlpCollector;
  let child: ChildProcess;
  let url: string;
  const dataDir = mkdtempSync(join(tmpdir(), 'tracing-'));
  const spans = () => collector.spans.map((r) => r.span);

  beforeAll(async () => {
    collector = await startOtlpCollector();
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, ['--import', join(SERVER, '..', 'instrument.js'), SERVER], {
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        NODE_ENV: 'test',
        LOG_LEVEL: 'warn',
        DATA_DIR: dataDir,
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    await waitFor200(`${url}/readyz`, 90_000, () => child.exitCode === null);
  });

  afterAll(async () => {
    if (child?.exitCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    await collector?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("continues the browser's trace down to the database's queries", async () => {
    const traceId = randomBytes(16).toString('hex');
    const browserSpanId = randomBytes(8).toString('hex');
    const res = await fetch(`${url}/hms_ms/api/v2/request_otp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', traceparent: `00-${traceId}-${browserSpanId}-01` },
      body: JSON.stringify({ phone: '+919812345670', purpose: 'sign_up' }),
    });
    expect(res.status).toBe(200);
    // The spans arrive in batches (every second): wait for the database's.
    await expect
      .poll(() => spans().filter((s) => s.traceId === traceId && s.kind === SPAN_KIND.client).length, {
        timeout: 30_000,
      })
      .toBeGreaterThan(0);
    const trace = spans().filter((s) => s.traceId === traceId);
    const server = trace.find((s) => s.kind === SPAN_KIND.server && s.parentSpanId === browserSpanId);
    expect(server, JSON.stringify(trace.map((s) => s.name))).toBeDefined();
    const queries = trace.filter((s) => attributeOf(s, 'db.system.name') === 'postgresql');
    expect(queries.length).toBeGreaterThan(0);
    // Parameterised SQL only: the phone number never leaves the server.
    for (const q of queries) expect(attributeOf(q, 'db.query.text')).not.toContain('9812345670');
    // Every span of the trace descends from the browser's span.
    const ids = new Set([browserSpanId, ...trace.map((s) => s.spanId)]);
    for (const s of trace) expect(ids.has(s.parentSpanId ?? '')).toBe(true);
    expect(collector.requests[0]).toMatch(/^POST \/v1\/traces application\/json/);
  });

  it('does not trace health checks', async () => {
    const traceId = randomBytes(16).toString('hex');
    await fetch(`${url}/readyz`, {
      headers: { traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` },
    });
    // A traced request after it: once its spans are in, the health check's would be too.
    const after = randomBytes(16).toString('hex');
    await fetch(`${url}/hms_ms/api/v1/global_info`, {
      headers: { traceparent: `00-${after}-${randomBytes(8).toString('hex')}-01` },
    });
    await expect.poll(() => spans().some((s) => s.traceId === after), { timeout: 30_000 }).toBe(true);
    expect(spans().some((s) => s.traceId === traceId)).toBe(false);
  });
});
