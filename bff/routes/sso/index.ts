import type { FastifyInstance } from 'fastify';
import type { JWTVerifyGetKey } from 'jose';
import type { SsoSignInBody, SsoSignInResult } from '../../../schemas/generated/types';
import type { Config } from '../../config';
import { onboardError } from '../../errors';
import { createSsoService, SsoRefusal, type SsoService } from '../../services/sso';
import { toUserDetails } from '../../services/users';
import { errorResponses, ok, ref } from '../responses';

/** Options of {@link ssoRoutes}. */
export interface SsoRoutesOptions {
  config: Config;
  /** Clock in ms since the epoch (default Date.now). */
  now?: () => number;
  /** Key lookup instead of the remote JWKS (tests of the route alone). */
  keys?: JWTVerifyGetKey;
}

/**
 * The hand-off from the provider's main app (issue 11 item 4; SPEC §2 /route/redirect/propertyOnboard, §4,
 * §7 public path sso/sign_in/info): the client posts the token it read from the URL fragment and receives a
 * session of our own. Without SSO configuration (SSO_JWKS_URL, SSO_ISSUER, SSO_AUDIENCE) the route answers
 * 404 ONB_SSO_NOT_CONFIGURED.
 */
export default async function ssoRoutes(app: FastifyInstance, opts: SsoRoutesOptions) {
  const { config } = opts;
  const now = opts.now ?? Date.now;
  const sso: SsoService | null = config.sso
    ? createSsoService({
        settings: config.sso,
        db: app.db,
        users: app.users,
        defaultCountry: config.defaultCountry,
        now,
        ...(opts.keys ? { keys: opts.keys } : {}),
      })
    : null;

  if (sso) {
    // Used tokens are only needed until their expiry; an hourly sweep keeps the table small.
    const purge = setInterval(() => {
      sso.purgeExpired().catch((err: unknown) => app.log.error({ err }, 'sso token purge failed'));
    }, 3600_000);
    purge.unref();
    app.addHook('onClose', async () => clearInterval(purge));
  }

  app.post<{ Body: SsoSignInBody }>(
    '/hms_ms/api/v1/users/sso/sign_in/info',
    {
      config: { public: true },
      schema: {
        operationId: 'ssoSignIn',
        tags: ['auth'],
        summary:
          "Exchange the main app's signed token for a session (sets onboard_sid and isLoggedIn cookies)",
        description:
          'The token is a JWS from the main app (issuer SSO_ISSUER, audience SSO_AUDIENCE, keys at SSO_JWKS_URL, ' +
          'asymmetric algorithms only), living at most SSO_MAX_TOKEN_LIFETIME_S and used once (by jti). Its claims ' +
          'name the owner by phone and/or email; sub is the main app id. 400 ONB_SSO_TOKEN_INVALID / ' +
          'ONB_SSO_TOKEN_UNTRUSTED / ONB_SSO_TOKEN_LIFETIME / ONB_SSO_TOKEN_EXPIRED / ONB_SSO_CLAIMS_MISSING, ' +
          '409 ONB_SSO_TOKEN_USED, 403 ONB_SSO_NOT_OWNER (a PropertyManager or Employee), 404 ONB_SSO_NO_ACCOUNT ' +
          '(an unknown e-mail without phone), 404 ONB_SSO_NOT_CONFIGURED, 503 when the keys cannot be fetched.',
        security: [],
        headers: ref('api/client-headers.schema.json'),
        body: ref('api/sso-sign-in.schema.json'),
        response: { 200: ok(ref('api/sso-sign-in-result.schema.json')), ...errorResponses },
      },
    },
    async (request, reply): Promise<{ success: true; data: SsoSignInResult }> => {
      reply.header('cache-control', 'no-store');
      if (!sso || !config.sso) throw onboardError('ONB_SSO_NOT_CONFIGURED');
      try {
        const identity = await sso.verify(request.body.token);
        await sso.consume(identity);
        const user = await sso.resolveOwner(identity, request.locale);
        await app.startSession(reply, user.id, request);
        request.log.info({ userId: user.id, jti: identity.jti, via: 'sso' }, 'signed in');
        return {
          success: true,
          data: { user: toUserDetails(user), login_type: 'sso', sign_out_url: config.sso.signOutUrl },
        };
      } catch (err) {
        if (!(err instanceof SsoRefusal)) throw err;
        request.log.info({ reason: err.reason, code: err.code }, 'sso token refused');
        throw onboardError(err.code);
      }
    },
  );
}
