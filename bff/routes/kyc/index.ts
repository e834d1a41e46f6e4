import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type {
  KycDocumentFileQuery,
  KycDocumentParams,
  LeadParams,
  SaveLeadSectionBody,
} from '../../../schemas/generated/types';
import type { Config } from '../../config';
import multipartPlugin from '../../plugins/external/multipart';
import { createIdempotencyService, requestFingerprint } from '../../services/idempotency';
import { MAX_IMAGE_BYTES, readLimited } from '../../services/images';
import type { KycUploadOutcome } from '../../services/kyc';
import { readUploadParts, uploadValidatorCompiler } from '../multipart-upload';
import { sessionIdFromCookies } from '../../services/sessions';
import { errorResponses, jpegFileResponse, ok, ref } from '../responses';
import { userOf } from '../signed-in';
import { idempotencyKeyOf, idempotentHeaders, notModifiedResponse, sendStoredFile } from '../stored-files';

const BASE = '/hms_ms/api/v1/onboard/leads/:property_unique_id/kyc';

/**
 * The KYC task (SPEC §2 KYC, §3 KYC and kycDetails, §5 text recognition): details, the identity
 * document and its text recognition. Every route needs a session and only sees the signed-in user's
 * leads: another user's property_unique_id answers 404 ONB_LEAD_NOT_FOUND. Document photos are served
 * only to their owner. Contact verification (sendContactOtp, verifyContactOtp) lives with the contact routes.
 */
