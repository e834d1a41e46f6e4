import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import type { TextContents } from '../../schemas/generated/types';
import { checkContents, errorFixtures, fixtureContents, goodFixtures } from '../fixtures';
import { harness } from '../test-harness';
import { Text } from './text';

describe('text fixtures', () => {
  it.each(goodFixtures('text').map((f) => [f.name, f.envelope] as const))('good/%s validates', (_n, env) => {
    expect(checkContents('text', env.contents).errors).toEqual([]);
  });
  it.each(errorFixtures('text').map((f) => [f.name, f.envelope] as const))(
    'errors/%s is rejected',
    (_n, env) => {
      expect(checkContents('text', env.contents).valid).toBe(false);
    },
  );
});

describe('Text', () => {
  it('draws a title as the level-1 heading', () => {
    const contents = fixtureContents<TextContents>('text', 'title');
    render(harness({ component: Text, contents }));
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(contents.text);
  });

  it('draws a subtitle as a level-2 heading, in Arabic', () => {
    const contents = fixtureContents<TextContents>('text', 'arabic-subtitle');
    render(harness({ component: Text, contents, language: 'ar' }));
    expect(screen.getByRole('heading', { level: 2 })).toHaveTextContent(contents.text);
  });

  it('draws body text as a paragraph, not a heading', () => {
    const contents = fixtureContents<TextContents>('text', 'long-text');
    render(harness({ component: Text, contents }));
    expect(screen.queryByRole('heading')).toBeNull();
    expect(screen.getByRole('paragraph')).toHaveTextContent(contents.text.slice(0, 40));
  });

  it('shows the value_field text instead of text while that field holds a non-blank string', () => {
    const contents = fixtureContents<TextContents>('text', 'value-field');
    const { unmount } = render(
      harness({ component: Text, contents, values: { matched_property_name: 'Sea View Residency' } }),
    );
    expect(screen.getByRole('heading', { level: 2 })).toHaveTextContent('Sea View Residency');
    unmount();
    render(harness({ component: Text, contents, values: { matched_property_name: '   ' } }));
    expect(screen.getByRole('heading', { level: 2 })).toHaveTextContent('A property like yours');
  });

  it('falls back to text when the value_field is empty or not a string', () => {
    const contents = fixtureContents<TextContents>('text', 'value-field');
    render(harness({ component: Text, contents, values: { matched_property_name: 42 } }));
    expect(screen.getByRole('heading', { level: 2 })).toHaveTextContent('A property like yours');
  });
});

describe('Text with a value_label (issue 12 item 19)', () => {
  const contents: TextContents = {
    text: '',
    value_field: 'referrer_name',
    value_label: "Referrer's name",
    variant: 'body',
  };

  it('names the verified value by its label', () => {
    render(harness({ component: Text, contents, values: { referrer_name: 'Asha Rao' } }));
    const group = screen.getByRole('group', { name: "Referrer's name" });
    expect(group).toHaveTextContent("Referrer's nameAsha Rao");
  });

  it('shows no label while the field holds nothing', () => {
    render(harness({ component: Text, contents, values: {} }));
    expect(screen.queryByRole('group')).toBeNull();
    expect(screen.queryByText("Referrer's name")).toBeNull();
  });
});

describe('Text with a phone number (issue 12 item 4)', () => {
  it('isolates the number left to right in Arabic and shows it in international format', async () => {
    render(
      harness({
        component: Text,
        contents: { text: 'سجّل الدخول باستخدام +919102130008، رقم الجوال.', variant: 'body' },
        language: 'ar',
      }),
    );
    const number = await screen.findByText('+91 91021 30008');
    expect(number.tagName).toBe('BDI');
    expect(number).toHaveAttribute('dir', 'ltr');
    expect(screen.getByRole('paragraph')).toHaveTextContent(
      'سجّل الدخول باستخدام +91 91021 30008، رقم الجوال.',
    );
  });

  it('leaves text without a number as it is', () => {
    render(harness({ component: Text, contents: { text: 'Room 12 costs +5 points', variant: 'body' } }));
    expect(screen.getByRole('paragraph').querySelector('bdi')).toBeNull();
  });
});
