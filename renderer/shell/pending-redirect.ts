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

/**
 * True when `target` is a same-origin path under /propertyOnboard: starts with one '/', no scheme, no
 * backslash, and its path is /propertyOnboard or below it.
 */
export function isSafeAppTarget(target: string): boolean {
  if (!target.startsWith('/') || target.startsWith('//') || target.includes('\\')) return false;
  let url: URL;
  try {
    url = new URL(target, 'https://app.invalid');
  } catch {
    return false;
  }
  if (url.origin !== 'https://app.invalid') return false;
  return url.pathname === BASE_PATH || url.pathname.startsWith(`${BASE_PATH}/`);
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
  return target && isSafeAppTarget(target) ? target : null;
}
