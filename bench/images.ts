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
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import sharp from 'sharp';
import { startServer, type BenchServer } from './server';

const PHOTOS = process.env.TEST_PHOTOS_DIR ?? '/usr/share/backgrounds/mate';
const LIMIT = 10_485_760;
const RUNS = 3;
const MB = 1024 * 1024;
/** Port of the server started per case (BENCH_PORT moves it off 3298, e.g. beside other benches). */
const PORT = Number(process.env.BENCH_PORT ?? 3298);
/**
 * The server's environment: no rate limit, and no load shedding on event-loop delay (on a machine loaded by
 * other work the delay passes 1 s and every request would answer 503 instead of being measured).
 */
const SERVER_ENV = { RATE_LIMIT_MAX: '0', PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0' };

/**
 * A JPEG of `source` (quality 100, no chroma subsampling) at the width whose size comes closest under
 * `target` bytes (bisection on the width, height in proportion).
 */
async function jpegNear(source: Buffer, target: number): Promise<Buffer> {
  const encode = (width: number) =>
    sharp(source).resize({ width }).jpeg({ quality: 100, chromaSubsampling: '4:4:4' }).toBuffer();
  let lo = 1000;
  let hi = 7000;
  let best = await encode(lo);
  while (hi - lo > 8) {
    const width = Math.floor((lo + hi) / 2);
    const out = await encode(width);
    if (out.length <= target) {
      best = out;
      lo = width;
    } else hi = width;
  }
  return best;
}

/** Peak resident memory of `pid` since the last reset, in bytes (Linux). */
const peakRss = (pid: number) =>
  Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
/** Current resident memory of `pid`, in bytes (Linux). */
const rss = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
/** Resets the peak (VmHWM) to the current resident memory ("5" into clear_refs, Linux ≥ 4.0). */
const resetPeak = (pid: number) => {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // Not allowed here: the peak then counts from the server's start.
  }
};

async function json<T>(res: Response): Promise<T> {
  const body = (await res.json()) as T;
  if (!res.ok) throw new Error(`${res.status} ${JSON.stringify(body)}`);
  return body;
}

/** Signs a new owner in through the development outbox; answers the cookie header. */
async function signIn(server: BenchServer, phone: string): Promise<string> {
  await json(
    await fetch(`${server.url}/hms_ms/api/v2/request_otp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ phone, purpose: 'sign_up' }),
    }),
  );
  const outbox = await json<{ to: string; code: string }[]>(await fetch(`${server.url}/__dev/outbox`));
  const res = await fetch(`${server.url}/hms_ms/api/v2/verify_otp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ phone, purpose: 'sign_up', otp: outbox.find((m) => m.to === phone)?.code }),
  });
  await json(res);
  return res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
}

async function newLead(server: BenchServer, cookie: string): Promise<string> {
  const body = await json<{ data: { lead: { property_unique_id: string } } }>(
    await fetch(`${server.url}/hms_ms/api/v1/onboard/leads`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie },
      body: JSON.stringify({
        title: 'Bench Inn',
        property_type: 'hotel',
        property_sub_type: 'boutique_hotel',
      }),
    }),
  );
  return body.data.lead.property_unique_id;
}

/**
 * Uploads `file` as the browser does; answers the status (0: the connection closed before an answer could be
 * read) and ms from the first byte sent to the answer.
 */
