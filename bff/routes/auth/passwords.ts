import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type {
  ChangePasswordBody,
  ForgotPasswordBody,
  NewSignInBody,
  SetPasswordBody,
  VerifyEmailBody,
  WebSignUpBody,
} from '../../../schemas/generated/types';
import type { Config } from '../../config';
import { isOnboardError, onboardError } from '../../errors';
import { ownOrigin } from '../../plugins/app/security';
import { BASE_PATH } from '../../plugins/external/static';
import { normalisePhone } from '../../services/otp';
import {
  ACCOUNT_RULE,
  ADDRESS_RULE,
  assertNewPassword,
  checkPassword,
  hashPassword,
  RESET_TOKEN_TTL_MS,
} from '../../services/passwords';
import { normaliseEmail, roleOfChoice, toUserDetails } from '../../services/users';
import { errorResponses, ok, ref } from '../responses';
import { signedInUser } from '../signed-in';

/** A plausible e-mail address (SPEC §5 'E-mail must be valid'); the code sent to it proves the rest. */
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/** Forgot-password links per address per hour; more are silently not sent (the answer stays the same). */
const RESET_LINKS_PER_HOUR = 5;

/**
 * E-mail and password (SPEC §1 sign-in methods, §4 password change, §5 rules, §7 public paths, §8 texts):
 * web_sign_up → verify_email (session) · new_sign_in (session) · forgot_password → password (all sessions
 * end) · change_password (signed in; all sessions end).
 *
 * No account enumeration: web_sign_up answers the same for a new and a taken address (the owner of a
 * taken one gets a notice instead of a code); new_sign_in answers the same for an unknown address and a
 * wrong password, and verifies a dummy argon2id hash for unknown addresses so the time is the same;
 * forgot_password answers before it looks anything up (the work runs after the answer).
 */
