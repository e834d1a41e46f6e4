import type { CountryCode } from 'libphonenumber-js';
import { IDENTIFIER_CHECKS } from '../../schemas/identifiers';
import type {
  ChoiceContents,
  InputContents,
  ItemListContents,
  MapPinContents,
  MultiChoiceContents,
  WidgetEnvelope,
} from '../../schemas/generated/types';
import { evaluateCondition } from './logic';
import { loadPhoneLib, phoneLib } from '../../widgets/phone-numbers';
import { isRecord } from '../../schemas/app/is-record';

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
  | 'identifier'
  | 'identifier_messages'
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

/** Fields the rules of a whole-value kind never carry (they are checked by the kind itself). */
interface NoTypedRules {
  required_when?: undefined;
  invalid_message?: undefined;
  pattern?: undefined;
  max_length?: undefined;
}

/**
 * The rules of an array field picked among options (the validation part of MultiChoiceContents,
 * schemas/widgets/multi_choice.schema.json), tagged `kind: 'multi_choice'` by {@link findFieldRules}.
 */
export type MultiOptionRules = Pick<
  MultiChoiceContents,
  'field' | 'required' | 'required_message' | 'options' | 'mandatory_message'
> &
  NoTypedRules & { kind: 'multi_choice' };

/**
 * The rules of a list of items (the validation part of ItemListContents, schemas/widgets/item_list.schema.json),
 * tagged `kind: 'item_list'` by {@link findFieldRules}.
 */
export type ItemListRules = Pick<
  ItemListContents,
  'field' | 'fields' | 'min_items' | 'max_items' | 'min_items_message' | 'total'
> &
  NoTypedRules & { kind: 'item_list'; required?: undefined; required_message?: undefined };

/**
 * The rules of a pinned location (the validation part of MapPinContents, schemas/widgets/map_pin.schema.json),
 * tagged `kind: 'location'` by {@link findFieldRules}: `field` is the field asked about (lat_field or
 * lng_field); both coordinates are checked together.
 */
export type LocationRules = Pick<
  MapPinContents,
  'lat_field' | 'lng_field' | 'required' | 'required_message'
> &
  NoTypedRules & { kind: 'location'; field: string };

/**
 * The rules a field declares: a typed field ({@link InputRules}), one chosen among options
 * ({@link OptionRules}), several chosen among options ({@link MultiOptionRules}), a list of items
 * ({@link ItemListRules}) or a pinned location ({@link LocationRules}).
 */
export type FieldRules = InputRules | OptionRules | MultiOptionRules | ItemListRules | LocationRules;

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;
/** Digits of a one-time code when the widget does not say (SPEC §5: 6 in the login flow). */
const DEFAULT_OTP_LENGTH = 6;

/**
 * Whether options contents pick several values: they carry a mandatory tag, message or option (only
 * multi_choice has those). Contents without any of them validate the same either way, except that an array
 * value is always checked as several values (see {@link validateField}).
 */
function picksSeveral(contents: Record<string, unknown>, options: unknown[]): boolean {
  return (
    contents.mandatory_label !== undefined ||
    contents.mandatory_message !== undefined ||
    options.some((option) => isRecord(option) && option.mandatory === true)
  );
}

/**
 * Finds the rules declared for `field` in a widget list: the contents of the first widget (or its fallback)
 * whose `contents.field` equals it and that has a `kind` (typed fields), a `fields` array with an
 * `item_label` (lists of items, tagged `kind: 'item_list'`) or an `options` array (fields chosen among
 * options, tagged `kind: 'multi_choice'` when they carry mandatory options or texts, else `kind: 'choice'`),
 * or whose `contents.lat_field` or `contents.lng_field` equals it (a pinned location, tagged
 * `kind: 'location'`).
 * The engine knows no widget by name; any widget binding a field with such contents declares rules.
 * Undefined when no widget declares the field.
 */
