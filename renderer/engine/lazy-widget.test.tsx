import type { ReactElement } from 'react';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { I18nextProvider } from 'react-i18next';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { WidgetProps } from '../../widgets/widget-props';
import { i18n } from '../i18n/instance';
import { pagePreloads, retryImport } from '../../widgets/retry-import';
import { lazyWidget, preloadWidget, widgetCodeLoaded, widgetFirstTry } from './lazy-widget';

const props = {} as WidgetProps<unknown>;

afterEach(() => vi.unstubAllGlobals());

describe('lazyWidget: a chunk that does not load (SPEC §4, §8, issue 12 item 26)', () => {
  it('tries the chunk 6 times, then shows the fallback whose Refresh reloads the page', async () => {
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    const load = vi.fn(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module')));
    const Widget = lazyWidget(load, 0);
    render(
      <I18nextProvider i18n={i18n}>
        <Widget {...props} />
      </I18nextProvider>,
    );
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This page could not be loaded. Please refresh to try again.',
    );
    expect(load).toHaveBeenCalledTimes(6);
    await userEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('tries 6 times in all when the screen preloaded it before drawing it (a page that brought its screen)', async () => {
    const load = vi.fn(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module')));
    const Widget = lazyWidget(load, 0);
    await Widget.preload();
    expect(load).toHaveBeenCalledTimes(6);
    render(
      <I18nextProvider i18n={i18n}>
        <Widget {...props} />
      </I18nextProvider>,
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('This page could not be loaded.');
    expect(load).toHaveBeenCalledTimes(6);
  });

  it("counts the page's own fetch of the code (modulepreload) as the first try: 5 imports more at most", async () => {
    const load = vi.fn(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module')));
    const Widget = lazyWidget(load, 0);
    await preloadWidget(Widget, true);
    expect(load).toHaveBeenCalledTimes(5);
    render(
      <I18nextProvider i18n={i18n}>
        <Widget {...props} />
      </I18nextProvider>,
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('This page could not be loaded.');
    expect(load).toHaveBeenCalledTimes(5);
  });

  it('knows which widget types and shell parts the page preloads from its links', () => {
    const doc = document.implementation.createHTMLDocument('page');
    doc.head.innerHTML =
      '<link rel="modulepreload" href="/propertyOnboard/assets/checklist-a1.js" data-widget-type="checklist" />' +
      '<link rel="modulepreload" href="/propertyOnboard/assets/LinearProgress-b2.js" />' +
      '<link rel="modulepreload" href="/propertyOnboard/assets/footer-c3.js" data-shell-part="footer" />' +
      '<link rel="preload" as="image" href="/x.svg" data-widget-type="table" />';
    const checklist = pagePreloads('widget-type', 'checklist', doc);
    expect(checklist).not.toBe(false);
    expect(pagePreloads('widget-type', 'table', doc)).toBe(false);
    expect(pagePreloads('widget-type', 'map_pin', doc)).toBe(false);
    expect(pagePreloads('shell-part', 'footer', doc)).not.toBe(false);
    expect(pagePreloads('widget-type', 'footer', doc)).toBe(false);
    // Its fetches are the browser's Resource Timing entries of the link's address.
    const getEntriesByName = vi.spyOn(performance, 'getEntriesByName').mockReturnValue([]);
    expect(checklist && checklist.fetches()).toBe(0);
    expect(getEntriesByName).toHaveBeenCalledWith(
      expect.stringMatching(/\/propertyOnboard\/assets\/checklist-a1\.js$/),
      'resource',
    );
    getEntriesByName.mockRestore();
  });

  it("makes 6 fetches in all with the page's own, whether or not the first import shared it (SPEC §4)", async () => {
    const fail = () => Promise.reject(new TypeError('Failed to fetch dynamically imported module'));
    // The page's fetch was over: every import is a fetch of its own, one after the page's.
    let separate = 0;
    const apart = vi.fn(() => ((separate += 1), fail()));
    await expect(retryImport(apart, 0, { fetches: () => separate + 1 })).rejects.toThrow(TypeError);
    expect(apart).toHaveBeenCalledTimes(5);
    // The first import came while the page's fetch was under way and waited for it: one fetch for both.
    let shared = 0;
    const joined = vi.fn(() => ((shared += 1), fail()));
    await expect(retryImport(joined, 0, { fetches: () => shared })).rejects.toThrow(TypeError);
    expect(joined).toHaveBeenCalledTimes(6);
    // No count from the browser: the page's fetch is taken as one of its own.
    const unknown = vi.fn(fail);
    await expect(retryImport(unknown, 0, { fetches: () => 0 })).rejects.toThrow(TypeError);
    expect(unknown).toHaveBeenCalledTimes(5);
    // A count that stays low never makes more than 6 imports.
    const stuck = vi.fn(fail);
    await expect(retryImport(stuck, 0, { fetches: () => 1 })).rejects.toThrow(TypeError);
    expect(stuck).toHaveBeenCalledTimes(6);
  });

  it('draws the widget when a retry succeeds', async () => {
    let calls = 0;
    const Widget = lazyWidget(() => {
      calls += 1;
      return calls < 3
        ? Promise.reject(new TypeError('Failed to fetch dynamically imported module'))
        : Promise.resolve(() => <p>widget drawn</p>);
    }, 0);
    render(
      <I18nextProvider i18n={i18n}>
        <Widget {...props} />
      </I18nextProvider>,
    );
    expect(await screen.findByText('widget drawn')).toBeInTheDocument();
    expect(calls).toBe(3);
  });

  it('first try: resolves when the code is there, and the widget is then drawn at once, without the skeleton', async () => {
    let arrive: (component: () => ReactElement) => void = () => undefined;
    const Widget = lazyWidget(() => new Promise<() => ReactElement>((resolve) => (arrive = resolve)), 0);
    let settled = false;
    const firstTry = widgetFirstTry(Widget).then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    expect(widgetCodeLoaded(Widget)).toBe(false);
    arrive(() => <p>widget drawn</p>);
    await firstTry;
    expect(widgetCodeLoaded(Widget)).toBe(true);
    render(
      <I18nextProvider i18n={i18n}>
        <Widget {...props} />
      </I18nextProvider>,
    );
    // Synchronously, in the first render: no 'Loading…' placeholder came first.
    expect(screen.getByText('widget drawn')).toBeInTheDocument();
    expect(document.querySelector('[data-widget-loading]')).toBeNull();
  });

  it('first try: resolves once the first fetch failed, while the retries go on', async () => {
    let arrive: (component: () => ReactElement) => void = () => undefined;
    const retried = new Promise<() => ReactElement>((resolve) => (arrive = resolve));
    let calls = 0;
    const Widget = lazyWidget(() => {
      calls += 1;
      return calls === 1
        ? Promise.reject(new TypeError('Failed to fetch dynamically imported module'))
        : retried;
    }, 0);
    await widgetFirstTry(Widget, false);
    expect(widgetCodeLoaded(Widget)).toBe(false);
    arrive(() => <p>widget drawn</p>);
    await Widget.preload();
    expect(calls).toBe(2);
    expect(widgetCodeLoaded(Widget)).toBe(true);
  });

  it('a widget that comes with the page is always loaded and has nothing to wait for', async () => {
    const Eager = () => <p>eager</p>;
    expect(widgetCodeLoaded(Eager)).toBe(true);
    await expect(widgetFirstTry(Eager)).resolves.toBeUndefined();
  });

  it('a widget whose contents need code of their own (ContentsCode) is drawable once that code is there', async () => {
    let arrive: () => void = () => undefined;
    const listCode = new Promise<void>((resolve) => (arrive = resolve));
    let listHere = false;
    const Chooser = Object.assign(() => <p>chooser</p>, {
      prepare: (contents: { variant: string }) =>
        contents.variant === 'list' ? listCode.then(() => void (listHere = true)) : Promise.resolve(),
      prepared: (contents: { variant: string }) => contents.variant !== 'list' || listHere,
    });
    expect(widgetCodeLoaded(Chooser, { variant: 'compact' })).toBe(true);
    expect(widgetCodeLoaded(Chooser, { variant: 'list' })).toBe(false);
    let settled = false;
    const firstTry = widgetFirstTry(Chooser, false, { variant: 'list' }).then(() => (settled = true));
    const preload = preloadWidget(Chooser, false, { variant: 'list' });
    await Promise.resolve();
    expect(settled).toBe(false);
    arrive();
    await Promise.all([firstTry, preload]);
    expect(widgetCodeLoaded(Chooser, { variant: 'list' })).toBe(true);
  });
});