export default async function kycRoutes(app: FastifyInstance, { config }: { config: Config }) {
  const idempotency = createIdempotencyService(app.db);
  const common = {
    tags: ['kyc'],
    security: [{ session: [] }],
    headers: ref('api/client-headers.schema.json'),
  };

  app.get<{ Params: LeadParams }>(
    BASE,
    {
      schema: {
        ...common,
        operationId: 'getKycDetails',
        summary: "The KYC details of a property: the form's data, verification flags and the latest document",
        params: ref('api/lead-params.schema.json'),
        response: { 200: ok(ref('api/kyc-details.schema.json')), ...errorResponses },
      },
    },
    async (request, reply) => {
      const details = await app.kyc.details(
        userOf(request).id,
        request.params.property_unique_id,
        request.locale,
        sessionIdFromCookies(request.cookies),
      );
      reply.header('cache-control', 'no-store');
      return { success: true, data: details };
    },
  );

  app.put<{ Params: LeadParams; Body: SaveLeadSectionBody }>(
    BASE,
    {
      schema: {
        ...common,
        operationId: 'saveKycDetails',
        summary: 'Save the KYC details as a draft or finally, with their version',
        description:
          "The kyc section of saveLeadSection (schemas/api/sections/kyc.schema.json): PAN and GSTIN are checked by their published rules (400 'Invalid Input', field); the contact number is stored in E.164; the e-mail trimmed ('Please enter the correct email ID'). A final save needs name, contact_phone, email_address, number_of_rooms, pan_number, gstin_available, id_type, and gstin when gstin_available (400 'This field is required', field), then: the latest document of the chosen id_type (400 ONB_KYC_DOCUMENT_REQUIRED), recognised (409 ONB_KYC_DOCUMENT_PENDING while text recognition runs; 422 'Uploaded Image is of different IdType'; 422 ONB_KYC_DOCUMENT_UNREADABLE), the contact number verified (400 ONB_PHONE_NOT_VERIFIED) and the e-mail verified (400 ONB_EMAIL_NOT_VERIFIED). A version other than the stored one: 409 ONB_VERSION_CONFLICT. Answers the section, the checklist and the KYC details.",
        params: ref('api/lead-params.schema.json'),
        body: ref('api/save-lead-section.schema.json'),
        response: { 200: ok(ref('api/save-kyc-details-result.schema.json')), ...errorResponses },
      },
    },
    async (request) => {
      const user = userOf(request);
      const id = request.params.property_unique_id;
      const saved = await app.leads.saveSection(
        user.id,
        id,
        'kyc',
        request.body,
        user.country_code || config.defaultCountry,
      );
      request.log.info(
        { userId: user.id, propertyUniqueId: id, version: saved.section.version, draft: request.body.draft },
        'kyc details saved',
      );
      if (!request.body.draft) {
        await app.analytics.record(request, 'checklist_task_submitted', {
          property_unique_id: id,
          task: 'kyc',
          completed: saved.section.completed,
        });
      }
      const kycDetails = await app.kyc.details(
        user.id,
        id,
        request.locale,
        sessionIdFromCookies(request.cookies),
      );
      return { success: true, data: { ...saved, kyc_details: kycDetails } };
    },
  );

  await app.register(async (scope) => {
    await scope.register(multipartPlugin, { maxFileBytes: MAX_IMAGE_BYTES });
    scope.post<{ Params: LeadParams }>(
      `${BASE}/documents`,
      {
        validatorCompiler: uploadValidatorCompiler(scope.validatorCompiler),
        schema: {
          ...common,
          headers: idempotentHeaders,
          operationId: 'uploadKycDocument',
          summary: 'Upload a photo of an identity document (multipart: id_type, client_upload_id, then file)',
          description:
            "multipart/form-data with `id_type` and `client_upload_id` (UUID) BEFORE the file field `file` (a file first: 400 ONB_IMAGE_FIELDS_FIRST). 202: stored, text recognition runs in the background (poll getKycDocument until status is no longer processing); 200: the document stored earlier under this client_upload_id (the file is not read). Refusals: unknown id_type 400 'Invalid Input' field id_type; over 10485760 bytes 413 (cut at the limit); not JPEG/PNG by content 415; corrupt, truncated or over 50 megapixels 422 'Image Upload Failed. Please try again.'; under 600 px on a side 422 ONB_KYC_DOCUMENT_TOO_SMALL. The stored copies are re-encoded JPEGs without metadata. The KYC task stops being completed until the new document is recognised and the details saved again. Retries (issue 14 item 5): with an `Idempotency-Key` header (the file is then read to fingerprint the request), a retry by the same user answers the first answer (same status and body) from any instance, and the same key with a different request (fields or file) answers 422 ONB_IDEMPOTENCY_KEY_REUSED.",
          consumes: ['multipart/form-data'],
          params: ref('api/lead-params.schema.json'),
          body: ref('api/upload-kyc-document-form.schema.json'),
          response: {
            200: ok(
              ref('api/kyc-document-result.schema.json'),
              'The document stored earlier under this client_upload_id',
            ),
            202: ok(ref('api/kyc-document-result.schema.json'), 'Stored; text recognition runs'),
            ...errorResponses,
          },
        },
      },
      async (request, reply) => {
        const user = userOf(request);
        const id = request.params.property_unique_id;
        const key = idempotencyKeyOf(request);
        return readUploadParts(request, reply, ['id_type', 'client_upload_id'], async ({ fields, file }) => {
          const idType = fields.get('id_type')!;
          const clientUploadId = fields.get('client_upload_id')!;
          // With a key, the request's fingerprint includes the file: it is read here, once.
          const bytes = key === undefined ? undefined : await readLimited(file, MAX_IMAGE_BYTES);
          const fingerprint = bytes
            ? requestFingerprint([
                'uploadKycDocument',
                id,
                idType,
                clientUploadId,
                createHash('sha256').update(bytes).digest('hex'),
              ])
            : '';
          const answer = await idempotency.run(
            { userId: user.id, key, fingerprint },
            ({ document, created }: KycUploadOutcome) => ({
              status: created ? 202 : 200,
              body: { success: true, data: { document } },
            }),
            (step) =>
              app.kyc.upload(user.id, id, {
                idType,
                clientUploadId,
                file,
                ...(bytes ? { bytes } : {}),
                idempotency: step,
                locale: request.locale,
              }),
          );
          request.log.info(
            { userId: user.id, propertyUniqueId: id, status: answer.status, replayed: answer.replayed },
            'kyc document uploaded',
          );
          reply.code(answer.status);
          return answer.body;
        });
      },
    );
  });

  app.get<{ Params: KycDocumentParams }>(
    `${BASE}/documents/:document_id`,
    {
      schema: {
        ...common,
        operationId: 'getKycDocument',
        summary: 'An identity document and the verdict of its text recognition',
        params: ref('api/kyc-document-params.schema.json'),
        response: { 200: ok(ref('api/kyc-document-result.schema.json')), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { property_unique_id: id, document_id: documentId } = request.params;
      const document = await app.kyc.get(userOf(request).id, id, documentId, request.locale);
      reply.header('cache-control', 'no-store');
      return { success: true, data: { document } };
    },
  );

  app.get<{ Params: KycDocumentParams; Querystring: KycDocumentFileQuery }>(
    `${BASE}/documents/:document_id/file`,
    {
      schema: {
        ...common,
        operationId: 'getKycDocumentFile',
        summary: "An identity document's display copy or thumbnail (JPEG), for its owner only",
        params: ref('api/kyc-document-params.schema.json'),
        querystring: ref('api/kyc-document-file-query.schema.json'),
        response: {
          200: jpegFileResponse,
          304: notModifiedResponse,
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const { property_unique_id: id, document_id: documentId } = request.params;
      const file = await app.kyc.file(userOf(request).id, id, documentId, request.query.variant ?? 'display');
      // An identity document is never kept by caches, shared or private (its ETag still allows a 304).
      return sendStoredFile(request, reply, file, 'no-store', 'ONB_KYC_DOCUMENT_NOT_FOUND');
    },
  );
}
