import type { FastifyReply, FastifyRequest } from 'fastify';
import { onboardError, type ErrorCode } from '../errors';
import type { ServedFile } from '../services/image-storage';
import { ref } from './responses';

/** Cache-Control of a stored variant that never changes under its URL (issue 14 item 1). */
export const IMMUTABLE_PRIVATE = 'private, max-age=31536000, immutable';

/** The headers of a call that may carry an Idempotency-Key (issue 14 item 5). */
export const idempotentHeaders = ref('api/idempotent-client-headers.schema.json');

/** The 304 answer of a conditional GET (a stored file, a kept answer), for the OpenAPI document. */
export const notModifiedResponse = {
  description: 'Not modified: If-None-Match named the current ETag (no body)',
  type: 'null',
};

/** The request's Idempotency-Key header (validated by the route's header schema), or undefined. */
export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const value = request.headers['idempotency-key'];
  return typeof value === 'string' ? value : undefined;
}

/**
 * Whether an If-None-Match header names `etag` (RFC 9110 §13.1.2: weak comparison, a list, or `*`).
 * `etag` is quoted, e.g. `"ab12…"`.
 */
export function ifNoneMatchHits(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const tags = (Array.isArray(header) ? header.join(',') : header).split(',').map((t) => t.trim());
  return tags.some((t) => t === '*' || t.replace(/^W\//, '') === etag);
}

/**
 * Sends a stored file with its strong ETag, `cacheControl` and `nosniff`: 304 without a body when the
 * request's If-None-Match names the tag, else 200 with the bytes (the ownership checks ran before, in the
 * service that gave `file`).
 * @throws `missing` (a 404 code) when the bytes went away since the tag was read.
 */
export async function sendStoredFile(
  request: FastifyRequest,
  reply: FastifyReply,
  file: ServedFile,
  cacheControl: string,
  missing: ErrorCode,
): Promise<FastifyReply> {
  reply
    .header('etag', file.etag)
    .header('cache-control', cacheControl)
    .header('x-content-type-options', 'nosniff');
  if (ifNoneMatchHits(request.headers['if-none-match'], file.etag)) return reply.code(304).send();
  const bytes = await file.bytes();
  if (!bytes) throw onboardError(missing);
  return reply.type(file.contentType).send(bytes);
}
