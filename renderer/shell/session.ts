import type { AppStore } from '../state/atoms';
import {
  globalInfoAtom,
  globalInfoSettledAtom,
  loginTypeAtom,
  pushToast,
  resetUserAtoms,
  signedOutOnPurposeAtom,
} from '../state/atoms';
import { clearStorageOnSignOut, readStorage, STORAGE_KEYS } from '../state/storage-keys';
import type { GlobalInfo } from '../../schemas/generated/types';
import { apiRequest, extractErrorMessage } from '../api/client';
import { ACTION_TOAST_MIN_MS, GLOBAL_INFO_ENDPOINT, SIGN_OUT_ENDPOINT } from './config';
import { countryOfPath } from './country';
import { clearAnalyticsUser } from './analytics';

/**
 * Fetches the global info at startup (SPEC §4, §7) with header `user_url_country` (the upper-case country of
 * the path when it is country-specific) and stores it in globalInfoAtom. On failure globalInfoAtom stays null;
 * globalInfoSettledAtom becomes true either way. Never rejects.
 */
export async function loadGlobalInfo(store: AppStore, pathname: string): Promise<void> {
  const country = countryOfPath(pathname);
  try {
    const info = await apiRequest<GlobalInfo>(GLOBAL_INFO_ENDPOINT, {
      headers: country ? { user_url_country: country.toUpperCase() } : {},
    });
    store.set(globalInfoAtom, info);
    // Performance tracing (issue 15 item 4) only when the server has it on: its own chunk, never on the way
    // of the first screen.
    if (info.tracing) {
      const settings = info.tracing;
      void import('./tracing').then(
        (m) => m.startBrowserTracing(settings),
        () => undefined,
      );
    }
  } catch (error) {
    console.warn('global info failed', extractErrorMessage(error));
  } finally {
    store.set(globalInfoSettledAtom, true);
  }
}

/** Signs out locally (SPEC §4): clears storage except language, messages and the coach-mark flag; resets user atoms. */
export function signOutLocally(store: AppStore): void {
  clearStorageOnSignOut();
  resetUserAtoms(store);
  clearAnalyticsUser();
}

/**
 * The address an sso session returns to after sign-out (SPEC §4 'or calls a callback for sso type'), or null:
 * only a same-origin path (one leading '/', no backslash) or an absolute http(s) URL is followed — the server
 * sends SSO_SIGN_OUT_URL, which it checked the same way.
 */
export function safeSignOutUrl(url: string | null): string | null {
  if (!url) return null;
  if (url.startsWith('/')) return url.startsWith('//') || url.includes('\\') ? null : url;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.href : null;
  } catch {
    return null;
  }
}

/**
 * This browser's push subscription (reminders, issue 15 item 5), or null: read only, never registers a
 * service worker or asks for anything; null too when the browser has no service worker or it fails.
 */
async function pushSubscription(): Promise<PushSubscription | null> {
  try {
    if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return null;
    const registration = await navigator.serviceWorker.getRegistration();
    return (await registration?.pushManager?.getSubscription()) ?? null;
  } catch {
    return null;
  }
}

/**
 * SPEC §4 sign-out: POST /hms_ms/api/v1/onboard/users/sign_out (header intent: signOut), then the local
 * sign-out (which also forgets the login type and any remembered target; the gate remembers none for the page
 * signed out from, `signedOutOnPurposeAtom`) and `goToSignUp()` — or, for an sso session with a sign-out
 * URL from the server, `leave(url)` (a full page load to the main app's callback). On failure: an error
 * toast with the extracted message (SPEC §8); resolves false. This browser's push subscription, if any, goes
 * in the body (`push_endpoint`): the server deletes it for the owner signing out, and once signed out the
 * browser unsubscribes it too, so no reminder reaches a signed-out browser (issue 15 item 5). The analytics
 * user is cleared either way (SPEC §8).
 */
export async function signOut(
  store: AppStore,
  goToSignUp: () => void,
  leave: (url: string) => void = (url) => window.location.assign(url),
): Promise<boolean> {
  const ssoReturn =
    store.get(loginTypeAtom) === 'sso' ? safeSignOutUrl(readStorage(STORAGE_KEYS.ssoSignOutUrl)) : null;
  const subscription = await pushSubscription();
  try {
    await apiRequest(SIGN_OUT_ENDPOINT, {
      method: 'POST',
      headers: { intent: 'signOut' },
      body: subscription ? { push_endpoint: subscription.endpoint } : {},
    });
  } catch (error) {
    clearAnalyticsUser();
    pushToast(store, { toast_text: extractErrorMessage(error), status: 'error', timer: ACTION_TOAST_MIN_MS });
    return false;
  }
  // Before the user atoms go: the gate must not take the page signed out from as a target (issue 12 item 10).
  store.set(signedOutOnPurposeAtom, true);
  signOutLocally(store);
  // The push service forgets it too; a failure here changes nothing for the owner (the server has no row).
  if (subscription) void subscription.unsubscribe().catch(() => undefined);
  if (ssoReturn) leave(ssoReturn);
  else goToSignUp();
  return true;
}
