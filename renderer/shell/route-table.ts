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
];

/** Public routes a signed-in user is sent away from, to the property middleware page (SPEC §2). */
export const SIGNED_IN_REDIRECTS: readonly string[] = ['sign_up', 'login'];

/** First path segments that are route names, so never a country code. */
export const ROUTE_FIRST_SEGMENTS: ReadonlySet<string> = new Set(
  APP_ROUTES.map((route) => route.path.split('/')[0] ?? '').filter((segment) => segment !== ''),
);
