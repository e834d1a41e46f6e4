/**
 * The pages of the app (SPEC §2): which path draws which screen, and how a path is read. Pure TypeScript
 * without dependencies, shared by the client (renderer/shell/route-table.ts, renderer/shell/country.ts)
 * and the BFF (which puts a public page's first screen in index.html, bff/plugins/external/static.ts).
 */

/** Base path of the app (SPEC §2; renderer/shell/config.ts `BASE_PATH`). */
export const APP_BASE_PATH = '/propertyOnboard';

/** One client route under /propertyOnboard (SPEC §2) and the screen it draws. */
export interface AppRoute {
  /** Path after /propertyOnboard (and after the country segment), without slashes at the ends; '' is the root. */
  path: string;
  screenId: string;
  /** Open without a session (SPEC §2 access rules). */
  public: boolean;
  /** The footer tabs are hidden on this route whatever the payload says (SPEC §2). */
  hideFooter: boolean;
  /** The footer is also hidden when global info enables the revamped first-level onboarding (SPEC §2). */
  hideFooterOnL1Revamp?: boolean;
}

/**
 * Whether the footer tabs show under `route`'s screen (SPEC §2): never on a public route or one that hides
 * them, nor when the screen's payload asks (`hide_footer`), nor on a route hidden under the revamped
 * first-level onboarding when global info enables it (`enable_oyo360_l1_revamp`).
 */
export function footerShown(route: AppRoute, screenHidesFooter: boolean, l1Revamp: boolean): boolean {
  return (
    !route.public &&
    !route.hideFooter &&
    !screenHidesFooter &&
    !(route.hideFooterOnL1Revamp === true && l1Revamp)
  );
}

/** The routes of SPEC §2 (each also exists as /propertyOnboard/:country_iso_code/<path>). */
export const APP_ROUTES: readonly AppRoute[] = [
  { path: 'sign_up', screenId: 'sign_up', public: true, hideFooter: true },
  { path: 'login', screenId: 'login', public: true, hideFooter: true },
  { path: 'language', screenId: 'language', public: true, hideFooter: true },
  { path: '', screenId: 'property_middleware', public: false, hideFooter: true },
  { path: 'dashboard', screenId: 'dashboard', public: false, hideFooter: false, hideFooterOnL1Revamp: true },
  { path: 'account', screenId: 'account', public: false, hideFooter: false },
  { path: 'add', screenId: 'property_add', public: false, hideFooter: true },
  { path: 'kyc', screenId: 'kyc', public: false, hideFooter: true },
  { path: 'terms', screenId: 'terms', public: false, hideFooter: true },
  { path: 'resolve_issue', screenId: 'resolve_issue', public: false, hideFooter: true },
  { path: 'images', screenId: 'images', public: false, hideFooter: false },
  { path: 'task', screenId: 'task', public: false, hideFooter: false, hideFooterOnL1Revamp: true },
  { path: 'task/details', screenId: 'task_details', public: false, hideFooter: true },
  { path: 'review', screenId: 'review', public: false, hideFooter: true },
  { path: 'welcome', screenId: 'welcome', public: false, hideFooter: true },
  { path: 'referral', screenId: 'referral', public: false, hideFooter: true },
  // Leaving an unfinished listing, and the 360 screens of the revamped first-level onboarding (issue 16).
  { path: 'exit', screenId: 'exit', public: false, hideFooter: true },
  { path: '360/completion', screenId: 'completion_360', public: false, hideFooter: true },
  { path: '360/login', screenId: 'login_360', public: false, hideFooter: true },
  // The auth pages of SPEC §2 (issue 11), also served at the top level (TOP_LEVEL_ROUTES).
  { path: 'sign_up/email', screenId: 'sign_up_email', public: true, hideFooter: true },
  { path: 'login-through-otp', screenId: 'login_through_otp', public: true, hideFooter: true },
  { path: 'forgot-password-mail', screenId: 'forgot_password_mail', public: true, hideFooter: true },
  { path: 'forgot-password-phone', screenId: 'forgot_password_phone', public: true, hideFooter: true },
  { path: 'reset-password', screenId: 'reset_password', public: true, hideFooter: true },
  { path: 'privacy-policy', screenId: 'privacy_policy', public: true, hideFooter: true },
];

