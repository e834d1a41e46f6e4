import { beforeAll, describe, expect, it } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import { createInstance } from 'i18next';
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

describe('LanguageChooser, the code of the list (a chunk of its own)', () => {
  const contents = fixtureContents<LanguageChooserContents>('language_chooser', 'all-languages');
  const compact = fixtureContents<LanguageChooserContents>('language_chooser', 'compact');

  it('the compact variant needs no more code; the list variant is fetched by prepare', async () => {
    expect(LanguageChooser.prepared(compact)).toBe(true);
    await LanguageChooser.prepare(compact);
    expect(LanguageChooser.prepared(contents)).toBe(false);
  });

  it('drawn before its code has arrived, the list shows a loading placeholder, then the list', async () => {
    render(harness({ component: LanguageChooser, contents }));
    expect(screen.getByRole('status', { name: 'Choose your language' })).toHaveAttribute('aria-busy', 'true');
    expect(await screen.findByRole('radiogroup', { name: 'Choose your language' })).toBeInTheDocument();
    expect(LanguageChooser.prepared(contents)).toBe(true);
  });
});

describe('LanguageChooser, list', () => {
  const contents = fixtureContents<LanguageChooserContents>('language_chooser', 'all-languages');
  // As the engine does before it draws a screen with the list (widgets/widget-props.ts ContentsCode).
  beforeAll(() => LanguageChooser.prepare(contents));

  it('lists every language in its own name with the current one checked', () => {
    render(harness({ component: LanguageChooser, contents }));
    const group = screen.getByRole('radiogroup', { name: 'Choose your language' });
    expect(group).toBeInTheDocument();
    expect(screen.getAllByRole('radio')).toHaveLength(contents.languages.length);
    expect(screen.getByRole('radio', { name: 'English' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'العربية' })).not.toBeChecked();
  });

  it('shows the tapped language as chosen while its action runs, then the language the app is in', async () => {
    // The dispatcher may still be on its way (renderer/engine/interaction.ts): the action runs later, and here it
    // leaves the language as it was.
    const i18n = createWidgetI18n('en-GB');
    i18n.changeLanguage = (async () => i18n.t) as typeof i18n.changeLanguage;
    let finish: (done: boolean) => void = () => undefined;
    const pending = new Promise<boolean>((resolve) => (finish = resolve));
    render(harness({ component: LanguageChooser, contents, i18n, dispatchResult: () => pending }));
    await userEvent.click(screen.getByRole('radio', { name: 'العربية' }));
    expect(screen.getByRole('radio', { name: 'العربية' })).toBeChecked();
    finish(false);
    await waitFor(() => expect(screen.getByRole('radio', { name: 'English' })).toBeChecked());
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

describe('LanguageChooser, after a switch whose texts have not arrived yet (issue 12 item 3)', () => {
  /** As the app starts: only the built-in en-GB texts; another language's texts come later from the server. */
  function appLikeI18n() {
    const instance = createInstance();
    void instance.init({
      lng: 'en-GB',
      fallbackLng: 'en-GB',
      supportedLngs: ['en-GB', 'ar', 'de', 'fr-FR', 'hi'],
      load: 'currentOnly',
      initAsync: false,
      resources: {
        'en-GB': { translation: { widgets: { language_chooser: { title: 'Choose your language' } } } },
      },
      interpolation: { escapeValue: false },
    });
    return instance;
  }

  it('shows the chosen language as current and lets the owner switch back to English', async () => {
    const record = createHarnessRecord();
    const i18n = appLikeI18n();
    const contents = fixtureContents<LanguageChooserContents>('language_chooser', 'all-languages');
    render(harness({ component: LanguageChooser, contents, record, i18n }));
    await userEvent.click(screen.getByRole('radio', { name: 'العربية' }));
    expect(i18n.language).toBe('ar');
    expect(screen.getByRole('radio', { name: 'العربية' })).toBeChecked();
    expect(screen.getByRole('radio', { name: 'English' })).not.toBeChecked();
    await userEvent.click(screen.getByRole('radio', { name: 'English' }));
    expect(record.actions.at(-1)?.[0]).toEqual({ type: 'set_language', language: 'en-GB' });
    expect(i18n.language).toBe('en-GB');
    expect(screen.getByRole('radio', { name: 'English' })).toBeChecked();
  });

  it('names the chosen language on the compact button, and its menu ticks it', async () => {
    const i18n = appLikeI18n();
    await i18n.changeLanguage('hi');
    const contents = fixtureContents<LanguageChooserContents>('language_chooser', 'compact');
    render(harness({ component: LanguageChooser, contents, i18n }));
    const button = screen.getByRole('button');
    expect(button).toHaveTextContent('हिन्दी');
    await userEvent.click(button);
    const hindi = await screen.findByRole('menuitemradio', { name: 'हिन्दी' }, { timeout: 5000 });
    expect(hindi).toHaveAttribute('aria-checked', 'true');
    expect(screen.getByRole('menuitemradio', { name: 'English' })).toHaveAttribute('aria-checked', 'false');
  });
});
