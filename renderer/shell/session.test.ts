import { createStore } from 'jotai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  globalInfoAtom,
  globalInfoSettledAtom,
  loggedInAtom,
  loginTypeAtom,
  toastsAtom,
  userDetailsAtom,
} from '../state/atoms';
import type { GlobalInfo } from '../../schemas/generated/types';
import { loadGlobalInfo } from './session';
import { STORAGE_KEYS } from '../state/storage-keys';
import { SIGN_OUT_ENDPOINT } from './config';
import { safeSignOutUrl, signOut } from './sign-out';
import { clearAnalyticsUser } from './app-analytics';
import { globalInfo } from '../test-support/global-info';

vi.mock('./app-analytics', async (original) => ({
  ...(await original<typeof import('./app-analytics')>()),
  clearAnalyticsUser: vi.fn(),
}));

const fetchMock = vi.fn<typeof fetch>();

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8' },
  });

/** What a signed-in browser holds: the kept keys, user state, navigation state and a form draft. */
function fillStorage() {
  localStorage.setItem(STORAGE_KEYS.language, 'ar');
  localStorage.setItem(STORAGE_KEYS.messages, '{"ar":{}}');
  localStorage.setItem(STORAGE_KEYS.coachMarkSeen, 'true');
  localStorage.setItem(STORAGE_KEYS.userDetails, '{"id":"u1"}');
  localStorage.setItem(STORAGE_KEYS.isLoggedIn, 'true');
  localStorage.setItem(STORAGE_KEYS.activeHotelId, 'PO7K3M9Q2XW4');
  localStorage.setItem(STORAGE_KEYS.pendingRedirect, '/propertyOnboard/task');
  localStorage.setItem('draft:PO7K3M9Q2XW4:basic_info', '{}');
}

const storedKeys = () => Array.from({ length: localStorage.length }, (_, i) => localStorage.key(i)!).sort();

