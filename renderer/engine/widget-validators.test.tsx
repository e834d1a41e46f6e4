/**
 * Per-widget validator loading (issue 13): a screen loads the contents validator of each of its widget types
 * (schemas/generated/validators/<widget_type>.js, through the generated `widgetValidators` map) and no other;
 * a module that fails to load is retried, then the screen shows its error card. The real generated
 * validators are used; the loads are counted by wrapping the generated map.
 */
import { render, screen as view } from '@testing-library/react';
import { Provider as JotaiProvider, createStore } from 'jotai';
import { I18nextProvider } from 'react-i18next';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n } from '../i18n/instance';
import { ShellHostContext } from './host';
import { Screen, primeScreenRequest } from './screen';
import { VALIDATOR_LOAD_RETRIES, resetWidgetValidators } from './validation-schemas';
import { fakeShellHost } from '../test-support/fake-shell-host';

/** Widget types whose validator module was asked for, in order, once per try. */
const loads: string[] = [];
/** Widget types whose next tries fail, with how many tries are left to fail. */
const failing = new Map<string, number>();

vi.mock('../../schemas/generated/widget-validators', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../schemas/generated/widget-validators')>();
  const wrapped = Object.fromEntries(
    Object.entries(actual.widgetValidators).map(([type, load]) => [
      type,
      async () => {
        loads.push(type);
        const left = failing.get(type) ?? 0;
        if (left > 0) {
          failing.set(type, left - 1);
          throw new TypeError('Failed to fetch dynamically imported module');
        }
        return load();
      },
    ]),
  );
  return { widgetValidators: wrapped };
});

vi.mock('./registry', async () => {
  const { createElement } = await import('react');
  const Text = ({ contents }: { contents: { text: string } }) => createElement('p', null, contents.text);
  const Button = ({ contents }: { contents: { label: string } }) =>
    createElement('button', { type: 'button' }, contents.label);
  return { widgetRegistry: { text: Text, button: Button } };
});

const fetchMock = vi.fn<typeof fetch>();

function answer(payload: unknown): Response {
  return new Response(JSON.stringify({ success: true, data: payload }), {
    status: 200,
    headers: { 'content-type': 'application/json' },
  });
}

const shell = fakeShellHost();

function draw(widgetList: unknown[], screenId = 'sign_up') {
  fetchMock.mockResolvedValue(answer({ screen_id: screenId, schema_version: 1, widget_list: widgetList }));
  return render(
    <JotaiProvider store={createStore()}>
      <I18nextProvider i18n={i18n}>
        <ShellHostContext.Provider value={shell}>
          <Screen screenId={screenId} />
        </ShellHostContext.Provider>
      </I18nextProvider>
    </JotaiProvider>,
  );
}

const text = (id: string, value: string) => ({ id, widget_type: 'text', contents: { text: value } });
const button = (id: string, label: string) => ({
  id,
  widget_type: 'button',
  contents: { label, actions: [{ type: 'go_back', fallback: '/dashboard' }] },
});

beforeEach(() => {
  loads.length = 0;
  failing.clear();
  resetWidgetValidators();
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('per-widget validators', () => {
  it("a screen with one widget loads that widget's validator and no other", async () => {
    draw([text('t1', 'List your property')]);
    expect(await view.findByText('List your property')).toBeInTheDocument();
    expect(loads).toEqual(['text']);
  });

  it('each widget type once, a fallback widget too; an unknown type has none to load', async () => {
    draw([
      text('t1', 'One'),
      text('t2', 'Two'),
      { id: 'x', widget_type: 'hologram', contents: {}, fallback: button('b', 'Continue') },
    ]);
    expect(await view.findByRole('button', { name: 'Continue' })).toBeInTheDocument();
    expect(view.getByText('Two')).toBeInTheDocument();
    expect([...loads].sort()).toEqual(['button', 'text']);
  });

  it('a validator already loaded by an earlier screen is not loaded again', async () => {
    const first = draw([text('t1', 'First')]);
    expect(await view.findByText('First')).toBeInTheDocument();
    first.unmount();
    draw([text('t1', 'Second'), button('b', 'Go')], 'login');
    expect(await view.findByRole('button', { name: 'Go' })).toBeInTheDocument();
    expect(loads).toEqual(['text', 'button']);
  });

  it('checks the contents with the loaded validator: invalid contents draw the quiet fallback', async () => {
    draw([{ id: 'b', widget_type: 'button', contents: { label: 'No actions' } }, text('t', 'Still here')]);
    expect(await view.findByText('Still here')).toBeInTheDocument();
    expect(document.querySelector('[data-widget-fallback="b"]')).not.toBeNull();
    expect(view.queryByRole('button', { name: 'No actions' })).not.toBeInTheDocument();
  });

  it('a first screen the server embedded, checked, is drawn in the first render: no skeleton, no validator, no fetch', () => {
    const payload = { screen_id: 'sign_up', schema_version: 1, widget_list: [text('t1', 'From the page')] };
    primeScreenRequest('sign_up', i18n.language, undefined, undefined, payload as never);
    draw([text('t1', 'From the network')]);
    // Synchronously: the first render already shows the screen.
    expect(view.getByText('From the page')).toBeInTheDocument();
    expect(document.querySelector('[aria-busy="true"]')).toBeNull();
    // render() ran the effects: the screen took the embedded payload and asked for nothing.
    expect(loads).toEqual([]);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('the same screen fetched later is checked again: its validators load', async () => {
    const payload = { screen_id: 'sign_up', schema_version: 1, widget_list: [text('t1', 'From the page')] };
    primeScreenRequest('sign_up', i18n.language, undefined, undefined, payload as never);
    const first = draw([text('t1', 'From the network')]);
    expect(await view.findByText('From the page')).toBeInTheDocument();
    first.unmount();
    draw([{ id: 'b', widget_type: 'button', contents: { label: 'No actions' } }, text('t', 'Fetched')]);
    expect(await view.findByText('Fetched')).toBeInTheDocument();
    expect([...loads].sort()).toEqual(['button', 'text']);
    expect(document.querySelector('[data-widget-fallback="b"]')).not.toBeNull();
  });

  it('retries a module that fails to load, then draws the screen', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    failing.set('text', 2);
    draw([text('t1', 'After two failures')]);
    expect(await view.findByText('After two failures', undefined, { timeout: 5000 })).toBeInTheDocument();
    expect(loads).toEqual(['text', 'text', 'text']);
    vi.useRealTimers();
  });

  it(`after ${VALIDATOR_LOAD_RETRIES} retries the screen shows its error card with Refresh`, async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    failing.set('text', VALIDATOR_LOAD_RETRIES + 1);
    draw([text('t1', 'Never drawn')]);
    const card = await view.findByRole('alert', undefined, { timeout: 10000 });
    expect(card).toHaveTextContent(/refresh/i);
    expect(loads).toHaveLength(VALIDATOR_LOAD_RETRIES + 1);
    expect(view.queryByText('Never drawn')).not.toBeInTheDocument();
    vi.useRealTimers();
  });
});
