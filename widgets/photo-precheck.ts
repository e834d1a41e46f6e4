/**
 * The browser's pre-checks of a photo before it is uploaded, shared by the widgets that upload photos
 * (image_uploader: property photos, landscape only; document_uploader: an identity document, any orientation).
 */

/**
 * What the browser checks before an upload: `max_bytes` (a file must be smaller), `min_width` and
 * `min_height` in px after the EXIF orientation, and the accepted `mime_types` (ImagesConfig.limits for
 * property photos, DocumentUploaderContents.limits for an identity document).
 */
export interface PhotoLimits {
  max_bytes: number;
  min_width: number;
  min_height: number;
  mime_types: readonly string[];
}

/** Why a photo is refused before upload; each has its own message in the widget's texts (SPEC §5, §8). */
export type PrecheckReason = 'format' | 'size' | 'unreadable' | 'resolution' | 'vertical';

/** Width and height in px, after the EXIF orientation. */
export interface PhotoSize {
  width: number;
  height: number;
}

/** Result of {@link precheckPhoto}: the oriented size when the file could be read. */
export type PrecheckResult =
  ({ ok: true } & PhotoSize) | { ok: false; reason: PrecheckReason; width?: number; height?: number };

/** Reads the size of an image file after applying its EXIF orientation; rejects when it cannot be decoded. */
export type SizeReader = (file: Blob) => Promise<PhotoSize>;

/** Options of {@link precheckPhoto}. */
export interface PrecheckOptions {
  /**
   * `landscape` (default; property photos, SPEC §5): a photo taller than wide is refused as `vertical`;
   * `any`: every orientation passes (an identity document photographed upright).
   */
  orientation?: 'landscape' | 'any';
  /** How the size is read (default {@link readOrientedSize}). */
  readSize?: SizeReader;
}

/** File name endings accepted (SPEC §5: .jpg, .png, .jpeg), compared in lower case. */
export const PHOTO_EXTENSIONS: readonly string[] = ['.jpg', '.jpeg', '.png'];

/**
 * Name of the performance measure of each pre-check (`performance.getEntriesByName('photo-precheck')`):
 * duration in ms, detail `{ name, bytes, result }` (result: 'ok' or the reason).
 */
export const PRECHECK_MEASURE = 'photo-precheck';

/** Decodes with an <img> (browsers apply the EXIF orientation to natural sizes); rejects when it cannot. */
async function sizeFromImg(file: Blob): Promise<PhotoSize> {
  if (typeof Image !== 'function' || typeof URL.createObjectURL !== 'function') {
    throw new Error('no image decoder');
  }
  const url = URL.createObjectURL(file);
  try {
    const img = new Image();
    img.decoding = 'async';
    img.src = url;
    await img.decode();
    if (img.naturalWidth === 0 || img.naturalHeight === 0) throw new Error('empty image');
    return { width: img.naturalWidth, height: img.naturalHeight };
  } finally {
    URL.revokeObjectURL(url);
  }
}

/**
 * The size of an image after its EXIF orientation (a phone photo taken upright is stored landscape with
 * orientation 6): `createImageBitmap(file, { imageOrientation: 'from-image' })`, falling back to an <img>
 * decode where that is missing or refuses the option. Rejects when neither can decode the file.
 */
export async function readOrientedSize(file: Blob): Promise<PhotoSize> {
  if (typeof createImageBitmap === 'function') {
    try {
      const bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
      try {
        if (bitmap.width > 0 && bitmap.height > 0) return { width: bitmap.width, height: bitmap.height };
      } finally {
        bitmap.close();
      }
    } catch {
      // Older engines reject the option; a broken file fails the <img> decode below as well.
    }
  }
  return sizeFromImg(file);
}

function extensionOk(name: string): boolean {
  const lower = name.toLowerCase();
  return PHOTO_EXTENSIONS.some((ext) => lower.endsWith(ext));
}

/** Records one pre-check's duration (ms) for end-to-end measurement; silent where measure is missing. */
function measure(start: number, file: File, result: string): void {
  try {
    performance.measure(PRECHECK_MEASURE, {
      start,
      end: performance.now(),
      detail: { name: file.name, bytes: file.size, result },
    });
  } catch {
    // A browser without User Timing level 3 options: nothing to record.
  }
}

/**
 * Checks a photo in the browser before it is uploaded (SPEC §5, §9; the server decides again), in this order:
 * 1. format: the name ends in .jpg, .jpeg or .png AND `file.type` is one of `limits.mime_types`;
 * 2. size: smaller than `limits.max_bytes` (10485760 bytes); an empty file is `unreadable`;
 * 3. unreadable: the size cannot be read (see {@link readOrientedSize});
 * 4. resolution: at least `min_width` × `min_height` px (1000 × 1000) after the EXIF orientation;
 * 5. vertical: taller than wide after the EXIF orientation (with `orientation: 'landscape'`, the default; a
 *    square is fine).
 * Each check's cost is recorded with `performance.measure('photo-precheck')`. Never rejects.
 */
export async function precheckPhoto(
  file: File,
  limits: PhotoLimits,
  options: PrecheckOptions = {},
): Promise<PrecheckResult> {
  const start = performance.now();
  const result = await runChecks(
    file,
    limits,
    options.readSize ?? readOrientedSize,
    options.orientation ?? 'landscape',
  );
  measure(start, file, result.ok ? 'ok' : result.reason);
  return result;
}

async function runChecks(
  file: File,
  limits: PhotoLimits,
  readSize: SizeReader,
  orientation: 'landscape' | 'any',
): Promise<PrecheckResult> {
  const types = limits.mime_types;
  if (!extensionOk(file.name) || !types.includes(file.type)) return { ok: false, reason: 'format' };
  if (file.size >= limits.max_bytes) return { ok: false, reason: 'size' };
  if (file.size === 0) return { ok: false, reason: 'unreadable' };
  let size: PhotoSize;
  try {
    size = await readSize(file);
  } catch {
    return { ok: false, reason: 'unreadable' };
  }
  const { width, height } = size;
  if (width < limits.min_width || height < limits.min_height) {
    return { ok: false, reason: 'resolution', width, height };
  }
  if (orientation === 'landscape' && height > width) return { ok: false, reason: 'vertical', width, height };
  return { ok: true, width, height };
}
