import { createStore } from 'jotai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WidgetEnvelope } from '../../schemas/generated/types';
import { i18n } from '../i18n/instance';
import arShell from '../i18n/locales/ar/shell.json';
import { formErrorsAtom } from '../state/atoms';
import { dispatch } from './dispatcher';
import { findFieldRules, validateField, visibleOptions, type FieldRules } from './field-validation';
import { fakeShellHost } from '../test-support/fake-shell-host';

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

describe('validateField: KYC identifiers (issue 5)', () => {
  const pan: FieldRules = {
    field: 'pan_number',
    kind: 'text',
    identifier: 'pan',
    required: true,
    identifier_messages: {
      length: 'A PAN has 10 characters',
      pattern: 'A PAN is 5 letters, 4 digits and a letter',
    },
  };
  const gstin: FieldRules = {
    field: 'gstin',
    kind: 'text',
    identifier: 'gstin',
    invalid_message: 'Please enter a valid GSTIN',
    identifier_messages: { checksum: 'This GSTIN is not valid. Please check it for typos' },
  };

  it('accepts valid identifiers as typed (case, white space the format allows)', () => {
    expect(validateField(pan, 'abcpe1234f', {}, t)).toBeUndefined();
    expect(validateField(gstin, '27AAPFU0939F1ZV', {}, t)).toBeUndefined();
    expect(
      validateField({ field: 'aadhaar', kind: 'text', identifier: 'aadhaar' }, '2345 6789 0124', {}, t),
    ).toBeUndefined();
  });

  it('shows the message of each failure, then invalid_message', () => {
    expect(validateField(pan, 'ABCPE1234', {}, t)).toBe('A PAN has 10 characters');
    expect(validateField(pan, 'ABCDE1234F', {}, t)).toBe('A PAN is 5 letters, 4 digits and a letter');
    expect(validateField(gstin, '27AAPFU0939F1ZW', {}, t)).toBe(
      'This GSTIN is not valid. Please check it for typos',
    );
    expect(validateField(gstin, '27AAPFU0939F1Z', {}, t)).toBe('Please enter a valid GSTIN');
    expect(validateField(gstin, '00AAPFU0939F1ZV', {}, t)).toBe('Please enter a valid GSTIN');
  });

  it('falls back to a default text per failure, in the current language', async () => {
    const aadhaar: FieldRules = { field: 'aadhaar', kind: 'text', identifier: 'aadhaar' };
    expect(validateField(aadhaar, '2345 6789 012', {}, t)).toBe('Please enter the full number');
    expect(validateField(aadhaar, '1345 6789 0124', {}, t)).toBe('Please check the format of the number');
    expect(validateField(aadhaar, '2345 6789 0125', {}, t)).toBe(
      'This number is not valid. Please check it for typos',
    );
    // As the server's translations would add them (renderer/i18n/translations.ts).
    i18n.addResourceBundle('ar', 'translation', { shell: arShell }, true, true);
    await i18n.changeLanguage('ar');
    try {
      expect(validateField(aadhaar, '2345 6789 0125', {}, t)).toBe(
        'هذا الرقم غير صالح. يرجى التحقق من عدم وجود أخطاء في الكتابة',
      );
    } finally {
      await i18n.changeLanguage('en-GB');
      i18n.removeResourceBundle('ar', 'translation');
    }
  });

  it('treats a value of separators only as missing when required, else as the wrong format', () => {
    const licence: FieldRules = { field: 'dl', kind: 'text', identifier: 'driving_licence' };
    expect(validateField({ ...licence, required: true }, ' - ', {}, t)).toBe('This field is required');
    expect(
      validateField({ ...licence, required: true, required_message: 'Enter your licence' }, '--', {}, t),
    ).toBe('Enter your licence');
    expect(validateField(licence, ' - ', {}, t)).toBe('Please check the format of the number');
    expect(validateField(licence, '', {}, t)).toBeUndefined();
  });

  it('checks max_length and pattern before the identifier rule', () => {
    expect(validateField({ ...pan, max_length: 5 }, 'ABCPE1234F', {}, t)).toBe(
      'Please enter at most 5 characters',
    );
    expect(validateField({ ...pan, pattern: '^[A-Z]{3}P.*' }, 'ABCCE1234F', {}, t)).toBe('Invalid Input');
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

const amenitiesWidget: WidgetEnvelope = {
  id: 'amenities',
  widget_type: 'multi_choice',
  contents: {
    field: 'amenities',
    label: 'Amenities',
    mandatory_label: 'Mandatory',
    mandatory_message: 'Please select every mandatory amenity',
    options: [
      { value: 'wifi', label: 'Wi-Fi', group: 'Essentials', mandatory: true },
      { value: 'tv', label: 'TV', group: 'Essentials' },
      { value: 'first_aid', label: 'First aid kit', group: 'Safety', mandatory: true },
    ],
  },
};

const roomsWidget: WidgetEnvelope = {
  id: 'rooms',
  widget_type: 'item_list',
  contents: {
    field: 'room_categories',
    label: 'Room categories',
    item_label: 'Category {{n}}',
    add_label: 'Add',
    remove_label: 'Remove',
    min_items: 1,
    min_items_message: 'Please add at least one room category',
    fields: [
      {
        key: 'name',
        kind: 'text',
        label: 'Name',
        max_length: 60,
        required_message: 'Please name every category',
      },
      {
        key: 'count',
        kind: 'number',
        label: 'Rooms',
        min: 1,
        max: 1000,
        required_message: 'Please enter the number of rooms',
        invalid_message: 'Rooms: a whole number from 1 to 1000',
      },
    ],
    total: {
      key: 'count',
      label: '{{total}} of {{expected}} rooms',
      expected: 24,
      mismatch_message: 'The room counts add up to {{total}}, but the property has {{expected}} rooms',
    },
  },
};

describe('multi_choice fields', () => {
  const rules = findFieldRules([amenitiesWidget], 'amenities') as FieldRules;

  it('are found by their options with mandatory texts and tagged kind multi_choice', () => {
    expect(rules).toMatchObject({ kind: 'multi_choice', field: 'amenities' });
  });

  it('need every mandatory value selected (mandatory_message), even when empty and not required', () => {
    expect(validateField(rules, undefined, {}, t)).toBe('Please select every mandatory amenity');
    expect(validateField(rules, [], {}, t)).toBe('Please select every mandatory amenity');
    expect(validateField(rules, ['wifi', 'tv'], {}, t)).toBe('Please select every mandatory amenity');
    expect(validateField(rules, ['wifi', 'first_aid'], {}, t)).toBeUndefined();
    expect(validateField(rules, ['wifi', 'tv', 'first_aid'], {}, t)).toBeUndefined();
  });

  it("falls back to 'Please select every mandatory option' without mandatory_message", () => {
    const { mandatory_message: _m, ...rest } = rules as Extract<FieldRules, { kind: 'multi_choice' }>;
    expect(validateField({ ...rest, kind: 'multi_choice' }, ['tv'], {}, t)).toBe(
      'Please select every mandatory option',
    );
  });

  it('with required need at least one value (required_message, else a default)', () => {
    const optional: FieldRules = {
      kind: 'multi_choice',
      field: 'languages',
      required: true,
      options: [
        { value: 'en', label: 'English' },
        { value: 'ar', label: 'Arabic' },
      ],
    };
    expect(validateField(optional, [], {}, t)).toBe('Please select at least one option');
    expect(validateField({ ...optional, required_message: 'Pick a language' }, undefined, {}, t)).toBe(
      'Pick a language',
    );
    expect(validateField(optional, ['ar'], {}, t)).toBeUndefined();
    expect(validateField({ ...optional, required: false }, [], {}, t)).toBeUndefined();
  });

  it('refuse values that are not among the options, and a value that is not an array', () => {
    expect(validateField(rules, ['wifi', 'first_aid', 'spa'], {}, t)).toBe(
      'Please choose one of the options',
    );
    expect(validateField(rules, 'wifi', {}, t)).toBe('Invalid Input');
  });

  it('without any mandatory marker are found as choice but an array value is still checked as several', () => {
    const plain: WidgetEnvelope = {
      id: 'langs',
      widget_type: 'multi_choice',
      contents: { field: 'langs', label: 'Languages', options: [{ value: 'en', label: 'English' }] },
    };
    const found = findFieldRules([plain], 'langs') as FieldRules;
    expect(validateField(found, ['en'], {}, t)).toBeUndefined();
    expect(validateField(found, ['xx'], {}, t)).toBe('Please choose one of the options');
  });
});

describe('item_list fields', () => {
  const rules = findFieldRules([roomsWidget], 'room_categories') as FieldRules;
  const good = [
    { name: 'Deluxe', count: 20 },
    { name: 'Suite', count: 4 },
  ];

  it('are found by their fields and item_label and tagged kind item_list', () => {
    expect(rules).toMatchObject({ kind: 'item_list', field: 'room_categories' });
  });

  it('accept items whose fields are valid and whose total equals total.expected', () => {
    expect(validateField(rules, good, {}, t)).toBeUndefined();
  });

  it('need min_items (min_items_message, else a default with the count)', () => {
    expect(validateField(rules, [], {}, t)).toBe('Please add at least one room category');
    expect(validateField(rules, undefined, {}, t)).toBe('Please add at least one room category');
    const { min_items_message: _m, ...rest } = rules as Extract<FieldRules, { kind: 'item_list' }>;
    expect(validateField({ ...rest, kind: 'item_list', min_items: 2 }, [good[0]], {}, t)).toBe(
      'Please add at least 2 items',
    );
  });

  it("need each item's text (required_message) within max_length", () => {
    expect(validateField(rules, [{ count: 20 }, { name: 'Suite', count: 4 }], {}, t)).toBe(
      'Please name every category',
    );
    expect(validateField(rules, [{ name: '  ', count: 24 }], {}, t)).toBe('Please name every category');
    expect(validateField(rules, [{ name: 'x'.repeat(61), count: 24 }], {}, t)).toBe(
      'Please enter at most 60 characters',
    );
  });

  it("need each item's number: present (required_message), whole, within min / max (invalid_message)", () => {
    expect(validateField(rules, [{ name: 'Deluxe' }], {}, t)).toBe('Please enter the number of rooms');
    for (const bad of [0, 1001, 2.5, 'twelve']) {
      expect(validateField(rules, [{ name: 'Deluxe', count: bad }], {}, t)).toBe(
        'Rooms: a whole number from 1 to 1000',
      );
    }
    const plain = {
      kind: 'item_list' as const,
      field: 'x',
      fields: [{ key: 'count', kind: 'number' as const, label: 'Rooms', min: 1, max: 10 }] as [
        { key: string; kind: 'number'; label: string; min: number; max: number },
      ],
    };
    expect(validateField(plain, [{ count: 11 }], {}, t)).toBe('Enter a whole number between 1 and 10');
    expect(validateField(plain, [{}], {}, t)).toBe('This field is required');
  });

  it('need the total to equal total.expected (mismatch_message with {{total}} and {{expected}} filled)', () => {
    expect(validateField(rules, [{ name: 'Deluxe', count: 20 }], {}, t)).toBe(
      'The room counts add up to 20, but the property has 24 rooms',
    );
    const r = rules as Extract<FieldRules, { kind: 'item_list' }>;
    const noMessage = { ...r, total: { key: 'count', label: '{{total}}', expected: 24 } };
    expect(validateField(noMessage, [{ name: 'Deluxe', count: 20 }], {}, t)).toBe(
      'The total is 20, but it must be 24',
    );
    const noExpected = { ...r, total: { key: 'count', label: '{{total}}' } };
    expect(validateField(noExpected, [{ name: 'Deluxe', count: 20 }], {}, t)).toBeUndefined();
  });

  it('refuse more than max_items and a value that is not an array', () => {
    const r = rules as Extract<FieldRules, { kind: 'item_list' }>;
    expect(validateField({ ...r, max_items: 1 }, good, {}, t)).toBe('Please add at most 1 item');
    expect(validateField(rules, { name: 'Deluxe' }, {}, t)).toBe('Invalid Input');
  });
});

describe('server field errors on lists and multiple choices', () => {
  afterEach(() => vi.unstubAllGlobals());

  it.each([
    [
      'room_categories',
      'ONB_ROOM_COUNT_MISMATCH',
      'The room counts add up to 20, but the property has 24 rooms',
    ],
    ['amenities', 'ONB_MANDATORY_AMENITIES', 'Please select every mandatory amenity'],
  ])('a 400 on %s goes under the widget that binds it, not to a toast', async (field, code, message) => {
    vi.stubGlobal(
      'fetch',
      vi.fn<typeof fetch>(
        async () =>
          new Response(JSON.stringify({ success: false, error: { code, message, field } }), {
            status: 400,
            headers: { 'content-type': 'application/json' },
          }),
      ),
    );
    const store = createStore();
    const toast = vi.fn();
    const ok = await dispatch([{ type: 'submit', endpoint: '/x', method: 'PUT' }], {
      screenId: 'task',
      store,
      host: fakeShellHost({ toast }),
      getWidgets: () => [amenitiesWidget, roomsWidget],
      refresh: vi.fn(),
      t,
    });
    expect(ok).toBe(false);
    expect(store.get(formErrorsAtom).task?.[field]).toBe(message);
    expect(toast).not.toHaveBeenCalled();
  });
});

describe('a pinned location (map_pin)', () => {
  afterEach(() => vi.unstubAllGlobals());
  const pinWidget: WidgetEnvelope = {
    id: 'pin',
    widget_type: 'map_pin',
    contents: {
      lat_field: 'latitude',
      lng_field: 'longitude',
      label: 'Pin your property',
      default_center: { lat: 28.3991744, lng: 77.0387653 },
      tile_url: null,
      required: true,
      required_message: 'Please pin the location of your property',
    },
  };

  it('is found by its lat_field or lng_field, tagged location', () => {
    expect(findFieldRules([typeWidget, pinWidget], 'latitude')).toEqual({
      kind: 'location',
      field: 'latitude',
      lat_field: 'latitude',
      lng_field: 'longitude',
      required: true,
      required_message: 'Please pin the location of your property',
    });
    expect(findFieldRules([pinWidget], 'longitude')?.kind).toBe('location');
    expect(findFieldRules([pinWidget], 'lat')).toBeUndefined();
  });

  it('reports required_message while no pin is set, and nothing once both coordinates are', () => {
    const rules = findFieldRules([pinWidget], 'latitude')!;
    if (rules.kind !== 'location') throw new Error('expected location rules');
    expect(validateField(rules, undefined, {}, t)).toBe('Please pin the location of your property');
    expect(validateField(rules, 28.399174, { latitude: 28.399174, longitude: 77.038765 }, t)).toBeUndefined();
    const optional = { ...rules, required: false };
    expect(validateField(optional, undefined, {}, t)).toBeUndefined();
    expect(validateField({ ...rules, required_message: undefined }, undefined, {}, t)).toBe(
      'This field is required',
    );
  });

  it("refuses half a pin, text and coordinates out of range with 'Invalid Input'", () => {
    const rules = findFieldRules([pinWidget], 'latitude')!;
    for (const form of [
      { latitude: 28.4 },
      { latitude: 28.4, longitude: '77.0' },
      { latitude: 91, longitude: 77 },
      { latitude: 28.4, longitude: -180.5 },
      { latitude: Number.NaN, longitude: 77 },
    ]) {
      expect(validateField(rules, form.latitude, form, t)).toBe('Invalid Input');
    }
  });

  it('a submit listing lat_field shows required_message under it and sends nothing', async () => {
    const fetchSpy = vi.fn<typeof fetch>();
    vi.stubGlobal('fetch', fetchSpy);
    const store = createStore();
    const ok = await dispatch([{ type: 'submit', endpoint: '/x', method: 'PUT', fields: ['latitude'] }], {
      screenId: 'location',
      store,
      host: fakeShellHost(),
      getWidgets: () => [pinWidget],
      refresh: vi.fn(),
      t,
    });
    expect(ok).toBe(false);
    expect(store.get(formErrorsAtom).location?.latitude).toBe('Please pin the location of your property');
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});

describe('hidden fields on submit (issue 12 item 19)', () => {
  const widgets: WidgetEnvelope[] = [
    {
      id: 'title',
      widget_type: 'input',
      contents: {
        field: 'title',
        kind: 'text',
        label: 'Name',
        required: true,
        required_message: 'Name needed',
      },
    },
    {
      id: 'property_type',
      widget_type: 'choice',
      contents: {
        field: 'property_type',
        label: 'Type',
        required: true,
        required_message: 'Pick a type',
        options: [{ value: 'hotel', label: 'Hotel' }],
      },
    },
    {
      id: 'property_sub_type',
      widget_type: 'choice',
      visible_when: { '!!': { var: 'form.property_type' } },
      contents: {
        field: 'property_sub_type',
        label: 'Sub type',
        depends_on: 'property_type',
        required: true,
        required_message: 'Pick a sub type',
        options: [{ value: 'resort', label: 'Resort', group: 'hotel' }],
      },
    },
  ];

  it('a refused submit shows no error under a field that is not shown, so it does not appear in error later', async () => {
    const fetchSpy = vi.fn<typeof fetch>();
    vi.stubGlobal('fetch', fetchSpy);
    const store = createStore();
    const ok = await dispatch(
      [
        {
          type: 'submit',
          endpoint: '/x',
          method: 'POST',
          fields: ['title', 'property_type', 'property_sub_type'],
        },
      ],
      {
        screenId: 'property_add',
        store,
        host: fakeShellHost(),
        getWidgets: () => widgets,
        refresh: vi.fn(),
        t,
      },
    );
    expect(ok).toBe(false);
    const errors = store.get(formErrorsAtom).property_add ?? {};
    expect(errors.title).toBe('Name needed');
    expect(errors.property_type).toBe('Pick a type');
    expect(errors.property_sub_type).toBeUndefined();
    expect(fetchSpy).not.toHaveBeenCalled();
  });
});
