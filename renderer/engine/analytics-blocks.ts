import type { AnalyticsBlock, AnalyticsValue } from '../../schemas/generated/types';
import type { ShellHost } from './host';
import { resolveValue } from './logic';

/**
 * The analytics blocks of the screen language (issue 15 item 1, common.schema.json AnalyticsBlock): an
 * `analytics` block on an action is sent each time the action runs, on a widget once when it is first
 * drawn, on a screen once each time it is drawn. Values were composed by the server ($bind, $logic); a
 * value that is still an object is a JSON Logic rule read here over `{ response }` only (never the form,
 * which holds what the owner typed).
 */

const isScalar = (value: unknown): value is AnalyticsValue =>
  value === null || ['string', 'number', 'boolean'].includes(typeof value);

/**
 * The properties of `block` with its rules evaluated over `{ response }`: a rule giving a scalar sends it,
 * anything else (an object, an array, undefined) sends null, so the key still says the rule ran.
 */
export function analyticsProperties(
  block: AnalyticsBlock,
  response?: unknown,
): Record<string, AnalyticsValue> {
  const out: Record<string, AnalyticsValue> = {};
  for (const [key, value] of Object.entries(block.properties ?? {})) {
    const resolved = isScalar(value) ? value : resolveValue(value, { form: {}, response });
    out[key] = isScalar(resolved) ? resolved : null;
  }
  return out;
}

/** Sends `block` through the shell's analytics queue (nothing without one), on screen `screenId`. */
export function emitAnalyticsBlock(
  host: ShellHost,
  block: AnalyticsBlock | undefined,
  screenId: string,
  response?: unknown,
  extra: Record<string, AnalyticsValue> = {},
): void {
  if (!block || !host.logEvent) return;
  host.logEvent(block.event, { ...analyticsProperties(block, response), ...extra }, screenId);
}

/** A path segment that is an id (a property_unique_id 'PO…', a UUID, or any segment with 6+ digits). */
const ID_SEGMENT =
  /^(PO[A-Z0-9]{10}|[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|.*\d.*\d.*\d.*\d.*\d.*\d.*)$/i;

/**
 * An endpoint as an event property: its path with id segments replaced by `:id`, so that events group by
 * route ('/hms_ms/api/v1/onboard/leads/:id/publish') and carry no id that is not the event's own.
 */
export function endpointTemplate(endpoint: string): string {
  const path = endpoint.split('?', 1)[0] ?? '';
  return path
    .split('/')
    .map((segment) => (ID_SEGMENT.test(segment) ? ':id' : segment))
    .join('/')
    .slice(0, 200);
}
