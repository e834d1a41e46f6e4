import { atom, createStore, type PrimitiveAtom, type WritableAtom } from 'jotai';
import type { GlobalInfo, ToastStatus, UserDetails } from '../../schemas/generated/types';
import { STORAGE_KEYS, hasLoggedInCookie, readStorage, writeStorage } from './storage-keys';

/**
 * An atom backed by localStorage: the first read in a store reads the key (so a fresh store, as in tests,
 * sees the current storage); every write updates both the atom and the key (null removes the key).
 */
function persistedAtom<T>(
  key: string,
  parse: (raw: string | null) => T,
  serialise: (value: T) => string | null,
): WritableAtom<T, [T], void> {
  const held = atom<{ value: T } | null>(null);
  return atom(
    (get) => {
      const current = get(held);
      return current ? current.value : parse(readStorage(key));
    },
    (_get, set, next: T) => {
      writeStorage(key, serialise(next));
      set(held, { value: next });
    },
  );
}

function parseJson<T>(raw: string | null): T | null {
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

/** The one jotai store of the app; the API client reads the active hotel id from it (SPEC §7). */
export const appStore = createStore();

/** Global info of SPEC §3 (GET /hms_ms/api/v1/global_info); null while loading or after a failure. */
export const globalInfoAtom: PrimitiveAtom<GlobalInfo | null> = atom<GlobalInfo | null>(null);

/** Whether the global info request has finished (successfully or not). */
export const globalInfoSettledAtom: PrimitiveAtom<boolean> = atom(false);

/** The signed-in user, persisted to localStorage 'user_details' (SPEC §3); null when signed out. */
export const userDetailsAtom = persistedAtom<UserDetails | null>(
  STORAGE_KEYS.userDetails,
  (raw) => parseJson<UserDetails>(raw),
  (value) => (value ? JSON.stringify(value) : null),
);

/**
 * Signed in (SPEC §4): localStorage 'isLoggedIn' === 'true' or the cookie isLoggedIn=true at first read;
 * writing true stores the flag, writing false removes it.
 */
export const loggedInAtom = persistedAtom<boolean>(
  STORAGE_KEYS.isLoggedIn,
  (raw) => raw === 'true' || hasLoggedInCookie(),
  (value) => (value ? 'true' : null),
);

/** Active hotel id, sent as header x-qid and query qid when set (SPEC §7); persisted as 'active_hotel_id'. */
export const activeHotelIdAtom = persistedAtom<string | null>(
  STORAGE_KEYS.activeHotelId,
  (raw) => raw,
  (value) => value,
);

/** How the session was started, when it matters to the calls (SPEC §7): 'sso' for the hand-off from the main app. */
export type LoginType = 'sso';

/**
 * The login type, persisted to localStorage 'login_type' (SPEC §7: the sso header is added to every call
 * while it is 'sso'); null for any other sign-in. Cleared at sign-out.
 */
export const loginTypeAtom = persistedAtom<LoginType | null>(
  STORAGE_KEYS.loginType,
  (raw) => (raw === 'sso' ? 'sso' : null),
  (value) => value,
);

/**
 * An access token supplied by a host that embeds the app as a micro front end (SPEC §7: the calls then
 * carry an access-token header and the micro-front-end sign-in type); kept in memory only, null by default.
 */
export const accessTokenAtom: PrimitiveAtom<string | null> = atom<string | null>(null);

/** One toast (SPEC §3 popup item): text, status and how long it stays in ms. */
export interface Toast {
  id: string;
  toast_text: string;
  status: ToastStatus;
  /** ms the toast stays on screen. */
  timer: number;
}

/** Queue of toasts; the shell's toast host draws the first and drops it after its timer. */
export const toastsAtom: PrimitiveAtom<Toast[]> = atom<Toast[]>([]);

/** Counter of running blocking operations; the overlay shows while it is above 0 (SPEC §4). */
export const blockingLoaderAtom: PrimitiveAtom<number> = atom(0);

/** popup_id of the open dialog on the current screen, or null (one at a time). */
export const openPopupAtom: PrimitiveAtom<string | null> = atom<string | null>(null);

/** Form values of one screen, by field name. */
export type FormValues = Record<string, unknown>;
/** Translated error texts of one screen, by field name. */
export type FormErrors = Record<string, string>;

/** Form values of every screen: `{ [screenId]: { [field]: value } }` (DESIGN: keyed by screen and field). */
export const formValuesAtom: PrimitiveAtom<Record<string, FormValues>> = atom<Record<string, FormValues>>({});

/** Field errors of every screen: `{ [screenId]: { [field]: text } }`. */
export const formErrorsAtom: PrimitiveAtom<Record<string, FormErrors>> = atom<Record<string, FormErrors>>({});

let toastCounter = 0;

/** Adds a toast to the queue of `store`; timer in ms. Returns its id. */
export function pushToast(
  store: ReturnType<typeof createStore>,
  toast: { toast_text: string; status: ToastStatus; timer: number },
): string {
  toastCounter += 1;
  const id = `toast-${toastCounter}`;
  store.set(toastsAtom, (queue) => [...queue, { id, ...toast }]);
  return id;
}

/**
 * The owner has just signed out on purpose (SPEC §4 sign-out), as opposed to a session that ended: the page
 * signed out from is not a target to come back to, and no 'Session Expired' is shown (issue 12 item 10).
 * Set by the shell's sign-out, cleared once a public page is reached or a session starts. Not persisted.
 */
export const signedOutOnPurposeAtom = atom(false);

/** Resets every atom that belongs to the signed-in user (SPEC §4 sign-out); storage is cleared separately. */
export function resetUserAtoms(store: ReturnType<typeof createStore>): void {
  store.set(userDetailsAtom, null);
  store.set(loggedInAtom, false);
  store.set(activeHotelIdAtom, null);
  store.set(loginTypeAtom, null);
  store.set(formValuesAtom, {});
  store.set(formErrorsAtom, {});
  store.set(openPopupAtom, null);
}

/** The jotai store type used across the renderer. */
export type AppStore = ReturnType<typeof createStore>;
