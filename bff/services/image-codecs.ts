import type { Sharp, SharpOptions } from 'sharp';
import { onFirstUse } from '../on-first-use';

/** libvips threads per image (`sharp.concurrency`). */
export const SHARP_THREADS = 1;

/**
 * sharp, loaded on the first photo or document (issue 13 item 5: with its libvips binding ≈0.2 s of every
 * start otherwise), set up once: libvips' operation cache off (every upload is a new image, so caching only
 * holds memory) and {@link SHARP_THREADS} thread per image (issue 13 item 7): each thread of glibc's allocator
 * keeps its own arena of freed memory, so the default of one per core left +150 MB resident after 20 uploads
 * of 10 MB, for no gain in the time of one photo on a 2-core server.
 */
export const loadSharp: () => Promise<(input?: Buffer, options?: SharpOptions) => Sharp> = onFirstUse(
  async () => {
    const sharp = (await import('sharp')).default;
    sharp.cache(false);
    sharp.concurrency(SHARP_THREADS);
    return sharp;
  },
);

/** sharp-phash (the perceptual hash of a picture, 64 characters of 0/1), loaded with the first photo. */
export const loadPhash = onFirstUse(async () => (await import('sharp-phash')).default);

/** file-type's `fileTypeFromBuffer` (a file's type from its first bytes), loaded with the first upload. */
export const loadFileTypeFromBuffer = onFirstUse(async () => (await import('file-type')).fileTypeFromBuffer);
