import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { COMPRESS_THRESHOLD_BYTES } from '../plugins/external/compress';
import { ifNoneMatchHits } from './stored-files';

/**
 * The encoding to send for an `Accept-Encoding` header: `br` when it is accepted, else `gzip`, else none
 * (`identity`). A coding listed with `q=0` is refused; `*` accepts both.
 */
export function preferredEncoding(header: string | undefined): 'br' | 'gzip' | null {
  if (!header) return null;
  const known = encodingOf.get(header);
  if (known !== undefined) return known;
  const chosen = parseEncoding(header);
  // Browsers send one of a few headers: the answers for the last ones seen are kept (a bounded map).
  if (encodingOf.size >= ENCODINGS_KEPT) encodingOf.delete(encodingOf.keys().next().value!);
  encodingOf.set(header, chosen);
  return chosen;
}

/** How many `Accept-Encoding` headers {@link preferredEncoding} keeps the answer for. */
const ENCODINGS_KEPT = 32;
const encodingOf = new Map<string, 'br' | 'gzip' | null>();

function parseEncoding(header: string): 'br' | 'gzip' | null {
  const accepted = new Map<string, number>();
  for (const part of header.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    if (!name) continue;
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    accepted.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  const ok = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (ok('br')) return 'br';
  if (ok('gzip') || (accepted.get('x-gzip') ?? 0) > 0) return 'gzip';
  return null;
}

/**
 * An answer that is the same for everyone who asks the same question (issue 13 item 6: public screens,
 * the pages that embed them, translations, global info), kept in memory: its `body`, a strong `etag` (the
 * first 27 base64url characters of the body's SHA-256, quoted), and its brotli and gzip copies, each made
 * the first time it is asked for.
 */
export interface KeptAnswer {
  readonly body: Buffer;
  readonly etag: string;
  br?: Buffer;
  gzip?: Buffer;
}

/** A {@link KeptAnswer} of `body` (a string is kept as UTF-8). */
export function keptAnswer(body: string | Buffer): KeptAnswer {
  const bytes = typeof body === 'string' ? Buffer.from(body) : body;
  return { body: bytes, etag: `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"` };
}

/** How a {@link KeptAnswer} is sent: `Cache-Control`, `Vary` (naming Accept-Encoding too) and `Content-Type`. */
export interface KeptAnswerHeaders {
  cacheControl: string;
  vary: string;
  type: string;
}

/**
 * Sends `kept` with its `ETag` and `headers`: 304 without a body when the request's If-None-Match names the
 * tag (RFC 9110 §13.1.2, {@link ifNoneMatchHits}); else the body, compressed for the request's
 * `Accept-Encoding` ({@link preferredEncoding}) when it is at least {@link COMPRESS_THRESHOLD_BYTES} long:
 * brotli at quality 11 or gzip at level 9, compressed once and kept (the answer is sent many times). The
 * route leaves @fastify/compress out (`compress: false`) or the plugin passes it on as it is (it has a
 * `Content-Encoding`).
 */
export function sendKept(
  request: FastifyRequest,
  reply: FastifyReply,
  kept: KeptAnswer,
  headers: KeptAnswerHeaders,
): FastifyReply {
  reply.header('cache-control', headers.cacheControl).header('vary', headers.vary).header('etag', kept.etag);
  if (ifNoneMatchHits(request.headers['if-none-match'], kept.etag)) return reply.code(304).send();
  reply.type(headers.type);
  const { body } = kept;
  const encoding =
    body.length >= COMPRESS_THRESHOLD_BYTES ? preferredEncoding(request.headers['accept-encoding']) : null;
  if (encoding === 'br') {
    kept.br ??= brotliCompressSync(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    });
    return reply.header('content-encoding', 'br').send(kept.br);
  }
  if (encoding === 'gzip') {
    kept.gzip ??= gzipSync(body, { level: 9 });
    return reply.header('content-encoding', 'gzip').send(kept.gzip);
  }
  return reply.send(body);
}
