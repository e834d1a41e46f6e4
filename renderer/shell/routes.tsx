import { atom, useSetAtom, useStore } from 'jotai';
import { Suspense, useEffect, useMemo, useRef, type ReactElement } from 'react';
import { ErrorBoundary } from 'react-error-boundary';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate, useRoutes, type RouteObject } from 'react-router';
import type { Locale, UserDetails } from '../../schemas/generated/types';
import { setUnauthorizedHandler } from '../api/client';
import { ShellHostContext, type ShellHost } from '../engine/host';
import { queryFromSearch, withQuery } from '../engine/query';
import { setLanguage } from '../i18n/translations';
import {
  globalInfoAtom,
  globalInfoSettledAtom,
  loggedInAtom,
  pushToast,
  resetUserAtoms,
  signedOutOnPurposeAtom,
  userDetailsAtom,
} from '../state/atoms';
import { clearStorageOnSignOut } from '../state/storage-keys';
import { useStoreValue } from '../state/use-store-value';
import { decideAccess } from './access';
import { BlockingLoader } from './blocking-loader';
import {
  ACTION_TOAST_MIN_MS,
  BASE_PATH,
  toastTimerMs,
  REDIRECT_ENTRY_PATH,
  SESSION_EXPIRED_REDIRECT_MS,
} from './config';
import { parseAppPath, signUpPath, toBrowserPath } from './country';
import { SIGNED_IN_REDIRECTS, TOP_LEVEL_ROUTES, footerShown, type AppRoute } from './route-table';
import { LazyScreen, lazyWithRetry, ModuleLoadFallback } from './lazy-screen';
import { rememberPendingRedirect, takeSignInTarget } from './pending-redirect';
import { signOutLocally } from './session';
import { SupportChatLauncher } from './support-chat/launcher';
import { ToastHost } from './toast-host';
import { logAnalyticsEvent } from './app-analytics';
import { pagePreloads, retryImport } from '../../widgets/retry-import';
import { afterFirstPaint } from './first-paint';
import brandLogo from '@brand/logo.svg?no-inline';

/** The provider's return page (SPEC §2 social_login/:oauth_mode), a chunk of its own: the sign-in page does not carry it. */
// The arrival from the main app draws its own page, loaded only there: the sign-in route does not carry it.
const RedirectEntry = lazyWithRetry(() => import('./sso-entry').then((m) => ({ default: m.RedirectEntry })));
const SocialLoginReturn = lazyWithRetry(() =>
  import('./social-login-return').then((m) => ({ default: m.SocialLoginReturn })),
);
// Signed-in pages only (the footer) and a mistyped address (not found): neither comes with the sign-in page.
// A signed-in page that carries its screen names the footer's code for preloading (SPEC §4: that is its first try).
const LazyFooter = lazyWithRetry(
  () => import('./footer').then((m) => ({ default: m.Footer })),
  undefined,
  pagePreloads('shell-part', 'footer'),
);
const LazyNotFoundPage = lazyWithRetry(() =>
  import('./not-found').then((m) => ({ default: m.NotFoundPage })),
);

// The staff preview of screens (issue 16 item 2, renderer/preview): chunks of their own, outside the shell's
// lazy parts (never loaded on an owner's page).
const LazyPreviewPage = lazyWithRetry(() =>
  import('../preview/preview-page').then((m) => ({ default: m.PreviewPage })),
);
const LazyPreviewFrame = lazyWithRetry(() =>
  import('../preview/preview-page').then((m) => ({ default: m.PreviewFrame })),
);

/** The not-found page (SPEC §2 404), loaded when it is reached. */
function NotFoundPage(): ReactElement {
  return (
    <ErrorBoundary fallback={<ModuleLoadFallback />}>
      <Suspense>
        <LazyNotFoundPage />
      </Suspense>
    </ErrorBoundary>
  );
}

/** The current screen's payload asked to hide the footer (set through ShellHost.setFooterHidden). */
const screenHidesFooterAtom = atom(false);

/** Path + query + hash of a location. */
function fullPath(location: { pathname: string; search: string; hash: string }): string {
  return `${location.pathname}${location.search}${location.hash}`;
}

