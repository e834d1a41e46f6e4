import { describe, expect, it } from 'vitest';
import type { WidgetEnvelope } from '../../schemas/generated/types';
import { i18n } from '../i18n/instance';
import { findFieldRules, validateField, visibleOptions, type FieldRules } from './field-validation';

const t = (key: string, values?: Record<string, unknown>) => i18n.t(key, values);

const rooms: FieldRules = { field: 'total_rooms', kind: 'number', required: true, min: 1, max: 1000 };
const description: FieldRules = { field: 'description', kind: 'multiline', max_length: 20, required: true };

const typeWidget: WidgetEnvelope = {
  id: 'type',
  widget_type: 'choice',
  contents: {
    field: 'property_type',
    label: 'Property type',
    required: true,
    required_message: 'Please choose a property type',
    options: [
      { value: 'hotel', label: 'Hotel' },
      { value: 'holiday_home', label: 'Holiday home' },
    ],
  },
};
const subTypeWidget: WidgetEnvelope = {
  id: 'sub',
  widget_type: 'choice',
  contents: {
    field: 'property_sub_type',
    label: 'Sub type',
    required: true,
    depends_on: 'property_type',
    options: [
      { value: 'resort', label: 'Resort', group: 'hotel' },
      { value: 'villa', label: 'Villa', group: 'holiday_home' },
    ],
  },
};

describe('validateField: number', () => {
  it('accepts whole numbers within min and max, as numbers or digit strings', () => {
    expect(validateField(rooms, 1, {}, t)).toBeUndefined();
    expect(validateField(rooms, 1000, {}, t)).toBeUndefined();
    expect(validateField(rooms, '25', {}, t)).toBeUndefined();
  });

  it("refuses others with 'Enter a whole number between {{min}} and {{max}}'", () => {
    for (const bad of [0, 1001, 2.5, 'twelve', '12a']) {
      expect(validateField(rooms, bad, {}, t)).toBe('Enter a whole number between 1 and 1000');
    }
  });

  it('uses invalid_message, or the one-sided texts, and the required text when empty', () => {
    expect(validateField({ ...rooms, invalid_message: 'Rooms: 1 to 1000' }, 0, {}, t)).toBe(
      'Rooms: 1 to 1000',
    );
    expect(validateField({ ...rooms, max: undefined }, 0, {}, t)).toBe('Enter a whole number of at least 1');
    expect(validateField({ ...rooms, min: undefined }, 5000, {}, t)).toBe(
      'Enter a whole number of at most 1000',
    );
    expect(validateField({ field: 'n', kind: 'number' }, 1.5, {}, t)).toBe('Enter a whole number');
    expect(validateField(rooms, null, {}, t)).toBe('This field is required');
  });
});

describe('validateField: multiline', () => {
  it('checks required and max_length only', () => {
    expect(validateField(description, 'Sea view\nPool', {}, t)).toBeUndefined();
    expect(validateField(description, '   ', {}, t)).toBe('This field is required');
    expect(validateField(description, 'x'.repeat(21), {}, t)).toBe('Please enter at most 20 characters');
  });
});

describe('choice fields', () => {
  it('are found by their options and tagged kind choice', () => {
    const rules = findFieldRules([typeWidget, subTypeWidget], 'property_sub_type');
    expect(rules).toMatchObject({ kind: 'choice', field: 'property_sub_type', depends_on: 'property_type' });
  });

  it('require a value with required_message', () => {
    const rules = findFieldRules([typeWidget], 'property_type')!;
    expect(validateField(rules, undefined, {}, t)).toBe('Please choose a property type');
    expect(validateField(rules, 'hotel', {}, t)).toBeUndefined();
  });

  it('accept only a visible option', () => {
    const rules = findFieldRules([subTypeWidget], 'property_sub_type')!;
    expect(validateField(rules, 'resort', { property_type: 'hotel' }, t)).toBeUndefined();
    expect(validateField(rules, 'villa', { property_type: 'hotel' }, t)).toBe(
      'Please choose one of the options',
    );
    expect(validateField(rules, 'castle', { property_type: 'hotel' }, t)).toBe(
      'Please choose one of the options',
    );
    expect(validateField(rules, undefined, { property_type: 'hotel' }, t)).toBe('This field is required');
  });

  it('show the options of the selected group only', () => {
    const rules = findFieldRules([subTypeWidget], 'property_sub_type')! as Parameters<
      typeof visibleOptions
    >[0];
    expect(visibleOptions(rules, { property_type: 'holiday_home' }).map((o) => o.value)).toEqual(['villa']);
    expect(visibleOptions(rules, {})).toEqual([]);
  });
});
