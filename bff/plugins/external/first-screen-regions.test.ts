/**
 * The phone field's countries in the page (issue 13 item 4): a first screen with a phone field comes with
 * its countries named and sorted in the page's language, as the browser would name and sort them.
 */
import { describe, expect, it } from 'vitest';
import type { EmbeddedScreen } from '../../../schemas/app/first-screen';
import { PHONE_COUNTRIES } from '../../../schemas/app/region-names';
import { hasPhoneField, withRegions } from './static';

const phone = { id: 'p', widget_type: 'input', contents: { kind: 'phone', field: 'phone', label: 'Mobile' } };
const text = { id: 't', widget_type: 'text', contents: { text: 'Hello' } };
const screen = (widgets: unknown[], locale: EmbeddedScreen['locale'] = 'de'): EmbeddedScreen => ({
  screen_id: 'sign_up',
  locale,
  country: null,
  payload: { screen_id: 'sign_up', schema_version: 1, widget_list: widgets as never },
});

describe('withRegions', () => {
  it("names every country of the box in the page's language, in its collation order", () => {
    const { regions } = withRegions(screen([text, phone]));
    expect(regions).toHaveLength(PHONE_COUNTRIES.length);
    expect(new Set(regions!.map(([code]) => code))).toEqual(new Set(PHONE_COUNTRIES));
    expect(regions).toContainEqual(['DE', 'Deutschland']);
    expect(regions).toContainEqual(['IN', 'Indien']);
    const collator = new Intl.Collator('de');
    const names = regions!.map(([, name]) => name);
    expect([...names].sort((a, b) => collator.compare(a, b))).toEqual(names);
    expect(withRegions(screen([phone], 'ar')).regions).toContainEqual(['IN', 'الهند']);
  });

  it('adds nothing to a screen without a phone field', () => {
    const embedded = screen([text, { ...phone, contents: { kind: 'text', field: 'name', label: 'Name' } }]);
    expect(withRegions(embedded)).toBe(embedded);
  });

  it('finds a phone field nested in another widget', () => {
    expect(hasPhoneField([{ id: 'g', widget_type: 'group', contents: { widgets: [phone] } }])).toBe(true);
    expect(hasPhoneField([text])).toBe(false);
  });
});