/**
 * The layout around every route: provides the ShellHost to the engine, registers the 401 handler
 * (SPEC §4: local sign-out, 'Session Expired' toast, sign-up page after 2 s) and draws toasts and the
 * blocking loader.
 */
function ShellLayout(): ReactElement {
  const navigate = useNavigate();
  const location = useLocation();
  const store = useStore();
  const { t } = useTranslation();
  const setScreenHidesFooter = useSetAtom(screenHidesFooterAtom);
  const countryCode = parseAppPath(location.pathname).countryCode;
  const locationRef = useRef(location);
  locationRef.current = location;

  const host = useMemo<ShellHost>(
    () => ({
      navigate: (path, options) => {
        const to = withQuery(path, options?.query);
        const target =
          to === BASE_PATH || to.startsWith(`${BASE_PATH}/`) || to.startsWith(`${BASE_PATH}?`)
            ? to
            : toBrowserPath(to, countryCode);
        void navigate(target, { replace: options?.replace === true });
      },
      goBack: (fallback) => {
        // react-router keeps the index of the entry in history.state: above 0, the previous page is ours.
        const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
        if (idx > 0) void navigate(-1);
        else void navigate(toBrowserPath(fallback, countryCode), { replace: true });
      },
      toast: ({ text, status, timer_ms }) =>
        pushToast(store, {
          toast_text: text,
          status,
          timer: toastTimerMs(timer_ms),
        }),
      // Sign-out is a chunk of its own (./sign-out), loaded on the tap.
      signOut: () =>
        import('./sign-out').then(({ signOut }) =>
          signOut(store, () => void navigate(signUpPath(countryCode), { replace: true })),
        ),
      sessionStarted: (user: UserDetails) => {
        store.set(signedOutOnPurposeAtom, false);
        store.set(userDetailsAtom, user);
        store.set(loggedInAtom, true);
        // On sign_up / login the gate now sends the user on (RedirectAfterSignIn); elsewhere go there directly.
        const parsed = parseAppPath(locationRef.current.pathname);
        if (parsed.kind === 'route' && SIGNED_IN_REDIRECTS.includes(parsed.route.path)) return;
        void navigate(takeSignInTarget(locationRef.current.search) ?? toBrowserPath('/', countryCode), {
          replace: true,
        });
      },
      setLanguage: (locale: Locale) => setLanguage(locale),
      setFooterHidden: (hidden) => setScreenHidesFooter(hidden),
      logEvent: logAnalyticsEvent,
    }),
    [navigate, store, countryCode, setScreenHidesFooter],
  );

  useEffect(() => {
    let timer: number | undefined;
    const unregister = setUnauthorizedHandler(() => {
      if (timer !== undefined) return;
      // Already signed out: there is no session to end, and a target the gate remembered must stay (later
      // 401s of the page, or of the sign-up page it goes to, must not wipe it).
      if (!store.get(loggedInAtom)) return;
      const parsed = parseAppPath(locationRef.current.pathname);
      if (parsed.kind === 'route' && !parsed.route.public) {
        // The gate takes over on an authenticated page: 'Session Expired', the target remembered, sign-up
        // after 2 s.
        clearStorageOnSignOut();
        resetUserAtoms(store);
        return;
      }
      clearStorageOnSignOut();
      pushToast(store, {
        toast_text: t('shell.session_expired'),
        status: 'error',
        timer: ACTION_TOAST_MIN_MS,
      });
      timer = window.setTimeout(() => {
        timer = undefined;
        resetUserAtoms(store);
        void navigate(signUpPath(parsed.kind === 'route' ? parsed.countryCode : null), { replace: true });
      }, SESSION_EXPIRED_REDIRECT_MS);
    });
    return () => {
      unregister();
      if (timer !== undefined) window.clearTimeout(timer);
    };
  }, [navigate, store, t]);

  // SPEC §3: the base64 JSON user cookie only fills in the details shown; the server's sign-in state decides.
  // Only a browser that believes it is signed in without the user's details needs it: ./sso.ts is then
  // fetched, a chunk of its own (the sign-in pages do not carry it, issue 13 item 2), once the first screen has
  // painted: asked for in the first draw's effects, it was a request before the paint, which Lighthouse puts on
  // the way to it (the checklist over HTTP/1.1: LCP 175 ms after FCP).
  useEffect(() => {
    if (!store.get(loggedInAtom) || store.get(userDetailsAtom)) return;
    afterFirstPaint(window, () => {
      retryImport(() => import('./sso')).then(
        (sso) => sso.restoreUserFromCookie(store, () => signOutLocally(store)),
        () => undefined,
      );
    });
  }, [store]);

  return (
    <ShellHostContext.Provider value={host}>
      <Outlet />
      <SupportChatLauncher />
      <ToastHost />
      <BlockingLoader />
    </ShellHostContext.Provider>
  );
}

