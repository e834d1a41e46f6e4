import type { EmotionCache } from '@emotion/cache';
import { CacheProvider } from '@emotion/react';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { Provider as JotaiProvider } from 'jotai';
import { useEffect, useMemo, useState, type ComponentType, type ReactElement, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { BrowserRouter } from 'react-router';
import { applyDocumentLanguage, cacheFor, directionReady, loadRtlCache } from '../i18n/direction';
import { currentLocale, i18n } from '../i18n/instance';
import { directionOf } from '../i18n/languages';
import { appStore, type AppStore } from '../state/atoms';
import { DesktopGate, type DesktopProbe } from './desktop-gate';
import { AppRoutes } from './routes';
import { createAppTheme } from './theme';

/**
 * The current writing direction; follows i18next's language and keeps `<html lang dir>` in step. A
 * right-to-left language whose styles are not loaded yet (renderer/i18n/direction.ts `loadRtlCache`) is
 * drawn left to right until they are, then flips, page and `<html dir>` at once (never half flipped).
 */
function useDirection(): 'ltr' | 'rtl' {
  const [locale, setLocale] = useState(currentLocale);
  const [, setRtlLoaded] = useState(false);
  useEffect(() => {
    const update = () => {
      const next = currentLocale();
      applyDocumentLanguage(next);
      setLocale(next);
      if (!directionReady(next))
        loadRtlCache().then(
          () => {
            applyDocumentLanguage(currentLocale());
            setRtlLoaded(true);
          },
          () => undefined,
        );
    };
    update();
    i18n.on('languageChanged', update);
    return () => i18n.off('languageChanged', update);
  }, []);
  return directionReady(locale) ? directionOf(locale) : 'ltr';
}

/**
 * Everything a part of the app needs around it: the jotai store, i18next, the emotion cache of the writing
 * direction (RTL for Arabic), the MUI theme and CssBaseline. Tests pass their own store.
 */
export function AppProviders({
  children,
  store = appStore,
  emotionCache,
}: {
  children: ReactNode;
  store?: AppStore;
  emotionCache?: EmotionCache;
}): ReactElement {
  const direction = useDirection();
  const theme = useMemo(() => createAppTheme(direction), [direction]);
  return (
    <JotaiProvider store={store}>
      <I18nextProvider i18n={i18n}>
        <CacheProvider value={emotionCache ?? cacheFor(direction)}>
          <ThemeProvider theme={theme}>
            <CssBaseline />
            {children}
          </ThemeProvider>
        </CacheProvider>
      </I18nextProvider>
    </JotaiProvider>
  );
}

/**
 * Around a page the server drew (renderer/server-render.tsx): its form controls are disabled (one `<fieldset
 * disabled>` around the routes) until React has hydrated them, so that a tap or a key before the script has run
 * is refused by the browser rather than lost (a button that does nothing, a value the form never sees); they
 * are enabled right after the hydration, from its effects: a task of its own (set from a layout effect, the
 * re-render ran every effect of the hydration with it, one ≈75 ms task at a 4× slower CPU). The fieldset has no border, margin nor padding (class
 * `server-drawn`, styled in renderer/index.html) and no role for assistive technology. A page drawn by the
 * client alone has no such wrapper.
 */
export function InteractiveOnceHydrated({
  serverDrawn,
  children,
}: {
  serverDrawn: boolean;
  children: ReactNode;
}): ReactNode {
  const [hydrating, setHydrating] = useState(serverDrawn);
  useEffect(() => setHydrating(false), []);
  if (!serverDrawn) return children;
  return (
    <fieldset role="none" disabled={hydrating} className="server-drawn">
      {children}
    </fieldset>
  );
}

/** What the app is drawn with besides its defaults (the server's drawing, tests). */
export interface AppProps {
  /** The jotai store (default: the app's one store). */
  store?: AppStore;
  /** The emotion cache (default: the one of the writing direction). */
  emotionCache?: EmotionCache;
  /** The router around the routes (default: react-router's BrowserRouter; the server's: a StaticRouter). */
  router?: ComponentType<{ children: ReactNode }>;
  /** What desktop detection reads (default: the window; the server draws a phone's page). */
  probe?: () => DesktopProbe;
  /** The page was drawn on the server and is being hydrated ({@link InteractiveOnceHydrated}). */
  serverDrawn?: boolean;
}

/** The whole app: providers, the desktop gate (SPEC §1) and the router. */
export function App({
  store,
  emotionCache,
  router: Router = BrowserRouter,
  probe,
  serverDrawn = false,
}: AppProps): ReactElement {
  return (
    <AppProviders store={store} emotionCache={emotionCache}>
      <DesktopGate probe={probe}>
        <Router>
          <InteractiveOnceHydrated serverDrawn={serverDrawn}>
            <AppRoutes />
          </InteractiveOnceHydrated>
        </Router>
      </DesktopGate>
    </AppProviders>
  );
}
