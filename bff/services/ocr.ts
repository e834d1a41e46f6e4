/**
 * Text recognition of photographed identity documents (SPEC §2 KYC, issue 5): tesseract.js 7 (Tesseract's
 * LSTM engine compiled to WebAssembly, run in Node worker threads) with the English model of the npm
 * package @tesseract.js-data/eng, read from node_modules: nothing is downloaded at run time, so it works
 * without a network. Images are prepared with sharp first (see {@link prepareForRecognition}).
 */
import { createRequire } from 'node:module';
import type { OutputInfo } from 'sharp';
import type Tesseract from 'tesseract.js';
import { MAX_INPUT_PIXELS } from './images';
import { onFirstUse } from '../on-first-use';
import { loadSharp } from './image-codecs';

/** The text read from one image. */
export interface RecognisedText {
  text: string;
  /** Tesseract's mean word confidence, 0–100. */
  confidence: number;
  /** Time from the job's start (after waiting in the queue) to its answer, in ms. */
  durationMs: number;
}

export interface TextRecogniser {
  /** Text of a JPEG/PNG image; jobs queue (one at a time per worker). Rejects on an undecodable image. */
  recognise(image: Buffer): Promise<RecognisedText>;
  /** Ends the workers (idempotent); later recognise() calls start them again. */
  close(): Promise<void>;
}

/** Where the English model is: `langPath` (a folder of node_modules) and whether it is gzipped. */
interface LanguageData {
  langPath: string;
  gzip: boolean;
}

const require = createRequire(import.meta.url);
const english = require('@tesseract.js-data/eng') as LanguageData;

/**
 * Length of the longer side the image is scaled to before recognition, in px. Measured on 96 card photos
 * (rendered cards 900–2100 px wide composited on 2592 × 1944 camera photos, tilted up to 10°, dim, blurred,
 * JPEG quality 40–85): all 96 identified as their type with their number, against 46 of 48 for the photos
 * as they are (and twice to three times the time); text of a card photographed whole is then 20–60 px
 * high, where Tesseract reads best.
 */
export const RECOGNITION_LONG_SIDE_PX = 1800;

/**
 * Mean confidence (0–100) under which the upright reading is taken for a photo turned sideways or upside
 * down, and the image is read again turned by 90°, 270° and 180° until a reading reaches it (the best
 * reading wins). Measured on rendered cards and on card photos (composited on camera photos, dim, blurred,
 * tilted up to 10°, JPEG quality 40–85): read the right way up 83–95 for 9 in 10 photos (the worst of 96:
 * 63); turned by 90°, 180° or 270°, 28–60.
 */
export const ORIENTATION_RETRY_CONFIDENCE = 75;

/** Error of {@link TextRecogniser.recognise} when the image cannot be decoded (not a JPEG/PNG, truncated …). */
export class UndecodableImageError extends Error {
  constructor(cause: unknown) {
    super('the image could not be decoded', { cause });
    this.name = 'UndecodableImageError';
  }
}

/** Largest tilt {@link estimateSkewDegrees} looks for, in degrees either way. */
export const MAX_SKEW_DEGREES = 15;
/** Step of the tilts tried, in degrees. */
const SKEW_STEP_DEGREES = 0.5;
/** Longer side of the image the tilt is estimated on, in px. */
const SKEW_ANALYSIS_SIDE_PX = 700;
/** Difference of grey (0–255) between neighbouring pixels that counts as an edge. */
const EDGE_THRESHOLD = 40;

/**
 * The tilt of the lines of text in a greyscale image (`pixels`: one byte a pixel, `width` × `height`), in
 * degrees clockwise, between ±{@link MAX_SKEW_DEGREES} in steps of 0.5°. Method: projection profiles of an
 * edge map. For each tilt the edge pixels are projected along that direction onto rows; lines of text
 * seen at their own tilt make a profile of sharp steps. The score is the sum of squared differences of
 * neighbouring rows, which noise raises by about the same amount at every tilt. Measured on 24 card
 * photos tilted by up to 10° on camera photos: off by at most 0.2°, in ~50 ms.
 * @throws RangeError when `pixels` does not hold `width` × `height` bytes.
 */
