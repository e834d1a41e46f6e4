import type { FastifyInstance, FastifyRequest } from 'fastify';
import type {
  ClientErrorReportsBody,
  ErrorGroupList,
  ErrorGroupsQuery,
} from '../../../schemas/generated/types';
import type { Config } from '../../config';
import { prepareReport, storeReport } from '../../services/error-reports';
import { errorResponses, ok, ref } from '../responses';
import { staffOnly, staffSecurity } from '../staff';

/** Where the browser sends error reports (renderer/shell/error-reporter.ts). */
export const CLIENT_ERRORS_PATH = '/hms_ms/api/v1/errors';
/** The staff list of error groups. */
export const ERROR_GROUPS_PATH = '/hms_ms/api/v1/staff/errors';

/** Query strings of whole numbers become numbers before validation (the project's ajv does not coerce). */
async function typedQuery(request: FastifyRequest) {
  const query = request.query as Record<string, unknown>;
  for (const name of ['limit', 'offset']) {
    const v = query[name];
    if (typeof v === 'string' && /^\d{1,15}$/.test(v)) query[name] = Number(v);
  }
}

const iso = (value: Date | string) => new Date(value).toISOString();

/**
 * Error reporting (issue 15 item 3). `POST /hms_ms/api/v1/errors` (public): a batch of at most 10 reports
 * from the browser, validated by api/client-error-reports.schema.json, at most ERROR_REPORTS_PER_MINUTE
 * requests per client a minute (429 ONB_RATE_LIMITED with Retry-After); each report is scrubbed of
 * personal data, logged with the request id (and the failed call's request id), and counted in its group.
 * `GET /hms_ms/api/v1/staff/errors` (staff token): the groups with counts, first and last seen.
 */
export default async function errorRoutes(app: FastifyInstance, { config }: { config: Config }) {
  app.post<{ Body: ClientErrorReportsBody }>(
    CLIENT_ERRORS_PATH,
    {
      config: {
        public: true,
        rateLimit: {
          max: config.errorReportsPerMinute,
          timeWindow: 60_000,
          keyGenerator: (request: FastifyRequest) => `client-errors:${request.ip}`,
        },
      },
      schema: {
        operationId: 'postClientErrors',
        tags: ['errors'],
        security: [],
        summary: 'Report errors seen in the browser (script errors, rejections, widget failures, API 5xx)',
        description:
          "Public. At most 10 reports; ERROR_REPORTS_PER_MINUTE (default 30) requests per client a minute, then 429 ONB_RATE_LIMITED with Retry-After. E-mail addresses, tokens, query strings and digit runs of 7 or more are scrubbed from every text before it is logged or stored. Reports are grouped by a fingerprint of kind, normalised message and top stack frame (an api_5xx: its API path template); the answer gives each report's fingerprint.",
        headers: ref('api/client-headers.schema.json'),
        body: ref('api/client-error-reports.schema.json'),
        response: {
          202: ok(ref('api/client-error-reports-result.schema.json'), 'Stored'),
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const at = new Date();
      const prepared = request.body.reports.map(prepareReport);
      for (const report of prepared) {
        request.log.warn(
          {
            clientError: {
              kind: report.kind,
              fingerprint: report.fingerprint,
              message: report.message,
              topFrame: report.topFrame,
              ...report.details,
              failedRequestId: report.requestId,
            },
            userId: request.user?.id ?? null,
          },
          'client error reported',
        );
        await storeReport(app.db, report, at, request.id);
      }
      return reply.code(202).send({
        success: true,
        data: { accepted: prepared.length, fingerprints: prepared.map((r) => r.fingerprint) },
      });
    },
  );

  app.get<{ Querystring: ErrorGroupsQuery }>(
    ERROR_GROUPS_PATH,
    {
      preValidation: typedQuery,
      config: { public: true },
      preHandler: staffOnly(config),
      schema: {
        operationId: 'listErrorGroups',
        tags: ['errors'],
        security: staffSecurity,
        summary: 'Staff: client error groups with counts, first and last seen, the most recent first',
        description:
          'Needs `Authorization: Bearer <SUPPORT_STAFF_TOKEN>` (401 ONB_STAFF_UNAUTHORIZED otherwise; 404 when no token is configured).',
        querystring: ref('api/error-groups-query.schema.json'),
        response: { 200: ok(ref('api/error-group-list.schema.json')), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { limit = 50, offset = 0, kind } = request.query;
      let query = app.db.selectFrom('error_groups');
      if (kind) query = query.where('kind', '=', kind);
      const [rows, total] = await Promise.all([
        query
          .selectAll()
          .orderBy('last_seen', 'desc')
          .orderBy('fingerprint')
          .limit(limit)
          .offset(offset)
          .execute(),
        query.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
      ]);
      const data: ErrorGroupList = {
        total: Number(total.n),
        groups: rows.map((r) => ({
          fingerprint: r.fingerprint,
          kind: r.kind,
          message: r.message,
          top_frame: r.top_frame,
          count: Number(r.count),
          first_seen: iso(r.first_seen),
          last_seen: iso(r.last_seen),
          last_request_id: r.last_request_id,
          last_details: (typeof r.last_details === 'string'
            ? JSON.parse(r.last_details)
            : r.last_details) as ErrorGroupList['groups'][number]['last_details'],
        })),
      };
      reply.header('cache-control', 'no-store');
      return { success: true, data };
    },
  );
}
