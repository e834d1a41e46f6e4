import { expect, test } from '@playwright/test';
import type { BenchServer } from '../bench/server';
import {
  attributeOf,
  SPAN_KIND,
  startOtlpCollector,
  type OtlpCollector,
} from '../bff/test-support/otlp-collector';
import { startOwnServer, uniquePhone } from './helpers';

/**
 * Issue 15 item 4: with a collector configured, one trace goes from the owner's tap in the browser (the
 * fetch of the code request) through the BFF down to its database queries. The BFF needs
 * OTEL_EXPORTER_OTLP_ENDPOINT, so this file starts its own on E2E_PORT + 1200, exporting to a loopback
 * stand-in of an OTLP/HTTP collector started here (E2E_PORT + 1201).
 */
const port = Number(process.env.E2E_PORT ?? 3210) + 1200;
const collectorPort = port + 1;

test.use({ baseURL: `http://127.0.0.1:${port}` });

let server: BenchServer;
let collector: OtlpCollector;
test.beforeAll(async () => {
  // Its own server starts here; on two loaded cores that can take long.
  test.setTimeout(180_000);
  collector = await startOtlpCollector(collectorPort);
  server = await startOwnServer(port, {
    MAP_TILE_URL: 'https://127.0.0.1:9/tiles/{z}/{x}/{y}.png',
    OTEL_EXPORTER_OTLP_ENDPOINT: collector.url,
  });
});
test.afterAll(async () => {
  await server?.stop();
  await collector?.close();
});

test("one trace goes from the browser's call to the server's database queries", async ({ page }) => {
  test.setTimeout(90_000);
  const phone = uniquePhone();
  await page.goto('/propertyOnboard/sign_up');
  await page.getByLabel('Mobile number').fill(phone.national);
  await page.getByRole('button', { name: 'Get OTP' }).click();
  await expect(page.getByLabel('One-time code')).toBeVisible();
  // The browser's batch leaves when the page is hidden (or every 2 s); hiding it sends it now.
  await page.evaluate(() => {
    Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
    document.dispatchEvent(new Event('visibilitychange'));
  });

  const browserCall = () =>
    collector.spans.find(
      (r) =>
        r.service === 'property-onboard-web' &&
        (attributeOf(r.span, 'http.url') ?? attributeOf(r.span, 'url.full') ?? '').includes('/request_otp'),
    );
  await expect.poll(() => browserCall() !== undefined, { timeout: 30_000 }).toBe(true);
  const fetchSpan = browserCall()!.span;
  const inTrace = () => collector.spans.filter((r) => r.span.traceId === fetchSpan.traceId);
  await expect
    .poll(() => inTrace().some((r) => attributeOf(r.span, 'db.system.name') === 'postgresql'), {
      timeout: 30_000,
    })
    .toBe(true);
  const serverSpans = inTrace().filter((r) => r.service === 'property-onboard-bff');
  // The BFF's request span is the child of the browser's fetch span.
  expect(
    serverSpans.some((r) => r.span.kind === SPAN_KIND.server && r.span.parentSpanId === fetchSpan.spanId),
  ).toBe(true);
  // And the document load was traced too.
  expect(
    collector.spans.some((r) => r.service === 'property-onboard-web' && r.span.name === 'documentLoad'),
  ).toBe(true);
});
