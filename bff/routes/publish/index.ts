import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { LeadParams, PublishChangesResult, PublishResult } from '../../../schemas/generated/types';
import { createIdempotencyService, requestFingerprint } from '../../services/idempotency';
import { errorResponses, ok, ref } from '../responses';
import { userOf } from '../signed-in';
import { idempotencyKeyOf, idempotentHeaders } from '../stored-files';

const BASE = '/hms_ms/api/v1/onboard/leads/:property_unique_id';

/**
 * Review and publish (SPEC §2 property review / preview 'Go Live!', §3 propertyReviewDetails,
 * propertyReviewImages, coverUrl, §4 publish success or error). Both need a session and see only the
 * signed-in user's leads: another user's property_unique_id answers 404 ONB_LEAD_NOT_FOUND.
 */
export default async function publishRoutes(app: FastifyInstance) {
  const idempotency = createIdempotencyService(app.db);
  const common = {
    tags: ['publish'],
    security: [{ session: [] }],
    headers: ref('api/client-headers.schema.json'),
    params: ref('api/lead-params.schema.json'),
  };

  /**
   * Runs a publish and records `<name>_error` (issue 15 item 1, SPEC §4 'publish leads to success or error
   * events') when it fails, with the error code and HTTP status, before the error is answered as usual.
   */
  const publishEvents = async <T>(
    request: FastifyRequest,
    name: 'publish' | 'publish_changes',
    id: string,
    run: () => Promise<T>,
  ): Promise<T> => {
    try {
      return await run();
    } catch (err) {
      const e = err as { code?: unknown; statusCode?: unknown };
      await app.analytics.record(request, `${name}_error`, {
        property_unique_id: id,
        error_code: typeof e.code === 'string' ? e.code : null,
        status: typeof e.statusCode === 'number' ? e.statusCode : 500,
      });
      throw err;
    }
  };

  app.get<{ Params: LeadParams }>(
    `${BASE}/review`,
    {
      schema: {
        ...common,
        operationId: 'getPropertyReview',
        summary:
          'The property as a guest would see it, one bucket per task, its photos, and what stops publishing',
        description:
          'property_review_details (property_details, buckets: one per task with its title and summary in the request language and the page to edit it), property_review_images (accepted photos through the owner-only image URLs, the requirements, the room photos per room category), cover_url (the first accepted facade photo), ready, missing_tasks and rejected_image_count.',
        response: { 200: ok(ref('api/property-review.schema.json')), ...errorResponses },
      },
    },
    async (request, reply) => {
      const review = await app.publish.review(
        userOf(request).id,
        request.params.property_unique_id,
        request.locale,
      );
      reply.header('cache-control', 'no-store');
      return { success: true, data: review };
    },
  );

  app.post<{ Params: LeadParams }>(
    `${BASE}/publish`,
    {
      schema: {
        ...common,
        headers: idempotentHeaders,
        operationId: 'publishProperty',
        summary: "Publish the property: hotels go live, holiday homes go 'Under review' (idempotent)",
        description:
          "No body. Needs every checklist task but review completed and no rejected photo (else 422 ONB_PUBLISH_NOT_READY with details.missing_tasks and details.rejected_image_count). A hotel becomes LIVE ('Property is live'); a holiday home (brand OVH) UNDER_REVIEW (an expert reaches out). Completes the review task. A lead has one listing: publishing again, or two calls at once, answer the same listing_id (already_published true for the later ones). The client then goes to `next` (the Welcome Aboard screen). With an `Idempotency-Key` header, a retry answers the first answer exactly (already_published as it was then), from any instance.",
        response: { 200: ok(ref('api/publish-result.schema.json')), ...errorResponses },
      },
    },
    async (request, reply) => {
      const user = userOf(request);
      const id = request.params.property_unique_id;
      const answer = await publishEvents(request, 'publish', id, () =>
        idempotency.run(
          {
            userId: user.id,
            key: idempotencyKeyOf(request),
            fingerprint: requestFingerprint(['publishProperty', id]),
          },
          (data: PublishResult) => ({ status: 200, body: { success: true, data } }),
          (step) => app.publish.publish(user.id, id, step),
        ),
      );
      const result = (answer.body as { data: PublishResult }).data;
      if (!answer.replayed) {
        await app.analytics.record(request, 'publish_success', {
          property_unique_id: id,
          status: result.status,
          already_published: result.already_published,
        });
      }
      request.log.info(
        {
          userId: user.id,
          propertyUniqueId: id,
          listingId: result.listing_id,
          status: result.status,
          alreadyPublished: result.already_published,
          replayed: answer.replayed,
        },
        'property published',
      );
      reply.code(answer.status);
      return answer.body;
    },
  );

  app.post<{ Params: LeadParams }>(
    `${BASE}/publish/changes`,
    {
      schema: {
        ...common,
        headers: idempotentHeaders,
        operationId: 'publishChanges',
        summary: "Put a live property's saved changes on its listing",
        description:
          "No body. Once published, the owner's saves and drafts change the lead's sections only; the listing (the review's property_details, the dashboard's title and city) keeps what was published until this call. Same checks as publishProperty: every task but review completed and no rejected photo (else 422 ONB_PUBLISH_NOT_READY with details.missing_tasks and details.rejected_image_count). A lead never published answers 409 ONB_LISTING_NOT_PUBLISHED. published_tasks lists the tasks that went live (empty when nothing was waiting). With an `Idempotency-Key` header, a retry answers the first answer (the same published_tasks), from any instance.",
        response: { 200: ok(ref('api/publish-changes-result.schema.json')), ...errorResponses },
      },
    },
    async (request, reply) => {
      const user = userOf(request);
      const id = request.params.property_unique_id;
      const answer = await publishEvents(request, 'publish_changes', id, () =>
        idempotency.run(
          {
            userId: user.id,
            key: idempotencyKeyOf(request),
            fingerprint: requestFingerprint(['publishChanges', id]),
          },
          (data: PublishChangesResult) => ({ status: 200, body: { success: true, data } }),
          (step) => app.publish.publishChanges(user.id, id, step),
        ),
      );
      const result = (answer.body as { data: PublishChangesResult }).data;
      if (!answer.replayed) {
        await app.analytics.record(request, 'publish_changes_success', {
          property_unique_id: id,
          published_tasks: result.published_tasks.length,
        });
      }
      request.log.info(
        {
          userId: user.id,
          propertyUniqueId: id,
          publishedTasks: result.published_tasks,
          replayed: answer.replayed,
        },
        'property changes published',
      );
      reply.code(answer.status);
      return answer.body;
    },
  );
}