export function estimateSkewDegrees(pixels: Uint8Array, width: number, height: number): number {
  if (pixels.length !== width * height) throw new RangeError('estimateSkewDegrees expects one byte a pixel');
  const xs: number[] = [];
  const ys: number[] = [];
  for (let y = 1; y < height; y++) {
    for (let x = 1; x < width; x++) {
      const i = y * width + x;
      const v = pixels[i]!;
      if (Math.abs(v - pixels[i - width]!) + Math.abs(v - pixels[i - 1]!) > EDGE_THRESHOLD) {
        xs.push(x);
        ys.push(y);
      }
    }
  }
  const pad = Math.ceil(width * Math.tan((MAX_SKEW_DEGREES * Math.PI) / 180)) + 1;
  const bins = new Float64Array(height + 2 * pad);
  let best = 0;
  let bestScore = -1;
  for (
    let step = -MAX_SKEW_DEGREES / SKEW_STEP_DEGREES;
    step <= MAX_SKEW_DEGREES / SKEW_STEP_DEGREES;
    step++
  ) {
    const degrees = step * SKEW_STEP_DEGREES;
    const t = Math.tan((degrees * Math.PI) / 180);
    bins.fill(0);
    for (let i = 0; i < xs.length; i++) bins[Math.round(ys[i]! - xs[i]! * t) + pad]! += 1;
    let score = 0;
    for (let b = 1; b < bins.length; b++) score += (bins[b]! - bins[b - 1]!) ** 2;
    // Ties (e.g. no edges at all) keep the tilt nearest to 0.
    if (score > bestScore || (score === bestScore && Math.abs(degrees) < Math.abs(best))) {
      bestScore = score;
      best = degrees;
    }
  }
  return best;
}

/**
 * The image Tesseract is given: EXIF orientation applied, grey, contrast stretched (normalise), the longer
 * side scaled to {@link RECOGNITION_LONG_SIDE_PX}, turned by `rotate` degrees clockwise, then straightened
 * by the tilt {@link estimateSkewDegrees} finds (when 0.5° or more; the corners filled white, so the image
 * grows a little); a lossless PNG. Images of more than 50 megapixels (`MAX_INPUT_PIXELS`) are refused.
 * @throws UndecodableImageError when sharp cannot decode `image`.
 */
export async function prepareForRecognition(image: Buffer, rotate: 0 | 90 | 180 | 270 = 0): Promise<Buffer> {
  const sharp = await loadSharp();
  let grey: { data: Buffer; info: OutputInfo };
  try {
    grey = await sharp(image, { limitInputPixels: MAX_INPUT_PIXELS })
      .rotate()
      .greyscale()
      .normalise()
      .resize({
        width: RECOGNITION_LONG_SIDE_PX,
        height: RECOGNITION_LONG_SIDE_PX,
        fit: 'inside',
        kernel: 'lanczos3',
      })
      .rotate(rotate)
      .toColourspace('b-w')
      .raw()
      .toBuffer({ resolveWithObject: true });
  } catch (err) {
    throw new UndecodableImageError(err);
  }
  const raw = { raw: { width: grey.info.width, height: grey.info.height, channels: 1 as const } };
  // sharp turns a one-channel image into sRGB on the way unless told again to keep it one channel.
  const small = await sharp(grey.data, raw)
    .resize({ width: SKEW_ANALYSIS_SIDE_PX, height: SKEW_ANALYSIS_SIDE_PX, fit: 'inside' })
    .toColourspace('b-w')
    .raw()
    .toBuffer({ resolveWithObject: true });
  const skew = estimateSkewDegrees(small.data, small.info.width, small.info.height);
  const out = sharp(grey.data, raw);
  if (Math.abs(skew) >= SKEW_STEP_DEGREES) out.rotate(-skew, { background: '#ffffff' });
  return out.toColourspace('b-w').png({ compressionLevel: 1 }).toBuffer();
}

/** A job waiting for a worker. */
interface Job {
  image: Buffer;
  resolve: (text: RecognisedText) => void;
  reject: (err: unknown) => void;
}

/** One worker thread: started on its first job, replaced after a failure. */
interface Slot {
  worker: Promise<Tesseract.Worker> | null;
  busy: boolean;
}

/**
 * Tesseract parameters of every recognition:
 * - page segmentation 'sparse text' (11): cards are scattered labels and values, not paragraphs; the
 *   automatic layout (3) classified a whole card photographed on a textured background as a picture and
 *   returned no text for 3 of 36 test photos, sparse text for none; 'single block' (6) drops the large
 *   printed numbers;
 * - 300 dpi: the images carry no trustworthy resolution (a PNG of sharp says 72 dpi, which made
 *   Tesseract return nothing for dark photos); 300 is about what a card filling the prepared image has;
 * - Tesseract's diagnostics ('Estimating resolution as …', 'Detected N diacritics') to /dev/null.
 */
function recognitionParameters(tesseract: typeof Tesseract): Partial<Tesseract.WorkerParams> {
  return {
    tessedit_pageseg_mode: tesseract.PSM.SPARSE_TEXT,
    user_defined_dpi: '300',
    debug_file: '/dev/null',
  };
}

/** tesseract.js, loaded with the first recognition (issue 13 item 5: not at every start). */
const loadTesseract = onFirstUse(async () => (await import('tesseract.js')).default);

