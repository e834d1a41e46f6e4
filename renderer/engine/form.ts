import { useAtomValue, useStore } from 'jotai';
import { useMemo } from 'react';
import type { JsonLogic, WidgetEnvelope } from '../../schemas/generated/types';
import type { FormApi } from '../../widgets/widget-props';
import { formErrorsAtom, formValuesAtom, type AppStore, type FormValues } from '../state/atoms';
import { fieldChecksReady, findFieldRules, validateField, type Translate } from './field-validation';
import { evaluateCondition } from './logic';

/** The current form values of a screen (`{}` when none). */
export function readForm(store: AppStore, screenId: string): FormValues {
  return store.get(formValuesAtom)[screenId] ?? {};
}

/** Sets one field of a screen's form and clears that field's error. */
export function writeField(store: AppStore, screenId: string, field: string, value: unknown): void {
  store.set(formValuesAtom, (all) => ({ ...all, [screenId]: { ...all[screenId], [field]: value } }));
  setFieldError(store, screenId, field, undefined);
}

/**
 * Replaces a screen's whole form with `values` and clears its errors (the starting values of
 * ScreenPayload.form when a screen loads).
 */
export function replaceForm(store: AppStore, screenId: string, values: FormValues): void {
  store.set(formValuesAtom, (all) => ({ ...all, [screenId]: { ...values } }));
  store.set(formErrorsAtom, (all) => {
    if (!(screenId in all)) return all;
    const next = { ...all };
    delete next[screenId];
    return next;
  });
}

/** Sets (text) or clears (undefined) the error shown under a field. */
export function setFieldError(
  store: AppStore,
  screenId: string,
  field: string,
  error: string | undefined,
): void {
  store.set(formErrorsAtom, (all) => {
    const current = all[screenId] ?? {};
    if (error === undefined) {
      if (!(field in current)) return all;
      const next = { ...current };
      delete next[field];
      return { ...all, [screenId]: next };
    }
    return { ...all, [screenId]: { ...current, [field]: error } };
  });
}

/** Where the rules of a screen's fields come from: its current widgets, and the translator of default texts. */
export interface FieldRulesSource {
  getWidgets(): readonly WidgetEnvelope[];
  t: Translate;
}

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
 * libphonenumber-js, engine/phone-numbers.ts). Resolves false when a field is invalid, or when what a check
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
 * The FormApi of widgets/widget-props.ts for one screen, backed by the jotai atoms of renderer/state.
 * `validate` checks a field with the rules of `source` (the screen's widgets); without a source it does
 * nothing. Re-renders the caller whenever the screen's values or errors change.
 */
export function useFormApi(screenId: string, source?: FieldRulesSource): FormApi {
  const store = useStore();
  const values = useAtomValue(formValuesAtom)[screenId];
  const errors = useAtomValue(formErrorsAtom)[screenId];
  return useMemo<FormApi>(() => {
    const form = values ?? {};
    return {
      value: (field) => form[field],
      setValue: (field, value) => writeField(store, screenId, field, value),
      error: (field) => errors?.[field],
      evaluate: (rule: JsonLogic | undefined) => evaluateCondition(rule, { form }),
      validate: (field) => {
        if (!source) return;
        const ready = fieldChecksReady([findFieldRules(source.getWidgets(), field)]);
        if (!ready) validateFormFields(store, screenId, [field], source);
        else
          ready.then(
            () => validateFormFields(store, screenId, [field], source),
            () => undefined,
          );
      },
    };
  }, [store, screenId, values, errors, source]);
}
