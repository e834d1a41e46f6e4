import { STORAGE_KEYS, readStorage, writeStorage } from '../state/storage-keys';
import { BASE_PATH } from './config';

/**
 * Remembers where a signed-out user wanted to go (SPEC §4): path + query in localStorage 'pending_redirect',
 * plus whether it was country-specific and its country code.
 */
export function rememberPendingRedirect(pathWithQuery: string, countryCode: string | null): void {
  writeStorage(STORAGE_KEYS.pendingRedirect, pathWithQuery);
  writeStorage(STORAGE_KEYS.pendingRedirectCountrySpecific, countryCode ? 'true' : 'false');
  writeStorage(STORAGE_KEYS.pendingRedirectCountryCode, countryCode);
}

const PROBE_ORIGIN = 'https://app.invalid';

/**
 * The normalised path + query + hash of `target` when it is a same-origin path under /propertyOnboard,
 * else null: it starts with one '/', has no scheme, no backslash and no control character (browsers drop
 * tabs and newlines, so '/\t/evil.com' would become '//evil.com'), and once resolved (dot segments and all)
 * it stays on this origin with a path of /propertyOnboard or below it.
 */
export function safeAppTarget(target: string): string | null {
  if (!target.startsWith('/') || target.startsWith('//') || target.includes('\\')) return null;
  if ([...target].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) return null;
  let url: URL;
  try {
    url = new URL(target, PROBE_ORIGIN);
  } catch {
    return null;
  }
  if (url.origin !== PROBE_ORIGIN) return null;
  if (url.pathname !== BASE_PATH && !url.pathname.startsWith(`${BASE_PATH}/`)) return null;
  if (url.pathname.startsWith('//')) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** True when {@link safeAppTarget} accepts `target`. */
export function isSafeAppTarget(target: string): boolean {
  return safeAppTarget(target) !== null;
}

/** Name of the query parameter of the login view that holds the return target (SPEC §4). */
export const CONTINUE_PARAM = 'continue';

/**
 * The `continue` target of a login view's query string (SPEC §4: 'a redirect to the login view with a
 * continue parameter holding the return target'), normalised, or null when there is none or it is not a
 * same-origin path under the app ({@link safeAppTarget}): `//evil.com`, `https://evil.com`, `/\evil.com`,
 * `javascript:…` and the like are ignored.
 */
export function continueTarget(search: string): string | null {
  const value = new URLSearchParams(search).get(CONTINUE_PARAM);
  return value ? safeAppTarget(value) : null;
}

/** `loginPath` with `?continue=<target>` when `target` is safe; `loginPath` alone otherwise. */
export function withContinue(loginPath: string, target: string): string {
  const safe = safeAppTarget(target);
  return safe ? `${loginPath}?${new URLSearchParams({ [CONTINUE_PARAM]: safe }).toString()}` : loginPath;
}

/**
 * Reads and clears the remembered target (SPEC §4: once logged in the target is cleared and the user is sent
 * to it). Returns null when none was stored or it is not a safe same-origin path under /propertyOnboard.
 */
export function takePendingRedirect(): string | null {
  const target = readStorage(STORAGE_KEYS.pendingRedirect);
  writeStorage(STORAGE_KEYS.pendingRedirect, null);
  writeStorage(STORAGE_KEYS.pendingRedirectCountrySpecific, null);
  writeStorage(STORAGE_KEYS.pendingRedirectCountryCode, null);
  return target ? safeAppTarget(target) : null;
}

/**
 * Where to go once signed in (SPEC §4): the safe `continue` target of the current query, else the
 * remembered target (both cleared), else null.
 */
export function takeSignInTarget(search: string): string | null {
  const fromQuery = continueTarget(search);
  const remembered = takePendingRedirect();
  return fromQuery ?? remembered;
}
