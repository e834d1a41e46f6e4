import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { FunnelQuery } from '../../../schemas/generated/types';
import type { Config } from '../../config';
import { computeFunnel, shortDuration, type Funnel } from '../../services/funnel';
import { errorResponses, ok, ref } from '../responses';
import { staffOnly, staffPageOnly, staffSecurity } from '../staff';
import { escapeHtml } from '../../html';

/** The staff funnel as JSON. */
export const FUNNEL_PATH = '/hms_ms/api/v1/staff/funnel';
/** The staff funnel as a page with a chart. */
export const FUNNEL_PAGE_PATH = '/hms_ms/api/v1/staff/funnel/page';

const DAY_MS = 24 * 3600_000;
const DEFAULT_DAYS = 30;

async function typedQuery(request: FastifyRequest) {
  const query = request.query as Record<string, unknown>;
  if (typeof query.days === 'string' && /^\d{1,4}$/.test(query.days)) query.days = Number(query.days);
}

/**
 * The funnel as an HTML page (no script: it runs under the app's Content-Security-Policy): a horizontal bar
 * per step (SVG), the count, the share of the cohort and the median time from sign-up, and links to other
 * windows.
 */
export function funnelPage(funnel: Funnel, days: number): string {
  const rowH = 34;
  const labelW = 170;
  const barW = 420;
  const height = funnel.steps.length * rowH + 10;
  const bars = funnel.steps
    .map((s, i) => {
      const y = i * rowH + 5;
      const w = Math.max(s.reached > 0 ? 2 : 0, Math.round(s.share * barW));
      const label = `${s.reached} · ${Math.round(s.share * 100)}% · ${shortDuration(s.median_s)}`;
      return [
        `<text x="0" y="${y + 20}" class="step">${escapeHtml(s.step)}</text>`,
        `<rect x="${labelW}" y="${y}" width="${barW}" height="26" class="track"/>`,
        `<rect x="${labelW}" y="${y}" width="${w}" height="26" class="bar"><title>${escapeHtml(label)}</title></rect>`,
        `<text x="${labelW + barW + 10}" y="${y + 20}" class="value">${escapeHtml(label)}</text>`,
      ].join('');
    })
    .join('\n');
  const windows = [7, 30, 90, 365]
    .map((d) => (d === days ? `<strong>${d} days</strong>` : `<a href="?days=${d}">${d} days</a>`))
    .join(' · ');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Owner funnel</title>
<style>
body{font-family:system-ui,sans-serif;margin:24px;color:#1a1a1a}
h1{font-size:1.4rem}
.step{font-size:14px}.value{font-size:13px;fill:#444}
.track{fill:#eee}.bar{fill:#d32f2f}
table{border-collapse:collapse;margin-top:16px}td,th{padding:4px 12px;text-align:start;border-bottom:1px solid #ddd}
</style></head>
<body>
<h1>Where owners drop off</h1>
<p>Owners who signed up from ${escapeHtml(funnel.from)} to ${escapeHtml(funnel.to)}: <strong>${funnel.owners}</strong>. Window: ${windows}</p>
<svg role="img" aria-label="Funnel chart" width="${labelW + barW + 200}" height="${height}" viewBox="0 0 ${labelW + barW + 200} ${height}">
${bars}
</svg>
<table><thead><tr><th>Step</th><th>Owners</th><th>Share</th><th>Median time from sign-up</th></tr></thead><tbody>
${funnel.steps
  .map(
    (s) =>
      `<tr><td>${escapeHtml(s.step)}</td><td>${s.reached}</td><td>${Math.round(s.share * 100)}%</td><td>${shortDuration(s.median_s)}</td></tr>`,
  )
  .join('\n')}
</tbody></table>
</body></html>
`;
}

/**
 * Where owners drop off (issue 15 item 2), for staff (the support staff token): `GET …/staff/funnel` as
 * JSON (api/funnel.schema.json) and `GET …/staff/funnel/page` as a page with a chart (the token as the
 * password of the browser's sign-in prompt, or a Bearer header). `days` (default 30) chooses the cohort.
 */
export default async function funnelRoutes(
  app: FastifyInstance,
  { config, now }: { config: Config; now: () => number },
) {
  const window = (days: number | undefined) => {
    const to = now();
    const d = days ?? DEFAULT_DAYS;
    return { from: to - d * DAY_MS, to, days: d };
  };

  app.get<{ Querystring: FunnelQuery }>(
    FUNNEL_PATH,
    {
      preValidation: typedQuery,
      config: { public: true },
      preHandler: staffOnly(config),
      schema: {
        operationId: 'getFunnel',
        tags: ['funnel'],
        security: staffSecurity,
        summary: 'Staff: for each journey step, how many owners reached it and the median time to it',
        description:
          'The cohort: owner accounts created in the last `days` days (default 30). Steps are read from the events the BFF records where the state changes. Needs `Authorization: Bearer <SUPPORT_STAFF_TOKEN>` (401 ONB_STAFF_UNAUTHORIZED otherwise; 404 when no token is configured).',
        querystring: ref('api/funnel-query.schema.json'),
        response: { 200: ok(ref('api/funnel.schema.json')), ...errorResponses },
      },
    },
    async (request, reply) => {
      const { from, to } = window(request.query.days);
      reply.header('cache-control', 'no-store');
      return { success: true, data: await computeFunnel(app.db, from, to) };
    },
  );

  app.get<{ Querystring: FunnelQuery }>(
    FUNNEL_PAGE_PATH,
    {
      preValidation: typedQuery,
      // An HTML page: the pages' security headers (plugins/external/helmet.ts).
      config: { public: true, document: true },
      preHandler: staffPageOnly(config),
      schema: {
        operationId: 'getFunnelPage',
        tags: ['funnel'],
        security: staffSecurity,
        summary: 'Staff: the funnel as an HTML page with a bar chart',
        description:
          'The staff token as the password of HTTP Basic authentication (the browser asks for it: 401 with WWW-Authenticate Basic), or as a Bearer header.',
        querystring: ref('api/funnel-query.schema.json'),
        response: {
          200: { description: 'HTML page', content: { 'text/html': { schema: { type: 'string' } } } },
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const { from, to, days } = window(request.query.days);
      const funnel = await computeFunnel(app.db, from, to);
      reply.header('cache-control', 'no-store').type('text/html; charset=utf-8');
      return funnelPage(funnel, days);
    },
  );
}
