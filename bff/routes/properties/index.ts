import type { FastifyInstance } from 'fastify';
import type { LeadParams, ReferralCodeBody, RemovePropertyBody } from '../../../schemas/generated/types';
import { errorResponses, ok, ref } from '../responses';
import { userOf } from '../signed-in';

const BASE = '/hms_ms/api/v1/onboard';

/**
 * The dashboard (SPEC §2 propertyDashboardScreen, §3 lists, §4 property statuses): the owner's properties
 * by section, reactivating and removing inactive listings, and referral codes (SPEC §3 referralDetails, §5).
 * Every route needs a session and only sees the signed-in user's leads: another user's property_unique_id
 * answers 404 ONB_LEAD_NOT_FOUND.
 */
export default async function propertyRoutes(app: FastifyInstance) {
  const common = {
    tags: ['properties'],
    security: [{ session: [] }],
    headers: ref('api/client-headers.schema.json'),
  };

  app.get(
    `${BASE}/properties`,
    {
      schema: {
        ...common,
        operationId: 'listProperties',
        summary: "The owner's properties by dashboard section: in progress, live, inactive",
        description:
          'SPEC §3 lists: in_progress (IN_PROGRESS, and cold leads outside the served area, which the owner can still correct), live (LIVE, UNDER_REVIEW), inactive (INACTIVE with months_inactive; tag REACTIVATE, or RECONTRACT after 12 months). Newest first.',
        response: { 200: ok(ref('api/property-list.schema.json')), ...errorResponses },
      },
    },
    async (request, reply) => {
      const list = await app.properties.list(userOf(request).id);
      reply.header('cache-control', 'no-store');
      return { success: true, data: list };
    },
  );

  app.post<{ Body: ReferralCodeBody }>(
    `${BASE}/referrals/verify`,
    {
      schema: {
        ...common,
        operationId: 'verifyReferralCode',
        summary: "Verify a referral code and answer the referrer's details",
        description:
          "Codes come from bff/screens/data/referrers.json (REFERRERS_FILE), compared case-insensitively. An unknown code, or one whose details are empty (SPEC §5 'A referral verification returning empty details counts as an error'), answers 422 ONB_REFERRAL_INVALID with field referral_code. Nothing is stored.",
        body: ref('api/referral-code.schema.json'),
        response: { 200: ok(ref('api/referral-result.schema.json')), ...errorResponses },
      },
    },
    async (request) => {
      const referral = app.properties.verifyReferral(request.body.referral_code);
      return { success: true, data: { referral } };
    },
  );

  app.put<{ Params: LeadParams; Body: ReferralCodeBody }>(
    `${BASE}/leads/:property_unique_id/referral`,
    {
      schema: {
        ...common,
        operationId: 'saveReferralCode',
        summary: "Add or update a property's referral code (verified again first)",
        description:
          'The code is verified as by verifyReferralCode (422 ONB_REFERRAL_INVALID leaves the stored code as it was), then stored on the property. Answers the property as the dashboard shows it.',
        params: ref('api/lead-params.schema.json'),
        body: ref('api/referral-code.schema.json'),
        response: { 200: ok(ref('api/property-result.schema.json')), ...errorResponses },
      },
    },
    async (request) => {
      const user = userOf(request);
      const id = request.params.property_unique_id;
      const property = await app.properties.saveReferral(user.id, id, request.body.referral_code);
      request.log.info({ userId: user.id, propertyUniqueId: id }, 'referral code saved');
      return { success: true, data: { property } };
    },
  );

  app.post<{ Params: LeadParams }>(
    `${BASE}/leads/:property_unique_id/reactivate`,
    {
      schema: {
        ...common,
        operationId: 'reactivateProperty',
        summary: 'Reactivate an inactive listing (INACTIVE → LIVE)',
        description:
          'Only an INACTIVE listing (else 409 ONB_LISTING_NOT_INACTIVE), and only within 12 months of being switched off (else 409 ONB_RECONTRACT_REQUIRED: the owner signs the terms again).',
        params: ref('api/lead-params.schema.json'),
        response: { 200: ok(ref('api/property-result.schema.json')), ...errorResponses },
      },
    },
    async (request) => {
      const user = userOf(request);
      const id = request.params.property_unique_id;
      const property = await app.properties.reactivate(user.id, id);
      request.log.info({ userId: user.id, propertyUniqueId: id }, 'listing reactivated');
      return { success: true, data: { property } };
    },
  );

  app.post<{ Params: LeadParams; Body: RemovePropertyBody }>(
    `${BASE}/leads/:property_unique_id/remove`,
    {
      schema: {
        ...common,
        operationId: 'removeProperty',
        summary: 'Remove an inactive listing after the owner confirms no association (INACTIVE → REMOVED)',
        description:
          'no_association must be true (else 400 ONB_ASSOCIATION_NOT_CONFIRMED); only an INACTIVE listing (else 409 ONB_LISTING_NOT_INACTIVE). A removed listing appears nowhere and answers 404 afterwards.',
        params: ref('api/lead-params.schema.json'),
        body: ref('api/remove-property.schema.json'),
        response: { 200: ok(ref('api/remove-property-result.schema.json')), ...errorResponses },
      },
    },
    async (request) => {
      const user = userOf(request);
      const id = request.params.property_unique_id;
      await app.properties.remove(user.id, id, request.body.no_association);
      request.log.info({ userId: user.id, propertyUniqueId: id }, 'listing removed');
      return { success: true, data: { property_unique_id: id, status: 'REMOVED' as const } };
    },
  );
}
