import type { FastifyInstance } from 'fastify';
import type { RequestOtpBody, SignOutBody, VerifyOtpBody } from '../../../schemas/generated/types';
import type { Config } from '../../config';
import { onboardError } from '../../errors';
import { normalisePhone, type NormalisedPhone } from '../../services/otp';
import { LOGGED_IN_COOKIE, SESSION_COOKIE } from '../../services/sessions';
import { roleOfChoice, toUserDetails, type SignInRoleChoice } from '../../services/users';
import { sharedAjv } from '../../../schemas/ajv';
import { errorResponses, ok, ref } from '../responses';
import passwordRoutes from './passwords';

/**
 * OTP sign-in (SPEC §4 login, §5 validation, §6 roles, §8 messages):
 * request_otp → verify_otp (session cookies) → sign_in state → sign_out.
 */
/** api/sign-out.schema.json, the optional body of signOut. */
const isSignOutBody = (body: unknown): body is SignOutBody =>
  sharedAjv().getSchema('api/sign-out.schema.json')!(body) === true;

export default async function authRoutes(app: FastifyInstance, opts: { config: Config }) {
  const { config } = opts;
  await app.register(passwordRoutes, { config });

  const phoneOf = (body: { phone: string; country_code?: string }): NormalisedPhone => {
    const n = normalisePhone(body.phone, body.country_code ?? config.defaultCountry);
    if (!n) throw onboardError('ONB_INVALID_PHONE');
    return n;
  };

  /**
   * SPEC §6: login only for numbers registered with the chosen role — an owner's number by default (else
   * 404 'This number is not registered as an Owner's number…'); with the PM choice a property manager's
   * (an owner's number then answers 403 ONB_ROLE_MISMATCH).
   */
  const assertRole = async (phone: string, choice: SignInRoleChoice = 'OWNER') => {
    const user = await app.users.findByPhone(phone);
    if (!user) throw onboardError('ONB_PHONE_NOT_REGISTERED');
    if (user.devise_role !== roleOfChoice(choice)) {
      throw onboardError(choice === 'OWNER' ? 'ONB_PHONE_NOT_REGISTERED' : 'ONB_ROLE_MISMATCH');
    }
    return user;
  };

  app.post<{ Body: RequestOtpBody }>(
    '/hms_ms/api/v2/request_otp',
    {
      config: { public: true },
      schema: {
        operationId: 'requestOtp',
        security: [],
        tags: ['auth'],
        summary: 'Send a one-time code by SMS',
        description:
          "429 'Please try after some time.' after OTP_MAX_PER_HOUR codes per number per hour, and within the resend cooldown (error.retry_after_s). login: 404 for a number with no owner account.",
        headers: ref('api/client-headers.schema.json'),
        body: ref('api/request-otp.schema.json'),
        response: { 200: ok(ref('api/request-otp-result.schema.json')), ...errorResponses },
      },
    },
    async (request) => {
      const { purpose } = request.body;
      const phone = phoneOf(request.body);
      if (purpose === 'login') await assertRole(phone.e164, request.body.role);
      const issued = await app.otp.issue(phone.e164, purpose);
      const text = app.translations.translate(request.locale, 'errors.sms.otp', {
        code: issued.code,
        minutes: Math.ceil(config.otpTtlMs / 60_000),
      });
      try {
        await app.transport.send({ channel: 'sms', to: phone.e164, text, code: issued.code });
      } catch (err) {
        await app.otp.discard(phone.e164, purpose);
        throw err;
      }
      await app.analytics.record(request, 'sign_in_code_sent', { purpose, channel: 'sms' });
      return {
        success: true,
        data: {
          phone: phone.e164,
          otp_length: config.otpLength,
          expires_in_s: issued.expiresInS,
          resend_after_s: issued.resendAfterS,
        },
      };
    },
  );

  app.post<{ Body: VerifyOtpBody }>(
    '/hms_ms/api/v2/verify_otp',
    {
      config: { public: true },
      schema: {
        operationId: 'verifyOtp',
        security: [],
        tags: ['auth'],
        summary: 'Check a one-time code and start a session (sets onboard_sid and isLoggedIn cookies)',
        description:
          "Wrong code: 400 field otp 'Incorrect OTP'. sign_up creates the owner account on first success.",
        headers: ref('api/client-headers.schema.json'),
        body: ref('api/verify-otp.schema.json'),
        response: { 200: ok(ref('api/verify-otp-result.schema.json')), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { purpose, otp } = request.body;
      const phone = phoneOf(request.body);
      await app.otp.verify(phone.e164, purpose, otp);
      const user =
        purpose === 'login'
          ? await assertRole(phone.e164, request.body.role)
          : await app.users.findOrCreateOwner({
              phone: phone.e164,
              country_code: phone.country || config.defaultCountry,
              language: request.locale,
            });
      await app.startSession(reply, user.id, request);
      request.log.info({ userId: user.id, purpose }, 'signed in');
      return { success: true, data: { user: toUserDetails(user) } };
    },
  );

  app.get(
    '/hms_ms/api/v2/sign_in',
    {
      config: { public: true },
      schema: {
        operationId: 'getSignInState',
        security: [],
        tags: ['auth'],
        summary: 'Whether the request carries a live session, and the user',
        response: { 200: ok(ref('api/sign-in-state.schema.json')), ...errorResponses },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      if (request.user) return { success: true, data: { is_logged_in: true, user: request.user } };
      // A stale cookie pair would make the client believe it is signed in (SPEC §4 auth gate).
      if (request.cookies[SESSION_COOKIE] || request.cookies[LOGGED_IN_COOKIE])
        await app.endSession(request, reply);
      return { success: true, data: { is_logged_in: false } };
    },
  );

  app.post<{ Body: SignOutBody | undefined }>(
    '/hms_ms/api/v1/onboard/users/sign_out',
    {
      // Idempotent: after a password change has ended every session, the client still signs out cleanly.
      config: { public: true },
      schema: {
        operationId: 'signOut',
        tags: ['auth'],
        summary: 'End the session (if any) and clear both cookies',
        description:
          "Optional JSON body (api/sign-out.schema.json): with `push_endpoint` (this browser's push subscription), the signed-in owner's subscription with that endpoint is deleted first: no more reminders to a signed-out browser (issue 15 item 5). 400 ONB_INVALID_INPUT for another body.",
        // With a session or without one (nothing to end: still 204).
        security: [{}, { session: [] }],
        response: { 204: { description: 'Signed out', type: 'null' }, ...errorResponses },
      },
    },
    async (request, reply) => {
      // The body is optional (clients sign out with none), so it is checked here, not by the route schema.
      const body = request.body ?? {};
      if (!isSignOutBody(body)) throw onboardError('ONB_INVALID_INPUT', { field: 'push_endpoint' });
      const pushEndpoint = body.push_endpoint;
      if (pushEndpoint && request.user) await app.reminders.deleteSubscription(request.user.id, pushEndpoint);
      await app.endSession(request, reply);
      return reply.code(204).send();
    },
  );
}
