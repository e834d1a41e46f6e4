import { act, render, screen as view, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createStore } from 'jotai';
import { RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { GlobalInfo, UserDetails } from '../../schemas/generated/types';
import { i18n } from '../i18n/instance';
import {
  activeHotelIdAtom,
  globalInfoAtom,
  globalInfoSettledAtom,
  loggedInAtom,
  loginTypeAtom,
  userDetailsAtom,
  type AppStore,
} from '../state/atoms';
import { AppProviders } from './app';
import { appRoutes } from './routes';
import { resetSsoCapture } from './sso';
import { globalInfo } from '../test-support/global-info';

vi.mock('../engine/registry', async () => {
  const { createElement } = await import('react');
  const Text = ({ contents }: { contents: { text: string } }) => createElement('p', null, contents.text);
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

const owner: UserDetails = {
  id: 'u1',
  team: null,
  email: null,
  phone: '+919876543210',
  country_code: 'IN',
  language: 'en-GB',
  devise_role: 'Owner_Portal_User',
};
const enabled: GlobalInfo = globalInfo();

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/** Answers every screen request with a one-text screen naming the screen id. */
function serveScreens(): void {
  fetchMock.mockImplementation(async (input) => {
    const url = String(input);
    const id = /\/screens\/([a-z_]+)/.exec(url)?.[1];
    if (id) {
      return json(200, {
        success: true,
        data: {
          screen_id: id,
          schema_version: 1,
          title: id,
          widget_list: [{ id: 't', widget_type: 'text', contents: { text: `screen ${id}` } }],
        },
      });
    }
    return json(404, { success: false, error: { message: 'not here' } });
  });
}

function start(path: string, setup: (store: AppStore) => void = () => undefined) {
  const store = createStore();
  store.set(globalInfoAtom, enabled);
  store.set(globalInfoSettledAtom, true);
  setup(store);
  const router = createMemoryRouter(appRoutes, { initialEntries: [path] });
  render(
    <AppProviders store={store}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { router, store };
}

function signIn(store: AppStore, user: UserDetails = owner): void {
  store.set(userDetailsAtom, user);
  store.set(loggedInAtom, true);
}

beforeEach(() => {
  localStorage.clear();
  document.cookie = 'isLoggedIn=; expires=Thu, 01 Jan 1970 00:00:00 GMT';
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  serveScreens();
  void i18n.changeLanguage('en-GB');
  vi.spyOn(console, 'debug').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('authentication gate (SPEC §4)', () => {
  it('sends a signed-out visitor to the country-aware sign-up page and remembers the target', async () => {
    const { router } = start('/propertyOnboard/IN/dashboard?utm_source=sms');
    expect(await view.findByText('screen sign_up', undefined, { timeout: 4000 })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/propertyOnboard/IN/sign_up');
    expect(localStorage.getItem('pending_redirect')).toBe('/propertyOnboard/IN/dashboard?utm_source=sms');
    expect(localStorage.getItem('pending_redirect_country_specific')).toBe('true');
    expect(localStorage.getItem('pending_redirect_country_code')).toBe('IN');
  });

  it('uses the plain sign-up page off a country path', async () => {
    const { router } = start('/propertyOnboard/task');
    await view.findByText('screen sign_up', undefined, { timeout: 4000 });
    expect(router.state.location.pathname).toBe('/propertyOnboard/sign_up');
  });

  it('treats the isLoggedIn cookie as signed in', async () => {
    document.cookie = 'isLoggedIn=true';
    const { router } = start('/propertyOnboard/account');
    expect(await view.findByText('screen account')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/propertyOnboard/account');
  });

  it("shows the user cookie's details to a browser signed in without them, and takes the server's user (SPEC §3)", async () => {
    document.cookie = 'isLoggedIn=true';
    const fromCookie = { ...owner, phone: '+910000000000' };
    document.cookie = `user_details=${encodeURIComponent(btoa(JSON.stringify(fromCookie)))}`;
    fetchMock.mockImplementation(async (input) =>
      String(input).includes('/api/v2/sign_in')
        ? json(200, { success: true, data: { is_logged_in: true, user: owner } })
        : json(200, {
            success: true,
            data: { screen_id: 'account', schema_version: 1, title: 'a', widget_list: [] },
          }),
    );
    const { store } = start('/propertyOnboard/account');
    await waitFor(() => expect(store.get(userDetailsAtom)).toEqual(owner));
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/api/v2/sign_in'))).toBe(true);
    document.cookie = 'user_details=; expires=Thu, 01 Jan 1970 00:00:00 GMT';
  });

  it('asks nothing of the user cookie when signed out or when the details are there', async () => {
    const { store } = start('/propertyOnboard/account', signIn);
    await view.findByText('screen account');
    expect(store.get(userDetailsAtom)).toEqual(owner);
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/api/v2/sign_in'))).toBe(false);
  });

  it('sends a signed-in user from sign_up to the property middleware page', async () => {
    const { router } = start('/propertyOnboard/IN/sign_up', signIn);
    expect(await view.findByText('screen property_middleware')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/propertyOnboard/IN');
  });

  it('after session_started goes to the remembered target and clears it', async () => {
    localStorage.setItem('pending_redirect', '/propertyOnboard/IN/account?tab=2');
    fetchMock.mockImplementation(async (input) => {
      const url = String(input);
      if (url.endsWith('/screens/sign_up')) {
        return json(200, {
          success: true,
          data: {
            screen_id: 'sign_up',
            schema_version: 1,
            widget_list: [
              {
                id: 'verify',
                widget_type: 'button',
                contents: {
                  label: 'Verify',
                  actions: [
                    {
                      type: 'submit',
                      endpoint: '/hms_ms/api/v2/verify_otp',
                      method: 'POST',
                      on_success: [{ type: 'session_started' }],
                    },
                  ],
                },
              },
            ],
          },
        });
      }
      if (url.startsWith('/hms_ms/api/v2/verify_otp'))
        return json(200, { success: true, data: { user: owner } });
      return json(200, { success: true, data: { screen_id: 'account', schema_version: 1, widget_list: [] } });
    });
    const { router, store } = start('/propertyOnboard/IN/sign_up');
    await userEvent.click(await view.findByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/propertyOnboard/IN/account'));
    expect(router.state.location.search).toBe('?tab=2');
    expect(localStorage.getItem('pending_redirect')).toBeNull();
    expect(store.get(userDetailsAtom)).toEqual(owner);
    expect(localStorage.getItem('isLoggedIn')).toBe('true');
    expect(JSON.parse(localStorage.getItem('user_details')!)).toEqual(owner);
  });

  it("shows a signed-out visitor 'Session Expired', then goes to sign-up after 2 s (SPEC §4, issue 12 item 22)", async () => {
    const { router } = start('/propertyOnboard/IN/task?property_unique_id=p1');
    expect(await view.findByText('Session Expired')).toBeInTheDocument();
    expect(view.queryByText('screen task')).toBeNull();
    expect(router.state.location.pathname).toBe('/propertyOnboard/IN/task');
    expect(localStorage.getItem('pending_redirect')).toBe('/propertyOnboard/IN/task?property_unique_id=p1');
    await waitFor(() => expect(router.state.location.pathname).toBe('/propertyOnboard/IN/sign_up'), {
      timeout: 3500,
    });
  });

  it('after sign-out on Account, remembers no target: the next sign-in lands on the middleware page (issue 12 item 10)', async () => {
    fetchMock.mockImplementation(async (input) => {
      const url = String(input);
      if (url.endsWith('/screens/account')) {
        return json(200, {
          success: true,
          data: {
            screen_id: 'account',
            schema_version: 1,
            widget_list: [
              {
                id: 'out',
                widget_type: 'button',
                contents: { label: 'Sign out', actions: [{ type: 'sign_out' }] },
              },
            ],
          },
        });
      }
      if (url.includes('/sign_out')) return json(200, { success: true, data: {} });
      const id = /\/screens\/([a-z_]+)/.exec(url)?.[1] ?? 'x';
      return json(200, {
        success: true,
        data: {
          screen_id: id,
          schema_version: 1,
          widget_list: [{ id: 't', widget_type: 'text', contents: { text: `screen ${id}` } }],
        },
      });
    });
    const { router, store } = start('/propertyOnboard/account', signIn);
    await userEvent.click(await view.findByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/propertyOnboard/sign_up'));
    expect(await view.findByText('screen sign_up')).toBeInTheDocument();
    expect(view.queryByText('Session Expired')).toBeNull();
    expect(localStorage.getItem('pending_redirect')).toBeNull();
    act(() => signIn(store));
    await waitFor(() => expect(router.state.location.pathname).toBe('/propertyOnboard'));
  });

  it('on a 401 signs out locally, says Session Expired, and goes to sign-up after 2 s', async () => {
    fetchMock.mockResolvedValue(
      json(401, { success: false, error: { code: 'ONB_UNAUTHENTICATED', message: 'Unauthorized' } }),
    );
    localStorage.setItem('language', 'en-GB');
    const { router } = start('/propertyOnboard/IN/dashboard', signIn);
    expect(await view.findByText('Session Expired')).toBeInTheDocument();
    expect(localStorage.getItem('isLoggedIn')).toBeNull();
    expect(localStorage.getItem('language')).toBe('en-GB');
    expect(router.state.location.pathname).toBe('/propertyOnboard/IN/dashboard');
    await waitFor(() => expect(router.state.location.pathname).toBe('/propertyOnboard/IN/sign_up'), {
      timeout: 3500,
    });
    expect(localStorage.getItem('pending_redirect')).toBe('/propertyOnboard/IN/dashboard');
  });
});

describe('route blocking and not-found (SPEC §2, §4, §6)', () => {
  it('shows not-found for an invalid country code', async () => {
    start('/propertyOnboard/1x/task', signIn);
    expect(await view.findByRole('heading', { name: "We couldn't find the page" })).toBeInTheDocument();
    // Its size is known before the picture loads (404.svg is 320 × 200): nothing below it moves when it comes.
    const picture = view.getByRole('img', { name: 'Page not found (404)' });
    expect([picture.getAttribute('width'), picture.getAttribute('height')]).toEqual(['320', '200']);
    expect(view.getByRole('button', { name: 'Go Back' })).toBeInTheDocument();
    // No partner site configured: no dead link.
    expect(view.queryByRole('link', { name: 'Go to the partner site' })).toBeNull();
  });

  it("'Go Back' on a page opened with no app page before it stays in the app (issue 12 item 14)", async () => {
    // The tab has visited other sites before: history.length > 1, but no page of the app precedes this one.
    window.history.pushState(null, '', '/elsewhere');
    window.history.pushState(null, '', '/elsewhere/again');
    const { router } = start('/propertyOnboard/nowhere/at/all');
    await userEvent.click(await view.findByRole('button', { name: 'Go Back' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/propertyOnboard'));
  });

  it('offers the partner site global info names on the not-found page', async () => {
    start('/propertyOnboard/1x/task', (store) => {
      signIn(store);
      store.set(globalInfoAtom, { ...enabled, partner_site_url: 'https://partner.example.org/' });
    });
    expect(await view.findByRole('link', { name: 'Go to the partner site' })).toHaveAttribute(
      'href',
      'https://partner.example.org/',
    );
  });

  it("offers the support center's home of the active hotel on the not-found page (SPEC §2, issue 12 item 21)", async () => {
    start('/propertyOnboard/1x/task', (store) => {
      signIn(store);
      store.set(globalInfoAtom, { ...enabled, partner_site_url: 'https://partner.example.org/' });
      store.set(activeHotelIdAtom, 'PO1A2B3C4D5E');
    });
    expect(await view.findByRole('link', { name: 'Go to the support center' })).toHaveAttribute(
      'href',
      'https://partner.example.org/support-center/hotels/PO1A2B3C4D5E/home',
    );
  });

  it('shows not-found for the PropertyManager role on authenticated pages', async () => {
    start('/propertyOnboard/dashboard', (store) =>
      signIn(store, { ...owner, devise_role: 'PropertyManager' }),
    );
    expect(await view.findByRole('heading', { name: "We couldn't find the page" })).toBeInTheDocument();
  });

  it('shows not-found when self-onboarding is disabled', async () => {
    start('/propertyOnboard/sign_up', (store) =>
      store.set(globalInfoAtom, { ...enabled, is_self_onboard_enabled: false }),
    );
    expect(await view.findByRole('heading', { name: "We couldn't find the page" })).toBeInTheDocument();
  });

  it('authorizes public pages while global info is loading', async () => {
    start('/propertyOnboard/sign_up', (store) => {
      store.set(globalInfoAtom, null);
      store.set(globalInfoSettledAtom, false);
    });
    expect(await view.findByText('screen sign_up')).toBeInTheDocument();
  });

  it('shows not-found for /404 and unknown paths', async () => {
    start('/somewhere/else');
    expect(await view.findByRole('heading', { name: "We couldn't find the page" })).toBeInTheDocument();
  });

  it('redirects /route/redirect/propertyOnboard to /propertyOnboard keeping the query', async () => {
    const { router } = start('/route/redirect/propertyOnboard?utm_source=app', signIn);
    expect(await view.findByText('screen property_middleware')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/propertyOnboard');
    expect(router.state.location.search).toBe('?utm_source=app');
  });
});

describe('arrival from the main app (issue 11 item 4)', () => {
  const token = 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJtMSJ9.c2lnbmF0dXJl';

  /** Puts the main app's link in the address bar; the router starts at the same path. */
  function arrive(hash: string) {
    resetSsoCapture();
    window.history.replaceState(null, '', `/route/redirect/propertyOnboard?utm_source=main${hash}`);
  }

  function answerSso(status: number, body: unknown) {
    const screens = fetchMock.getMockImplementation()!;
    fetchMock.mockImplementation(async (input, init) =>
      String(input).includes('/sso/sign_in/info') ? json(status, body) : screens(input, init),
    );
  }

  it('takes the token out of the address bar, exchanges it and lands signed in on the middleware page', async () => {
    arrive(`#sso_token=${token}`);
    answerSso(200, {
      success: true,
      data: { user: owner, login_type: 'sso', sign_out_url: 'https://main.example/home' },
    });
    const { router, store } = start('/route/redirect/propertyOnboard?utm_source=main');
    expect(window.location.hash).toBe('');
    expect(window.location.search).toBe('?utm_source=main');
    expect(await view.findByText('screen property_middleware')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/propertyOnboard');
    const call = fetchMock.mock.calls.find(([url]) => String(url).includes('/sso/sign_in/info'))!;
    expect(call[1]!.method).toBe('POST');
    expect(JSON.parse(call[1]!.body as string)).toEqual({ token });
    expect(fetchMock.mock.calls.filter(([url]) => String(url).includes('/sso/sign_in/info'))).toHaveLength(1);
    expect(store.get(loggedInAtom)).toBe(true);
    expect(store.get(userDetailsAtom)).toEqual(owner);
    expect(store.get(loginTypeAtom)).toBe('sso');
    expect(localStorage.getItem('sso_sign_out_url')).toBe('https://main.example/home');
  });

  it('goes to the remembered target after the exchange', async () => {
    arrive(`#sso_token=${token}`);
    localStorage.setItem('pending_redirect', '/propertyOnboard/dashboard');
    answerSso(200, { success: true, data: { user: owner, login_type: 'sso', sign_out_url: null } });
    const { router } = start('/route/redirect/propertyOnboard');
    expect(await view.findByText('screen dashboard')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/propertyOnboard/dashboard');
  });

  it('shows the reason and a way to sign in normally when SSO is not configured', async () => {
    arrive(`#sso_token=${token}`);
    const message =
      'Signing in from the main app is not available here. Please sign in with your phone number.';
    answerSso(404, { success: false, error: { code: 'ONB_SSO_NOT_CONFIGURED', message } });
    const { router, store } = start('/route/redirect/propertyOnboard');
    expect(await view.findByRole('heading', { name: "We couldn't sign you in" })).toBeInTheDocument();
    expect(view.getByRole('alert')).toHaveTextContent(message);
    expect(store.get(loggedInAtom)).toBe(false);
    await userEvent.click(view.getByRole('button', { name: 'Sign in with your phone number' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/propertyOnboard/sign_up'));
  });
});

describe('footer (SPEC §2)', () => {
  it('shows the tabs on the dashboard and navigates on click, country kept', async () => {
    const { router } = start('/propertyOnboard/IN/dashboard', signIn);
    await view.findByText('screen dashboard');
    const nav = view.getByRole('navigation', { name: 'Main navigation' });
    await userEvent.click(within(nav).getByRole('button', { name: 'Account' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/propertyOnboard/IN/account'));
    expect(await view.findByText('screen account')).toBeInTheDocument();
  });

  it('is hidden on the property middleware page and public pages', async () => {
    start('/propertyOnboard', signIn);
    await view.findByText('screen property_middleware');
    expect(view.queryByRole('navigation')).not.toBeInTheDocument();
  });

  it('is hidden when the payload says hide_footer', async () => {
    fetchMock.mockResolvedValue(
      json(200, {
        success: true,
        data: {
          screen_id: 'account',
          schema_version: 1,
          hide_footer: true,
          widget_list: [{ id: 't', widget_type: 'text', contents: { text: 'acc' } }],
        },
      }),
    );
    start('/propertyOnboard/account', signIn);
    await view.findByText('acc');
    await act(async () => undefined);
    expect(view.queryByRole('navigation')).not.toBeInTheDocument();
  });
});

describe('lead pages: query in and out (issue 3)', () => {
  it('passes the page query to the screen request of task/details', async () => {
    start('/propertyOnboard/task/details?property_unique_id=PO1A2B3C4D5E&task=basic_info', signIn);
    await view.findByText('screen task_details');
    const url = String(fetchMock.mock.calls.find(([u]) => String(u).includes('/screens/'))![0]);
    expect(url).toBe('/hms_ms/api/v1/screens/task_details?property_unique_id=PO1A2B3C4D5E&task=basic_info');
  });

  it('navigates with an encoded query, keeping the country, and the new page fetches with it', async () => {
    fetchMock.mockImplementation(async (input) => {
      const url = String(input);
      if (url.includes('/screens/task?')) {
        return json(200, {
          success: true,
          data: {
            screen_id: 'task',
            schema_version: 1,
            widget_list: [
              { id: 't', widget_type: 'text', contents: { text: `checklist ${url.split('?')[1]}` } },
            ],
          },
        });
      }
      return json(200, {
        success: true,
        data: {
          screen_id: 'property_add',
          schema_version: 1,
          widget_list: [
            {
              id: 'go',
              widget_type: 'button',
              contents: {
                label: 'Continue',
                actions: [
                  {
                    type: 'navigate',
                    to: '/task',
                    query: { property_unique_id: 'PO1A2B3C4D5E', note: 'a b&c' },
                  },
                ],
              },
            },
          ],
        },
      });
    });
    const { router } = start('/propertyOnboard/IN/add', signIn);
    await userEvent.click(await view.findByRole('button', { name: 'Continue' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/propertyOnboard/IN/task'));
    expect(router.state.location.search).toBe('?property_unique_id=PO1A2B3C4D5E&note=a+b%26c');
    expect(
      await view.findByText('checklist property_unique_id=PO1A2B3C4D5E&note=a+b%26c'),
    ).toBeInTheDocument();
  });
});

describe('auth pages and the continue parameter (issue 11)', () => {
  it.each([
    ['/login', 'login'],
    ['/login-through-otp', 'login_through_otp'],
    ['/forgot-password-mail', 'forgot_password_mail'],
    ['/forgot-password-phone', 'forgot_password_phone'],
    ['/reset-password?token=abc', 'reset_password'],
    ['/privacy-policy', 'privacy_policy'],
    ['/terms', 'legal_terms'],
    ['/propertyOnboard/forgot-password-mail', 'forgot_password_mail'],
    ['/propertyOnboard/IN/reset-password?token=abc', 'reset_password'],
    ['/propertyOnboard/sign_up/email', 'sign_up_email'],
  ])('serves %s with screen %s, signed out', async (path, screenId) => {
    start(path);
    expect(await view.findByText(`screen ${screenId}`, {}, { timeout: 5000 })).toBeInTheDocument();
  });

  it('keeps /propertyOnboard/terms the terms-of-service task', async () => {
    start('/propertyOnboard/terms', signIn);
    expect(await view.findByText('screen terms', {}, { timeout: 5000 })).toBeInTheDocument();
  });

  it('sends a signed-in user on the login view to a safe continue target', async () => {
    const { router } = start(
      `/propertyOnboard/login?continue=${encodeURIComponent('/propertyOnboard/account')}`,
      signIn,
    );
    await waitFor(() => expect(router.state.location.pathname).toBe('/propertyOnboard/account'));
  });

  it.each(['//evil.com', 'https://evil.com', '/\\evil.com', 'javascript:alert(1)'])(
    'ignores the hostile continue target %j',
    async (hostile) => {
      const { router } = start(`/propertyOnboard/login?continue=${encodeURIComponent(hostile)}`, signIn);
      await waitFor(() => expect(router.state.location.pathname).toBe('/propertyOnboard'));
      expect(router.state.location.search).toBe('');
    },
  );
});

describe('the build variant logo (SPEC §9, issue 15 item 7)', () => {
  it("shows the build's logo, named by the app's name, at the top of the sign-in page", async () => {
    start('/propertyOnboard/sign_up');
    await view.findByText('screen sign_up');
    const logo = within(view.getByRole('banner')).getByRole('img', { name: 'Property Onboarding' });
    // vitest builds the standard variant: its logo file (schemas/app/build-variants.ts).
    expect(logo.getAttribute('src')).toMatch(/\/renderer\/brand\/logo\.svg(\?|$)/);
    expect(logo.compareDocumentPosition(view.getByText('screen sign_up'))).toBe(
      Node.DOCUMENT_POSITION_FOLLOWING,
    );
  });

  it('is not on the pages of a signed-in owner', async () => {
    start('/propertyOnboard/IN/dashboard', signIn);
    await view.findByText('screen dashboard');
    expect(view.queryByRole('img', { name: 'Property Onboarding' })).not.toBeInTheDocument();
    expect(view.queryByRole('banner')).not.toBeInTheDocument();
  });
});
