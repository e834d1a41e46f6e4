import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { LeadParams, SendContactOtpBody, VerifyContactOtpBody } from '../../../schemas/generated/types';
import { onboardError } from '../../errors';
import { sessionIdFromCookies } from '../../services/sessions';
import { toUserDetails } from '../../services/users';
import { errorResponses, ok, ref } from '../responses';
import { userOf } from '../signed-in';

const BASE = '/hms_ms/api/v1/onboard/leads/:property_unique_id/kyc/contact';

/**
 * Per-route limits per signed-in user (with the global limiter on, RATE_LIMIT_MAX > 0), on top of the
 * per-destination limits of the codes (cooldown, OTP_MAX_PER_HOUR): sending is capped so that one account
 * cannot mail or text many different destinations. Counted after the session is known (preHandler).
 */
const LIMITS = {
  /** Codes sent per user per hour. */
  send: { max: 20, timeWindow: 3600_000 },
  /** Codes checked per user per 10 minutes. */
  verify: { max: 30, timeWindow: 600_000 },
  /** Profile switches per user per minute. */
  switch: { max: 10, timeWindow: 60_000 },
} as const;

const perUser = (name: keyof typeof LIMITS) => ({
  rateLimit: {
    ...LIMITS[name],
    hook: 'preHandler' as const,
    keyGenerator: (request: FastifyRequest) => `${name}:${request.user?.id ?? request.ip}`,
  },
});

/** `sessions.id` of the request's session (the gate has checked that it is live). */
function sessionIdOf(request: FastifyRequest): string {
  const id = sessionIdFromCookies(request.cookies);
  if (!id) throw onboardError('ONB_UNAUTHORIZED');
  return id;
}

/**
 * Verifying the e-mail address and phone number of the KYC form by a 4-digit code, and switching to the
 * account such a destination belongs to (SPEC §3 kycDetails, §4 OTP mobile and e-mail, §5, §6, §8).
 * Every route needs a session; the code routes only work on the signed-in user's lead (another user's
 * property_unique_id: 404 ONB_LEAD_NOT_FOUND).
 */
export default async function contactRoutes(app: FastifyInstance) {
  const common = {
    tags: ['contact'],
    security: [{ session: [] }],
    headers: ref('api/client-headers.schema.json'),
  };

  const assertOwnLead = async (userId: string, propertyUniqueId: string) => {
    if (!(await app.leads.find(userId, propertyUniqueId))) throw onboardError('ONB_LEAD_NOT_FOUND');
  };

  app.post<{ Params: LeadParams; Body: SendContactOtpBody }>(
    `${BASE}/otp`,
    {
      config: perUser('send'),
      schema: {
        ...common,
        operationId: 'sendContactOtp',
        summary: 'Send a 4-digit code to the e-mail address or phone number of the KYC form',
        description:
          "E-mail: over SMTP when SMTP_URL is set, else through the message transport (development: the outbox); phone: by SMS. destination is the normalised value (e-mail trimmed and lower-cased, phone E.164; a national number is read in `country`, default the account's country). Invalid value: 400 ONB_INVALID_EMAIL ('Please enter the correct email ID') or ONB_INVALID_PHONE, field value. Same limits as sign-in codes per destination: 429 ONB_OTP_RESEND_COOLDOWN (error.retry_after_s) or ONB_OTP_RATE_LIMITED; and 20 codes per account per hour (429 ONB_RATE_LIMITED). Delivery failure: 502 ONB_OTP_SEND_FAILED (the code is void).",
        params: ref('api/lead-params.schema.json'),
        body: ref('api/send-contact-otp.schema.json'),
        response: { 200: ok(ref('api/send-contact-otp-result.schema.json')), ...errorResponses },
      },
    },
    async (request) => {
      const user = userOf(request);
      await assertOwnLead(user.id, request.params.property_unique_id);
      const { channel, value, country } = request.body;
      const data = await app.contactVerification.send({
        userId: user.id,
        locale: request.locale,
        channel,
        value,
        country: country ?? user.country_code,
      });
      request.log.info(
        { userId: user.id, propertyUniqueId: request.params.property_unique_id, channel },
        'contact code sent',
      );
      return { success: true, data };
    },
  );

  app.post<{ Params: LeadParams; Body: VerifyContactOtpBody }>(
    `${BASE}/verify`,
    {
      config: perUser('verify'),
      schema: {
        ...common,
        operationId: 'verifyContactOtp',
        summary: 'Check the code: the contact is verified, or it belongs to another account',
        description:
          "Wrong code: 400 ONB_OTP_INCORRECT ('Incorrect OTP'), ONB_OTP_EXPIRED or ONB_OTP_TOO_MANY_ATTEMPTS, field otp. A right code for a number that is another account's sign-in number or verified there, or an e-mail that is another account's e-mail or verified there: verified false, is_another_user_present true, and the session may call switchProfile within 10 minutes. Otherwise verified true (again: the same answer); a verified e-mail becomes the account's e-mail when it has none.",
        params: ref('api/lead-params.schema.json'),
        body: ref('api/verify-contact-otp.schema.json'),
        response: { 200: ok(ref('api/verify-contact-otp-result.schema.json')), ...errorResponses },
      },
    },
    async (request) => {
      const user = userOf(request);
      await assertOwnLead(user.id, request.params.property_unique_id);
      const { channel, value, country, otp } = request.body;
      const data = await app.contactVerification.verify({
        userId: user.id,
        sessionId: sessionIdOf(request),
        channel,
        value,
        country: country ?? user.country_code,
        otp,
      });
      request.log.info(
        {
          userId: user.id,
          propertyUniqueId: request.params.property_unique_id,
          channel,
          verified: data.verified,
          isAnotherUserPresent: data.is_another_user_present,
        },
        'contact code checked',
      );
      return { success: true, data };
    },
  );

  app.post(
    '/hms_ms/api/v1/users/switch_profile',
    {
      config: perUser('switch'),
      // A call without a body (like sign_out) counts as `{}`; anything else is checked by the schema.
      preValidation: async (request) => {
        if (request.body === undefined) request.body = {};
      },
      schema: {
        ...common,
        operationId: 'switchProfile',
        summary: 'Sign in to the account a just-verified e-mail or phone number belongs to',
        description:
          'Uses the switch the session recorded at verifyContactOtp (is_another_user_present true), within 10 minutes: starts a session for that account (new onboard_sid and isLoggedIn cookies, as at sign-in) and ends the current one. No switch, or expired: 409 ONB_NO_PROFILE_SWITCH.',
        body: ref('api/switch-profile.schema.json'),
        response: { 200: ok(ref('api/switch-profile-result.schema.json')), ...errorResponses },
      },
    },
    async (request, reply) => {
      const from = userOf(request);
      const target = await app.contactVerification.takeSwitch(sessionIdOf(request));
      await app.startSession(reply, target.id, request);
      request.log.info({ userId: target.id, fromUserId: from.id }, 'profile switched');
      reply.header('cache-control', 'no-store');
      return { success: true, data: { user: toUserDetails(target) } };
    },
  );
}