/** Starts a Tesseract worker on the English model (LSTM engine), with no cache and no download. */
async function startWorker(): Promise<Tesseract.Worker> {
  const tesseract = await loadTesseract();
  const worker = await tesseract.createWorker('eng', tesseract.OEM.LSTM_ONLY, {
    langPath: english.langPath,
    gzip: english.gzip,
    cacheMethod: 'none',
  });
  try {
    await worker.setParameters(recognitionParameters(tesseract));
  } catch (err) {
    await worker.terminate();
    throw err;
  }
  return worker;
}

/**
 * Reads `prepared` (a PNG of {@link prepareForRecognition}) on `worker`. Tesseract's own straightening
 * (`rotateAuto`) is not used: after {@link estimateSkewDegrees} it lost 1 of the 96 test photos and took
 * half as long again.
 */
async function read(
  worker: Tesseract.Worker,
  prepared: Buffer,
  timeoutMs: number,
): Promise<{ text: string; confidence: number }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('text recognition timed out')), timeoutMs);
  });
  try {
    const { data } = await Promise.race([worker.recognize(prepared), timeout]);
    return { text: data.text, confidence: data.confidence };
  } finally {
    clearTimeout(timer);
  }
}

/** Longest one reading may take before its worker is taken for hung, in ms. */
export const DEFAULT_RECOGNITION_TIMEOUT_MS = 60_000;

/**
 * A text recogniser with `workers` (default 1, at least 1) Tesseract worker threads, each started on its
 * first job (~1–2 s; a worker and its reading take ~200–260 MB at peak, see `npm run bench:ocr`). Jobs wait
 * in one queue and go to the first free worker. An image read upright with a confidence under
 * {@link ORIENTATION_RETRY_CONFIDENCE} (and some letter or digit) is read again turned by 90°, 270° and
 * 180°; the reading with the highest confidence is answered (so a sideways photo, or a photo without
 * text, costs up to four readings). Preparing an image ({@link prepareForRecognition}) runs on the calling
 * thread: sharp in its thread pool, then ~10–50 ms of JavaScript for the tilt.
 *
 * A reading that takes longer than `timeoutMs` (default {@link DEFAULT_RECOGNITION_TIMEOUT_MS}) rejects its
 * job (Error 'text recognition timed out'); a worker that failed or timed out is ended and replaced on the
 * next job. `close()` refuses the jobs still queued (Error 'text recogniser closed'), lets the running ones
 * finish and ends the workers.
 */
export function createTextRecogniser(options: { workers?: number; timeoutMs?: number } = {}): TextRecogniser {
  const count = Math.max(1, Math.floor(options.workers ?? 1));
  const timeoutMs = options.timeoutMs ?? DEFAULT_RECOGNITION_TIMEOUT_MS;
  const slots: Slot[] = Array.from({ length: count }, () => ({ worker: null, busy: false }));
  const queue: Job[] = [];
  const running = new Set<Promise<void>>();

  async function run(slot: Slot, job: Job): Promise<void> {
    const started = performance.now();
    try {
      const prepared = await prepareForRecognition(job.image);
      slot.worker ??= startWorker();
      const worker = await slot.worker;
      let best = await read(worker, prepared, timeoutMs);
      // Nothing at all read upright (a blank or smooth image): turning it will not find text either.
      if (best.confidence < ORIENTATION_RETRY_CONFIDENCE && /[\p{L}\p{N}]/u.test(best.text)) {
        for (const angle of [90, 270, 180] as const) {
          const turned = await read(worker, await prepareForRecognition(job.image, angle), timeoutMs);
          if (turned.confidence > best.confidence) best = turned;
          if (best.confidence >= ORIENTATION_RETRY_CONFIDENCE) break;
        }
      }
      job.resolve({ ...best, durationMs: performance.now() - started });
    } catch (err) {
      if (!(err instanceof UndecodableImageError)) {
        // A worker that failed (start failure, WebAssembly abort, timeout) is replaced on the next job.
        const failed = slot.worker;
        slot.worker = null;
        void failed?.then((w) => w.terminate()).catch(() => undefined);
      }
      job.reject(err);
    }
  }

  function dispatch(): void {
    for (const slot of slots) {
      if (slot.busy) continue;
      const job = queue.shift();
      if (!job) return;
      slot.busy = true;
      const done = run(slot, job).finally(() => {
        slot.busy = false;
        running.delete(done);
        dispatch();
      });
      running.add(done);
    }
  }

  return {
    recognise(image) {
      return new Promise<RecognisedText>((resolve, reject) => {
        queue.push({ image, resolve, reject });
        dispatch();
      });
    },
    async close() {
      for (const job of queue.splice(0)) job.reject(new Error('text recogniser closed'));
      await Promise.allSettled([...running]);
      // A slot that took a job given after close() began keeps its worker.
      const idle = slots.filter((s) => !s.busy);
      const workers = idle.map((s) => s.worker);
      for (const slot of idle) slot.worker = null;
      await Promise.allSettled(workers.map((w) => w?.then((x) => x.terminate())));
    },
  };
}
