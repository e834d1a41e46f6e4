import type { MultipartFile } from '@fastify/multipart';
import type { FastifyReply, FastifyRequest, FastifySchemaCompiler } from 'fastify';
import { isOnboardError, onboardError } from '../errors';
import type { UploadStream } from '../services/images';

/** A UUID in any case (client upload ids). */
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The validator compiler of an upload route: the multipart body schema documents the form for OpenAPI,
 * while the parts are checked as they stream (by {@link readUploadParts} and the service).
 * @throws Error when the schemas plugin has not set the scope's validator compiler.
 */
export function uploadValidatorCompiler(
  compile: FastifySchemaCompiler<unknown> | undefined,
): FastifySchemaCompiler<unknown> {
  if (!compile) throw new Error('the schemas plugin must set the validator compiler first');
  return (route) => (route.httpPart === 'body' ? () => true : compile(route));
}

/** The fields sent before the file, and the file's stream. */
export interface UploadParts {
  /** Values of the named fields that came before the file (`fields` of the call), possibly missing. */
  fields: Map<string, string>;
  /** The file part's stream, to be read by the service. */
  file: UploadStream;
}

/**
 * Reads a multipart upload of some fields followed by one file part named `file`, then runs `handle`
 * with them. The fields must come first (SPEC §7 upload form): missing `required` fields answer 400
 * ONB_IMAGE_FIELDS_FIRST; a `client_upload_id` that is not a UUID answers 400 ONB_INVALID_INPUT. Whatever
 * of the file `handle` did not read (a retry, a refusal, a file over the limit) is never read: the
 * connection closes after the answer.
 * @throws ONB_INVALID_INPUT (400, field file) not multipart, a body that is not valid multipart, or no file
 * part named `file`; (400, field = the field) a field holding a NUL character.
 */
export async function readUploadParts<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  required: readonly string[],
  handle: (parts: UploadParts) => Promise<T>,
): Promise<T> {
  if (!request.isMultipart()) throw onboardError('ONB_INVALID_INPUT', { field: 'file' });
  // Parts arrive in order; `fields` holds only what came before the file (busboy may already have
  // parsed later fields into the part's own `fields`).
  const fields = new Map<string, string>();
  let part: MultipartFile | undefined;
  try {
    for await (const p of request.parts()) {
      if (p.type === 'file') {
        part = p;
        break;
      }
      if (typeof p.value === 'string') {
        // Text that PostgreSQL cannot store (NUL) is input, not a fault: 400, never 500.
        if (p.value.includes('\u0000')) throw onboardError('ONB_INVALID_INPUT', { field: p.fieldname });
        fields.set(p.fieldname, p.value);
      }
    }
  } catch (err) {
    // A body that is not valid multipart (no boundary, cut short, malformed headers) is the sender's error.
    if (isOnboardError(err) || (err as { statusCode?: number }).statusCode !== undefined) throw err;
    throw onboardError('ONB_INVALID_INPUT', { field: 'file' });
  }
  if (!part) throw onboardError('ONB_INVALID_INPUT', { field: 'file' });
  const file = part.file;
  try {
    if (part.fieldname !== 'file') throw onboardError('ONB_INVALID_INPUT', { field: 'file' });
    if (required.some((f) => fields.get(f) === undefined)) throw onboardError('ONB_IMAGE_FIELDS_FIRST');
    const uploadId = fields.get('client_upload_id');
    if (uploadId !== undefined) {
      if (!UUID.test(uploadId)) throw onboardError('ONB_INVALID_INPUT', { field: 'client_upload_id' });
      fields.set('client_upload_id', uploadId.toLowerCase());
    }
    return await handle({ fields, file });
  } finally {
    if (!file.readableEnded) {
      file.destroy();
      reply.header('connection', 'close');
      request.raw.resume();
    }
  }
}
