import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PreviewCatalogue, PreviewCheck, ScreenPayload } from '../../../schemas/generated/types';
import type { Config } from '../../config';
import { onboardError } from '../../errors';
import {
  chooseVariant,
  composeDefinition,
  loadFixtureContexts,
  readDefinition,
  readVariants,
  ScreenDefinitionError,
  type ScreenContext,
  type Translate,
} from '../../screens/composer';
import { locales } from '../../services/translations';
import { errorResponses, ok, ref } from '../responses';
import { staffTokenMatches } from '../support';

const BASE = '/hms_ms/api/v1/preview';

/**
 * The staff preview (issue 16 item 2): any screen composed for any fixture context of
 * bff/screens/fixtures/contexts, in the request's language (`httpxoyolang`), by the composer from the
 * definition files as they are now — an edit shows at once, and a definition that does not compose is
 * told with its file and JSON path instead of being served. The client page is /__preview/screens.
 *
 * Open in development (NODE_ENV other than `production`); in production only to staff, with
 * `Authorization: Bearer <SUPPORT_STAFF_TOKEN>` as the support staff API (401 ONB_STAFF_UNAUTHORIZED
 * otherwise, 404 when no token is configured).
 */
export default async function previewRoutes(
  app: FastifyInstance,
  opts: { config: Config; screensDir: string; translate: Translate },
) {
  const { config, screensDir, translate } = opts;
  // The document says what this server does: outside production the preview is open (`{}`: no credentials).
  const security: Record<string, string[]>[] =
    config.nodeEnv === 'production' ? [{ staffToken: [] }] : [{}, { staffToken: [] }];
  const staff = { tags: ['preview'], security };

  const staffOnly = async (request: FastifyRequest, reply: FastifyReply) => {
    if (config.nodeEnv !== 'production') return;
    if (!config.supportStaffToken) throw onboardError('ONB_NOT_FOUND');
    if (!staffTokenMatches(request.headers.authorization, config.supportStaffToken)) {
      reply.header('www-authenticate', 'Bearer realm="preview"');
      throw onboardError('ONB_STAFF_UNAUTHORIZED');
    }
  };

  /** The fixture context `name` in the request's language; 404 when there is none. */
  const contextOf = (name: string, locale: ScreenContext['locale']): ScreenContext => {
    const ctx = loadFixtureContexts(screensDir)[name];
    if (!ctx) throw onboardError('ONB_NOT_FOUND');
    return { ...ctx, locale };
  };
  /** The definition file of `id`; 404 ONB_SCREEN_NOT_FOUND when there is none. */
  const fileOf = (id: string): string => {
    const file = join(screensDir, `${id}.json`);
    if (!existsSync(file)) throw onboardError('ONB_SCREEN_NOT_FOUND');
    return file;
  };
  /** Reads and composes `id` for `ctx` with every check of the server's start (schemas included). */
  const compose = (id: string, ctx: ScreenContext): ScreenPayload => {
    const file = fileOf(id);
    const def = readDefinition(file);
    // A variant whose rule holds for the context (bff/screens/variants, e.g. L1) is drawn, as served.
    const variant = chooseVariant(
      readVariants(screensDir, (s) => (s === id ? def : undefined), id).get(id),
      ctx,
    );
    return variant
      ? composeDefinition(variant.file, variant.def, ctx, translate)
      : composeDefinition(file, def, ctx, translate);
  };

  app.get(
    BASE,
    {
      // Not behind the owner's session: staffOnly decides.
      config: { public: true },
      preHandler: staffOnly,
      schema: {
        ...staff,
        operationId: 'getPreviewCatalogue',
        summary: 'What the staff preview can draw: the screens, the fixture contexts and the languages',
        response: { 200: ok(ref('api/preview-catalogue.schema.json')), ...errorResponses },
      },
    },
    async () => {
      const contexts = loadFixtureContexts(screensDir);
      const screens: PreviewCatalogue['screens'] = [];
      for (const name of readdirSync(screensDir).sort()) {
        if (!name.endsWith('.json')) continue;
        let isPublic = false;
        try {
          isPublic = readDefinition(join(screensDir, name)).public === true;
        } catch {
          // Listed all the same: the check of this screen tells what is wrong.
        }
        screens.push({ screen_id: name.slice(0, -'.json'.length), public: isPublic });
      }
      const data: PreviewCatalogue = {
        screens,
        contexts: Object.entries(contexts).map(([name, ctx]) => ({ name, signed_in: Boolean(ctx.user) })),
        locales: [...locales],
      };
      return { success: true, data };
    },
  );

  app.get<{ Params: { screen_id: string }; Querystring: { context: string } }>(
    `${BASE}/check/:screen_id`,
    {
      // Not behind the owner's session: staffOnly decides.
      config: { public: true },
      preHandler: staffOnly,
      schema: {
        ...staff,
        operationId: 'checkPreviewScreen',
        summary:
          'Whether a screen composes for a fixture context, else the file and JSON path of the problem',
        params: ref('api/screen-params.schema.json'),
        querystring: ref('api/preview-query.schema.json'),
        response: { 200: ok(ref('api/preview-check.schema.json')), ...errorResponses },
      },
    },
    async (request) => {
      const ctx = contextOf(request.query.context, request.locale);
      let data: PreviewCheck = { ok: true };
      try {
        compose(request.params.screen_id, ctx);
      } catch (err) {
        if (err instanceof ScreenDefinitionError) {
          data = { ok: false, file: relative(screensDir, err.file), path: err.path, detail: err.detail };
        } else if (err instanceof Error && !('statusCode' in err)) {
          data = { ok: false, file: `${request.params.screen_id}.json`, path: '', detail: err.message };
        } else throw err;
      }
      return { success: true, data };
    },
  );

  app.get<{ Params: { screen_id: string }; Querystring: { context: string } }>(
    `${BASE}/screens/:screen_id`,
    {
      // Not behind the owner's session: staffOnly decides.
      config: { public: true },
      preHandler: staffOnly,
      schema: {
        ...staff,
        operationId: 'getPreviewScreen',
        summary: 'A screen composed for a fixture context, as the renderer draws it (the staff preview)',
        description:
          'A definition that does not compose answers 404 ONB_SCREEN_NOT_FOUND: ask GET /hms_ms/api/v1/preview/check/:screen_id for why.',
        params: ref('api/screen-params.schema.json'),
        querystring: ref('api/preview-query.schema.json'),
        response: { 200: ok(ref('screen.schema.json')), ...errorResponses },
      },
    },
    async (request, reply) => {
      const ctx = contextOf(request.query.context, request.locale);
      let payload: ScreenPayload;
      try {
        payload = compose(request.params.screen_id, ctx);
      } catch (err) {
        if (err instanceof Error && !('statusCode' in err)) throw onboardError('ONB_SCREEN_NOT_FOUND');
        throw err;
      }
      reply.header('cache-control', 'no-store');
      return { success: true, data: payload };
    },
  );
}