export function findFieldRules(widgets: readonly WidgetEnvelope[], field: string): FieldRules | undefined {
  for (const widget of widgets) {
    const contents: unknown = widget.contents;
    if (isRecord(contents) && contents.field === field && typeof contents.kind === 'string') {
      return contents as unknown as InputRules;
    }
    if (
      isRecord(contents) &&
      contents.field === field &&
      Array.isArray(contents.fields) &&
      typeof contents.item_label === 'string'
    ) {
      return { ...(contents as unknown as ItemListContents), kind: 'item_list' };
    }
    if (
      isRecord(contents) &&
      typeof contents.lat_field === 'string' &&
      typeof contents.lng_field === 'string' &&
      (contents.lat_field === field || contents.lng_field === field)
    ) {
      const { lat_field, lng_field, required, required_message } = contents as unknown as MapPinContents;
      return { kind: 'location', field, lat_field, lng_field, required, required_message };
    }
    if (isRecord(contents) && contents.field === field && Array.isArray(contents.options)) {
      return picksSeveral(contents, contents.options)
        ? { ...(contents as unknown as MultiChoiceContents), kind: 'multi_choice' }
        : { ...(contents as unknown as ChoiceContents), kind: 'choice' };
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
 * Several values picked among options: `required` → at least one (required_message), every `mandatory`
 * option picked (mandatory_message, else 'Please select every mandatory option'), and each value one of the
 * options.
 */
function multiChoiceError(
  rules: Pick<MultiOptionRules, 'required' | 'required_message' | 'options' | 'mandatory_message'>,
  value: unknown,
  t: Translate,
): string | undefined {
  if (value !== undefined && value !== null && !Array.isArray(value)) return t('shell.validation.invalid');
  const picked = Array.isArray(value) ? value : [];
  if (picked.length === 0 && rules.required === true) {
    return rules.required_message ?? t('shell.validation.select_one');
  }
  const missing = rules.options.some((option) => option.mandatory === true && !picked.includes(option.value));
  if (missing) return rules.mandatory_message ?? t('shell.validation.mandatory');
  const known = picked.every((v) => rules.options.some((option) => option.value === v));
  return known ? undefined : t('shell.validation.choice');
}

type ItemField = ItemListRules['fields'][number];

/** The error of one field of an item: text and number are required; text ≤ max_length; number whole within min / max. */
function itemFieldError(field: ItemField, value: unknown, t: Translate): string | undefined {
  if (isEmpty(value)) return field.required_message ?? t('shell.validation.required');
  if (field.kind === 'number') {
    const n = wholeNumber(value);
    const fits =
      n !== undefined &&
      (field.min === undefined || n >= field.min) &&
      (field.max === undefined || n <= field.max);
    if (fits) return undefined;
    return numberError(
      {
        field: field.key,
        kind: 'number',
        min: field.min,
        max: field.max,
        invalid_message: field.invalid_message,
      },
      value,
      t,
    );
  }
  const text = typeof value === 'string' ? value.trim() : String(value);
  if (field.max_length !== undefined && text.length > field.max_length) {
    return field.invalid_message ?? t('shell.validation.max_length', { max: field.max_length });
  }
  return undefined;
}

/** Sum of one number key over the items (values that are not whole numbers count 0). */
export function itemTotal(items: readonly unknown[], key: string): number {
  return items.reduce<number>((sum, item) => sum + (isRecord(item) ? (wholeNumber(item[key]) ?? 0) : 0), 0);
}

/** Fills `{{name}}` placeholders of a server text (already translated, so i18next does not see it). */
function fill(text: string, values: Record<string, number>): string {
  return text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) =>
    name in values ? String(values[name]) : whole,
  );
}

/**
 * A list of items: at least `min_items` (min_items_message, else 'Please add at least {{count}} items'), at
 * most `max_items`, each item's fields valid (in item order, then field order: the first failure), and with
 * `total.expected` the sum of `total.key` equal to it (mismatch_message with {{total}} and {{expected}}
 * filled, else a default text).
 */
function itemListError(rules: ItemListRules, value: unknown, t: Translate): string | undefined {
  if (value !== undefined && value !== null && !Array.isArray(value)) return t('shell.validation.invalid');
  const items: unknown[] = Array.isArray(value) ? value : [];
  const min = rules.min_items ?? 0;
  if (items.length < min) {
    return rules.min_items_message ?? t('shell.validation.min_items', { count: min });
  }
  if (rules.max_items !== undefined && items.length > rules.max_items) {
    return t('shell.validation.max_items', { count: rules.max_items });
  }
  for (const item of items) {
    const record = isRecord(item) ? item : {};
    for (const field of rules.fields) {
      const error = itemFieldError(field, record[field.key], t);
      if (error !== undefined) return error;
    }
  }
  const expected = rules.total?.expected;
  if (rules.total && expected !== undefined) {
    const total = itemTotal(items, rules.total.key);
    if (total !== expected) {
      return rules.total.mismatch_message
        ? fill(rules.total.mismatch_message, { total, expected })
        : t('shell.validation.total_mismatch', { total, expected });
    }
  }
  return undefined;
}

/** A coordinate in degrees: a finite number within ±`limit` (90 for latitude, 180 for longitude). */
function isCoordinate(value: unknown, limit: number): boolean {
  return typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= limit;
}

/**
 * A pinned location (SPEC §2 pin exact location): nothing pinned (both fields empty) → required_message
 * (else 'This field is required') when required; a latitude outside ±90 or a longitude outside ±180, a
 * value that is not a number, or one coordinate without the other → 'Invalid Input'.
 */
function locationError(
  rules: LocationRules,
  form: Record<string, unknown>,
  t: Translate,
): string | undefined {
  const lat = form[rules.lat_field];
  const lng = form[rules.lng_field];
  if (isEmpty(lat) && isEmpty(lng)) {
    return rules.required === true ? (rules.required_message ?? t('shell.validation.required')) : undefined;
  }
  return isCoordinate(lat, 90) && isCoordinate(lng, 180) ? undefined : t('shell.validation.invalid');
}

/**
 * A KYC identifier field (issue 5; rules in schemas/identifiers): the message of the check's failure —
 * `identifier_messages[reason]`, else `invalid_message`, else the default text of the reason ('Please enter
 * the full number', 'Please check the format of the number', 'This number is not valid. Please check it for
 * typos'). A value that is nothing but separators (reason `empty`) counts as missing when required.
 */
function identifierError(
  rules: InputRules & { identifier: NonNullable<InputRules['identifier']> },
  text: string,
  required: boolean,
  t: Translate,
): string | undefined {
  const result = IDENTIFIER_CHECKS[rules.identifier](text);
  if (result.valid) return undefined;
  if (result.reason === 'empty' && required) return rules.required_message ?? t('shell.validation.required');
  const reason = result.reason === 'empty' ? 'pattern' : result.reason;
  return (
    rules.identifier_messages?.[reason] ?? rules.invalid_message ?? t(`shell.validation.identifier_${reason}`)
  );
}

/**
 * Resolves once {@link validateField} can check every field of `rules` in full: null when it already can,
 * else a promise that loads what a check needs (libphonenumber-js for a phone field, widgets/phone-numbers.ts).
 * Rejects when that failed every try.
 */
export function fieldChecksReady(rules: ReadonlyArray<FieldRules | undefined>): Promise<void> | null {
  const needsPhone = rules.some((r) => r?.kind === 'phone');
  return needsPhone && !phoneLib() ? loadPhoneLib().then(() => undefined) : null;
}

/**
 * Checks one value against its field's rules (SPEC §5). Returns the (translated) error text to show under the
 * field, or undefined when valid. A list of items, a pinned location and several options picked (or an array
 * value of a choice field) have their own checks (see itemListError, locationError and multiChoiceError).
 * Otherwise, order: required / required_when (JSON Logic over {form}), then — when a value is present — the
 * kind's rule for choice (the value must be one of the visible options), max_length, pattern,
 * and the kind's rule: email, phone (libphonenumber-js isValidPhoneNumber with the country field or
 * default_country), otp (exactly otp_length digits, 6 when absent), number (a whole number within min / max,
 * else invalid_message or 'Enter a whole number between {{min}} and {{max}}'), text with an `identifier` (its
 * published rule, see {@link identifierError}); multiline and other text fields have none beyond max_length
 * and pattern.
 */
export function validateField(
  rules: FieldRules,
  value: unknown,
  form: Record<string, unknown>,
  t: Translate,
): string | undefined {
  if (rules.kind === 'item_list') return itemListError(rules, value, t);
  if (rules.kind === 'location') return locationError(rules, form, t);
  if (rules.kind === 'multi_choice' || (rules.kind === 'choice' && Array.isArray(value))) {
    return multiChoiceError(rules, value, t);
  }
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
      const lib = phoneLib();
      // Not loaded yet: fieldChecksReady() is awaited before a submit, so only a blur gets here early.
      if (!lib) return undefined;
      let valid: boolean;
      try {
        valid = lib.isValidPhoneNumber(text, country as CountryCode | undefined);
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
      return rules.identifier
        ? identifierError({ ...rules, identifier: rules.identifier }, text, required, t)
        : undefined;
    case 'multiline':
    case 'password': // the SPEC §5 rules come as the screen's `pattern`; the server checks them again
      return undefined;
    default: {
      const never: never = rules;
      return never;
    }
  }
}
