import fp from 'fastify-plugin';
import type { Config } from '../../config';
import { CONTACT_OTP_LENGTH, createOtpService, type OtpService } from '../../services/otp';
import { createUserRepository, type UserRepository } from '../../services/users';

declare module 'fastify' {
  interface FastifyInstance {
    /** One-time codes (SPEC §4, §5). */
    otp: OtpService;
    /** Users. */
    users: UserRepository;
  }
}

/** Decorates `app.otp` and `app.users`. */
export default fp<{ config: Config; now: () => number }>(
  async (app, { config, now }) => {
    app.decorate(
      'otp',
      createOtpService(
        app.db,
        {
          secret: config.otpSecret,
          length: config.otpLength,
          lengthByPurpose: { contact_email: CONTACT_OTP_LENGTH, contact_phone: CONTACT_OTP_LENGTH },
          ttlMs: config.otpTtlMs,
          maxAttempts: config.otpMaxAttempts,
          maxPerHour: config.otpMaxPerHour,
          resendCooldownMs: config.otpResendCooldownMs,
        },
        now,
      ),
    );
    app.decorate('users', createUserRepository(app.db));
  },
  { name: 'otp', dependencies: ['db'] },
);