/** A route also served at the top level, outside /propertyOnboard (SPEC §2 'Auth pages'). */
export interface TopLevelRoute {
  /** The path without its leading slash, e.g. 'forgot-password-mail'. */
  topLevelPath: string;
  route: AppRoute;
}

const appRoute = (path: string): AppRoute => {
  const route = APP_ROUTES.find((candidate) => candidate.path === path);
  if (!route) throw new Error(`no app route ${path}`);
  return route;
};

/**
 * The auth pages of SPEC §2 at the top level: the same screens as under /propertyOnboard, except /terms,
 * the legal terms page (under /propertyOnboard, `terms` is the terms-of-service task and stays so).
 */
export const TOP_LEVEL_ROUTES: readonly TopLevelRoute[] = [
  ...['login', 'login-through-otp', 'forgot-password-mail', 'forgot-password-phone', 'reset-password'].map(
    (path) => ({ topLevelPath: path, route: appRoute(path) }),
  ),
  { topLevelPath: 'privacy-policy', route: appRoute('privacy-policy') },
  {
    topLevelPath: 'terms',
    route: { path: 'legal-terms', screenId: 'legal_terms', public: true, hideFooter: true },
  },
];

/** Public routes a signed-in user is sent away from, to the property middleware page (SPEC §2). */
export const SIGNED_IN_REDIRECTS: readonly string[] = [
  'sign_up',
  'login',
  'login-through-otp',
  'sign_up/email',
];

/** First path segments that are route names, so never a country code. */
export const ROUTE_FIRST_SEGMENTS: ReadonlySet<string> = new Set(
  APP_ROUTES.map((route) => route.path.split('/')[0] ?? '').filter((segment) => segment !== ''),
);

/** A country code segment (SPEC §2, §5): exactly two letters a-z, either case. */
const COUNTRY_SEGMENT = /^[a-zA-Z]{2}$/;

/** True when `segment` is a valid country code of a path (two letters a-z in either case). */
export function isCountrySegment(segment: string): boolean {
  return COUNTRY_SEGMENT.test(segment);
}

/** What a path under /propertyOnboard means. */
export type ParsedAppPath =
  | { kind: 'route'; route: AppRoute; countryCode: string | null }
  | { kind: 'not_found'; countryCode: string | null };

/**
 * Parses a pathname (SPEC §2). The first segment after /propertyOnboard that is not a route name is a country
 * code and must be exactly two letters a-z (either case; kept as written, upper-cased for headers by the
 * caller); anything else is not found (`/propertyOnboard/1x/task` → not found). Trailing slashes are ignored.
 * Outside /propertyOnboard only the top-level auth pages of SPEC §2 (TOP_LEVEL_ROUTES: /login,
 * /forgot-password-mail, /terms …) are routes; any other path is not found.
 */
export function parseAppPath(pathname: string): ParsedAppPath {
  const segments = pathname.split('/').filter((segment) => segment !== '');
  if (segments[0] !== APP_BASE_PATH.slice(1)) {
    const top =
      segments.length === 1 ? TOP_LEVEL_ROUTES.find((r) => r.topLevelPath === segments[0]) : undefined;
    return top
      ? { kind: 'route', route: top.route, countryCode: null }
      : { kind: 'not_found', countryCode: null };
  }
  let rest = segments.slice(1);
  let countryCode: string | null = null;
  const first = rest[0];
  if (first !== undefined && !ROUTE_FIRST_SEGMENTS.has(first)) {
    if (!isCountrySegment(first)) return { kind: 'not_found', countryCode: null };
    countryCode = first;
    rest = rest.slice(1);
  }
  const route = APP_ROUTES.find((candidate) => candidate.path === rest.join('/'));
  return route ? { kind: 'route', route, countryCode } : { kind: 'not_found', countryCode };
}
