import { createStore } from 'jotai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UserDetails } from '../../schemas/generated/types';
import { loggedInAtom, userDetailsAtom } from '../state/atoms';
import { readUserCookie, resetSsoCapture, restoreUserFromCookie, takeSsoTokenFromLocation } from './sso';

const owner: UserDetails = {
  id: 'u1',
  team: null,
  email: 'owner@example.com',
  phone: '+919876543210',
  country_code: 'IN',
  language: 'hi',
  devise_role: 'Owner_Portal_User',
};

const base64Json = (value: unknown) =>
  btoa(String.fromCharCode(...new TextEncoder().encode(JSON.stringify(value))));

const fetchMock = vi.fn<typeof fetch>();
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeEach(() => {
  resetSsoCapture();
  localStorage.clear();
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => {
  vi.unstubAllGlobals();
  document.cookie = 'user_details=; expires=Thu, 01 Jan 1970 00:00:00 GMT';
});

describe('takeSsoTokenFromLocation', () => {
  it('reads sso_token from the fragment and removes it from the address bar, keeping the rest', () => {
    window.history.replaceState(
      null,
      '',
      '/route/redirect/propertyOnboard?utm_source=app#sso_token=a.b.c&x=1',
    );
    expect(takeSsoTokenFromLocation()).toBe('a.b.c');
    expect(window.location.pathname).toBe('/route/redirect/propertyOnboard');
    expect(window.location.search).toBe('?utm_source=app');
    expect(window.location.hash).toBe('#x=1');
    // A second render of the same page load gets the same token from memory.
    expect(takeSsoTokenFromLocation()).toBe('a.b.c');
  });

  it('answers null without a token and leaves the address alone', () => {
    window.history.replaceState(null, '', '/route/redirect/propertyOnboard#other=1');
    expect(takeSsoTokenFromLocation()).toBeNull();
    expect(window.location.hash).toBe('#other=1');
  });
});

describe('the base64 JSON user cookie (SPEC §3)', () => {
  it('decodes user details, UTF-8 included, and refuses anything else', () => {
    const arabic = { ...owner, team: 'فريق' };
    expect(readUserCookie(`a=1; user_details=${encodeURIComponent(base64Json(arabic))}`)).toEqual(arabic);
    expect(readUserCookie('user_details=not-base64!')).toBeNull();
    expect(readUserCookie(`user_details=${base64Json({ id: 'u1' })}`)).toBeNull();
    expect(readUserCookie(`user_details=${base64Json({ ...owner, devise_role: 'Admin' })}`)).toBeNull();
    expect(readUserCookie('')).toBeNull();
  });

  it('never signs anyone in: without the signed-in flag it is ignored', async () => {
    document.cookie = `user_details=${base64Json(owner)}`;
    const store = createStore();
    const signOutLocally = vi.fn();
    expect(await restoreUserFromCookie(store, signOutLocally)).toBe(false);
    expect(store.get(userDetailsAtom)).toBeNull();
    expect(store.get(loggedInAtom)).toBe(false);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('a forged cookie beside a signed-in flag is checked with the server and signed out', async () => {
    document.cookie = `user_details=${base64Json(owner)}`;
    const store = createStore();
    store.set(loggedInAtom, true);
    fetchMock.mockResolvedValue(json(200, { success: true, data: { is_logged_in: false } }));
    const signOutLocally = vi.fn();
    expect(await restoreUserFromCookie(store, signOutLocally)).toBe(true);
    expect(String(fetchMock.mock.calls[0]![0])).toContain('/hms_ms/api/v2/sign_in');
    expect(signOutLocally).toHaveBeenCalledOnce();
  });

  it('with a live session the server’s user replaces the cookie’s', async () => {
    document.cookie = `user_details=${base64Json({ ...owner, phone: '+910000000000' })}`;
    const store = createStore();
    store.set(loggedInAtom, true);
    fetchMock.mockResolvedValue(json(200, { success: true, data: { is_logged_in: true, user: owner } }));
    const signOutLocally = vi.fn();
    await restoreUserFromCookie(store, signOutLocally);
    expect(store.get(userDetailsAtom)).toEqual(owner);
    expect(signOutLocally).not.toHaveBeenCalled();
  });
});
