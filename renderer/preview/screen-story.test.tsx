import { resolve } from 'node:path';
import { render, screen as view } from '@testing-library/react';
import { Provider as JotaiProvider } from 'jotai';
import { beforeAll, describe, expect, it } from 'vitest';
import { createWidgetI18n, WidgetProviders, type HarnessLanguage } from '../../widgets/test-harness';
// The stories' payloads come from the server's composer at Storybook's build; the test composes them alike.
// eslint-disable-next-line no-restricted-imports
import { composeScreenStoryPayloads } from '../../bff/screens/screen-stories';
// eslint-disable-next-line no-restricted-imports
import { createTranslations } from '../../bff/services/translations';
import { ScreenStory, type ScreenStoryPayloads } from './screen-story';

// Vitest runs from the repository's root.
const screensDir = resolve('bff/screens');
const payloads: Record<string, ScreenStoryPayloads> = {};

beforeAll(() => {
  const { translate } = createTranslations();
  for (const screen of ['sign_up', 'task_details']) {
    payloads[screen] = composeScreenStoryPayloads(screensDir, screen, translate);
  }
});

/** A story as Storybook's decorator draws it (.storybook/preview.tsx): a fresh store and i18n per language. */
function drawStory(screen: string, context: string, language: HarnessLanguage) {
  return render(
    <JotaiProvider>
      <WidgetProviders i18n={createWidgetI18n(language)} language={language}>
        <ScreenStory screen={screen} context={context} payloads={payloads[screen]} />
      </WidgetProviders>
    </JotaiProvider>,
  );
}

/** No widget drawn as the quiet fallback (unknown type, invalid contents or a crash) and no error card. */
function expectWholeScreen(container: HTMLElement) {
  expect(container.querySelector('[data-widget-fallback]')).toBeNull();
  expect(view.queryByRole('alert')).toBeNull();
  expect(container.querySelector('[aria-busy="true"]')).toBeNull();
}

describe('ScreenStory (Storybook "Screens")', () => {
  it.each([
    ['en-GB', 'List your property'],
    ['ar', 'أدرج عقارك'],
  ] as const)(
    'draws sign_up for the anonymous context in %s with the real renderer',
    async (language, title) => {
      const { container } = drawStory('sign_up', 'anonymous.json', language);
      expect(await view.findByRole('heading', { name: title })).toBeInTheDocument();
      expectWholeScreen(container);
      expect(container.querySelector('[dir]')).toHaveAttribute('dir', language === 'ar' ? 'rtl' : 'ltr');
    },
  );

  it.each(['en-GB', 'ar'] as const)(
    "draws a task's form (task_details, contact info) in %s without a fallback",
    async (language) => {
      const payload = payloads.task_details!['owner-task-contact-info.json']![language]!;
      const { container } = drawStory('task_details', 'owner-task-contact-info.json', language);
      expect(await view.findAllByRole('textbox')).not.toHaveLength(0);
      expectWholeScreen(container);
      expect(document.title).toBe(payload.title);
    },
  );

  it('shows the error card for a context the build composed nothing for', async () => {
    drawStory('sign_up', 'no-such-context.json', 'en-GB');
    expect(await view.findByRole('alert')).toBeInTheDocument();
  });
});
