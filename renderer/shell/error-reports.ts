/**
 * Error reporting in the browser (issue 15 item 3, SPEC §9 'error reporting runs in the background'):
 * listeners for `error` (window.onerror), `unhandledrejection`, the engine's `widget-report` events (a
 * widget's error boundary, an unknown widget, invalid contents or payload) and the API client's
 * `api-failure` events (a 5xx answer) and the analytics queue's `analytics-dropped` events (an event or
 * property the endpoint would refuse); renderer/api/error-reporter.ts, loaded on the first one, turns each
 * into a report and sends it. A page without errors carries only this file.
 */

import type { ClientErrorReport } from '../api/error-reporter';

export type { ClientErrorKind, ClientErrorReport } from '../api/error-reporter';

/** The window events listened to. */
export const REPORTED_EVENTS = 'error unhandledrejection widget-report api-failure analytics-dropped'.split(
  ' ',
);

let reporter: Promise<typeof import('../api/error-reporter')> | null = null;

/** Sends a report or a heard event, loading the reporter on first use. Never throws. */
function sendReport(item: Event | ClientErrorReport): void {
  reporter ??= import('../api/error-reporter');
  reporter.then((m) => m.sendReport(item)).catch(() => undefined);
}

/** Installs the listeners on `win` (once, from main.tsx). */
export function installErrorReporting(win: Window = window): void {
  for (const type of REPORTED_EVENTS) win.addEventListener(type, sendReport);
}
