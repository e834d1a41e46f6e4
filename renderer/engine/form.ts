import { useAtomValue, useStore } from 'jotai';
import { useMemo } from 'react';
import type { JsonLogic, WidgetEnvelope } from '../../schemas/generated/types';
import type { FormApi } from '../../widgets/widget-props';
import { formErrorsAtom, formValuesAtom, type AppStore, type FormValues } from '../state/atoms';
import type { Translate } from './field-validation';
import { loadInteractionCode } from './interaction';
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

/**
 * The FormApi of widgets/widget-props.ts for one screen, backed by the jotai atoms of renderer/state.
 * `validate` checks a field with the rules of `source` (the screen's widgets, engine/form-checks.ts), once
 * that code has loaded; without a source it does nothing. Re-renders the caller whenever the screen's values or errors change.
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
        // The checks are code the page loads once the owner acts (engine/interaction.ts): a field loses focus
        // after a tap or a key, so they are usually there already. Code that failed to load checks nothing.
        loadInteractionCode().then(
          ({ validateFieldWhenReady }) => validateFieldWhenReady(store, screenId, field, source),
          () => undefined,
        );
      },
    };
  }, [store, screenId, values, errors, source]);
}
