import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';
import { onboardError } from '../../errors';
import type { ScreenCatalogue } from '../../screens/composer';
import { globalInfoFor } from '../global';
import { errorResponses, ok, ref } from '../responses';

/** Brand of the composed screens (the holiday-home variant would pass its own). */
export const SCREEN_BRAND = 'hotel';

/**
 * GET /hms_ms/api/v1/screens/:screen_id — a composed screen (DESIGN "bff/screens") in the language of
 * `httpxoyolang` (else en-GB). Unknown screen → 404 ONB_SCREEN_NOT_FOUND; a screen not marked public
 * without a session → 401 ONB_UNAUTHORIZED. The context's country is `user_url_country` when valid,
 * else the user's, else DEFAULT_COUNTRY.
 */
export default async function screenRoutes(
  app: FastifyInstance,
  opts: { config: Config; screens: ScreenCatalogue },
) {
  const { config, screens } = opts;
  app.get<{ Params: { screen_id: string }; Headers: { user_url_country?: string } }>(
    '/hms_ms/api/v1/screens/:screen_id',
    {
      // Public at the route level: the catalogue decides per screen.
      config: { public: true },
      schema: {
        operationId: 'getScreen',
        tags: ['screens'],
        summary: 'A composed screen; public screens need no session, others answer 401 without one',
        headers: ref('api/client-headers.schema.json'),
        params: ref('api/screen-params.schema.json'),
        response: { 200: ok(ref('screen.schema.json')), ...errorResponses },
      },
    },
    async (request, reply) => {
      const id = request.params.screen_id;
      if (!screens.has(id)) throw onboardError('ONB_SCREEN_NOT_FOUND');
      if (!screens.isPublic(id) && !request.user) throw onboardError('ONB_UNAUTHORIZED');
      const country = request.headers.user_url_country ?? request.user?.country_code;
      const payload = screens.compose(id, {
        global_info: globalInfoFor(config, country),
        flags: config.featureFlags,
        user: request.user,
        lead: null,
        locale: request.locale,
        brand: SCREEN_BRAND,
      });
      reply.header('cache-control', 'no-store').header('vary', 'httpxoyolang, cookie');
      return { success: true, data: payload };
    },
  );
}
