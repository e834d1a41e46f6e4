import fp from 'fastify-plugin';
import {
  createContactVerificationService,
  type ContactVerificationService,
} from '../../services/contact-verification';

declare module 'fastify' {
  interface FastifyInstance {
    /** Verifying an owner's e-mail address and phone number by code, and profile switches (SPEC §3 KYC, §6). */
    contactVerification: ContactVerificationService;
  }
}

/**
 * Decorates `app.contactVerification` over `app.db` and `app.otp`, sending e-mail codes by `app.mail`
 * and SMS codes by `app.transport`, texts from `app.translations`; `now` (ms) stamps rows.
 */
export default fp<{ now: () => number }>(
  async (app, { now }) => {
    app.decorate(
      'contactVerification',
      createContactVerificationService({
        db: app.db,
        otp: app.otp,
        sms: app.transport,
        mail: app.mail,
        translate: app.translations.translate,
        now,
      }),
    );
  },
  { name: 'contact-verification', dependencies: ['db', 'otp', 'transport', 'mail', 'translations'] },
);
