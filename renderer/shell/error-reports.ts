/**
 * Error reporting in the browser, the part on the first page (issue 15 item 3, SPEC §9 'error reporting
 * runs in the background'): listeners for `window.onerror` (`error`), `unhandledrejection`, the engine's
 * `widget-report` events (a widget's error boundary, an unknown widget, invalid contents or payload) and the
 * API client's `api-failure` events (a 5xx answer), and a queue. Nothing else is loaded until a first
 * report: then ./error-reporter (batching, caps, sending) is imported and takes the queue over, so a page
 * without errors carries only this file.
 */

/** What went wrong (api/client-error-reports.schema.json `kind`). */
export type ClientErrorKind =
  'error' | 'unhandled_rejection' | 'widget_crash' | 'invalid_payload' | 'api_5xx' | 'invalid_event';

/** One report before it is sent; the BFF scrubs personal data from every text and groups it. */
export interface ClientErrorReport {
  kind: ClientErrorKind;
  message: string;
  stack?: string;
  screen_id?: string;
  widget_id?: string;
  /** JSON Pointer into the screen payload, or the API path of a failed call. */
  path?: string;
  /** HTTP status of a failed API call. */
  status?: number;
  /** The x-request-id of a failed API call. */
  request_id?: string;
}

/** Reports kept while the reporter module loads; later ones are dropped. */
const EARLY_MAX = 20;
const early: ClientErrorReport[] = [];
let reporter: Promise<{ take(queue: ClientErrorReport[]): void }> | null = null;

/** Queues a report; the first one loads the reporter. Never throws. */
export function reportClientError(report: ClientErrorReport): void {
  if (early.length >= EARLY_MAX) return;
  early.push(report);
  reporter ??= import('./error-reporter');
  reporter.then((m) => m.take(early)).catch(() => undefined);
}

const text = (value: unknown): string =>
  value instanceof Error ? value.message : typeof value === 'string' ? value : String(value);
const stackOf = (value: unknown): string | undefined => (value instanceof Error ? value.stack : undefined);

interface WidgetReportDetail {
  code: string;
  screenId: string;
  widgetId: string;
  path: string;
  message: string;
}

/** Installs the listeners on `win` (once, from main.tsx). */
export function installErrorReporting(win: Window = window): void {
  win.addEventListener('error', (e: ErrorEvent) => {
    // A resource that failed to load (an image) is not a script error.
    if (!e.message && !e.error) return;
    reportClientError({ kind: 'error', message: e.message || text(e.error), stack: stackOf(e.error) });
  });
  win.addEventListener('unhandledrejection', (e: PromiseRejectionEvent) => {
    reportClientError({ kind: 'unhandled_rejection', message: text(e.reason), stack: stackOf(e.reason) });
  });
  win.addEventListener('widget-report', (e: Event) => {
    const d = (e as CustomEvent<WidgetReportDetail>).detail;
    reportClientError({
      kind: d.code === 'WIDGET_CRASHED' ? 'widget_crash' : 'invalid_payload',
      message: d.message,
      screen_id: d.screenId,
      ...(d.widgetId ? { widget_id: d.widgetId } : {}),
      path: d.path,
    });
  });
  win.addEventListener('api-failure', (e: Event) => {
    const d = (e as CustomEvent<{ status: number; path: string; request_id: string | null }>).detail;
    reportClientError({
      kind: 'api_5xx',
      message: `HTTP ${d.status}`,
      status: d.status,
      path: d.path,
      ...(d.request_id ? { request_id: d.request_id } : {}),
    });
  });
}
