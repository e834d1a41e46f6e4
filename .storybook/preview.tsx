import { useEffect, useMemo, type ReactNode } from 'react';
import type { Decorator, Preview } from '@storybook/react-vite';
import { CacheProvider } from '@emotion/react';
import { CssBaseline, ThemeProvider } from '@mui/material';
import { I18nextProvider } from 'react-i18next';
import { Provider as JotaiProvider } from 'jotai';
import { createAppTheme } from '../renderer/shell/theme';
import { ltrCache } from '../renderer/i18n/direction';
import { rtlCache } from '../renderer/i18n/rtl-cache';
import { createWidgetI18n, directionOf, type HarnessLanguage } from '../widgets/test-harness';

/** The app's theme, emotion cache (RTL for Arabic), i18next with the widgets' texts, and a jotai store. */
function Providers({ language, children }: { language: HarnessLanguage; children: ReactNode }) {
  const direction = directionOf(language);
  const theme = useMemo(() => createAppTheme(direction), [direction]);
  const i18n = useMemo(() => createWidgetI18n(language), [language]);
  useEffect(() => {
    document.documentElement.lang = language;
    document.documentElement.dir = direction;
  }, [language, direction]);
  return (
    <CacheProvider value={direction === 'rtl' ? rtlCache : ltrCache}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        <I18nextProvider i18n={i18n}>
          {/* Mobile-first: stories show at most a large phone's width (SPEC: 360–430 px). */}
          <div dir={direction} lang={language} style={{ maxWidth: 430 }}>
            {children}
          </div>
        </I18nextProvider>
      </ThemeProvider>
    </CacheProvider>
  );
}

const withProviders: Decorator = (Story, context) => {
  const language: HarnessLanguage = context.globals.locale === 'ar' ? 'ar' : 'en-GB';
  return (
    // A fresh jotai store and i18n instance per story and language, so stories never leak state.
    <JotaiProvider key={`${context.id}-${language}`}>
      <Providers language={language}>
        <Story />
      </Providers>
    </JotaiProvider>
  );
};

const preview: Preview = {
  decorators: [withProviders],
  globalTypes: {
    locale: {
      description: 'Language (Arabic is right to left)',
      toolbar: {
        title: 'Language',
        icon: 'globe',
        items: [
          { value: 'en-GB', title: 'English (en-GB)' },
          { value: 'ar', title: 'العربية (ar, RTL)' },
        ],
        dynamicTitle: true,
      },
    },
  },
  initialGlobals: { locale: 'en-GB' },
  parameters: {
    controls: { expanded: true },
    viewport: { defaultViewport: 'mobile1' },
  },
};

export default preview;
