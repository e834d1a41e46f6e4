/**
 * `npm run bench:images`: what accepting a photo costs the server (issue 4 "Measure"). A BFF is started on
 * an empty data directory; for each case the server's peak resident memory is reset (Linux
 * /proc/<pid>/clear_refs) and read back after the upload (VmHWM), and the time from the first byte sent to
 * the answer is taken over loopback (so it is the server's time, transfer included). Cases:
 * - a 5-megapixel camera JPEG (a mate photo resized to 2592 × 1944);
 * - a ~9.9 MB JPEG just under the 10485760-byte limit (the 5640 × 3172 photo re-encoded at the size that
 *   comes closest);
 * - the real 16 MB JPEG over the limit (the 413 path: answered as soon as the limit is crossed).
 * Each case runs 3 times on fresh properties (so none is a duplicate); figures are printed, never asserted.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { newLead, signIn } from './owner';
import {
  MB,
  PHOTOS,
  SERVER_ENV,
  elephants,
  nearLimitJpeg,
  peakRss,
  resetPeak,
  rss,
  twentyUploads,
  upload,
  warmUpJpeg,
} from './photos';
import { startServer } from './server';

/** Runs of each case. */
const RUNS = 3;
/** Port of the server started per case (BENCH_PORT moves it off 3298, e.g. beside other benches). */
const PORT = Number(process.env.BENCH_PORT ?? 3298);

const fivePx = await sharp(readFileSync(join(PHOTOS, 'nature/Wood.jpg')))
  .resize(2592, 1944)
  .jpeg({ quality: 97, chromaSubsampling: '4:4:4' })
  .toBuffer();
const real = elephants();
const nearLimit = await nearLimitJpeg();
const nearLimitSize = await sharp(nearLimit).metadata();
const cases: [string, Buffer][] = [
  ['5-megapixel JPEG 2592 × 1944', fivePx],
  [`JPEG ${nearLimitSize.width} × ${nearLimitSize.height} just under the limit`, nearLimit],
  ['real 16 MB JPEG 5640 × 3172 (over the limit: 413)', real],
];

// A small photo loads the image code (sharp, file-type) before anything is measured.
const warmUp = await warmUpJpeg();

for (const [name, file] of cases) {
  // A fresh server per case: the first run shows what the upload adds to an idle server, the next ones
  // what it adds once the allocator holds memory freed by the earlier uploads.
  const server = await startServer(PORT, SERVER_ENV);
  try {
    const cookie = await signIn(server.url);
    await upload(server.url, cookie, await newLead(server.url, cookie), warmUp);
    const idle = rss(server.pid);
    const runs: { status: number; ms: number; peak: number }[] = [];
    for (let i = 0; i < RUNS; i++) {
      const id = await newLead(server.url, cookie);
      resetPeak(server.pid);
      const before = rss(server.pid);
      const r = await upload(server.url, cookie, id, file);
      runs.push({ status: r.status, ms: r.ms, peak: peakRss(server.pid) - before });
    }
    const ms = runs.map((r) => r.ms.toFixed(0)).join(', ');
    const peak = runs.map((r) => (r.peak / MB).toFixed(0)).join(', ');
    console.log(
      `${name}, ${(file.length / MB).toFixed(2)} MB (${file.length} B): status ${runs.map((r) => r.status || 'closed').join(', ')}; ` +
        `${ms} ms; peak RSS +${peak} MB above the ${(idle / MB).toFixed(0)} MB of the idle server`,
    );
  } finally {
    await server.stop();
  }
}

// Issue 13 item 7 (also a row of `npm run bench`).
const twenty = await twentyUploads(PORT, nearLimit, warmUp);
console.log(
  `20 uploads of ${(nearLimit.length / MB).toFixed(2)} MB: p95 ${twenty.p95.toFixed(0)} ms (goal ≤ 400), median ${twenty.median.toFixed(0)} ms; ` +
    `RSS +${(twenty.rssGrowth / MB).toFixed(0)} MB after the last above the ${(twenty.idleRss / MB).toFixed(0)} MB idle (goal ≤ 150)`,
);