/**
 * A signed-out visitor of an authenticated page (SPEC §4): the target (path + query) is remembered, the
 * 'Session Expired' toast shows, and after 2 s (SESSION_EXPIRED_REDIRECT_MS) the sign-up page follows. Right
 * after the owner signed out on purpose, none of that: the sign-out itself goes to the sign-up page and the
 * page signed out from is not remembered (issue 12 item 10).
 */
function RedirectToSignUp({
  to,
  countryCode,
}: {
  to: string;
  countryCode: string | null;
}): ReactElement | null {
  const location = useLocation();
  const navigate = useNavigate();
  const store = useStore();
  const { t } = useTranslation();
  const signedOutOnPurpose = useStoreValue(signedOutOnPurposeAtom);
  const toasted = useRef(false);
  useEffect(() => {
    if (signedOutOnPurpose) return undefined;
    rememberPendingRedirect(fullPath(location), countryCode);
    if (!toasted.current) {
      toasted.current = true;
      pushToast(store, {
        toast_text: t('shell.session_expired'),
        status: 'error',
        timer: ACTION_TOAST_MIN_MS,
      });
    }
    const timer = window.setTimeout(() => void navigate(to, { replace: true }), SESSION_EXPIRED_REDIRECT_MS);
    return () => window.clearTimeout(timer);
  }, [location, countryCode, navigate, to, signedOutOnPurpose, store, t]);
  return null;
}

/**
 * A signed-in user on sign_up / login goes to the `continue` target of the page's query when it is a safe
 * path of the app, else the remembered target (read and cleared once, SPEC §4), else the property
 * middleware page.
 */
function RedirectAfterSignIn({ fallback }: { fallback: string }): null {
  const navigate = useNavigate();
  const { search } = useLocation();
  const done = useRef(false);
  useEffect(() => {
    if (done.current) return;
    done.current = true;
    void navigate(takeSignInTarget(search) ?? fallback, { replace: true });
  }, [navigate, fallback, search]);
  return null;
}

/**
 * Any path under /propertyOnboard: parses it, applies the gate and draws the route's screen (with the page's
 * query parameters passed on to the screen request) and footer.
 */
function OnboardPage(): ReactElement | null {
  const location = useLocation();
  const { t } = useTranslation();
  const loggedIn = useStoreValue(loggedInAtom);
  const user = useStoreValue(userDetailsAtom);
  const globalInfo = useStoreValue(globalInfoAtom);
  const globalInfoSettled = useStoreValue(globalInfoSettledAtom);
  const parsed = parseAppPath(location.pathname);
  const decision = decideAccess({ parsed, loggedIn, user, globalInfo, globalInfoSettled });
  const requestQuery = useMemo(() => queryFromSearch(location.search), [location.search]);
  const setSignedOutOnPurpose = useSetAtom(signedOutOnPurposeAtom);
  const onPublicPage = parsed.kind === 'route' && parsed.route.public;
  useEffect(() => {
    // Once the sign-out has reached a public page, a later visit of an authenticated one is remembered again.
    if (onPublicPage) setSignedOutOnPurpose(false);
  }, [onPublicPage, setSignedOutOnPurpose]);

  if (decision.kind === 'not_found') return <NotFoundPage />;
  if (decision.kind === 'wait') return <div role="status" aria-busy="true" aria-label={t('shell.loading')} />;
  if (decision.kind === 'redirect') {
    return decision.rememberTarget ? (
      <RedirectToSignUp to={decision.to} countryCode={decision.countryCode} />
    ) : (
      <RedirectAfterSignIn fallback={decision.to} />
    );
  }
  const { route, countryCode } = decision;
  return (
    <>
      {route.public && (
        // The build variant's logo (SPEC §9) above the signed-out pages, as their banner landmark: a file of
        // its own (no bytes of the JS), styled by index.html.
        <header>
          <img src={brandLogo} alt={t('shell.app_name')} width={280} height={48} className="brand-logo" />
        </header>
      )}
      <LazyScreen
        key={route.screenId}
        screenId={route.screenId}
        requestHeaders={countryCode ? { user_url_country: countryCode.toUpperCase() } : undefined}
        requestQuery={requestQuery}
      />
      <PageFooter route={route} countryCode={countryCode} />
    </>
  );
}

