/**
 * Response schemas of the wire conventions: success `{ success: true, data }` around a schema of
 * schemas/api, and the error body `api/error.schema.json` for every 4xx and 5xx. The same schemas drive
 * Fastify's serializer (nothing unlisted leaks out) and the OpenAPI document.
 */

/** `$ref` to a schema of schemas/ by its `$id` (e.g. 'api/user-details.schema.json'). */
export const ref = (id: string) => ({ $ref: id });

/** The success envelope around `data`. */
export function ok(data: Record<string, unknown>, description = 'Success') {
  return {
    description,
    type: 'object',
    additionalProperties: false,
    required: ['success', 'data'],
    properties: { success: { type: 'boolean', const: true }, data },
  };
}

/** Error answers (api/error.schema.json) for 4xx and 5xx. */
export const errorResponses = {
  '4xx': { description: 'Refused; error.message is translated', ...ref('api/error.schema.json') },
  '5xx': { description: "Failed; error.message is 'Internal Server Error'", ...ref('api/error.schema.json') },
};

/** Headers every client call may carry (SPEC §7). */
export const clientHeaders = ref('api/client-headers.schema.json');

/** The 200 response of the routes that serve a stored JPEG (a photo or a document), re-encoded without metadata. */
export const jpegFileResponse = {
  description: 'The JPEG (re-encoded, no metadata)',
  content: { 'image/jpeg': { schema: { type: 'string', contentMediaType: 'image/jpeg' } } },
};
