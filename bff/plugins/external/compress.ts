import { constants } from 'node:zlib';
import compress from '@fastify/compress';
import fp from 'fastify-plugin';

/** Answers smaller than this many bytes are sent as they are (compressing them costs more than it saves). */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/** log2 of brotli's window for answers compressed on the fly (ours, issue 13 item 6: see the plugin). */
export const BROTLI_WINDOW_BITS = 18;

/**
 * Whether an answer of this `Content-Type` is compressed on the fly: JSON (`application/json`,
 * `…+json`), XML and text, but never a server-sent event stream (`text/event-stream`: each event must
 * reach the browser as it is written) and never images, PDFs or other binary types (already compressed,
 * or not worth it). Types not matched here fall back to mime-db's `compressible` flag in @fastify/compress.
 */
export function isCompressibleType(contentType: string): boolean {
  const type = (contentType.split(';', 1)[0] ?? '').trim().toLowerCase();
  if (type === 'text/event-stream') return false;
  return (
    type.startsWith('text/') ||
    type === 'application/json' ||
    type.endsWith('+json') ||
    type === 'application/xml' ||
    type.endsWith('+xml') ||
    type === 'application/javascript'
  );
}

/**
 * Compression of dynamic answers (issue 13 item 1) with @fastify/compress: brotli when the request's
 * `Accept-Encoding` allows it, else gzip, for answers of at least {@link COMPRESS_THRESHOLD_BYTES} of a
 * {@link isCompressibleType} type, with `Vary: Accept-Encoding`. Brotli at quality 4 with a 256 KB window (fast enough per
 * request; the built client is precompressed at quality 11 by the build, and @fastify/static sends those
 * files as they are: an answer that already has a `Content-Encoding` is not touched). Request bodies are
 * not decompressed. The support chat's event stream writes to the socket itself (hijacked), so it is never
 * compressed either.
 */
export default fp(
  async (app) => {
    await app.register(compress, {
      global: true,
      encodings: ['br', 'gzip'],
      threshold: COMPRESS_THRESHOLD_BYTES,
      customTypes: isCompressibleType,
      // A 256 KB window (LGWIN 18) rather than brotli's default 4 MB (22): the encoder allocates and fills
      // its window on every answer: a 4 KB checklist took ≈216 µs of CPU to compress with 22, ≈78 µs with 18
      // (issue 13 item 6); API answers are far smaller than the window, so they compress the same.
      brotliOptions: {
        params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_LGWIN]: BROTLI_WINDOW_BITS },
      },
      globalDecompression: false,
    });
  },
  { name: 'compress' },
);
