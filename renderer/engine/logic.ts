import jsonLogic from 'json-logic-js';
import type { JsonLogic } from '../../schemas/generated/types';

/** Data JSON Logic rules read in the browser: `{ form, response? }` (schemas/common JsonLogic). */
export interface LogicData {
  form: Record<string, unknown>;
  response?: unknown;
}

/**
 * Evaluates a JSON Logic condition (json-logic-js) over `data`: an absent rule is true, a boolean is itself,
 * anything else is the truthiness of the result. A rule that throws counts as false.
 */
export function evaluateCondition(rule: JsonLogic | undefined, data: LogicData): boolean {
  if (rule === undefined) return true;
  if (typeof rule === 'boolean') return rule;
  try {
    return jsonLogic.truthy(jsonLogic.apply(rule as Parameters<typeof jsonLogic.apply>[0], data));
  } catch {
    return false;
  }
}

/**
 * Resolves a value that may be a JSON Logic rule (SPEC-free convention of schemas/actions: submit body values,
 * set_value values): a rule is evaluated over `data`; any other value, or a rule that throws (a literal object
 * that merely looks like a rule), is returned unchanged.
 */
export function resolveValue(value: unknown, data: LogicData): unknown {
  if (!jsonLogic.is_logic(value)) return value;
  try {
    return jsonLogic.apply(value as Parameters<typeof jsonLogic.apply>[0], data);
  } catch {
    return value;
  }
}
