import { createECDH } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { PushSubscriptionBody, PushSubscriptionDeleteBody } from '../../../schemas/generated/types';
import { onboardError } from '../../errors';
import { errorResponses, ok, ref } from '../responses';
import { userOf } from '../signed-in';

/** The routes' paths (issue 15 item 5, SPEC §9 web push). */
export const PUSH_CONFIG_PATH = '/hms_ms/api/v1/push/config';
export const PUSH_SUBSCRIPTION_PATH = '/hms_ms/api/v1/push/subscription';

/** Whether `p256dh` (base64url) is a point on P-256, so a reminder can be encrypted to it (RFC 8291). */
function isP256Point(p256dh: string): boolean {
  try {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    ecdh.computeSecret(Buffer.from(p256dh, 'base64url'));
    return true;
  } catch {
    return false;
  }
}

/**
 * Reminders by web push: the VAPID public key for the browser, and saving / deleting the signed-in owner's
 * push subscription. Owner routes (401 signed out, 403 ONB_ROLE_FORBIDDEN for a PropertyManager).
 */
export default async function pushRoutes(app: FastifyInstance) {
  app.get(
    PUSH_CONFIG_PATH,
    {
      schema: {
        operationId: 'getPushConfig',
        tags: ['reminders'],
        summary: 'Whether reminders by web push are on, and the VAPID public key to subscribe with',
        headers: ref('api/client-headers.schema.json'),
        response: { 200: ok(ref('api/push-config.schema.json')), ...errorResponses },
      },
    },
    async (request) => {
      userOf(request);
      return {
        success: true,
        data: { enabled: app.reminders.enabled, vapid_public_key: app.reminders.publicKey },
      };
    },
  );

  app.post<{ Body: PushSubscriptionBody }>(
    PUSH_SUBSCRIPTION_PATH,
    {
      schema: {
        operationId: 'savePushSubscription',
        tags: ['reminders'],
        summary: "Save this browser's push subscription for the signed-in owner's reminders",
        description:
          'Saved per owner (an endpoint already saved is updated, and moves to this owner: the browser holding it is now signed in as them). 404 ONB_REMINDERS_OFF when no VAPID keys are configured; 400 ONB_INVALID_INPUT (field endpoint) for an endpoint outside the accepted push services (PUSH_SERVICE_HOSTS, https), (field keys.p256dh) for a key that is not a P-256 point.',
        headers: ref('api/client-headers.schema.json'),
        body: ref('api/push-subscription.schema.json'),
        response: { 204: { description: 'Saved', type: 'null' }, ...errorResponses },
      },
    },
    async (request, reply) => {
      const user = userOf(request);
      if (!app.reminders.enabled) throw onboardError('ONB_REMINDERS_OFF');
      const { endpoint, keys } = request.body;
      if (!app.reminders.acceptsEndpoint(endpoint))
        throw onboardError('ONB_INVALID_INPUT', { field: 'endpoint' });
      if (!isP256Point(keys.p256dh)) throw onboardError('ONB_INVALID_INPUT', { field: 'keys.p256dh' });
      await app.reminders.saveSubscription(user.id, { endpoint, keys });
      return reply.code(204).send();
    },
  );

  app.delete<{ Body: PushSubscriptionDeleteBody }>(
    PUSH_SUBSCRIPTION_PATH,
    {
      schema: {
        operationId: 'deletePushSubscription',
        tags: ['reminders'],
        summary: "Forget one of the signed-in owner's push subscriptions (no more reminders to that browser)",
        description:
          "404 ONB_PUSH_SUBSCRIPTION_NOT_FOUND when the owner has no subscription with this endpoint (another owner's included).",
        headers: ref('api/client-headers.schema.json'),
        body: ref('api/push-subscription-delete.schema.json'),
        response: { 204: { description: 'Deleted', type: 'null' }, ...errorResponses },
      },
    },
    async (request, reply) => {
      const user = userOf(request);
      if (!(await app.reminders.deleteSubscription(user.id, request.body.endpoint))) {
        throw onboardError('ONB_PUSH_SUBSCRIPTION_NOT_FOUND');
      }
      return reply.code(204).send();
    },
  );
}
