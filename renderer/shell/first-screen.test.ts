import { createStore } from 'jotai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loggedInAtom } from '../state/atoms';
import { FIRST_SCREEN_ELEMENT_ID, takeEmbeddedScreen } from './embedded-screen';
import { readForm } from '../engine/form';
import { widgetRegistry } from '../engine/registry';
import { primeFirstScreen } from './first-screen';
import { globalInfo } from '../test-support/global-info';

const fetchMock = vi.fn<typeof fetch>();

beforeEach(() => {
  fetchMock.mockReset();
  fetchMock.mockResolvedValue(new Response('{"success":true,"data":{}}', { status: 200 }));
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

const signedOut = () => {
  const store = createStore();
  store.set(loggedInAtom, false);
  return store;
};

describe('primeFirstScreen', () => {
  it("asks for a public page's screen at once, with the path's country and the query", () => {
    const id = primeFirstScreen(
      signedOut(),
      { pathname: '/propertyOnboard/ae/sign_up', search: '?ref=x' },
      'en-GB',
    );
    expect(id).toEqual({ screenId: 'sign_up', embedded: false, code: expect.any(Promise) });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/hms_ms/api/v1/screens/sign_up?ref=x');
    expect((init!.headers as Record<string, string>).user_url_country).toBe('AE');
    expect((init!.headers as Record<string, string>)['x-widget-types']).toContain('input');
  });

  it('primes the top-level login page too', () => {
    expect(primeFirstScreen(signedOut(), { pathname: '/login', search: '' }, 'en-GB')).toEqual({
      screenId: 'login',
      embedded: false,
      code: expect.any(Promise),
    });
    expect(fetchMock.mock.calls[0]![0]).toBe('/hms_ms/api/v1/screens/login');
  });

  it('takes the screen the server put in the page when it is the same screen, language and country', () => {
    const payload = { screen_id: 'sign_up', schema_version: 1 as const, widget_list: [] };
    const embedded = { screen_id: 'sign_up', locale: 'en-GB' as const, country: 'AE', payload };
    const page = { pathname: '/propertyOnboard/ae/sign_up', search: '' };
    expect(primeFirstScreen(signedOut(), page, 'en-GB', embedded)).toEqual({
      screenId: 'sign_up',
      embedded: true,
      code: expect.any(Promise),
    });
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it("puts an embedded screen's starting form values in the store before the first draw", () => {
    const store = signedOut();
    const payload = {
      screen_id: 'sign_up',
      schema_version: 1 as const,
      widget_list: [],
      form: { initial: { country_code: 'AE' } },
    };
    const embedded = { screen_id: 'sign_up', locale: 'en-GB' as const, country: 'AE', payload };
    primeFirstScreen(store, { pathname: '/propertyOnboard/ae/sign_up', search: '' }, 'en-GB', embedded);
    expect(readForm(store, 'sign_up')).toEqual({ country_code: 'AE' });
    // Not for a screen that is fetched: its values come with it.
    const other = signedOut();
    primeFirstScreen(other, { pathname: '/propertyOnboard/sign_up', search: '' }, 'en-GB', embedded);
    expect(readForm(other, 'sign_up')).toEqual({});
  });

  it("waits for the code of the embedded screen's lazy widgets, so that the first draw has them", async () => {
    const signedIn = createStore();
    signedIn.set(loggedInAtom, true);
    const payload = {
      screen_id: 'task',
      schema_version: 1 as const,
      widget_list: [{ id: 'list', widget_type: 'checklist' as const, contents: {} }],
    };
    const embedded = { screen_id: 'task', locale: 'en-GB' as const, country: null, payload };
    const { checklist } = widgetRegistry;
    expect(checklist.isLoaded()).toBe(false);
    const primed = primeFirstScreen(
      signedIn,
      { pathname: '/propertyOnboard/task', search: '' },
      'en-GB',
      embedded,
    );
    expect(primed?.embedded).toBe(true);
    await primed?.code;
    expect(checklist.isLoaded()).toBe(true);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('asks for the screen when the embedded one is for another language, country, screen or a query', () => {
    const payload = { screen_id: 'sign_up', schema_version: 1 as const, widget_list: [] };
    const embedded = { screen_id: 'sign_up', locale: 'en-GB' as const, country: null, payload };
    const cases: Array<[string, string, string]> = [
      ['/propertyOnboard/sign_up', '', 'ar'],
      ['/propertyOnboard/ae/sign_up', '', 'en-GB'],
      ['/propertyOnboard/login', '', 'en-GB'],
      ['/propertyOnboard/sign_up', '?ref=x', 'en-GB'],
    ];
    for (const [pathname, search, language] of cases) {
      expect(primeFirstScreen(signedOut(), { pathname, search }, language, embedded)?.embedded).toBe(false);
    }
    expect(fetchMock).toHaveBeenCalledTimes(cases.length);
  });

  it("asks for a signed-in visitor's page at once too, with the query", () => {
    const signedIn = createStore();
    signedIn.set(loggedInAtom, true);
    expect(
      primeFirstScreen(
        signedIn,
        { pathname: '/propertyOnboard/task', search: '?property_unique_id=PO1' },
        'en-GB',
      ),
    ).toEqual({ screenId: 'task', embedded: false, code: expect.any(Promise) });
    expect(fetchMock.mock.calls[0]![0]).toBe('/hms_ms/api/v1/screens/task?property_unique_id=PO1');
  });

  it("takes a signed-in owner's screen from the page only when it was composed with the page's query", () => {
    const signedIn = createStore();
    signedIn.set(loggedInAtom, true);
    const payload = { screen_id: 'task', schema_version: 1 as const, widget_list: [] };
    const embedded = {
      screen_id: 'task',
      locale: 'en-GB' as const,
      country: null,
      payload,
      query: { property_unique_id: 'PO1' },
    };
    const task = (search: string) =>
      primeFirstScreen(signedIn, { pathname: '/propertyOnboard/task', search }, 'en-GB', embedded)?.embedded;
    expect(task('?property_unique_id=PO1')).toBe(true);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(task('?property_unique_id=PO2')).toBe(false);
    expect(task('')).toBe(false);
    expect(task('?property_unique_id=PO1&tab=2')).toBe(false);
    expect(fetchMock).toHaveBeenCalledTimes(3);
  });

  it('asks for nothing on a signed-out page that needs a session, a sign-in page of a signed-in user, or an unknown path', () => {
    const signedIn = createStore();
    signedIn.set(loggedInAtom, true);
    expect(
      primeFirstScreen(signedOut(), { pathname: '/propertyOnboard/task', search: '' }, 'en-GB'),
    ).toBeNull();
    expect(
      primeFirstScreen(signedIn, { pathname: '/propertyOnboard/sign_up', search: '' }, 'en-GB'),
    ).toBeNull();
    expect(
      primeFirstScreen(signedOut(), { pathname: '/propertyOnboard/1x/sign_up', search: '' }, 'en-GB'),
    ).toBeNull();
    expect(fetchMock).not.toHaveBeenCalled();
  });
});

describe('takeEmbeddedScreen', () => {
  /** A document whose first-screen element holds `value` as JSON. */
  const page = (value: unknown) => {
    const doc = document.implementation.createHTMLDocument('page');
    const element = doc.createElement('script');
    element.type = 'application/json';
    element.id = FIRST_SCREEN_ELEMENT_ID;
    element.textContent = JSON.stringify(value);
    doc.body.append(element);
    return doc;
  };
  const screen = { screen_id: 'task', locale: 'en-GB', country: null, payload: { widget_list: [] } };
  const info = globalInfo();

  it('reads the screen with its global info once, and removes the element', () => {
    const doc = page({ ...screen, global_info: info });
    expect(takeEmbeddedScreen(doc)).toEqual({ ...screen, global_info: info });
    expect(doc.getElementById(FIRST_SCREEN_ELEMENT_ID)).toBeNull();
    expect(takeEmbeddedScreen(doc)).toBeNull();
  });

  it('takes nothing from an element whose global info is not an object of global info', () => {
    expect(takeEmbeddedScreen(page({ ...screen, global_info: 'IN' }))).toBeNull();
    expect(takeEmbeddedScreen(page({ ...screen, global_info: { country_code: 'IN' } }))).toBeNull();
    expect(takeEmbeddedScreen(page(screen))).toEqual(screen);
  });
});
