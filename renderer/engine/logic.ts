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

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}

/**
 * Resolves a value recursively (schemas/actions SubmitAction.body, NavigateAction.query): a JSON Logic rule is
 * evaluated over `data`; a plain object that is not a rule — several keys, or one key that names no JSON Logic
 * operation, at any depth (`{ data: { title: { var: 'form.title' } } }`) — is walked key by key; arrays are walked item by
 * item; anything else is returned unchanged. A rule that throws for another reason is returned unchanged, as
 * in {@link resolveValue}.
 */
export function resolveDeep(value: unknown, data: LogicData): unknown {
  if (Array.isArray(value)) return value.map((item) => resolveDeep(item, data));
  if (!isPlainObject(value)) return value;
  if (jsonLogic.is_logic(value)) {
    try {
      return jsonLogic.apply(value as Parameters<typeof jsonLogic.apply>[0], data);
    } catch (error) {
      // json-logic-js evaluates arguments first, so a key deeper down may be the unknown "operation".
      const unknownOperation = error instanceof Error && error.message.startsWith('Unrecognized operation');
      if (!unknownOperation) return value;
    }
  }
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, resolveDeep(item, data)]));
}
