import fp from 'fastify-plugin';
import type { Config } from '../../config';
import { createSocialLoginService, type SocialLoginService } from '../../services/social-login';
import { createTruecallerService, type TruecallerService } from '../../services/truecaller';

declare module 'fastify' {
  interface FastifyInstance {
    /** Google, Facebook and Apple sign-in (issue 11 item 2). */
    socialLogin: SocialLoginService;
    /** Truecaller sign-in (issue 11 item 3). */
    truecaller: TruecallerService;
  }
}

/** Decorates `app.socialLogin` and `app.truecaller` from the configuration. */
export default fp<{ config: Config; now: () => number; fetch?: typeof fetch }>(
  async (app, { config, now, fetch: fetchImpl }) => {
    app.decorate(
      'socialLogin',
      createSocialLoginService(app.db, {
        providers: config.socialProviders,
        production: config.nodeEnv === 'production',
        now,
      }),
    );
    app.decorate(
      'truecaller',
      createTruecallerService(app.db, {
        settings: config.truecaller,
        profileHosts: config.truecallerProfileHosts,
        now,
        fetch: fetchImpl ?? fetch,
        production: config.nodeEnv === 'production',
      }),
    );
    // Attempts and Truecaller requests are refused once expired; this keeps the tables small.
    const purge = setInterval(() => {
      const cutoff = new Date(now() - 24 * 3600_000);
      app.db
        .deleteFrom('social_login_attempts')
        .where('expires_at', '<', cutoff)
        .execute()
        .then(() => app.db.deleteFrom('truecaller_requests').where('expires_at', '<', cutoff).execute())
        .catch((err: unknown) => app.log.error({ err }, 'social login purge failed'));
    }, 3600_000);
    purge.unref();
    app.addHook('onClose', async () => clearInterval(purge));
  },
  { name: 'social-login', dependencies: ['db'] },
);
