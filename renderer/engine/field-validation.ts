import { isValidPhoneNumber, type CountryCode } from 'libphonenumber-js';
import type { ChoiceContents, InputContents, WidgetEnvelope } from '../../schemas/generated/types';
import { evaluateCondition } from './logic';

/** A translate function: key (e.g. 'shell.validation.required') and interpolation values → text. */
export type Translate = (key: string, values?: Record<string, unknown>) => string;

/** The rules of a typed field: the validation part of InputContents (schemas/widgets/input.schema.json). */
export type InputRules = Pick<
  InputContents,
  | 'field'
  | 'kind'
  | 'required'
  | 'required_when'
  | 'required_message'
  | 'invalid_message'
  | 'pattern'
  | 'max_length'
  | 'otp_length'
  | 'default_country'
  | 'country_field'
  | 'min'
  | 'max'
>;

/**
 * The rules of a field chosen among options (the validation part of ChoiceContents,
 * schemas/widgets/choice.schema.json), tagged `kind: 'choice'` by {@link findFieldRules}.
 */
export type OptionRules = Pick<
  ChoiceContents,
  'field' | 'required' | 'required_message' | 'options' | 'depends_on'
> & {
  kind: 'choice';
  required_when?: undefined;
  invalid_message?: undefined;
  pattern?: undefined;
  max_length?: undefined;
};

/** The rules a field declares: a typed field ({@link InputRules}) or one chosen among options ({@link OptionRules}). */
export type FieldRules = InputRules | OptionRules;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;
/** Digits of a one-time code when the widget does not say (SPEC §5: 6 in the login flow). */
const DEFAULT_OTP_LENGTH = 6;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Finds the rules declared for `field` in a widget list: the contents of the first widget (or its fallback)
 * whose `contents.field` equals it and that has a `kind` (typed fields) or an `options` array (fields chosen
 * among options, tagged `kind: 'choice'`). The engine knows no widget by name; any widget binding a field
 * with a kind or options declares rules. Undefined when no widget declares the field.
 */
export function findFieldRules(widgets: readonly WidgetEnvelope[], field: string): FieldRules | undefined {
  for (const widget of widgets) {
    const contents: unknown = widget.contents;
    if (isRecord(contents) && contents.field === field && typeof contents.kind === 'string') {
      return contents as unknown as InputRules;
    }
    if (isRecord(contents) && contents.field === field && Array.isArray(contents.options)) {
      return { ...(contents as unknown as ChoiceContents), kind: 'choice' };
    }
    if (isRecord(widget.fallback)) {
      const inner = findFieldRules([widget.fallback as WidgetEnvelope], field);
      if (inner) return inner;
    }
  }
  return undefined;
}

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

function matchesWhole(pattern: string, text: string): boolean {
  try {
    return new RegExp(`^(?:${pattern})$`, 'u').test(text);
  } catch {
    // A pattern the browser cannot compile is the server's mistake; it must not block the user.
    return true;
  }
}

/**
 * The options of a choice field shown for the current form: all of them, or with `depends_on` only those
 * whose `group` equals that field's value (none while it is empty).
 */
export function visibleOptions(
  rules: Pick<ChoiceContents, 'options' | 'depends_on'>,
  form: Record<string, unknown>,
): ChoiceContents['options'][number][] {
  if (rules.depends_on === undefined) return rules.options;
  const selected = form[rules.depends_on];
  return rules.options.filter((option) => option.group !== undefined && option.group === selected);
}

/** A whole number from a number or a string of digits (optionally signed); undefined for anything else. */
function wholeNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : undefined;
  if (typeof value === 'string' && /^[-+]?[0-9]+$/.test(value.trim())) {
    const parsed = Number(value.trim());
    return Number.isSafeInteger(parsed) ? parsed : undefined;
  }
  return undefined;
}

function numberError(rules: InputRules, value: unknown, t: Translate): string | undefined {
  const n = wholeNumber(value);
  const { min, max } = rules;
  const fits = n !== undefined && (min === undefined || n >= min) && (max === undefined || n <= max);
  if (fits) return undefined;
  if (rules.invalid_message) return rules.invalid_message;
  if (min !== undefined && max !== undefined) return t('shell.validation.number_range', { min, max });
  if (min !== undefined) return t('shell.validation.number_min', { min });
  if (max !== undefined) return t('shell.validation.number_max', { max });
  return t('shell.validation.number');
}

/**
 * Checks one value against its field's rules (SPEC §5). Returns the (translated) error text to show under the
 * field, or undefined when valid. Order: required / required_when (JSON Logic over {form}), then — when a value
 * is present — the kind's rule for choice (the value must be one of the visible options), max_length, pattern,
 * and the kind's rule: email, phone (libphonenumber-js isValidPhoneNumber with the country field or
 * default_country), otp (exactly otp_length digits, 6 when absent), number (a whole number within min / max,
 * else invalid_message or 'Enter a whole number between {{min}} and {{max}}'); text and multiline have none
 * beyond max_length and pattern.
 */
export function validateField(
  rules: FieldRules,
  value: unknown,
  form: Record<string, unknown>,
  t: Translate,
): string | undefined {
  const required =
    rules.required === true ||
    (rules.required_when !== undefined && evaluateCondition(rules.required_when, { form }));
  if (isEmpty(value))
    return required ? (rules.required_message ?? t('shell.validation.required')) : undefined;

  if (rules.kind === 'choice') {
    const shown = visibleOptions(rules, form).some((option) => option.value === value);
    return shown ? undefined : t('shell.validation.choice');
  }

  const text = typeof value === 'string' ? value.trim() : String(value);
  const invalid = (key: string, values?: Record<string, unknown>) => rules.invalid_message ?? t(key, values);

  if (rules.max_length !== undefined && text.length > rules.max_length) {
    return invalid('shell.validation.max_length', { max: rules.max_length });
  }
  if (rules.pattern !== undefined && !matchesWhole(rules.pattern, text))
    return invalid('shell.validation.invalid');

  switch (rules.kind) {
    case 'email':
      return EMAIL.test(text) ? undefined : invalid('shell.validation.email');
    case 'phone': {
      const fromField = rules.country_field ? form[rules.country_field] : undefined;
      const country = (
        typeof fromField === 'string' && fromField ? fromField : rules.default_country
      )?.toUpperCase();
      let valid: boolean;
      try {
        valid = isValidPhoneNumber(text, country as CountryCode | undefined);
      } catch {
        valid = false;
      }
      return valid ? undefined : invalid('shell.validation.phone');
    }
    case 'otp': {
      const length = rules.otp_length ?? DEFAULT_OTP_LENGTH;
      return new RegExp(`^[0-9]{${length}}$`).test(text) ? undefined : invalid('shell.validation.otp');
    }
    case 'number':
      return numberError(rules, value, t);
    case 'text':
    case 'multiline':
      return undefined;
    default: {
      const never: never = rules;
      return never;
    }
  }
}
