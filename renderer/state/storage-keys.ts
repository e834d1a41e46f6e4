/**
 * Names of everything the client keeps in the browser (SPEC §3 dashboard state and stored navigation state,
 * SPEC §4 sign-out). Sign-out clears localStorage except {@link KEPT_ON_SIGN_OUT}.
 *
 * Besides these, unsaved drafts (engine/drafts.ts) live under the key the screen names in
 * `ScreenPayload.form.draft.storage_key` (e.g. 'draft:PO1A2B3C4D5E:basic_info'); sign-out clears them too.
 */
export const STORAGE_KEYS = {
  /** The chosen Locale, a plain string (SPEC §1). */
  language: 'language',
  /** Cached translations: JSON `{ [locale]: clientMessages }` (SPEC §3 translations). */
  messages: 'messages',
  /** Signed-in user, JSON UserDetails (SPEC §3 user_details). */
  userDetails: 'user_details',
  /** 'true' while signed in (SPEC §4 local flag isLoggedIn). */
  isLoggedIn: 'isLoggedIn',
  /** Active hotel id sent as x-qid / qid (SPEC §3 active_hotel_id, §7). */
  activeHotelId: 'active_hotel_id',
  /** Path + query the user wanted before signing in (SPEC §4). */
  pendingRedirect: 'pending_redirect',
  /** 'true' when the remembered path was country-specific (SPEC §3 stored navigation state). */
  pendingRedirectCountrySpecific: 'pending_redirect_country_specific',
  /** Country code (ISO alpha-2) of the remembered path. */
  pendingRedirectCountryCode: 'pending_redirect_country_code',
  /** 'sso' after a hand-off from the main app: every call then carries the sso header (SPEC §7); cleared at sign-out. */
  loginType: 'login_type',
  /** Where the browser goes after signing out of an sso session (SPEC §4 'calls a callback for sso type'). */
  ssoSignOutUrl: 'sso_sign_out_url',
  /** The coach marks were seen; survives sign-out (SPEC §4). */
  coachMarkSeen: 'coach_mark_seen',
} as const;

/** Keys sign-out keeps (SPEC §4: language, messages and the coach-mark flag). */
export const KEPT_ON_SIGN_OUT: readonly string[] = [
  STORAGE_KEYS.language,
  STORAGE_KEYS.messages,
  STORAGE_KEYS.coachMarkSeen,
];

/** localStorage.getItem that never throws (private mode, disabled storage): null on failure. */
export function readStorage(key: string): string | null {
  try {
    return globalThis.localStorage?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

/** localStorage.setItem / removeItem (for null) that never throws. */
export function writeStorage(key: string, value: string | null): void {
  try {
    if (value === null) globalThis.localStorage?.removeItem(key);
    else globalThis.localStorage?.setItem(key, value);
  } catch {
    // Storage can be full or disabled; the in-memory atom still holds the value.
  }
}

/** Removes every localStorage key except those in {@link KEPT_ON_SIGN_OUT} (SPEC §4 sign-out). */
export function clearStorageOnSignOut(): void {
  try {
    const storage = globalThis.localStorage;
    if (!storage) return;
    const keys: string[] = [];
    for (let i = 0; i < storage.length; i += 1) {
      const key = storage.key(i);
      if (key !== null && !KEPT_ON_SIGN_OUT.includes(key)) keys.push(key);
    }
    for (const key of keys) storage.removeItem(key);
  } catch {
    // Nothing to clear when storage is unavailable.
  }
}

/** True when the readable cookie `isLoggedIn` equals 'true' (SPEC §4). */
export function hasLoggedInCookie(): boolean {
  if (typeof document === 'undefined') return false;
  return document.cookie.split(';').some((part) => part.trim() === 'isLoggedIn=true');
}
