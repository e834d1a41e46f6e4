import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { applyDocumentLanguage } from './i18n/direction';
import { currentLocale } from './i18n/instance';
import { loadTranslations } from './i18n/translations';
import { appStore } from './state/atoms';
import { App } from './shell/app';
import { loadGlobalInfo } from './shell/session';

const locale = currentLocale();
applyDocumentLanguage(locale);
void loadTranslations(locale);
void loadGlobalInfo(appStore, window.location.pathname);

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
