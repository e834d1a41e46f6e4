import { CacheProvider } from '@emotion/react';
import CssBaseline from '@mui/material/CssBaseline';
import { ThemeProvider } from '@mui/material/styles';
import { Provider as JotaiProvider } from 'jotai';
import { useEffect, useMemo, useState, type ReactElement, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { BrowserRouter } from 'react-router';
import { applyDocumentLanguage, cacheFor, directionReady, loadRtlCache } from '../i18n/direction';
import { currentLocale, i18n } from '../i18n/instance';
import { directionOf } from '../i18n/languages';
import { appStore, type AppStore } from '../state/atoms';
import { DesktopGate } from './desktop-gate';
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
}: {
  children: ReactNode;
  store?: AppStore;
}): ReactElement {
  const direction = useDirection();
  const theme = useMemo(() => createAppTheme(direction), [direction]);
  return (
    <JotaiProvider store={store}>
      <I18nextProvider i18n={i18n}>
        <CacheProvider value={cacheFor(direction)}>
          <ThemeProvider theme={theme}>
            <CssBaseline />
            {children}
          </ThemeProvider>
        </CacheProvider>
      </I18nextProvider>
    </JotaiProvider>
  );
}

/** The whole app: providers, the desktop gate (SPEC §1) and the router. */
export function App(): ReactElement {
  return (
    <AppProviders>
      <DesktopGate>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </DesktopGate>
    </AppProviders>
  );
}
