import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AnalyticsEventsBody } from '../../../schemas/generated/types';
import { PERSONAL_KEY_PATTERN } from '../../../schemas/generated/analytics-keys';
import { onboardError } from '../../errors';
import { analyticsEndpoints, DEFAULT_BUILD_VARIANT } from '../../../schemas/app/build-variants';
import { errorResponses, ok, ref } from '../responses';

/** The route's path (SPEC §9 analytics, issue 15 item 1): the standard build's analytics target. */
export const ANALYTICS_EVENTS_PATH = '/hms_ms/api/v1/analytics/events';

/** `postAnalyticsEvents` and, for another build variant's path, `postAnalyticsEvents<Variant>` (OpenAPI). */
const operationIdOf = (variant: string) =>
  variant === DEFAULT_BUILD_VARIANT
    ? 'postAnalyticsEvents'
    : `postAnalyticsEvents${variant.charAt(0).toUpperCase()}${variant.slice(1)}`;

/**
 * Property keys refused as personal data (issue 15 'no personal data in events beyond ids'): the `not.pattern`
 * of common.schema.json AnalyticsPropertyName, the one copy of the deny list. The route's body schema
 * refuses them (400 ONB_INVALID_INPUT, shown in the OpenAPI document); this is the same pattern, generated
 * from the schema, for code and tests that check a key by hand.
 */
export { PERSONAL_KEY_PATTERN };

/** Whether a property key names personal data ({@link PERSONAL_KEY_PATTERN}). */
export function isPersonalKey(key: string): boolean {
  return PERSONAL_KEY_PATTERN.test(key);
}

/** Earliest and latest year of an event's `at` that is stored (outside: 400, never a database error). */
const YEARS = { min: 2000, max: 9999 } as const;

type Event = AnalyticsEventsBody['events'][number];

/** A UTF-16 surrogate without its pair (not well-formed text; jsonb refuses it). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The occurred_at of an event: its `at` as a Date. 400 ONB_INVALID_INPUT (field `events`) when the year is
 * outside {@link YEARS}, or when a string of the event is not well-formed UTF-16 (a lone surrogate, which
 * jsonb cannot store).
 */
function checkedEvent(e: Event): Date {
  const at = new Date(e.at);
  const year = at.getUTCFullYear();
  const strings = [e.event, e.screen_id ?? '', ...Object.values(e.properties ?? {})].filter(
    (v): v is string => typeof v === 'string',
  );
  if (
    !Number.isFinite(at.getTime()) ||
    year < YEARS.min ||
    year > YEARS.max ||
    strings.some((s) => LONE_SURROGATE.test(s))
  ) {
    throw onboardError('ONB_INVALID_INPUT', { field: 'events' });
  }
  return at;
}

/**
 * POST /hms_ms/api/v1/analytics/events (public: signed in or out), and the same at the analytics path of
 * every other build variant (schemas/app/build-variants.ts; SPEC §9 'a China client build uses a different
 * … analytics target'; China: /hms_ms/api/v1/analytics/cn/events), whose events get `build_variant` (e.g.
 * `china`) among their properties, over anything the browser sent under that key: stores a batch of at most 50 events in
 * `analytics_events`, with the signed-in user's id when the request has a session (issue 15 item 1) and
 * the visit's campaign (`utm_source`, `utm_medium`, `utm_campaign` of the `onboard_utm` cookie, item 6) among
 * each event's properties, unless the event names them itself.
 * Answers 202 `{ accepted }`. A body outside api/analytics-events.schema.json (unknown fields, a
 * non-snake_case event name, more than 20 properties, a non-scalar value, a personal key) → 400
 * ONB_INVALID_INPUT and nothing is stored. Requests per client are capped by the global rate limit.
 */
export default async function analyticsRoutes(app: FastifyInstance) {
  for (const { path, variant } of analyticsEndpoints()) analyticsRoute(app, path, variant);
}

/** One analytics target: `path` of the build `variant` (see {@link analyticsRoutes}). */
function analyticsRoute(app: FastifyInstance, path: string, variant: string): void {
  // Events of a build variant other than the standard one say which (issue 15 item 7).
  const tag = variant === DEFAULT_BUILD_VARIANT ? {} : { build_variant: variant };
  app.post<{ Body: AnalyticsEventsBody }>(
    path,
    {
      config: { public: true },
      schema: {
        operationId: operationIdOf(variant),
        tags: ['analytics'],
        summary:
          variant === DEFAULT_BUILD_VARIANT
            ? 'Store a batch of analytics events (sent with navigator.sendBeacon or fetch keepalive)'
            : `Store a batch of analytics events of the ${variant} build (as postAnalyticsEvents, tagged build_variant)`,
        description:
          'Public: signed in, the events carry the user id of the session. At most 50 events; properties are scalars (at most 20), never personal data: a key with phone, mobile, email, mail, name, address, password or otp is refused (400 ONB_INVALID_INPUT).',
        headers: ref('api/client-headers.schema.json'),
        body: ref('api/analytics-events.schema.json'),
        response: { 202: ok(ref('api/analytics-events-result.schema.json'), 'Stored'), ...errorResponses },
      },
    },
    async (request, reply) => {
      const userId = request.user?.id ?? null;
      const rows = request.body.events.map((e) => ({
        id: randomUUID(),
        user_id: userId,
        session_id: e.session_id,
        event: e.event,
        // The visit's campaign (issue 15 item 6: utm sent with analytics); the event's own properties win.
        properties: JSON.stringify({ ...request.utm, ...e.properties, ...tag }),
        screen_id: e.screen_id ?? null,
        occurred_at: checkedEvent(e),
      }));
      await app.db.insertInto('analytics_events').values(rows).execute();
      return reply.code(202).send({ success: true, data: { accepted: rows.length } });
    },
  );
}
