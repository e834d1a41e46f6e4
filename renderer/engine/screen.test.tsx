import { render, screen as view, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider as JotaiProvider, createStore } from 'jotai';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ScreenPayload } from '../../schemas/generated/types';
import { i18n } from '../i18n/instance';
import { ShellHostContext, type ShellHost } from './host';
import type { WidgetReport } from './reports';
import { Screen } from './screen';

vi.mock('./registry', async () => {
  const { createElement } = await import('react');
  const Text = ({ contents }: { contents: { text: string } }) => {
    if (contents.text === 'boom') throw new Error('render failed');
    return createElement('p', null, contents.text);
  };
  const Button = ({
    contents,
    dispatch,
  }: {
    contents: { label: string; actions: unknown[] };
    dispatch: (a: unknown[]) => void;
  }) =>
    createElement('button', { type: 'button', onClick: () => dispatch(contents.actions) }, contents.label);
  return { widgetRegistry: { text: Text, button: Button } };
});

const fetchMock = vi.fn<typeof fetch>();
const reports: WidgetReport[] = [];
const onReport = (event: Event) => reports.push((event as CustomEvent<WidgetReport>).detail);

function answer(payload: unknown, status = 200): Response {
  const body =
    status === 200 ? { success: true, data: payload } : { success: false, error: { message: 'x' } };
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

function host(): ShellHost {
  return {
    navigate: vi.fn(),
    goBack: vi.fn(),
    toast: vi.fn(),
    signOut: vi.fn(async () => true),
    sessionStarted: vi.fn(),
    setLanguage: vi.fn(async () => undefined),
    setFooterHidden: vi.fn(),
  };
}

function draw(
  payload: ScreenPayload | unknown,
  shell: ShellHost = host(),
  requestHeaders?: Record<string, string>,
) {
  fetchMock.mockResolvedValue(answer(payload));
  render(
    <JotaiProvider store={createStore()}>
      <I18nextProvider i18n={i18n}>
        <ShellHostContext.Provider value={shell}>
          <Screen screenId="sign_up" requestHeaders={requestHeaders} />
        </ShellHostContext.Provider>
      </I18nextProvider>
    </JotaiProvider>,
  );
  return shell;
}

const text = (id: string, value: string) => ({ id, widget_type: 'text', contents: { text: value } });

beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  reports.length = 0;
  window.addEventListener('widget-report', onReport);
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  void i18n.changeLanguage('en-GB');
});
afterEach(() => {
  window.removeEventListener('widget-report', onReport);
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('Screen', () => {
  it('shows a busy skeleton, then draws the widgets, sets the title and the footer flag', async () => {
    const shell = draw({
      screen_id: 'sign_up',
      schema_version: 1,
      title: 'Sign up',
      hide_footer: true,
      widget_list: [text('t1', 'List your property'), text('t2', 'It takes 30 minutes')],
    });
    expect(view.getByRole('status', { name: 'Loading…' })).toHaveAttribute('aria-busy', 'true');
    expect(await view.findByText('List your property')).toBeInTheDocument();
    expect(view.getByText('It takes 30 minutes')).toBeInTheDocument();
    expect(document.title).toBe('Sign up');
    expect(shell.setFooterHidden).toHaveBeenCalledWith(true);
    expect(fetchMock.mock.calls[0]![0]).toBe('/hms_ms/api/v1/screens/sign_up');
  });

  it('sends the request headers it is given (the country of a country-specific path)', async () => {
    draw({ screen_id: 'sign_up', schema_version: 1, widget_list: [text('t1', 'Hi')] }, host(), {
      user_url_country: 'AE',
    });
    expect(await view.findByText('Hi')).toBeInTheDocument();
    const init = fetchMock.mock.calls[0]![1]!;
    expect((init.headers as Record<string, string>).user_url_country).toBe('AE');
  });

  it('draws a quiet fallback for an unknown widget_type while the others render, and reports it', async () => {
    draw({
      screen_id: 'sign_up',
      schema_version: 1,
      widget_list: [
        text('t1', 'Before'),
        { id: 'map', widget_type: 'map_pin', contents: {} },
        text('t3', 'After'),
      ],
    });
    expect(await view.findByText('Before')).toBeInTheDocument();
    expect(view.getByText('After')).toBeInTheDocument();
    expect(view.getByRole('note')).toHaveTextContent('This part of the page could not be shown.');
    await waitFor(() => expect(reports.map((r) => r.code)).toContain('UNKNOWN_WIDGET'));
    expect(reports[0]).toMatchObject({ widgetId: 'map', path: '/widget_list/1/widget_type' });
  });

  it('draws the fallback for invalid contents and reports the JSON path', async () => {
    draw({
      screen_id: 'sign_up',
      schema_version: 1,
      widget_list: [{ id: 'bad', widget_type: 'text', contents: { text: 42 } }, text('ok', 'Fine')],
    });
    expect(await view.findByText('Fine')).toBeInTheDocument();
    expect(view.getByRole('note')).toBeInTheDocument();
    await waitFor(() =>
      expect(reports[0]).toMatchObject({
        code: 'INVALID_CONTENTS',
        widgetId: 'bad',
        path: '/widget_list/0/contents/text',
      }),
    );
  });

  it("honours fallback 'drop' and a replacement widget", async () => {
    draw({
      screen_id: 'sign_up',
      schema_version: 1,
      widget_list: [
        { id: 'gone', widget_type: 'nope', contents: {}, fallback: 'drop' },
        { id: 'swap', widget_type: 'nope', contents: {}, fallback: text('swap_text', 'Replacement') },
        text('t', 'Visible'),
      ],
    });
    expect(await view.findByText('Visible')).toBeInTheDocument();
    expect(view.getByText('Replacement')).toBeInTheDocument();
    expect(view.queryByRole('note')).not.toBeInTheDocument();
  });

  it('contains a throwing widget in its own boundary', async () => {
    draw({
      screen_id: 'sign_up',
      schema_version: 1,
      widget_list: [text('crash', 'boom'), text('t', 'Still here')],
    });
    expect(await view.findByText('Still here')).toBeInTheDocument();
    expect(view.getByRole('note')).toBeInTheDocument();
    await waitFor(() =>
      expect(reports.some((r) => r.code === 'WIDGET_CRASHED' && r.widgetId === 'crash')).toBe(true),
    );
  });

  it('hides widgets whose visible_when is false', async () => {
    draw({
      screen_id: 'sign_up',
      schema_version: 1,
      widget_list: [
        { ...text('hidden', 'Hidden text'), visible_when: { '==': [{ var: 'form.step' }, 'otp'] } },
        text('shown', 'Shown text'),
      ],
    });
    expect(await view.findByText('Shown text')).toBeInTheDocument();
    expect(view.queryByText('Hidden text')).not.toBeInTheDocument();
  });

  it('passes a working dispatch to widgets', async () => {
    const shell = draw({
      screen_id: 'sign_up',
      schema_version: 1,
      widget_list: [
        {
          id: 'go',
          widget_type: 'button',
          contents: { label: 'Continue', actions: [{ type: 'navigate', to: '/dashboard' }] },
        },
      ],
    });
    await userEvent.click(await view.findByRole('button', { name: 'Continue' }));
    expect(shell.navigate).toHaveBeenCalledWith('/dashboard', { replace: false });
  });

  it('shows the error card for an invalid payload, and Refresh fetches again', async () => {
    draw({ screen_id: 'sign_up', widget_list: 'nope' });
    const card = await view.findByRole('alert');
    expect(card).toHaveTextContent('Something went wrong. Try Again!');
    fetchMock.mockResolvedValue(
      answer({ screen_id: 'sign_up', schema_version: 1, widget_list: [text('t', 'Recovered')] }),
    );
    await userEvent.click(view.getByRole('button', { name: 'Refresh' }));
    expect(await view.findByText('Recovered')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(2);
  });

  it('shows the error card when the request fails', async () => {
    fetchMock.mockResolvedValue(answer(null, 404));
    render(
      <JotaiProvider store={createStore()}>
        <I18nextProvider i18n={i18n}>
          <Screen screenId="kyc" />
        </I18nextProvider>
      </JotaiProvider>,
    );
    expect(await view.findByRole('alert')).toHaveTextContent('Something went wrong. Try Again!');
  });

  it('fetches again when the language changes', async () => {
    draw({ screen_id: 'sign_up', schema_version: 1, widget_list: [text('t', 'Hello')] });
    await view.findByText('Hello');
    await i18n.changeLanguage('de');
    await waitFor(() => expect(fetchMock).toHaveBeenCalledTimes(2));
    expect((fetchMock.mock.calls[1]![1]!.headers as Record<string, string>).httpxoyolang).toBe('de');
  });
});
