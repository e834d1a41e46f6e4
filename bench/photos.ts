/**
 * Photo accept for the benches (issue 13 item 7; `npm run bench`, `npm run bench:images`): the test photographs
 * (Debian's mate-backgrounds, `.ci/ensure-test-photos.sh`), uploads as the browser sends them, and the server's
 * memory read from Linux's /proc.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import sharp from 'sharp';
import { median } from './load';
import { newLead, signIn } from './owner';
import { startServer } from './server';

/** Where the test photographs are (`TEST_PHOTOS_DIR`, else Debian's mate-backgrounds). */
export const PHOTOS = process.env.TEST_PHOTOS_DIR ?? '/usr/share/backgrounds/mate';
/** The upload limit of a photo, in bytes (SPEC §5: 10 MB). */
export const LIMIT = 10_485_760;
/** 2^20 bytes. */
export const MB = 1024 * 1024;
/**
 * The environment of a server measured for photos: no rate limit, and no load shedding on event-loop delay (on
 * a machine loaded by other work the delay passes 1 s and every request would answer 503 instead of being
 * measured).
 */
export const SERVER_ENV = { RATE_LIMIT_MAX: '0', PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0' };

/**
 * A JPEG of `source` (quality 100, no chroma subsampling) at the width whose size comes closest under
 * `target` bytes (bisection on the width, height in proportion).
 */
export async function jpegNear(source: Buffer, target: number): Promise<Buffer> {
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
export const peakRss = (pid: number) =>
  Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
/** Current resident memory of `pid`, in bytes (Linux). */
export const rss = (pid: number) =>
  Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
/** Resets the peak (VmHWM) to the current resident memory ("5" into clear_refs, Linux ≥ 4.0). */
export const resetPeak = (pid: number) => {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // Not allowed here: the peak then counts from the server's start.
  }
};

/**
 * Uploads `file` as the browser does; answers the status (0: the connection closed before an answer could be
 * read) and ms from the first byte sent to the answer.
 */
export function upload(base: string, cookie: string, id: string, file: Buffer) {
  const boundary = `----bench${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="category"\r\n\r\nroom\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="client_upload_id"\r\n\r\n${randomUUID()}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="photo.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
  );
  const body = Buffer.concat([head, file, Buffer.from(`\r\n--${boundary}--\r\n`)]);
  return new Promise<{ status: number; ms: number }>((resolve, reject) => {
    const started = performance.now();
    const req = request(`${base}/hms_ms/api/v1/onboard/leads/${id}/images`, {
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

/** Whether the test photographs are on this machine. */
export const havePhotos = () => existsSync(join(PHOTOS, 'abstract/Elephants_5640x3172.jpg'));

/** The real 16 MB camera JPEG (5640 × 3172), over the limit. */
export const elephants = () => readFileSync(join(PHOTOS, 'abstract/Elephants_5640x3172.jpg'));

/** A JPEG just under the upload limit: the 16 MB photo re-encoded 64 KiB under {@link LIMIT}. */
export const nearLimitJpeg = () => jpegNear(elephants(), LIMIT - 64 * 1024);

/** A small photo (1200 px wide) that loads the server's image code (sharp, file-type) before anything is measured. */
export const warmUpJpeg = () =>
  sharp(readFileSync(join(PHOTOS, 'nature/Dune.jpg')))
    .resize(1200)
    .jpeg()
    .toBuffer();

/** What {@link twentyUploads} measured: the uploads' times and the resident memory held after the last one. */
export interface PhotoAcceptFigures {
  /** 95th percentile of the uploads' times (nearest rank; from the first byte sent to the answer), ms. */
  p95: number;
  /** Median of the uploads' times ({@link median}), ms. */
  median: number;
  /** Resident memory of the idle server (after one small upload), bytes. */
  idleRss: number;
  /** Resident memory after the last upload minus `idleRss`, bytes (negative: below the idle level). */
  rssGrowth: number;
}

/**
 * Issue 13 item 7: 20 uploads of `file`, one after another, each to a new property of one owner, on a fresh
 * server started on `port` ({@link SERVER_ENV}) after one upload of `warmUp`: their times and the server's
 * resident memory after the last one above its idle level (what stays held, not the peak). Throws when an
 * upload answers other than 201.
 */
export async function twentyUploads(port: number, file: Buffer, warmUp: Buffer): Promise<PhotoAcceptFigures> {
  const server = await startServer(port, SERVER_ENV);
  try {
    const cookie = await signIn(server.url);
    await upload(server.url, cookie, await newLead(server.url, cookie), warmUp);
    const idleRss = rss(server.pid);
    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      const r = await upload(server.url, cookie, await newLead(server.url, cookie), file);
      if (r.status !== 201) throw new Error(`upload ${i + 1} answered ${r.status}`);
      times.push(r.ms);
    }
    const sorted = [...times].sort((a, b) => a - b);
    return {
      p95: sorted[Math.ceil(0.95 * sorted.length) - 1] ?? NaN,
      median: median(times),
      idleRss,
      rssGrowth: rss(server.pid) - idleRss,
    };
  } finally {
    await server.stop();
  }
}
