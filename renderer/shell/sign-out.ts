/**
 * SPEC §4 sign-out, a chunk of its own: it is loaded when the owner signs out, so the sign-in page's start-up
 * JavaScript does not carry it (issue 13 item 2).
 */
import type { AppStore } from '../state/atoms';
import { loginTypeAtom, pushToast, signedOutOnPurposeAtom } from '../state/atoms';
import { readStorage, STORAGE_KEYS } from '../state/storage-keys';
import { apiRequest, extractErrorMessage } from '../api/client';
import { ACTION_TOAST_MIN_MS, SIGN_OUT_ENDPOINT } from './config';
import { clearAnalyticsUser } from './app-analytics';
import { signOutLocally } from './session';

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