function upload(server: BenchServer, cookie: string, id: string, file: Buffer) {
  const boundary = `----bench${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="category"\r\n\r\nroom\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="client_upload_id"\r\n\r\n${randomUUID()}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="photo.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
  );
  const body = Buffer.concat([head, file, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  return new Promise<{ status: number; ms: number }>((resolve, reject) => {
    const started = performance.now();
    const req = request(`${server.url}/hms_ms/api/v1/onboard/leads/${id}/images`, {
      method: 'POST',
      headers: {
        cookie,
        'content-type': `multipart/form-data; boundary=${boundary}`,
        'content-length': String(body.length),
      },
    });
    req.on('response', (res) => {
      const ms = performance.now() - started;
      res.resume();
      res.on('end', () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, ms });
      });
    });
    req.on('error', (err: NodeJS.ErrnoException) => {
      if (req.destroyed) return;
      // The server answered the 413 and closed while the rest was still being written: on a busy machine
      // the write fails (EPIPE, ECONNRESET) before the answer is read. Status 0: closed before an answer.
      if (err.code === 'EPIPE' || err.code === 'ECONNRESET')
        resolve({ status: 0, ms: performance.now() - started });
      else reject(err);
    });
    // 256 kB at a time, stopping once the server has answered (the 413 comes before the end).
    const step = 256 * 1024;
    const pump = (at: number) => {
      while (at < body.length && !req.destroyed) {
        const chunk = body.subarray(at, at + step);
        at += chunk.length;
        if (!req.write(chunk)) return void req.once('drain', () => pump(at));
      }
      if (!req.destroyed) req.end();
    };
    pump(0);
  });
}

const fivePx = await sharp(readFileSync(join(PHOTOS, 'nature/Wood.jpg')))
  .resize(2592, 1944)
  .jpeg({ quality: 97, chromaSubsampling: '4:4:4' })
  .toBuffer();
const elephants = readFileSync(join(PHOTOS, 'abstract/Elephants_5640x3172.jpg'));
const nearLimit = await jpegNear(elephants, LIMIT - 64 * 1024);
const nearLimitSize = await sharp(nearLimit).metadata();
const cases: [string, Buffer][] = [
  ['5-megapixel JPEG 2592 × 1944', fivePx],
  [`JPEG ${nearLimitSize.width} × ${nearLimitSize.height} just under the limit`, nearLimit],
  ['real 16 MB JPEG 5640 × 3172 (over the limit: 413)', elephants],
];

// A small photo loads the image code (sharp, file-type) before anything is measured.
const warmUp = await sharp(readFileSync(join(PHOTOS, 'nature/Dune.jpg')))
  .resize(1200)
  .jpeg()
  .toBuffer();

for (const [name, file] of cases) {
  // A fresh server per case: the first run shows what the upload adds to an idle server, the next ones
  // what it adds once the allocator holds memory freed by the earlier uploads.
  const server = await startServer(PORT, SERVER_ENV);
  try {
    const cookie = await signIn(server, `+9198${String(Date.now()).slice(-8)}`);
    await upload(server, cookie, await newLead(server, cookie), warmUp);
    const idle = rss(server.pid);
    const runs: { status: number; ms: number; peak: number }[] = [];
    for (let i = 0; i < RUNS; i++) {
      const id = await newLead(server, cookie);
      resetPeak(server.pid);
      const before = rss(server.pid);
      const r = await upload(server, cookie, id, file);
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

/**
 * Issue 13 item 7: 20 uploads of the JPEG just under the limit, one after another, on a fresh server: the
 * 95th percentile of their times, and the server's resident memory after the last one above its idle level
 * (what stays held, not the peak).
 */
async function twentyUploads(file: Buffer): Promise<void> {
  const server = await startServer(PORT, SERVER_ENV);
  try {
    const cookie = await signIn(server, `+9197${String(Date.now()).slice(-8)}`);
    await upload(server, cookie, await newLead(server, cookie), warmUp);
    const idle = rss(server.pid);
    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      const r = await upload(server, cookie, await newLead(server, cookie), file);
      if (r.status !== 201) throw new Error(`upload ${i + 1} answered ${r.status}`);
      times.push(r.ms);
    }
    const sorted = [...times].sort((a, b) => a - b);
    const p95 = sorted[Math.ceil(0.95 * sorted.length) - 1] ?? NaN;
    console.log(
      `20 uploads of ${(file.length / MB).toFixed(2)} MB: p95 ${p95.toFixed(0)} ms (goal ≤ 400), median ${(sorted[10] ?? NaN).toFixed(0)} ms; ` +
        `RSS +${((rss(server.pid) - idle) / MB).toFixed(0)} MB after the last above the ${(idle / MB).toFixed(0)} MB idle (goal ≤ 150)`,
    );
  } finally {
    await server.stop();
  }
}

await twentyUploads(nearLimit);