export default async function passwordRoutes(app: FastifyInstance, opts: { config: Config }) {
  const { config } = opts;
  const pending = new Set<Promise<void>>();
  app.addHook('onClose', async () => {
    await Promise.allSettled([...pending]);
  });
  /** Runs `work` after the answer; failures are logged, never shown (they would tell an account exists). */
  const afterAnswer = (request: FastifyRequest, work: () => Promise<void>) => {
    const p = new Promise<void>((resolve) => setImmediate(resolve))
      .then(work)
      .catch((err: unknown) => request.log.warn({ err }, 'password background work failed'))
      .finally(() => pending.delete(p));
    pending.add(p);
  };

  const emailOf = (raw: string): string => {
    const email = normaliseEmail(raw);
    if (email.length > 254 || !EMAIL.test(email)) throw onboardError('ONB_INVALID_EMAIL', { field: 'email' });
    return email;
  };
  const origin = (request: FastifyRequest) => config.publicOrigin ?? ownOrigin(request);
  const minutes = (ms: number) => Math.ceil(ms / 60_000);

  const sendEmailCode = async (request: FastifyRequest, email: string) => {
    const issued = await app.otp.issue(email, 'email_verify');
    const values = { code: issued.code, minutes: minutes(config.otpTtlMs) };
    try {
      await app.mail.send({
        channel: 'email',
        to: email,
        code: issued.code,
        subject: app.translations.translate(request.locale, 'errors.email.otp_subject', values),
        text: app.translations.translate(request.locale, 'errors.email.otp_text', values),
      });
    } catch (err) {
      await app.otp.discard(email, 'email_verify');
      throw err;
    }
  };

  /** Ends every session of the account and clears this request's cookies (SPEC §4). */
  const signOutEverywhere = async (request: FastifyRequest, reply: FastifyReply, userId: string) => {
    await app.sessions.destroyAllOf(userId);
    await app.passwords.resetTokens.voidAll(userId);
    await app.endSession(request, reply);
  };

  const passwordChanged = { success: true as const, data: { signed_out: true as const } };

  app.post<{ Body: WebSignUpBody }>(
    '/hms_ms/api/v1/users/web_sign_up',
    {
      config: { public: true },
      schema: {
        operationId: 'webSignUp',
        security: [],
        tags: ['auth'],
        summary: 'Make an owner account with an e-mail address and a password; a code goes to the address',
        description:
          "Password rules (SPEC §5): 400 ONB_PASSWORD_RULES 'Please enter the correct password', ONB_PASSWORD_COMMON, ONB_PASSWORD_MISMATCH 'Password is not matched!'. The answer is the same for an address already in use (its owner gets a notice by e-mail instead of a code): no account enumeration. 429 within the code cooldown.",
        headers: ref('api/client-headers.schema.json'),
        body: ref('api/web-sign-up.schema.json'),
        response: { 200: ok(ref('api/web-sign-up-result.schema.json')), ...errorResponses },
      },
    },
    async (request) => {
      const email = emailOf(request.body.email);
      assertNewPassword(request.body.password, request.body.password_confirmation);
      const passwordHash = await hashPassword(request.body.password);
      const { user, pending: isNew } = await app.users.startEmailSignUp({
        email,
        passwordHash,
        country_code: request.body.country_code?.toUpperCase() ?? config.defaultCountry,
        language: request.locale,
      });
      if (isNew) {
        await sendEmailCode(request, email);
      } else {
        // Someone (maybe the owner) tried to sign up with a taken address: tell the owner, change nothing.
        const link = `${origin(request)}${BASE_PATH}/forgot-password-mail`;
        await app.mail
          .send({
            channel: 'email',
            to: email,
            code: '',
            subject: app.translations.translate(request.locale, 'errors.email.sign_up_notice_subject'),
            text: app.translations.translate(request.locale, 'errors.email.sign_up_notice_text', { link }),
          })
          .catch((err: unknown) => request.log.warn({ err, userId: user.id }, 'sign-up notice not sent'));
      }
      return {
        success: true,
        data: {
          email,
          otp_length: app.otp.lengthOf('email_verify'),
          expires_in_s: Math.ceil(config.otpTtlMs / 1000),
        },
      };
    },
  );

  app.post<{ Body: VerifyEmailBody }>(
    '/hms_ms/api/v1/users/verify_email',
    {
      config: { public: true },
      schema: {
        operationId: 'verifyEmail',
        security: [],
        tags: ['auth'],
        summary: 'Check the code of an e-mail sign-up, verify the address and start a session',
        description: "Wrong code: 400 field otp 'Incorrect OTP' (OTP_MAX_ATTEMPTS tries per code).",
        headers: ref('api/client-headers.schema.json'),
        body: ref('api/verify-email.schema.json'),
        response: { 200: ok(ref('api/verify-otp-result.schema.json')), ...errorResponses },
      },
    },
    async (request, reply) => {
      const email = emailOf(request.body.email);
      await app.otp.verify(email, 'email_verify', request.body.otp);
      const user = await app.users.findByEmail(email);
      if (!user) throw onboardError('ONB_OTP_INCORRECT');
      await app.users.markEmailVerified(user.id, new Date());
      await app.startSession(reply, user.id, request);
      request.log.info({ userId: user.id }, 'e-mail verified, signed in');
      return { success: true, data: { user: toUserDetails(user) } };
    },
  );

  app.post<{ Body: NewSignInBody }>(
    '/hms_ms/api/v1/users/new_sign_in',
    {
      config: { public: true },
      schema: {
        operationId: 'newSignIn',
        security: [],
        tags: ['auth'],
        summary: 'Sign in with an e-mail address and a password (sets onboard_sid and isLoggedIn cookies)',
        description:
          "Unknown address or wrong password: the same 400 ONB_INVALID_CREDENTIALS. The 5th failure within 15 minutes blocks the address's password sign-in (429 'Please try after some time.', Retry-After) for 5 minutes, doubling up to 1 hour; 20 failures from one client address block it likewise. An unverified address: 400 ONB_EMAIL_NOT_VERIFIED and a new code. role (SPEC §6) OWNER → Owner_Portal_User, PM → PropertyManager; another role: 403 ONB_ROLE_MISMATCH.",
        headers: ref('api/client-headers.schema.json'),
        body: ref('api/new-sign-in.schema.json'),
        response: { 200: ok(ref('api/verify-otp-result.schema.json')), ...errorResponses },
      },
    },
    async (request, reply) => {
      const email = emailOf(request.body.email);
      const subjects = [
        { key: `email:${email}`, rule: ACCOUNT_RULE },
        { key: `ip:${request.ip}`, rule: ADDRESS_RULE },
      ];
      await app.passwords.limiter.assertAllowed(subjects);
      const user = await app.users.findByEmail(email);
      const right = await checkPassword(user?.password_hash ?? null, request.body.password);
      if (!user || !right) {
        await app.passwords.limiter.fail(subjects);
        throw onboardError('ONB_INVALID_CREDENTIALS');
      }
      await app.passwords.limiter.succeed(`email:${email}`);
      if (!(await app.users.hasVerifiedEmail(user))) {
        await sendEmailCode(request, email).catch((err: unknown) => {
          if (!isOnboardError(err)) throw err; // within the cooldown the last code still works
        });
        throw onboardError('ONB_EMAIL_NOT_VERIFIED', { field: 'email' });
      }
      if (user.devise_role !== roleOfChoice(request.body.role ?? 'OWNER'))
        throw onboardError('ONB_ROLE_MISMATCH');
      await app.startSession(reply, user.id, request);
      request.log.info({ userId: user.id }, 'signed in with a password');
      return { success: true, data: { user: toUserDetails(user) } };
    },
  );

  app.post<{ Body: ForgotPasswordBody }>(
    '/hms_ms/api/v1/users/forgot_password',
    {
      config: { public: true },
      schema: {
        operationId: 'forgotPassword',
        security: [],
        tags: ['auth'],
        summary:
          'Send a single-use link (e-mail, 30 minutes) or a 6-digit code (phone) to set a new password',
        description:
          'Exactly one of email and phone. The answer is the same whether an account has the address or number, and is given before anything is looked up; the link or code is sent afterwards (codes keep the sign-in limits: cooldown and hourly count).',
        headers: ref('api/client-headers.schema.json'),
        body: ref('api/forgot-password.schema.json'),
        response: { 200: ok(ref('api/forgot-password-result.schema.json')), ...errorResponses },
      },
    },
    async (request) => {
      const { email: rawEmail, phone: rawPhone } = request.body;
      if ((rawEmail === undefined) === (rawPhone === undefined)) throw onboardError('ONB_INVALID_INPUT');
      const locale = request.locale;
      if (rawEmail !== undefined) {
        const email = emailOf(rawEmail);
        const base = origin(request);
        afterAnswer(request, async () => {
          const user = await app.users.findByEmail(email);
          if (!user) return;
          const since = new Date(Date.now() - 3600_000);
          if ((await app.passwords.resetTokens.countSince(user.id, since)) >= RESET_LINKS_PER_HOUR) return;
          const token = await app.passwords.resetTokens.create(user.id);
          const link = `${base}${BASE_PATH}/reset-password?token=${encodeURIComponent(token)}`;
          const values = { link, minutes: minutes(RESET_TOKEN_TTL_MS) };
          await app.mail.send({
            channel: 'email',
            to: email,
            code: token,
            subject: app.translations.translate(locale, 'errors.email.reset_subject'),
            text: app.translations.translate(locale, 'errors.email.reset_text', values),
          });
        });
        return { success: true, data: { channel: 'email', expires_in_s: RESET_TOKEN_TTL_MS / 1000 } };
      }
      const phone = normalisePhone(rawPhone ?? '', request.body.country_code ?? config.defaultCountry);
      if (!phone) throw onboardError('ONB_INVALID_PHONE');
      afterAnswer(request, async () => {
        const user = await app.users.findByPhone(phone.e164);
        if (!user) return;
        const issued = await app.otp.issue(phone.e164, 'password_reset');
        const text = app.translations.translate(locale, 'errors.sms.otp', {
          code: issued.code,
          minutes: minutes(config.otpTtlMs),
        });
        try {
          await app.transport.send({ channel: 'sms', to: phone.e164, text, code: issued.code });
        } catch (err) {
          await app.otp.discard(phone.e164, 'password_reset');
          throw err;
        }
      });
      return {
        success: true,
        data: {
          channel: 'sms',
          phone: phone.e164,
          otp_length: app.otp.lengthOf('password_reset'),
          expires_in_s: Math.ceil(config.otpTtlMs / 1000),
        },
      };
    },
  );

  const setPassword = async (request: FastifyRequest<{ Body: SetPasswordBody }>, reply: FastifyReply) => {
    const { token, phone: rawPhone, otp, password, password_confirmation } = request.body;
    assertNewPassword(password, password_confirmation);
    let userId: string | null;
    let provedEmail = false;
    if (token !== undefined) {
      userId = await app.passwords.resetTokens.consume(token);
      if (!userId) throw onboardError('ONB_RESET_LINK_INVALID');
      provedEmail = true;
    } else if (rawPhone !== undefined && otp !== undefined) {
      const phone = normalisePhone(rawPhone, request.body.country_code ?? config.defaultCountry);
      if (!phone) throw onboardError('ONB_INVALID_PHONE');
      await app.otp.verify(phone.e164, 'password_reset', otp);
      userId = (await app.users.findByPhone(phone.e164))?.id ?? null;
      if (!userId) throw onboardError('ONB_OTP_INCORRECT');
    } else {
      throw onboardError('ONB_INVALID_INPUT');
    }
    await app.users.setPasswordHash(userId, await hashPassword(password));
    if (provedEmail) await app.users.markEmailVerified(userId, new Date());
    await signOutEverywhere(request, reply, userId);
    request.log.info({ userId }, 'password reset; every session ended');
    return passwordChanged;
  };
  const setPasswordSchema = (operationId: string) => ({
    operationId,
    security: [],
    tags: ['auth'],
    summary: 'Set a new password with a forgot-password link token or a phone code; every session ends',
    description:
      'Used, expired or unknown token: 400 ONB_RESET_LINK_INVALID. Wrong code: 400 field otp. Password rules as web_sign_up. Afterwards every session of the account has ended (SPEC §4); sign in again.',
    headers: ref('api/client-headers.schema.json'),
    body: ref('api/set-password.schema.json'),
    response: { 200: ok(ref('api/password-changed.schema.json')), ...errorResponses },
  });
  app.put<{ Body: SetPasswordBody }>(
    '/hms_ms/api/v1/users/password',
    { config: { public: true }, schema: setPasswordSchema('setPassword') },
    setPassword,
  );
  app.post<{ Body: SetPasswordBody }>(
    '/hms_ms/api/v1/users/password',
    { config: { public: true }, schema: setPasswordSchema('setPasswordByPost') },
    setPassword,
  );

  app.post<{ Body: ChangePasswordBody }>(
    '/hms_ms/api/v1/users/change_password',
    {
      schema: {
        operationId: 'changePassword',
        tags: ['auth'],
        summary: 'Change the password (current and new); every session of the account ends, this one too',
        description:
          "Wrong current password: 400 ONB_WRONG_PASSWORD (field current_password), throttled like sign-in (429). Password rules as web_sign_up. SPEC §4: 'Changing the password logs the user out of all devices'.",
        security: [{ session: [] }],
        headers: ref('api/client-headers.schema.json'),
        body: ref('api/change-password.schema.json'),
        response: { 200: ok(ref('api/password-changed.schema.json')), ...errorResponses },
      },
    },
    async (request, reply) => {
      const me = signedInUser(request);
      const subjects = [
        { key: `user:${me.id}`, rule: ACCOUNT_RULE },
        { key: `ip:${request.ip}`, rule: ADDRESS_RULE },
      ];
      await app.passwords.limiter.assertAllowed(subjects);
      const user = await app.users.findById(me.id);
      if (!user || !(await checkPassword(user.password_hash, request.body.current_password))) {
        await app.passwords.limiter.fail(subjects);
        throw onboardError('ONB_WRONG_PASSWORD');
      }
      await app.passwords.limiter.succeed(`user:${me.id}`);
      assertNewPassword(request.body.password, request.body.password_confirmation);
      await app.users.setPasswordHash(user.id, await hashPassword(request.body.password));
      await signOutEverywhere(request, reply, user.id);
      request.log.info({ userId: user.id }, 'password changed; every session ended');
      return passwordChanged;
    },
  );
}
