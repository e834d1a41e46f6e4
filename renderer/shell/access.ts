import type { GlobalInfo, UserDetails } from '../../schemas/generated/types';
import type { ParsedAppPath } from './country';
import { signUpPath, toBrowserPath } from './country';
import type { AppRoute } from './route-table';
import { SIGNED_IN_REDIRECTS } from './route-table';

/** What the authentication gate knows about the visitor (SPEC §4). */
export interface AccessInput {
  parsed: ParsedAppPath;
  loggedIn: boolean;
  user: UserDetails | null;
  globalInfo: GlobalInfo | null;
  /** The global info request has finished (successfully or not). */
  globalInfoSettled: boolean;
}

/** The gate's decision for one location. */
export type AccessDecision =
  | { kind: 'render'; route: AppRoute; countryCode: string | null }
  | { kind: 'not_found' }
  | { kind: 'wait' }
  | { kind: 'redirect'; to: string; rememberTarget: boolean; countryCode: string | null };

/**
 * The authentication gate and route blocking of SPEC §2, §4, §6, in order:
 * unknown path or bad country code → not found; self-onboarding disabled in a settled global info → not
 * found (public pages are authorized while global info is loading; authenticated ones wait); public page —
 * signed in on sign_up/login → the property middleware page (country kept), else render; authenticated page —
 * signed out → the country-aware sign-up page with the target remembered; the PropertyManager role → not
 * found; else render.
 */
export function decideAccess({
  parsed,
  loggedIn,
  user,
  globalInfo,
  globalInfoSettled,
}: AccessInput): AccessDecision {
  if (parsed.kind === 'not_found') return { kind: 'not_found' };
  const { route, countryCode } = parsed;
  if (globalInfo && !globalInfo.is_self_onboard_enabled) return { kind: 'not_found' };
  if (route.public) {
    if (loggedIn && SIGNED_IN_REDIRECTS.includes(route.path)) {
      return { kind: 'redirect', to: toBrowserPath('/', countryCode), rememberTarget: false, countryCode };
    }
    return { kind: 'render', route, countryCode };
  }
  if (!loggedIn) return { kind: 'redirect', to: signUpPath(countryCode), rememberTarget: true, countryCode };
  if (user?.devise_role === 'PropertyManager') return { kind: 'not_found' };
  if (!globalInfoSettled) return { kind: 'wait' };
  return { kind: 'render', route, countryCode };
}
