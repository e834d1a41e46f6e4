import type { WidgetEnvelope } from '../../schemas/generated/types';
import type { AppStore } from '../state/atoms';
import { fieldChecksReady, findFieldRules, validateField } from './field-validation';
import { readForm, setFieldError, type FieldRulesSource } from './form';
import { evaluateCondition } from './logic';

/** Whether a widget binds `field` (its `field`, or a map pin's `lat_field` / `lng_field`). */
function bindsField(widget: WidgetEnvelope, field: string): boolean {
  const c = widget.contents as Record<string, unknown> | undefined;
  return !!c && (c.field === field || c.lat_field === field || c.lng_field === field);
}

/**
 * Validates the listed fields of a screen's form against the rules their widgets declare
 * (field-validation.ts) and shows each failure under its field, clearing the error of a valid one. A field no
 * widget declares counts as valid; so does a field whose every widget is hidden (`visible_when` false over
 * the form): its error is cleared, so it does not show up in error when it appears later (issue 12 item 19:
 * the sub type in error after a submit refused for the title). True when all are valid.
 */
export function validateFormFields(
  store: AppStore,
  screenId: string,
  fields: readonly string[],
  source: FieldRulesSource,
): boolean {
  const form = readForm(store, screenId);
  const widgets = source.getWidgets();
  let ok = true;
  for (const field of fields) {
    const own = widgets.filter((w) => bindsField(w, field));
    if (own.length > 0 && !own.some((w) => evaluateCondition(w.visible_when, { form }))) {
      setFieldError(store, screenId, field, undefined);
      continue;
    }
    const rules = findFieldRules(widgets, field);
    const error = rules ? validateField(rules, form[field], form, source.t) : undefined;
    setFieldError(store, screenId, field, error);
    if (error !== undefined) ok = false;
  }
  return ok;
}

/**
 * {@link validateFormFields} once every check of the listed fields can run in full (a phone field's waits for
 * libphonenumber-js, widgets/phone-numbers.ts). Resolves false when a field is invalid, or when what a check
 * needs failed to load (the submit does not go out unchecked; the next try loads again).
 */
export async function validateFormFieldsWhenReady(
  store: AppStore,
  screenId: string,
  fields: readonly string[],
  source: FieldRulesSource,
): Promise<boolean> {
  const widgets = source.getWidgets();
  const ready = fieldChecksReady(fields.map((field) => findFieldRules(widgets, field)));
  if (ready) {
    try {
      await ready;
    } catch {
      return false;
    }
  }
  return validateFormFields(store, screenId, fields, source);
}

/**
 * Checks one field as {@link validateFormFields} does, once its checks can run in full (a field losing focus,
 * FormApi `validate`); a check whose code failed to load leaves the field as it is.
 */
export function validateFieldWhenReady(
  store: AppStore,
  screenId: string,
  field: string,
  source: FieldRulesSource,
): void {
  const ready = fieldChecksReady([findFieldRules(source.getWidgets(), field)]);
  if (!ready) validateFormFields(store, screenId, [field], source);
  else
    ready.then(
      () => validateFormFields(store, screenId, [field], source),
      () => undefined,
    );
}