describe('sign out (SPEC §4)', () => {
  beforeEach(() => {
    localStorage.clear();
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('ends the session on the server, then clears storage except language, messages and the coach-mark flag', async () => {
    fillStorage();
    const store = createStore();
    store.set(userDetailsAtom, {
      id: 'u1',
      phone: '+919876543210',
      country_code: 'IN',
      email: null,
      team: null,
      language: 'ar',
      devise_role: 'Owner_Portal_User',
    });
    store.set(loggedInAtom, true);
    fetchMock.mockResolvedValue(json(200, { success: true, data: {} }));
    const goToSignUp = vi.fn();

    expect(await signOut(store, goToSignUp)).toBe(true);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(String(url)).toContain(SIGN_OUT_ENDPOINT);
    expect(init?.method).toBe('POST');
    expect(storedKeys()).toEqual(
      [STORAGE_KEYS.coachMarkSeen, STORAGE_KEYS.language, STORAGE_KEYS.messages].sort(),
    );
    expect(localStorage.getItem(STORAGE_KEYS.language)).toBe('ar');
    expect(store.get(userDetailsAtom)).toBeNull();
    expect(store.get(loggedInAtom)).toBe(false);
    expect(goToSignUp).toHaveBeenCalledOnce();
  });

  it('keeps everything and shows an error toast when the server refuses', async () => {
    fillStorage();
    const store = createStore();
    fetchMock.mockResolvedValue(json(500, { success: false, error: { code: 'ONB_INTERNAL', message: 'x' } }));
    const goToSignUp = vi.fn();

    expect(await signOut(store, goToSignUp)).toBe(false);
    expect(storedKeys()).toHaveLength(8);
    expect(store.get(toastsAtom).map((t) => t.status)).toEqual(['error']);
    expect(goToSignUp).not.toHaveBeenCalled();
  });

  it('returns an sso session to the main app after sign-out, and forgets the login type', async () => {
    fillStorage();
    const store = createStore();
    store.set(loggedInAtom, true);
    store.set(loginTypeAtom, 'sso');
    localStorage.setItem(STORAGE_KEYS.ssoSignOutUrl, 'https://main-app.example/home');
    fetchMock.mockResolvedValue(new Response(null, { status: 204 }));
    const goToSignUp = vi.fn();
    const leave = vi.fn();

    expect(await signOut(store, goToSignUp, leave)).toBe(true);
    expect((fetchMock.mock.calls[0]![1]!.headers as Record<string, string>)['x-login-type']).toBeUndefined();
    expect(leave).toHaveBeenCalledWith('https://main-app.example/home');
    expect(goToSignUp).not.toHaveBeenCalled();
    expect(store.get(loginTypeAtom)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.loginType)).toBeNull();
    expect(localStorage.getItem(STORAGE_KEYS.ssoSignOutUrl)).toBeNull();
  });

  it('goes to the sign-up page when the sso sign-out address is missing or unsafe', async () => {
    const store = createStore();
    store.set(loginTypeAtom, 'sso');
    localStorage.setItem(STORAGE_KEYS.ssoSignOutUrl, 'javascript:alert(1)');
    fetchMock.mockResolvedValue(new Response(null, { status: 204 }));
    const goToSignUp = vi.fn();
    const leave = vi.fn();
    expect(await signOut(store, goToSignUp, leave)).toBe(true);
    expect(leave).not.toHaveBeenCalled();
    expect(goToSignUp).toHaveBeenCalledOnce();
  });
});

describe('sign out and reminders (issue 15 item 5, SPEC §8)', () => {
  const ENDPOINT = 'https://fcm.googleapis.com/fcm/send/abc123';
  let unsubscribe: ReturnType<typeof vi.fn>;
  beforeEach(() => {
    localStorage.clear();
    fetchMock.mockReset();
    vi.mocked(clearAnalyticsUser).mockClear();
    vi.stubGlobal('fetch', fetchMock);
    unsubscribe = vi.fn(async () => true);
    const subscription = { endpoint: ENDPOINT, unsubscribe };
    const registration = { pushManager: { getSubscription: vi.fn(async () => subscription) } };
    const serviceWorker = { getRegistration: vi.fn(async () => registration), register: vi.fn() };
    Object.defineProperty(navigator, 'serviceWorker', { value: serviceWorker, configurable: true });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    delete (navigator as { serviceWorker?: unknown }).serviceWorker;
  });

  it("sends this browser's push endpoint, unsubscribes it once signed out, and clears the analytics user", async () => {
    fetchMock.mockResolvedValue(new Response(null, { status: 204 }));
    expect(await signOut(createStore(), vi.fn())).toBe(true);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(String(url)).toContain(SIGN_OUT_ENDPOINT);
    expect(JSON.parse(String(init?.body))).toEqual({ push_endpoint: ENDPOINT });
    await vi.waitFor(() => expect(unsubscribe).toHaveBeenCalledTimes(1));
    expect(clearAnalyticsUser).toHaveBeenCalled();
    expect(navigator.serviceWorker.register).not.toHaveBeenCalled();
  });

  it('keeps the subscription when the server refuses to sign out, and still clears the analytics user', async () => {
    fetchMock.mockResolvedValue(json(500, { success: false, error: { code: 'ONB_INTERNAL', message: 'x' } }));
    expect(await signOut(createStore(), vi.fn())).toBe(false);
    expect(unsubscribe).not.toHaveBeenCalled();
    expect(clearAnalyticsUser).toHaveBeenCalled();
  });

  it('sends an empty body from a browser without reminders', async () => {
    delete (navigator as { serviceWorker?: unknown }).serviceWorker;
    fetchMock.mockResolvedValue(new Response(null, { status: 204 }));
    expect(await signOut(createStore(), vi.fn())).toBe(true);
    expect(JSON.parse(String(fetchMock.mock.calls[0]![1]?.body))).toEqual({});
  });
});

describe('safeSignOutUrl', () => {
  it('follows same-origin paths and http(s) URLs only', () => {
    expect(safeSignOutUrl('/propertyOnboard/sign_up')).toBe('/propertyOnboard/sign_up');
    expect(safeSignOutUrl('https://main-app.example/home')).toBe('https://main-app.example/home');
    for (const bad of [
      null,
      '',
      '//evil.example',
      '/\\evil.example',
      'javascript:alert(1)',
      'data:text/html,x',
    ]) {
      expect(safeSignOutUrl(bad)).toBeNull();
    }
  });
});

describe('global info at startup (SPEC §4, §7)', () => {
  const info: GlobalInfo = globalInfo({ country_code: 'AE' });
  beforeEach(() => {
    localStorage.clear();
    fetchMock.mockReset();
    vi.stubGlobal('fetch', fetchMock);
  });
  afterEach(() => vi.unstubAllGlobals());

  it('takes the copy the page carries without a request (issue 13 item 4)', async () => {
    const store = createStore();
    await loadGlobalInfo(store, '/propertyOnboard/ae/task', info);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(store.get(globalInfoAtom)).toEqual(info);
    expect(store.get(globalInfoSettledAtom)).toBe(true);
  });

  it("else asks for it with the path's country, and is settled even when the request fails", async () => {
    const store = createStore();
    fetchMock.mockResolvedValueOnce(json(200, { success: true, data: info }));
    await loadGlobalInfo(store, '/propertyOnboard/ae/task');
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(new URL(String(url), 'http://x').pathname).toBe('/hms_ms/api/v1/global_info');
    expect(new Headers(init?.headers).get('user_url_country')).toBe('AE');
    expect(store.get(globalInfoAtom)).toEqual(info);
    expect(store.get(globalInfoSettledAtom)).toBe(true);

    const failed = createStore();
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    await loadGlobalInfo(failed, '/propertyOnboard/task');
    expect(failed.get(globalInfoAtom)).toBeNull();
    expect(failed.get(globalInfoSettledAtom)).toBe(true);
    vi.restoreAllMocks();
  });
});
