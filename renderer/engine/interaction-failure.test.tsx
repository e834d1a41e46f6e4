import { render, screen as view } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider as JotaiProvider, createStore } from 'jotai';
import { createElement } from 'react';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ScreenPayload } from '../../schemas/generated/types';
import { i18n } from '../i18n/instance';
import { ShellHostContext } from './host';
import { Screen } from './screen';
import { fakeShellHost } from '../test-support/fake-shell-host';

// The interaction chunk (dispatcher, field checks, draft saver) failed its first fetch and its 5 retries.
vi.mock('./interaction', () => ({
  loadInteractionCode: vi.fn(() => Promise.reject(new Error('chunk failed'))),
  interactionCodeFirstTry: vi.fn(() => Promise.resolve()),
  loadedInteractionCode: vi.fn(() => null),
}));
vi.mock('./registry', () => ({
  widgetRegistry: {
    button: ({
      contents,
      dispatch,
    }: {
      contents: { label: string; actions: unknown[] };
      dispatch: (a: unknown[]) => void;
    }) =>
      createElement('button', { type: 'button', onClick: () => dispatch(contents.actions) }, contents.label),
  },
}));

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('a dispatch whose code failed to load (SPEC §4, §8)', () => {
  it('shows the fallback that reloads the page, and sends nothing', async () => {
    const payload: ScreenPayload = {
      screen_id: 'sign_up',
      schema_version: 1,
      widget_list: [
        {
          id: 'go',
          widget_type: 'button',
          contents: { label: 'Continue', actions: [{ type: 'navigate', to: '/dashboard' }] },
        },
      ],
    };
    const fetchMock = vi.fn<typeof fetch>(
      async () =>
        new Response(JSON.stringify({ success: true, data: payload }), {
          headers: { 'content-type': 'application/json' },
        }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const shell = fakeShellHost();
    render(
      <JotaiProvider store={createStore()}>
        <I18nextProvider i18n={i18n}>
          <ShellHostContext.Provider value={shell}>
            <Screen screenId="sign_up" />
          </ShellHostContext.Provider>
        </I18nextProvider>
      </JotaiProvider>,
    );
    await userEvent.click(await view.findByRole('button', { name: 'Continue' }));
    expect(await view.findByRole('alert')).toHaveTextContent(
      'This page could not be loaded. Please refresh to try again.',
    );
    expect(view.getByRole('button', { name: 'Refresh' })).toBeInTheDocument();
    expect(view.queryByRole('button', { name: 'Continue' })).not.toBeInTheDocument();
    expect(shell.navigate).not.toHaveBeenCalled();
  });
});
