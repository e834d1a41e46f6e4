import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type {
  SocialLoginStartBody,
  SocialMediaLoginBody,
  TruecallerCallbackBody,
} from '../../../schemas/generated/types';
import type { Config } from '../../config';
import { onboardError } from '../../errors';
import { ownOrigin } from '../../plugins/app/security';
import {
  BROWSER_BINDING_COOKIE,
  isBrowserToken,
  isSocialProvider,
  newBrowserToken,
  SOCIAL_LOGIN_TTL_MS,
} from '../../services/social-login';
import { OWNER_ROLE, toUserDetails } from '../../services/users';
import { errorResponses, ok, ref } from '../responses';

/** Where the client route of the return lives (SPEC §2 /propertyOnboard/social_login/:oauth_mode). */
export const SOCIAL_LOGIN_RETURN_PATH = '/propertyOnboard/social_login';

/**
 * The login providers configured here, in the order of the buttons: Google, Facebook and Apple when their
 * OpenID settings are (`app.socialLogin`), then Truecaller when its partner key is. What getSocialProviders
 * answers as `providers`, and what the public screens are composed with (`social_providers`, the
 * social_login_buttons widget's `configured`).
 */
export function configuredProviders(app: FastifyInstance): string[] {
  const providers: string[] = [...app.socialLogin.enabled()];
  if (app.truecaller.enabled()) providers.push('truecaller');
  return providers;
}

/** Parameters of a form_post return that are passed on to the client route (never the rest). */
const FORM_POST_PARAMS = ['code', 'state', 'iss', 'error', 'error_description'] as const;

/**
 * Sign-in through Google, Facebook and Apple (issue 11 item 2) and Truecaller (item 3); SPEC §1, §2, §4,
 * §7, §9. The browser starts at `startSocialLogin` (authorization URL; the HttpOnly `onboard_oauth`
 * cookie binds the request to it), comes back to /propertyOnboard/social_login/<provider> (Apple by a
 * form POST that this module turns into a GET of the client route), and the client finishes with
 * `social_media_login`, which starts the session like verify_otp.
 */
