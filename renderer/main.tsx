// The entry is evaluated in stages, each in a task of its own (renderer/shell/entry-stages: the modules named
// `…-evaluated` await the next task), so that no task of the page's start blocks it for long (issue 13 item 4).
// The order of these imports is the order of evaluation.
import { StrictMode, startTransition } from 'react';
import './shell/entry-stages/react-core-evaluated';
import { createRoot, hydrateRoot } from 'react-dom/client';
import './shell/entry-stages/react-evaluated';
import './shell/theme';
import './shell/entry-stages/theme-evaluated';
import { applyDocumentLanguage, directionReady, loadRtlCache } from './i18n/direction';
import { currentLocale, i18n } from './i18n/instance';
import './shell/entry-stages/i18n-evaluated';
import { appStore } from './state/atoms';
import './shell/entry-stages/foundations-evaluated';
import { App } from './shell/app';
import './shell/entry-stages/app-evaluated';
import { SERVER_DRAWN_ATTRIBUTE } from '../schemas/app/first-screen';
import { loadTranslations } from './i18n/translations';
import { loadInteractionCode } from './engine/interaction';
import { isDesktopEnvironment, probeWindow } from './shell/desktop-gate';
import { takeEmbeddedScreen } from './shell/embedded-screen';
import { installErrorReporting } from './shell/error-reports';
import { primeFirstScreen } from './shell/first-screen';
import { onFirstInput } from './shell/first-input';
import { afterFirstPaint } from './shell/first-paint';
import { loadGlobalInfo } from './shell/session';
import { loadTouchRipple } from './shell/touch-ripple';
import { provideRegionNames } from '../widgets/input/phone-field';
import './shell/entry-stages/imports-evaluated';
import { entryBreak } from './shell/entry-stages/next-task';

// Script errors, unhandled rejections, widget reports and API 5xx answers go to the BFF (issue 15 item 3).
installErrorReporting();
const locale = currentLocale();
applyDocumentLanguage(locale);
// The first screen (sign-in, or a signed-in owner's page) comes in the page, checked by the server
// (bff/plugins/external/static.ts): drawn without validators, its lazy widgets' code fetched at once. Else it
// is asked for now, so that its payload travels while the code below runs.
const embedded = takeEmbeddedScreen();
const firstScreen = primeFirstScreen(appStore, window.location, i18n.language, embedded);
// The phone field's countries, named by the server for the page's language (no Intl.DisplayNames at start).
if (embedded?.regions) provideRegionNames(embedded.locale, embedded.regions);
// On a page the server drew, what follows (the texts and global info taken in, the app drawn) runs in a task of
// its own too.
await entryBreak();
// Texts the page already has (en-GB built in, another language brought by the page or cached) are refreshed from
// the server only once the first screen has painted. Global info comes in the page with the first screen when
// the server put one there.
void loadTranslations(
  locale,
  (request) => afterFirstPaint(window, request),
  undefined,
  embedded?.locale === locale ? embedded.texts : undefined,
);
void loadGlobalInfo(appStore, window.location.pathname, embedded?.global_info);
// What only acts need (the dispatcher, the field checks, the buttons' ripple) is fetched at the owner's first
// touch or key, not with the page (issue 13 item 2).
onFirstInput(window, () => {
  loadInteractionCode().catch(() => undefined);
  void loadTouchRipple();
});
// SPEC §9: web push starts after a 1 s delay: the service worker is registered then, and its module loaded
// only then, so the first screen's code does not carry it. Permission to show notifications is asked only on
// a tap ('Remind me to finish', widgets/reminder-button), never on load.
setTimeout(
  () => void import('../widgets/reminder-button/service-worker').then((m) => m.registerServiceWorker()),
  1000,
);

const draw = () => {
  const root = document.getElementById('root');
  if (!root) return;
  // A page the server drew (renderer/server-render.tsx) is hydrated when the browser starts as the server drew
  // it: the same locale, its embedded screen taken, a phone; else (another language kept on the device, a
  // desktop) it is drawn afresh over it.
  const serverDrawn =
    root.getAttribute(SERVER_DRAWN_ATTRIBUTE) === locale &&
    firstScreen?.embedded === true &&
    !isDesktopEnvironment(probeWindow());
  const app = (
    <StrictMode>
      <App serverDrawn={serverDrawn} />
    </StrictMode>
  );
  // As a transition, React draws (or hydrates) the app in slices of a few ms and leaves the main thread free in
  // between (Lighthouse: Total Blocking Time; issue 13 item 4) instead of one long task.
  startTransition(() => {
    // A root drawn afresh replaces the server's markup in its first commit (React clears its container).
    if (serverDrawn) hydrateRoot(root, app);
    else createRoot(root).render(app);
  });
};
// The first screen's lazy widgets (the checklist…), whose chunks the page preloads beside this script: drawn
// once their code is here, so that the first paint is the screen and not a skeleton (issue 13 item 4). A
// right-to-left language (Arabic) is drawn once its styles have loaded, never unflipped.
const ready: Promise<unknown>[] = [firstScreen?.code ?? Promise.resolve()];
if (!directionReady(locale)) ready.push(loadRtlCache().catch(() => undefined));
void Promise.all(ready).then(draw);
