/**
 * `npm run bench`: prints the figures the team tracks (after `npm run build`):
 * - cold start: ms from starting the BFF on an empty data directory until /readyz answers (PGlite
 *   created and migrated), over 3 runs;
 * - client JS of the sign-in route: bytes raw and gzip (level 9) of every script the browser loads for
 *   /propertyOnboard/sign_up on a mobile profile in Debian's Chromium;
 * - load: requests per second of GET /hms_ms/api/v1/global_info (autocannon, 10 connections, 5 s).
 * Figures are printed, never asserted.
 */
import { gzipSync } from 'node:zlib';
import { chromium, devices } from '@playwright/test';
import autocannon from 'autocannon';
import { startServer } from './server';

const port = 3299;

const cold: number[] = [];
for (let i = 0; i < 3; i++) {
  const server = await startServer(port);
  cold.push(server.readyAfterMs);
  await server.stop();
}
console.log(`cold start to /readyz (empty data dir): ${cold.map((ms) => ms.toFixed(0)).join(', ')} ms`);

const server = await startServer(port, { RATE_LIMIT_MAX: '0' });
try {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
  const context = await browser.newContext({ ...devices['Pixel 7'] });
  const page = await context.newPage();
  const scripts: { url: string; raw: number; gzip: number }[] = [];
  page.on('response', async (res) => {
    if (res.request().resourceType() !== 'script') return;
    const body = await res.body();
    scripts.push({
      url: new URL(res.url()).pathname,
      raw: body.length,
      gzip: gzipSync(body, { level: 9 }).length,
    });
  });
  await page.goto(`${server.url}/propertyOnboard/sign_up`, { waitUntil: 'networkidle' });
  await page.getByLabel('Mobile number').waitFor();
  await browser.close();
  const raw = scripts.reduce((s, x) => s + x.raw, 0);
  const gz = scripts.reduce((s, x) => s + x.gzip, 0);
  for (const s of scripts) console.log(`  ${s.url}: ${s.raw} B raw, ${s.gzip} B gzip`);
  console.log(`client JS of the sign-in route: ${scripts.length} files, ${raw} B raw, ${gz} B gzip`);

  const result = await autocannon({
    url: `${server.url}/hms_ms/api/v1/global_info`,
    connections: 10,
    duration: 5,
  });
  console.log(
    `GET global_info: ${result.requests.average.toFixed(0)} req/s, latency p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, ${result.non2xx} non-2xx`,
  );
} finally {
  await server.stop();
}
