import { startTransition } from 'react';
import type { AppStore } from '../state/atoms';
import { globalInfoAtom, globalInfoSettledAtom, resetUserAtoms } from '../state/atoms';
import { clearStorageOnSignOut } from '../state/storage-keys';
import type { GlobalInfo } from '../../schemas/generated/types';
import { apiRequest, extractErrorMessage } from '../api/client';
import { GLOBAL_INFO_ENDPOINT } from './config';
import { countryOfPath } from './country';
import { clearAnalyticsUser } from './app-analytics';

/**
 * Global info at startup (SPEC §4, §7), stored in globalInfoAtom: `embedded`, the copy the server put in the
 * page with its first screen (schemas/app/first-screen.ts), when there is one — no request then, and a page
 * that waits for global info draws at once — else fetched with header `user_url_country` (the upper-case
 * country of the path when it is country-specific). On failure globalInfoAtom stays null;
 * globalInfoSettledAtom becomes true either way. Never rejects.
 */
export async function loadGlobalInfo(
  store: AppStore,
  pathname: string,
  embedded?: GlobalInfo,
): Promise<void> {
  if (embedded) {
    // Before the first draw: set as it is, no transition needed.
    store.set(globalInfoAtom, embedded);
    store.set(globalInfoSettledAtom, true);
    startTracing(embedded);
    return;
  }
  const country = countryOfPath(pathname);
  try {
    const info = await apiRequest<GlobalInfo>(GLOBAL_INFO_ENDPOINT, {
      headers: country ? { user_url_country: country.toUpperCase() } : {},
    });
    // As a transition: what it changes on the page is drawn in slices, not in one long task (issue 13 item 4).
    startTransition(() => store.set(globalInfoAtom, info));
    startTracing(info);
  } catch (error) {
    console.warn('global info failed', extractErrorMessage(error));
  } finally {
    startTransition(() => store.set(globalInfoSettledAtom, true));
  }
}

/**
 * Performance tracing (issue 15 item 4) only when the server has it on: its own chunk, never on the way of
 * the first screen.
 */
function startTracing(info: GlobalInfo): void {
  if (!info.tracing) return;
  const settings = info.tracing;
  void import('./tracing').then(
    (m) => m.startBrowserTracing(settings),
    () => undefined,
  );
}

/** Signs out locally (SPEC §4): clears storage except language, messages and the coach-mark flag; resets user atoms. */
export function signOutLocally(store: AppStore): void {
  clearStorageOnSignOut();
  resetUserAtoms(store);
  clearAnalyticsUser();
}
