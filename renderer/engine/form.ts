import { useStore } from 'jotai';
import { useMemo } from 'react';
import type { JsonLogic, WidgetEnvelope } from '../../schemas/generated/types';
import type { FormApi } from '../../widgets/widget-props';
import { formErrorsAtom, formValuesAtom, type AppStore, type FormValues } from '../state/atoms';
import type { Translate } from './field-validation';
import { loadInteractionCode } from './interaction';
import { evaluateCondition } from './logic';
import { useExternalValue } from '../state/use-store-value';

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

/** What a FormApi's holder has read so far: field values, field errors, or every value (a rule said so). */
interface FormReads {
  values: Set<string>;
  errors: Set<string>;
  everyValue: boolean;
}

const NO_FIELDS: Readonly<Record<string, never>> = Object.freeze({});

/**
 * Follows one screen's form for one component: `reads` collects what the component read through its FormApi,
 * and `version` changes only when one of those values or errors changed, so that a field typed in, or a
 * default written after the first paint, re-renders the widgets that show or test it, not the whole screen.
 */
function formTracker(store: AppStore, screenId: string) {
  const reads: FormReads = { values: new Set(), errors: new Set(), everyValue: false };
  const valuesNow = () => store.get(formValuesAtom)[screenId] ?? NO_FIELDS;
  const errorsNow = () => store.get(formErrorsAtom)[screenId] ?? NO_FIELDS;
  let values = valuesNow();
  let errors = errorsNow();
  let version = 0;
  const currentVersion = () => {
    const nextValues = valuesNow();
    const nextErrors = errorsNow();
    if (nextValues === values && nextErrors === errors) return version;
    const changed =
      (nextValues !== values &&
        (reads.everyValue || [...reads.values].some((f) => !Object.is(values[f], nextValues[f])))) ||
      (nextErrors !== errors && [...reads.errors].some((f) => errors[f] !== nextErrors[f]));
    values = nextValues;
    errors = nextErrors;
    if (changed) version += 1;
    return version;
  };
  const subscribe = (onChange: () => void) => {
    const stopValues = store.sub(formValuesAtom, onChange);
    const stopErrors = store.sub(formErrorsAtom, onChange);
    return () => {
      stopValues();
      stopErrors();
    };
  };
  return { reads, version: currentVersion, subscribe, valuesNow, errorsNow };
}

/**
 * The FormApi of widgets/widget-props.ts for one screen, backed by the jotai atoms of renderer/state.
 * `validate` checks a field with the rules of `source` (the screen's widgets, engine/form-checks.ts), once
 * that code has loaded; without a source it does nothing.
 *
 * Re-renders the caller when a value or error it has read changes (`value`, `error`, the fields the
 * evaluations of its rules by `evaluate` read), not at every change of the screen's form. The object is the same
 * for the screen's life; `value` and `error` read the form as it is now.
 */
export function useFormApi(screenId: string, source?: FieldRulesSource): FormApi {
  const store = useStore();
  const tracker = useMemo(() => formTracker(store, screenId), [store, screenId]);
  useExternalValue(tracker.version, tracker.subscribe);
  return useMemo<FormApi>(() => {
    const { reads } = tracker;
    return {
      value: (field) => {
        reads.values.add(field);
        return tracker.valuesNow()[field];
      },
      setValue: (field, value) => writeField(store, screenId, field, value),
      error: (field) => {
        reads.errors.add(field);
        return tracker.errorsNow()[field];
      },
      evaluate: (rule: JsonLogic | undefined) => {
        // The rule sees the form through a proxy that notes each field its evaluation reads: the result
        // depends on those alone (a field that `and`, `or` or `if` did not reach changes nothing while the
        // ones read stay as they are). Listing the fields (Object.keys…) counts as reading them all. Noted
        // fields stay noted for the screen's life: at worst a needless re-render.
        const note = (field: string | symbol) => {
          if (typeof field === 'string') reads.values.add(field);
        };
        const form = new Proxy(tracker.valuesNow(), {
          get: (values, field) => (note(field), Reflect.get(values, field)),
          has: (values, field) => (note(field), Reflect.has(values, field)),
          ownKeys: (values) => {
            reads.everyValue = true;
            return Reflect.ownKeys(values);
          },
        });
        return evaluateCondition(rule, { form });
      },
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
  }, [store, screenId, source, tracker]);
}
