import type { InputContents } from '../../schemas/generated/types';
import type { FormApi } from '../widget-props';

/**
 * Whether the field shows the required marker: `required`, or `required_when` evaluating truthy over
 * `{ form }` (an absent rule means "not conditionally required", unlike FormApi.evaluate's default).
 */
export function isRequired(contents: InputContents, form: FormApi): boolean {
  if (contents.required) return true;
  return contents.required_when !== undefined && form.evaluate(contents.required_when);
}

/** The field's current value as the string an input element shows ('' when unset). */
export function stringValue(form: FormApi, field: string): string {
  const v = form.value(field);
  return v === undefined || v === null ? '' : String(v);
}

/** Replaces each `{{field}}` of a server text by that form field's value ('' when unset). */
export function fillFields(text: string, form: FormApi): string {
  return text.replace(/\{\{\s*([a-z][a-z0-9_]*)\s*\}\}/g, (_m, field: string) => stringValue(form, field));
}

/**
 * The TextField props every text-like kind shares: id and name from the field, label, the required marker,
 * the error (or helper text) below, placeholder, autofocus and full width.
 */
export function commonFieldProps(
  id: string,
  contents: InputContents,
  form: FormApi,
  error: string | undefined,
) {
  return {
    id: `${id}-${contents.field}`,
    name: contents.field,
    label: contents.label,
    required: isRequired(contents, form),
    error: Boolean(error),
    helperText: error ?? contents.helper_text,
    placeholder: contents.placeholder,
    autoFocus: contents.autofocus,
    fullWidth: true,
  };
}