/**
 * The footer tabs under a route's screen, when they show there ({@link footerShown}). A component of its own, so
 * that the screen saying it hides them (`hide_footer`, set once it is drawn) redraws the footer alone and not the
 * page with its screen (issue 13 item 4: that redraw was part of the long task after the sign-in page's first
 * paint).
 */
function PageFooter({
  route,
  countryCode,
}: {
  route: AppRoute;
  countryCode: string | null;
}): ReactElement | null {
  const navigate = useNavigate();
  const screenHidesFooter = useStoreValue(screenHidesFooterAtom);
  const l1Revamp = useStoreValue(globalInfoAtom)?.enable_oyo360_l1_revamp === true;
  if (!footerShown(route, screenHidesFooter, l1Revamp)) return null;
  return (
    <ErrorBoundary fallback={<ModuleLoadFallback />}>
      <Suspense>
        <LazyFooter
          current={`/${route.path}`}
          onNavigate={(to) => void navigate(toBrowserPath(to, countryCode))}
        />
      </Suspense>
    </ErrorBoundary>
  );
}

/**
 * The client routes of SPEC §2, as absolute paths (no basename). Every path under /propertyOnboard is parsed
 * by the gate (country variants included); /404 and anything else draw the not-found page.
 */
export const appRoutes: RouteObject[] = [
  {
    element: <ShellLayout />,
    children: [
      {
        path: REDIRECT_ENTRY_PATH,
        element: (
          <ErrorBoundary fallback={<ModuleLoadFallback />}>
            <Suspense>
              <RedirectEntry />
            </Suspense>
          </ErrorBoundary>
        ),
      },
      { path: '/404', element: <NotFoundPage /> },
      {
        path: '/__preview/screens',
        element: (
          <ErrorBoundary fallback={<ModuleLoadFallback />}>
            <Suspense>
              <LazyPreviewPage />
            </Suspense>
          </ErrorBoundary>
        ),
      },
      {
        path: '/__preview/screens/frame',
        element: (
          <ErrorBoundary fallback={<ModuleLoadFallback />}>
            <Suspense>
              <LazyPreviewFrame />
            </Suspense>
          </ErrorBoundary>
        ),
      },
      {
        path: `${BASE_PATH}/social_login/:oauth_mode`,
        element: (
          <ErrorBoundary fallback={<ModuleLoadFallback />}>
            <Suspense>
              <SocialLoginReturn />
            </Suspense>
          </ErrorBoundary>
        ),
      },
      {
        path: `${BASE_PATH}/:country_iso_code/social_login/:oauth_mode`,
        element: (
          <ErrorBoundary fallback={<ModuleLoadFallback />}>
            <Suspense>
              <SocialLoginReturn />
            </Suspense>
          </ErrorBoundary>
        ),
      },
      ...TOP_LEVEL_ROUTES.map((route) => ({ path: `/${route.topLevelPath}`, element: <OnboardPage /> })),
      { path: `${BASE_PATH}`, element: <OnboardPage /> },
      { path: `${BASE_PATH}/*`, element: <OnboardPage /> },
      { path: '*', element: <NotFoundPage /> },
    ],
  },
];

/**
 * The routes of the app, drawn inside a router (the app's `BrowserRouter`). The app uses react-router's
 * declarative mode: it needs neither loaders nor actions, and the data router costs ~20 KB gzip more on
 * every page (issue 13).
 */
export function AppRoutes(): ReactElement | null {
  return useRoutes(appRoutes);
}
