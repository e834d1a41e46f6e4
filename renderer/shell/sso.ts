import type { SignInState, SsoSignInResult, UserDetails } from '../../schemas/generated/types';
import { apiRequest } from '../api/client';
import type { AppStore } from '../state/atoms';
import { loggedInAtom, loginTypeAtom, resetUserAtoms, userDetailsAtom } from '../state/atoms';
import { STORAGE_KEYS, clearStorageOnSignOut, writeStorage } from '../state/storage-keys';
import { SIGN_IN_STATE_ENDPOINT, SSO_SIGN_IN_ENDPOINT, SSO_TOKEN_FRAGMENT_PARAM } from './config';
import { takePendingRedirect } from './pending-redirect';

let captured: { token: string | null } | null = null;

/**
 * Reads the main app's token from the URL fragment (`#sso_token=<JWS>`, SPEC §2 /route/redirect/propertyOnboard)
 * and removes it from the address bar at once with history.replaceState, keeping the path, the query and any
 * other fragment parameter. The first call of a page load reads it; later calls return the same value (a
 * React StrictMode double render finds the bar already clean). Returns null when there is none.
 */
export function takeSsoTokenFromLocation(
  location: Pick<Location, 'pathname' | 'search' | 'hash'> = window.location,
  history: Pick<History, 'state' | 'replaceState'> = window.history,
): string | null {
  if (captured) return captured.token;
  const params = new URLSearchParams(location.hash.replace(/^#/, ''));
  const token = params.get(SSO_TOKEN_FRAGMENT_PARAM);
  if (token !== null) {
    params.delete(SSO_TOKEN_FRAGMENT_PARAM);
    const rest = params.toString();
    history.replaceState(
      history.state,
      '',
      `${location.pathname}${location.search}${rest ? `#${rest}` : ''}`,
    );
  }
  captured = { token: token && token.trim() !== '' ? token.trim() : null };
  return captured.token;
}

/** Forgets the captured token (tests; a new page load starts afresh anyway). */
export function resetSsoCapture(): void {
  captured = null;
  exchanges.clear();
}

const exchanges = new Map<string, Promise<SsoSignInResult>>();

/**
 * POSTs the token to sso/sign_in/info as `{ token }` once per token (a token is single use: a second post
 * would be refused, so repeated calls share the first answer). Rejects with the ApiError of the client
 * (404 ONB_SSO_NOT_CONFIGURED, 400/409 refusals with their translated message).
 */
export function exchangeSsoToken(token: string): Promise<SsoSignInResult> {
  let pending = exchanges.get(token);
  if (!pending) {
    pending = apiRequest<SsoSignInResult>(SSO_SIGN_IN_ENDPOINT, { method: 'POST', body: { token } });
    exchanges.set(token, pending);
  }
  return pending;
}

/**
 * Keeps the session the server started (SPEC §3 user details, §4 signed-in flag, §7 login type): a different
 * user than the one remembered first has the browser's state of the previous one cleared; then the user,
 * the flag, login type 'sso' and the sign-out URL are stored. Returns the remembered target (read and
 * cleared, SPEC §4), or null.
 */
export function applySsoSession(store: AppStore, result: SsoSignInResult): string | null {
  const target = takePendingRedirect();
  const previous = store.get(userDetailsAtom);
  if (previous && previous.id !== result.user.id) {
    clearStorageOnSignOut();
    resetUserAtoms(store);
  }
  store.set(userDetailsAtom, result.user);
  store.set(loggedInAtom, true);
  store.set(loginTypeAtom, 'sso');
  writeStorage(STORAGE_KEYS.ssoSignOutUrl, result.sign_out_url);
  return target;
}

/** Name of the base64 JSON cookie with the user's details (SPEC §3 'restorable from a base64 JSON cookie'). */
export const USER_COOKIE = 'user_details';

const roles: readonly string[] = ['Owner_Portal_User', 'Employee', 'PropertyManager'];

/**
 * The user details of the base64 JSON cookie `user_details` (SPEC §3), or null when absent or not of the
 * UserDetails shape. Display only: it never makes anyone signed in.
 */
export function readUserCookie(cookies: string = document.cookie): UserDetails | null {
  const raw = cookies
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${USER_COOKIE}=`))
    ?.slice(USER_COOKIE.length + 1);
  if (!raw) return null;
  try {
    const binary = atob(decodeURIComponent(raw));
    const text = new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
    const value = JSON.parse(text) as Record<string, unknown>;
    const ok =
      typeof value.id === 'string' &&
      typeof value.phone === 'string' &&
      typeof value.country_code === 'string' &&
      typeof value.language === 'string' &&
      typeof value.devise_role === 'string' &&
      roles.includes(value.devise_role) &&
      (value.email === null || typeof value.email === 'string') &&
      (value.team === null || typeof value.team === 'string');
    return ok ? (value as unknown as UserDetails) : null;
  } catch {
    return null;
  }
}

/**
 * SPEC §3 auto login, made safe: when the browser believes it is signed in but holds no user details, the
 * details of the user cookie are shown meanwhile, and the server's sign-in state decides — signed in: its
 * user replaces the cookie's; not signed in: `signOutLocally()` (a forged cookie signs no one in). Does
 * nothing otherwise. Resolves true when the cookie was used. Never rejects.
 */
export async function restoreUserFromCookie(store: AppStore, signOutLocally: () => void): Promise<boolean> {
  if (!store.get(loggedInAtom) || store.get(userDetailsAtom)) return false;
  const fromCookie = readUserCookie();
  if (!fromCookie) return false;
  store.set(userDetailsAtom, fromCookie);
  try {
    const state = await apiRequest<SignInState>(SIGN_IN_STATE_ENDPOINT);
    if (state.is_logged_in && state.user) store.set(userDetailsAtom, state.user);
    else signOutLocally();
  } catch {
    // 401 already signed out through the unauthorized handler; other failures keep the display details.
  }
  return true;
}
