/**
 * `npm run bench:ocr`: what reading an identity document costs (issue 5, text recognition). Each case runs
 * in a fresh Node process (this file, forked with the case's name) with one text recogniser
 * (bff/services/ocr.ts, one worker thread) and prints:
 * - first: ms of the first recognition, the worker's start (WebAssembly core and English model) included;
 * - later: the median ms of the next 5 recognitions of the same image;
 * - peak RSS: the process's peak resident memory (/proc/self/status VmHWM, reset through clear_refs once
 *   the image is ready) above its idle level (modules loaded, image ready, no worker yet), in MB.
 * Cases: a rendered PAN card 1200 × 760 (bff/test-support/id-cards.ts), the same card rendered 3000 px wide,
 * and that card photographed: composited, tilted 4°, on a 2592 × 1944 camera photo (Debian's
 * mate-backgrounds), darker, blurred and re-encoded at JPEG quality 70.
 * Figures are printed, never asserted.
 */
import { fork } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const PHOTOS = process.env.TEST_PHOTOS_DIR ?? '/usr/share/backgrounds/mate';
const LATER_RUNS = 5;
const MB = 1024 * 1024;

const CASES = {
  card: 'rendered PAN card 1200 × 760',
  wide: 'rendered PAN card 3000 × 1900',
  photo: 'PAN card photographed on a 2592 × 1944 camera photo',
} as const;
type CaseName = keyof typeof CASES;

/** What a child process reports. */
interface Figures {
  bytes: number;
  firstMs: number;
  laterMs: number[];
  idleBytes: number;
  peakBytes: number;
  detected: string | null;
}

/** A memory figure of this process from /proc/self/status, in bytes (Linux). */
const status = (field: 'VmHWM' | 'VmRSS') =>
  Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) *
  1024;

/** The image of a case. */
async function image(name: CaseName): Promise<Buffer> {
  const { renderIdCard } = await import('../bff/test-support/id-cards');
  if (name === 'card') return renderIdCard('pan');
  if (name === 'wide') return renderIdCard('pan', { width: 3000 });
  const card = await sharp(await renderIdCard('pan', { width: 1700 }))
    .rotate(4, { background: { r: 0, g: 0, b: 0, alpha: 0 } })
    .png()
    .toBuffer();
  const table = await sharp(readFileSync(join(PHOTOS, 'nature/Wood.jpg')))
    .resize(2592, 1944)
    .toBuffer();
  return sharp(table)
    .composite([{ input: card, gravity: 'center' }])
    .modulate({ brightness: 0.8 })
    .blur(1.5)
    .jpeg({ quality: 70 })
    .toBuffer();
}

/** The child: measures one case and sends its figures to the parent. */
async function measure(name: CaseName): Promise<Figures> {
  const { createTextRecogniser } = await import('../bff/services/ocr');
  const { readIdDocument } = await import('../bff/services/id-documents');
  const bytes = await image(name);
  global.gc?.();
  const idleBytes = status('VmRSS');
  try {
    writeFileSync('/proc/self/clear_refs', '5');
  } catch {
    // Not allowed here: the peak then counts from the process's start.
  }
  const recogniser = createTextRecogniser();
  try {
    let started = performance.now();
    const first = await recogniser.recognise(bytes);
    const firstMs = performance.now() - started;
    const laterMs: number[] = [];
    for (let i = 0; i < LATER_RUNS; i++) {
      started = performance.now();
      await recogniser.recognise(bytes);
      laterMs.push(performance.now() - started);
    }
    return {
      bytes: bytes.length,
      firstMs,
      laterMs,
      idleBytes,
      peakBytes: status('VmHWM'),
      detected: readIdDocument(first.text).detected,
    };
  } finally {
    await recogniser.close();
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** Runs one case in a fresh process (same loader flags as this one) and answers its figures. */
function runCase(name: CaseName): Promise<Figures> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), ['--case', name], {
      execArgv: [...process.execArgv, '--expose-gc'],
    });
    let figures: Figures | null = null;
    child.on('message', (m) => (figures = m as Figures));
    child.on('error', reject);
    child.on('exit', (code) =>
      figures ? resolve(figures) : reject(new Error(`case ${name} exited with ${code}`)),
    );
  });
}

const caseArg = process.argv.indexOf('--case');
if (caseArg >= 0) {
  const figures = await measure(process.argv[caseArg + 1] as CaseName);
  process.send?.(figures);
} else {
  for (const name of Object.keys(CASES) as CaseName[]) {
    const f = await runCase(name);
    console.log(
      `${CASES[name]} (${(f.bytes / 1024).toFixed(0)} kB JPEG, read as ${f.detected}): ` +
        `first ${f.firstMs.toFixed(0)} ms (worker start included); ` +
        `later median ${median(f.laterMs).toFixed(0)} ms (${f.laterMs.map((ms) => ms.toFixed(0)).join(', ')}); ` +
        `peak RSS +${((f.peakBytes - f.idleBytes) / MB).toFixed(0)} MB above the ${(f.idleBytes / MB).toFixed(0)} MB idle`,
    );
  }
}
