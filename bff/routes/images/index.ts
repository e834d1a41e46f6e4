import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ImageFileQuery, ImageParams, LeadParams } from '../../../schemas/generated/types';
import multipartPlugin from '../../plugins/external/multipart';
import { createIdempotencyService, requestFingerprint } from '../../services/idempotency';
import { MAX_IMAGE_BYTES, readLimited, type UploadOutcome } from '../../services/images';
import { readUploadParts, uploadValidatorCompiler } from '../multipart-upload';
import { errorResponses, jpegFileResponse, ok, ref } from '../responses';
import { userOf } from '../signed-in';
import {
  IMMUTABLE_PRIVATE,
  idempotencyKeyOf,
  idempotentHeaders,
  notModifiedResponse,
  sendStoredFile,
} from '../stored-files';

const BASE = '/hms_ms/api/v1/onboard/leads/:property_unique_id/images';

/**
 * Photos of a property (SPEC §2 images screen, §3 image, §5 photo rules, §8 image errors). Every route
 * needs a session and only sees the signed-in user's leads: another user's property_unique_id answers
 * 404 ONB_LEAD_NOT_FOUND. Multipart is registered for the upload route's scope only.
 */
export default async function imageRoutes(app: FastifyInstance) {
  const idempotency = createIdempotencyService(app.db);
  const common = {
    tags: ['images'],
    security: [{ session: [] }],
    headers: ref('api/client-headers.schema.json'),
  };

  await app.register(async (scope) => {
    await scope.register(multipartPlugin, { maxFileBytes: MAX_IMAGE_BYTES });
    scope.post<{ Params: LeadParams }>(
      BASE,
      {
        validatorCompiler: uploadValidatorCompiler(scope.validatorCompiler),
        schema: {
          ...common,
          headers: idempotentHeaders,
          operationId: 'uploadPropertyImage',
          summary:
            'Upload one photo of a property (multipart: category, room_category when needed, client_upload_id, then file)',
          description:
            "multipart/form-data with the fields `category` and `client_upload_id` (UUID) BEFORE the file field `file` (a file first: 400 ONB_IMAGE_FIELDS_FIRST). 201 with the new image; 200 with the stored one when client_upload_id was used before on this property (a retry; the file is not read). Refusals: upload disabled for the property, 403 'You are not allowed to upload images'; unknown category, 400 'Invalid Input' field category; a room photo (the category with min_per_room_category) of a lead with saved room categories must name one of them in `room_category` (before the file), and no other upload may send it: else 400 'Invalid Input' field room_category; over 10485760 bytes, 413 (the upload is cut at the limit); not JPEG/PNG by content, 415; corrupt, truncated or over 50 megapixels, 422 'Image Upload Failed. Please try again.'; the same file or the same picture re-encoded or resized as an active photo of the property, 409 'This image has already been uploaded. Please re-upload a new image' (nothing stored). A portrait photo is stored as rejected VERTICAL, one under 1000 × 1000 px as rejected RESOLUTION (SPEC §5); the stored copies are re-encoded JPEGs without metadata. The images task of the checklist follows. Retries (issue 14 item 5): the same bytes as an active photo in the same category (and room_category) answer that photo again with 201, nothing stored; with an `Idempotency-Key` header (the file is then read to fingerprint the request), a retry by the same user answers the first answer (same status and body) from any instance, and the same key with a different request (fields or file) answers 422 ONB_IDEMPOTENCY_KEY_REUSED.",
          consumes: ['multipart/form-data'],
          params: ref('api/lead-params.schema.json'),
          body: ref('api/upload-image-form.schema.json'),
          response: {
            200: ok(
              ref('api/upload-image-result.schema.json'),
              'The photo stored earlier under this client_upload_id',
            ),
            201: ok(ref('api/upload-image-result.schema.json'), 'Stored (accepted or rejected)'),
            ...errorResponses,
          },
        },
      },
      async (request, reply) => {
        const user = userOf(request);
        const id = request.params.property_unique_id;
        const key = idempotencyKeyOf(request);
        return readUploadParts(request, reply, ['category', 'client_upload_id'], async ({ fields, file }) => {
          const category = fields.get('category')!;
          const roomCategory = fields.get('room_category');
          const clientUploadId = fields.get('client_upload_id')!;
          // With a key, the request's fingerprint includes the file: it is read here, once.
          const bytes = key === undefined ? undefined : await readLimited(file, MAX_IMAGE_BYTES);
          const fingerprint = bytes
            ? requestFingerprint([
                'uploadPropertyImage',
                id,
                category,
                roomCategory ?? null,
                clientUploadId,
                createHash('sha256').update(bytes).digest('hex'),
              ])
            : '';
          let outcome: UploadOutcome | undefined;
          const answer = await idempotency.run(
            { userId: user.id, key, fingerprint },
            ({ created: _created, status, ...data }: UploadOutcome) => ({
              status,
              body: { success: true, data },
            }),
            async (step) => {
              outcome = await app.images.upload(user.id, id, {
                category,
                roomCategory,
                clientUploadId,
                file,
                ...(bytes ? { bytes } : {}),
                idempotency: step,
                locale: request.locale,
              });
              return outcome;
            },
          );
          request.log.info(
            {
              userId: user.id,
              propertyUniqueId: id,
              imageId: outcome?.image.image_id,
              status: outcome?.image.status,
              created: outcome?.created ?? false,
              replayed: answer.replayed,
            },
            'property image uploaded',
          );
          if (outcome?.created) {
            await app.analytics.record(request, 'photo_uploaded', {
              property_unique_id: id,
              category,
              status: outcome.image.status,
            });
          }
          reply.code(answer.status);
          return answer.body;
        });
      },
    );
  });

  app.get<{ Params: LeadParams }>(
    BASE,
    {
      schema: {
        ...common,
        operationId: 'listPropertyImages',
        summary: "A property's photo requirements by priority, with its active photos and the task's state",
        params: ref('api/lead-params.schema.json'),
        response: { 200: ok(ref('api/images-config.schema.json')), ...errorResponses },
      },
    },
    async (request, reply) => {
      const config = await app.images.list(
        userOf(request).id,
        request.params.property_unique_id,
        request.locale,
      );
      reply.header('cache-control', 'no-store');
      return { success: true, data: config };
    },
  );

  app.delete<{ Params: ImageParams }>(
    `${BASE}/:image_id`,
    {
      schema: {
        ...common,
        operationId: 'deletePropertyImage',
        summary: 'Delete a photo (it becomes inactive)',
        description:
          "SPEC §4/§5: rejected photos can always be deleted; accepted ones only within IMAGES_DELETE_WINDOW_MS of their upload (default 24 h), else 409 'You can only delete images that were recently uploaded'. Upload and delete disabled for the property: 403 'You are not allowed to upload images'. Not an active photo of the lead: 404 ONB_IMAGE_NOT_FOUND. The stored files are removed.",
        params: ref('api/image-params.schema.json'),
        response: { 200: ok(ref('api/delete-image-result.schema.json')), ...errorResponses },
      },
    },
    async (request) => {
      const user = userOf(request);
      const { property_unique_id: id, image_id: imageId } = request.params;
      const result = await app.images.delete(user.id, id, imageId);
      request.log.info({ userId: user.id, propertyUniqueId: id, imageId }, 'property image deleted');
      return { success: true, data: result };
    },
  );

  app.get<{ Params: ImageParams; Querystring: ImageFileQuery }>(
    `${BASE}/:image_id/file`,
    {
      schema: {
        ...common,
        operationId: 'getPropertyImageFile',
        summary: "A photo's display copy or thumbnail (JPEG), for the property's owner only",
        params: ref('api/image-params.schema.json'),
        querystring: ref('api/image-file-query.schema.json'),
        description:
          "The stored variant never changes under its URL (a new photo has a new id): strong ETag (the SHA-256 of the bytes), `Cache-Control: private, max-age=31536000, immutable`, and 304 without a body when If-None-Match names the ETag. Ownership is checked before the tag is read: another owner's photo answers 404 whatever If-None-Match says.",
        response: {
          200: jpegFileResponse,
          304: notModifiedResponse,
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const { property_unique_id: id, image_id: imageId } = request.params;
      const file = await app.images.file(userOf(request).id, id, imageId, request.query.variant ?? 'display');
      return sendStoredFile(request, reply, file, IMMUTABLE_PRIVATE, 'ONB_IMAGE_NOT_FOUND');
    },
  );
}
