import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type {
  PublishScreenVersionBody,
  RollbackScreenBody,
  ScreenAuditQuery,
  StaffScreenParams,
  UploadScreenVersionBody,
} from '../../../schemas/generated/types';
import type { Config } from '../../config';
import { onboardError } from '../../errors';
import type { ScreenVersions } from '../../services/screen-versions';
import { errorResponses, ok, ref } from '../responses';
import { staffTokenMatches } from '../support';

/** Base path of the staff API of the screens' versions. */
export const STAFF_SCREENS = '/hms_ms/api/v1/staff/screens';

const AUTH =
  'Authorization: Bearer <SUPPORT_STAFF_TOKEN> (the staff token of the support API). 401 ONB_STAFF_UNAUTHORIZED without the right token; 404 when SUPPORT_STAFF_TOKEN is not set. An unknown screen answers 404 ONB_SCREEN_NOT_FOUND.';

/**
 * The staff API of the screens' versions (issue 16 item 3, `services/screen-versions.ts`): list, upload,
 * publish (with an optional rollout), roll back, and the audit log. Every route needs
 * `Authorization: Bearer <SUPPORT_STAFF_TOKEN>` (401 ONB_STAFF_UNAUTHORIZED otherwise; 404 while no token
 * is configured) and answers `Cache-Control: no-store`. `npm run screens:publish` calls it.
 */
export default async function screenVersionRoutes(
  app: FastifyInstance,
  { config, versions }: { config: Config; versions: ScreenVersions },
) {
  const staff = { tags: ['staff'], security: [{ staffToken: [] }] };
  const staffOnly = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!config.supportStaffToken) throw onboardError('ONB_NOT_FOUND');
    if (!staffTokenMatches(request.headers.authorization, config.supportStaffToken)) {
      reply.header('www-authenticate', 'Bearer realm="staff"');
      throw onboardError('ONB_STAFF_UNAUTHORIZED');
    }
    reply.header('cache-control', 'no-store');
  };
  // Runs before the schema checks, so that a caller without the token learns nothing about the routes.
  const common = { config: { public: true }, onRequest: staffOnly };

  app.get(
    STAFF_SCREENS,
    {
      ...common,
      schema: {
        ...staff,
        operationId: 'listScreenReleases',
        summary: 'Staff: the published version of every screen (0: the deployed file)',
        description: AUTH,
        response: { 200: ok(ref('api/screen-release-list.schema.json')), ...errorResponses },
      },
    },
    async () => ({ success: true, data: { screens: await versions.releases() } }),
  );

  app.get<{ Querystring: ScreenAuditQuery }>(
    `${STAFF_SCREENS}/audit`,
    {
      ...common,
      preValidation: async (request) => {
        const q = request.query as Record<string, unknown>;
        if (typeof q.limit === 'string' && /^\d{1,6}$/.test(q.limit)) q.limit = Number(q.limit);
      },
      schema: {
        ...staff,
        operationId: 'listScreenAudit',
        summary: "Staff: every upload, publish and rollback of the screens' versions, with who and when",
        description: AUTH,
        querystring: ref('api/screen-audit-query.schema.json'),
        response: { 200: ok(ref('api/screen-audit-list.schema.json')), ...errorResponses },
      },
    },
    async (request) => {
      const { screen_id: screenId, limit } = request.query;
      return {
        success: true,
        data: await versions.audit({
          ...(screenId !== undefined ? { screenId } : {}),
          ...(limit !== undefined ? { limit } : {}),
        }),
      };
    },
  );

  app.get<{ Params: StaffScreenParams }>(
    `${STAFF_SCREENS}/:screen_id/versions`,
    {
      ...common,
      schema: {
        ...staff,
        operationId: 'listScreenVersions',
        summary: "Staff: a screen's release and every version, the newest first",
        description: AUTH,
        params: ref('api/staff-screen-params.schema.json'),
        response: { 200: ok(ref('api/screen-version-list.schema.json')), ...errorResponses },
      },
    },
    async (request) => ({ success: true, data: await versions.list(request.params.screen_id) }),
  );

  app.post<{ Params: StaffScreenParams; Body: UploadScreenVersionBody }>(
    `${STAFF_SCREENS}/:screen_id/versions`,
    {
      ...common,
      // A long screen's definition (task_details.json) is ≈100 KB; leave room for growth.
      bodyLimit: 1024 * 1024,
      schema: {
        ...staff,
        operationId: 'uploadScreenVersion',
        summary: "Staff: upload a new version of a screen's definition (checked, not published)",
        description: `${AUTH} The definition is checked like \`npm run screens:check\`: the definition schema, composition against every fixture context, every $t key in every language. Refused: 400 ONB_SCREEN_DEFINITION_INVALID with error.details.reasons [{file, path, detail}]. 201: stored as the next version number.`,
        params: ref('api/staff-screen-params.schema.json'),
        body: ref('api/upload-screen-version.schema.json'),
        response: { 201: ok(ref('api/screen-version-result.schema.json'), 'Stored'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { author, definition, note } = request.body;
      const version = await versions.upload(request.params.screen_id, definition, author, note);
      request.log.info(
        { screenId: version.screen_id, version: version.version, author },
        'screen version uploaded',
      );
      reply.code(201);
      return { success: true, data: { version } };
    },
  );

  app.post<{ Params: StaffScreenParams; Body: PublishScreenVersionBody }>(
    `${STAFF_SCREENS}/:screen_id/publish`,
    {
      ...common,
      schema: {
        ...staff,
        operationId: 'publishScreenVersion',
        summary: 'Staff: publish a version of a screen, to every owner or with a rollout',
        description: `${AUTH} Owners get the version from their next load of the screen; every server instance within SCREEN_VERSIONS_CHECK_MS. With \`rollout\` {percent} only that share of owners (stable per owner) gets it, with {flag} every request while the feature flag is on; everyone else keeps the version they had. 404 ONB_SCREEN_VERSION_NOT_FOUND for a version never uploaded.`,
        params: ref('api/staff-screen-params.schema.json'),
        body: ref('api/publish-screen-version.schema.json'),
        response: { 200: ok(ref('api/screen-release-result.schema.json')), ...errorResponses },
      },
    },
    async (request) => {
      const { author, version, rollout } = request.body;
      const release = await versions.publish(request.params.screen_id, version, author, rollout);
      request.log.info({ release, author }, 'screen version published');
      return { success: true, data: { release } };
    },
  );

  app.post<{ Params: StaffScreenParams; Body: RollbackScreenBody }>(
    `${STAFF_SCREENS}/:screen_id/rollback`,
    {
      ...common,
      schema: {
        ...staff,
        operationId: 'rollbackScreen',
        summary: 'Staff: roll a screen back to an earlier version (0: the deployed file), for every owner',
        description: `${AUTH} Ends any rollout. 404 ONB_SCREEN_VERSION_NOT_FOUND for a version never uploaded.`,
        params: ref('api/staff-screen-params.schema.json'),
        body: ref('api/rollback-screen.schema.json'),
        response: { 200: ok(ref('api/screen-release-result.schema.json')), ...errorResponses },
      },
    },
    async (request) => {
      const { author, version } = request.body;
      const release = await versions.rollback(request.params.screen_id, version, author);
      request.log.info({ release, author }, 'screen rolled back');
      return { success: true, data: { release } };
    },
  );
}
