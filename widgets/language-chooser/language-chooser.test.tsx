import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { LanguageChooserContents } from '../../schemas/generated/types';
import { checkContents, errorFixtures, fixtureContents, goodFixtures } from '../fixtures';
import { createHarnessRecord, createWidgetI18n, harness } from '../test-harness';
import { LanguageChooser } from './language-chooser';

describe('language_chooser fixtures', () => {
  it.each(goodFixtures('language_chooser').map((f) => [f.name, f.envelope] as const))(
    'good/%s validates',
    (_n, env) => {
      expect(checkContents('language_chooser', env.contents).errors).toEqual([]);
    },
  );
  it.each(errorFixtures('language_chooser').map((f) => [f.name, f.envelope] as const))(
    'errors/%s is rejected',
    (_n, env) => {
      expect(checkContents('language_chooser', env.contents).valid).toBe(false);
    },
  );
});

describe('LanguageChooser, list', () => {
  const contents = fixtureContents<LanguageChooserContents>('language_chooser', 'all-languages');

  it('lists every language in its own name with the current one checked', () => {
    render(harness({ component: LanguageChooser, contents }));
    const group = screen.getByRole('radiogroup', { name: 'Choose your language' });
    expect(group).toBeInTheDocument();
    expect(screen.getAllByRole('radio')).toHaveLength(contents.languages.length);
    expect(screen.getByRole('radio', { name: 'English' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'العربية' })).not.toBeChecked();
  });

  it('choosing a language dispatches set_language then after_change', async () => {
    const record = createHarnessRecord();
    const i18n = createWidgetI18n('en-GB');
    render(harness({ component: LanguageChooser, contents, record, i18n }));
    await userEvent.click(screen.getByRole('radio', { name: 'العربية' }));
    expect(record.actions).toEqual([[{ type: 'set_language', language: 'ar' }, ...contents.after_change!]]);
    expect(i18n.language).toBe('ar');
    expect(screen.getByRole('radio', { name: 'العربية' })).toBeChecked();
  });

  it('checks the language i18n is using when the page is in Arabic', () => {
    render(
      harness({
        component: LanguageChooser,
        contents: fixtureContents<LanguageChooserContents>('language_chooser', 'two-languages'),
        language: 'ar',
      }),
    );
    expect(screen.getByRole('radiogroup', { name: 'اللغة' })).toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'العربية' })).toBeChecked();
  });
});

describe('LanguageChooser, compact', () => {
  it('opens a menu from a button showing the current language and dispatches the choice', async () => {
    const record = createHarnessRecord();
    const contents = fixtureContents<LanguageChooserContents>('language_chooser', 'compact');
    render(harness({ component: LanguageChooser, contents, record }));
    const button = screen.getByRole('button', { name: 'Change language, current language: English' });
    await userEvent.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    // The menu's code is a module of its own, loaded when the button is first reached.
    const english = await screen.findByRole('menuitemradio', { name: 'English' }, { timeout: 5000 });
    expect(english).toHaveAttribute('aria-checked', 'true');
    await userEvent.click(screen.getByRole('menuitemradio', { name: 'Deutsch' }));
    expect(record.actions).toEqual([[{ type: 'set_language', language: 'de' }]]);
  });
});
