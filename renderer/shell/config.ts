/** The base path of the app (SPEC §1, §2): every client route lives under it. */
export const BASE_PATH = '/propertyOnboard';

/** Wider than this many px counts as desktop (SPEC §1, §9 desktop breakpoint 1280 px). */
export const DESKTOP_BREAKPOINT_PX = 1280;

/** Toasts from actions that name no timer stay this many ms (SPEC §9: 2000 ms in the session flow). */
export const ACTION_TOAST_MIN_MS = 2000;

/** Default popup timer in ms when none is given (SPEC §9); the popup widget asks for it. */
export const POPUP_DEFAULT_TIMER_MS = 400;

/**
 * How long a toast of a `show_toast` action stays, in ms: the timer it asks for (400 ms or more by the action's
 * schema; the popup widget's default is {@link POPUP_DEFAULT_TIMER_MS}, honoured, issue 12 item 27), else
 * {@link ACTION_TOAST_MIN_MS}.
 */
export function toastTimerMs(timerMs: number | undefined): number {
  return timerMs ?? ACTION_TOAST_MIN_MS;
}

/** Toast fade-in in ms (SPEC §9). */
export const TOAST_FADE_MS = 130;

/** Delay before going to the sign-up page after a 401, in ms (SPEC §4). */
export const SESSION_EXPIRED_REDIRECT_MS = 2000;

/** GET endpoint of the global info (SPEC §7). */
export const GLOBAL_INFO_ENDPOINT = '/hms_ms/api/v1/global_info';

/** POST endpoint of sign-out (SPEC §7); answers 204. */
export const SIGN_OUT_ENDPOINT = '/hms_ms/api/v1/onboard/users/sign_out';

/** POST endpoint exchanging the main app's token for a session (SPEC §7 sso/sign_in/info). */
export const SSO_SIGN_IN_ENDPOINT = '/hms_ms/api/v1/users/sso/sign_in/info';

/** GET endpoint of the sign-in state (SPEC §7 /hms_ms/api/v2/sign_in). */
export const SIGN_IN_STATE_ENDPOINT = '/hms_ms/api/v2/sign_in';

/** The redirect entry from the provider's main app (SPEC §2). */
export const REDIRECT_ENTRY_PATH = '/route/redirect/propertyOnboard';

/** Name of the URL fragment parameter carrying the main app's token (`#sso_token=<JWS>`). */
export const SSO_TOKEN_FRAGMENT_PARAM = 'sso_token';