export default async function socialRoutes(app: FastifyInstance, opts: { config: Config }) {
  const { config } = opts;
  const secure = config.nodeEnv === 'production';

  const redirectUriFor = (request: FastifyRequest, provider: string) =>
    `${config.publicOrigin ?? ownOrigin(request)}${SOCIAL_LOGIN_RETURN_PATH}/${provider}`;

  /** The browser's binding token, set (or kept) on this answer. */
  const bindBrowser = (request: FastifyRequest, reply: FastifyReply): string => {
    const existing = request.cookies[BROWSER_BINDING_COOKIE];
    const token = isBrowserToken(existing) ? existing : newBrowserToken();
    reply.setCookie(BROWSER_BINDING_COOKIE, token, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure,
      maxAge: Math.floor(SOCIAL_LOGIN_TTL_MS / 1000),
    });
    return token;
  };

  // Apple's form_post return is application/x-www-form-urlencoded; parsed in this module's scope only.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 16 * 1024 },
    (_request, body, done) => {
      done(
        null,
        Object.fromEntries(new URLSearchParams(typeof body === 'string' ? body : body.toString('utf8'))),
      );
    },
  );

  app.get(
    '/hms_ms/api/v1/users/social_login/providers',
    {
      config: { public: true },
      schema: {
        operationId: 'getSocialProviders',
        tags: ['auth'],
        summary:
          'The login providers configured here (one button each) and those linked to the signed-in owner',
        security: [{}, { session: [] }],
        headers: ref('api/client-headers.schema.json'),
        response: { 200: ok(ref('api/social-providers.schema.json')), ...errorResponses },
      },
    },
    async (request) => {
      const providers = configuredProviders(app);
      const linked = request.user ? await app.socialLogin.linkedProviders(request.user.id) : [];
      return { success: true, data: { providers, linked } };
    },
  );

  app.post<{ Body: SocialLoginStartBody }>(
    '/hms_ms/api/v1/users/social_login/authorize',
    {
      config: { public: true },
      schema: {
        operationId: 'startSocialLogin',
        tags: ['auth'],
        summary: "Start signing in with Google, Facebook or Apple: the provider's authorization URL",
        description:
          'Creates state, nonce and a PKCE verifier (kept on the server for 10 minutes, single use) and sets the HttpOnly onboard_oauth cookie that binds them to this browser. 404 for a provider that is not configured; intent link needs a session (401).',
        security: [{}, { session: [] }],
        headers: ref('api/client-headers.schema.json'),
        body: ref('api/social-login-start.schema.json'),
        response: { 200: ok(ref('api/social-login-start-result.schema.json')), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { oauth_mode: provider, intent } = request.body;
      if (intent === 'link' && !request.user) throw onboardError('ONB_UNAUTHORIZED');
      const url = await app.socialLogin.begin({
        provider,
        browserToken: bindBrowser(request, reply),
        redirectUri: redirectUriFor(request, provider),
        linkUserId: intent === 'link' && request.user ? request.user.id : null,
      });
      reply.header('cache-control', 'no-store');
      return { success: true, data: { authorization_url: url.href } };
    },
  );

  app.post<{ Body: SocialMediaLoginBody }>(
    '/hms_ms/api/v1/users/social_media_login',
    {
      config: { public: true },
      schema: {
        operationId: 'finishSocialLogin',
        tags: ['auth'],
        summary:
          'Finish signing in with a provider and start a session (sets onboard_sid and isLoggedIn cookies)',
        description:
          "google/facebook/apple: the return's query is checked by openid-client (state of this browser, single use; code exchanged with the PKCE verifier; ID token issuer, audience, expiry and nonce): any failure is 400 ONB_SOCIAL_LOGIN_FAILED. An owner is matched by a linked provider account, else by an e-mail the provider verified; an unverified e-mail of an existing owner is 409 ONB_SOCIAL_EMAIL_UNVERIFIED; else a new owner is created. truecaller: 409 ONB_TRUECALLER_PENDING 'No callback received' until Truecaller called back (poll again); outcome used_another_number means falling back to the phone code.",
        security: [{}, { session: [] }],
        headers: ref('api/client-headers.schema.json'),
        body: ref('api/social-media-login.schema.json'),
        response: { 200: ok(ref('api/social-media-login-result.schema.json')), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { oauth_mode: mode } = request.body;
      const browserToken = request.cookies[BROWSER_BINDING_COOKIE] ?? null;
      const defaults = { country_code: config.defaultCountry, language: request.locale };

      if (mode === 'truecaller') {
        if (!request.body.request_nonce) throw onboardError('ONB_INVALID_INPUT');
        const outcome = await app.truecaller.poll(request.body.request_nonce, browserToken);
        if (outcome.status === 'used_another_number') {
          return { success: true, data: { outcome: 'used_another_number' } };
        }
        const user = await app.users.findOrCreateOwner({
          phone: outcome.phone,
          country_code: outcome.country_code,
          language: request.locale,
        });
        if (user.devise_role !== OWNER_ROLE) throw onboardError('ONB_SOCIAL_NOT_OWNER');
        await app.startSession(reply, user.id, request);
        request.log.info({ userId: user.id, provider: 'truecaller' }, 'signed in');
        return { success: true, data: { user: toUserDetails(user), outcome: 'signed_in' } };
      }

      if (request.body.callback_query === undefined) throw onboardError('ONB_INVALID_INPUT');
      const profile = await app.socialLogin.finish({
        provider: mode,
        browserToken,
        redirectUri: redirectUriFor(request, mode),
        callbackQuery: request.body.callback_query,
      });
      if (profile.linkUserId && request.user?.id !== profile.linkUserId)
        throw onboardError('ONB_UNAUTHORIZED');
      const { user, how } = await app.socialLogin.resolveUser(profile, defaults);
      if (how === 'linked_from_account') {
        request.log.info({ userId: user.id, provider: mode }, 'provider linked');
        return { success: true, data: { user: toUserDetails(user), outcome: 'linked' } };
      }
      await app.startSession(reply, user.id, request);
      request.log.info({ userId: user.id, provider: mode, how }, 'signed in');
      return {
        success: true,
        data: { user: toUserDetails(user), outcome: how === 'created' ? 'created' : 'signed_in' },
      };
    },
  );

  app.post<{ Params: { oauth_mode: string }; Body: Record<string, string> | undefined }>(
    `${SOCIAL_LOGIN_RETURN_PATH}/:oauth_mode`,
    {
      config: { public: true, crossSite: true },
      schema: {
        operationId: 'receiveSocialLoginFormPost',
        tags: ['auth'],
        summary: "A provider's form_post return (Apple): 303 to the same path as a GET, the client finishes",
        description:
          'Only code, state, iss, error and error_description are passed on. Nothing is changed here, so the cross-site POST is accepted; the browser binding is checked when the client finishes (the SameSite=Lax cookie is sent on the GET).',
        security: [],
        params: ref('api/social-login-params.schema.json'),
        response: {
          303: { description: 'To /propertyOnboard/social_login/<provider>?code=…&state=…', type: 'null' },
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const { oauth_mode: provider } = request.params;
      if (!isSocialProvider(provider)) throw onboardError('ONB_SOCIAL_PROVIDER_UNKNOWN');
      const body = request.body ?? {};
      const query = new URLSearchParams();
      for (const key of FORM_POST_PARAMS) {
        const value = body[key];
        if (typeof value === 'string' && value.length <= 2048) query.set(key, value);
      }
      return reply
        .code(303)
        .header('cache-control', 'no-store')
        .redirect(`${SOCIAL_LOGIN_RETURN_PATH}/${provider}?${query.toString()}`, 303);
    },
  );

  app.post(
    '/hms_ms/api/v1/users/truecaller/request',
    {
      config: { public: true },
      schema: {
        operationId: 'startTruecallerLogin',
        tags: ['auth'],
        summary: 'Start a Truecaller verification: the deep link and its request nonce (SPEC §4, §9)',
        description:
          'Sets the HttpOnly onboard_oauth cookie binding the request to this browser. 404 when Truecaller is not configured.',
        security: [{}, { session: [] }],
        headers: ref('api/client-headers.schema.json'),
        response: { 200: ok(ref('api/truecaller-request-result.schema.json')), ...errorResponses },
      },
    },
    async (request, reply) => {
      if (!app.truecaller.enabled()) throw onboardError('ONB_SOCIAL_PROVIDER_UNKNOWN');
      const data = await app.truecaller.begin(bindBrowser(request, reply), request.locale);
      reply.header('cache-control', 'no-store');
      return { success: true, data };
    },
  );

  app.post<{ Body: TruecallerCallbackBody }>(
    '/hms_ms/api/v1/users/truecaller/callback',
    {
      config: { public: true, crossSite: true },
      schema: {
        operationId: 'receiveTruecallerCallback',
        tags: ['auth'],
        summary: "Truecaller's server-to-server callback for a request nonce",
        description:
          'For a pending request only (else 404). The profile is read with the access token from the endpoint only when it is https on a host of TRUECALLER_PROFILE_HOSTS (else 400): no other address is ever fetched.',
        security: [],
        body: ref('api/truecaller-callback.schema.json'),
        response: { 204: { description: 'Recorded', type: 'null' }, ...errorResponses },
      },
    },
    async (request, reply) => {
      if (!app.truecaller.enabled()) throw onboardError('ONB_SOCIAL_PROVIDER_UNKNOWN');
      await app.truecaller.callback(request.body);
      return reply.code(204).send();
    },
  );
}
