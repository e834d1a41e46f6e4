import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { eagerWidgetTypes } from './engine/registry';
import { preloadWidgetValidators } from './engine/validation-schemas';
import { applyDocumentLanguage } from './i18n/direction';
import { currentLocale, i18n } from './i18n/instance';
import { loadTranslations } from './i18n/translations';
import { appStore } from './state/atoms';
import { App } from './shell/app';
import { primeFirstScreen } from './shell/first-screen';
import { loadGlobalInfo } from './shell/session';

const locale = currentLocale();
applyDocumentLanguage(locale);
// A public first screen (sign-in) is asked for now, so that its payload travels while the code below runs.
primeFirstScreen(appStore, window.location, i18n.language);
void loadTranslations(locale);
void loadGlobalInfo(appStore, window.location.pathname);
// The validators of the widgets that come with the page (the sign-in screen's) load while its payload does.
preloadWidgetValidators(eagerWidgetTypes);
// SPEC §9: web push starts after a 1 s delay: the service worker is registered then, and its module loaded
// only then, so the first screen's code does not carry it. Permission to show notifications is asked only on
// a tap ('Remind me to finish', widgets/reminder-button), never on load.
setTimeout(
  () => void import('../widgets/reminder-button/service-worker').then((m) => m.registerServiceWorker()),
  1000,
);

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}
