import * as validators from '../../schemas/generated/validators';

/** One schema problem: the JSON path (JSON Pointer into the validated value) and ajv's message. */
export interface SchemaIssue {
  path: string;
  message: string;
}

/** Result of a validation: ok, or the issues found (paths relative to the validated value). */
export type SchemaCheck = { ok: true } | { ok: false; issues: SchemaIssue[] };

type Validator = ((data: unknown) => boolean) & {
  errors?: Array<{ instancePath: string; message?: string }> | null;
};

function run(validator: Validator, data: unknown): SchemaCheck {
  if (validator(data)) return { ok: true };
  const issues = (validator.errors ?? []).map((e) => ({
    path: e.instancePath || '/',
    message: e.message ?? 'invalid',
  }));
  return { ok: false, issues: issues.length > 0 ? issues : [{ path: '/', message: 'invalid' }] };
}

/** Validates a screen payload with the ahead-of-time compiled `screen` validator (schemas/screen.schema.json). */
export function checkScreenPayload(data: unknown): SchemaCheck {
  return run(validators.screen as Validator, data);
}

/**
 * Validates a widget's `contents` with `widget_<widgetType>`. Returns null when no validator exists for the
 * type (an unknown widget_type).
 */
export function checkWidgetContents(widgetType: string, contents: unknown): SchemaCheck | null {
  const validator = (validators as unknown as Record<string, Validator | undefined>)[`widget_${widgetType}`];
  if (typeof validator !== 'function') return null;
  return run(validator, contents);
}
