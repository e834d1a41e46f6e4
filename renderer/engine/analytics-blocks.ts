import type { AnalyticsBlock, AnalyticsValue } from '../../schemas/generated/types';
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
