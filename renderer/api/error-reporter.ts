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

const text = (value: unknown): string =>
  value instanceof Error ? value.message : typeof value === 'string' ? value : String(value);
const stackOf = (value: unknown): string | undefined => (value instanceof Error ? value.stack : undefined);

/**
 * The report a window event heard by renderer/shell/error-reports.ts stands for (null: not one, e.g. an image that failed
 * to load): `error` (window.onerror), `unhandledrejection`, `widget-report` (engine/reports.ts: WIDGET_CRASHED
 * → widget_crash, the others → invalid_payload), `api-failure` (api/client.ts, a 5xx answer) and
 * `analytics-dropped` (shell/analytics.ts; detail: the message) → invalid_event.
 */
export function reportOf(item: Event | ClientErrorReport): ClientErrorReport | null {
  if (!(item instanceof Event)) return item;
  if (item.type === 'error') {
    const e = item as ErrorEvent;
    if (!e.message && !e.error) return null;
    return { kind: 'error', message: e.message || text(e.error), stack: stackOf(e.error) };
  }
  if (item.type === 'unhandledrejection') {
    const reason = (item as PromiseRejectionEvent).reason as unknown;
    return { kind: 'unhandled_rejection', message: text(reason), stack: stackOf(reason) };
  }
  const detail = (item as CustomEvent).detail as Record<string, unknown> | string | null;
  if (!detail) return null;
  if (typeof detail === 'string') return { kind: 'invalid_event', message: detail };
  if (item.type === 'widget-report') {
    const d = detail as { code: string; screenId: string; widgetId: string; path: string; message: string };
    return {
      kind: d.code === 'WIDGET_CRASHED' ? 'widget_crash' : 'invalid_payload',
      message: d.message,
      screen_id: d.screenId,
      ...(d.widgetId ? { widget_id: d.widgetId } : {}),
      path: d.path,
    };
  }
  const d = detail as { status: number; path: string; request_id: string | null };
  return {
    kind: 'api_5xx',
    message: `HTTP ${d.status}`,
    status: d.status,
    path: d.path,
    ...(d.request_id ? { request_id: d.request_id } : {}),
  };
}

/**
 * Sends error reports to the BFF's first-party endpoint (issue 15 item 3; renderer/shell/error-reports.ts
 * listens and calls {@link sendReport}): `POST /hms_ms/api/v1/errors` (api/client-error-reports.schema.json),
 * one report per request with `fetch` keepalive (it still goes out when the page is being left), not through
 * the API client, so that a failure to report never becomes a report of its own. A page sends the same
 * report (kind, message, path) once and at most {@link PAGE_MAX} reports, so an error in a render loop cannot
 * flood the endpoint, which also limits each client per minute. The BFF scrubs personal data and groups them.
 */

/** The endpoint (bff/routes/errors). */
export const ERRORS_ENDPOINT = '/hms_ms/api/v1/errors';
/** Reports one page load sends at most. */
export const PAGE_MAX = 20;

const sent = new Set<string>();

/** Sends the report `item` stands for (see {@link reportOf}), unless sent already or past the cap. */
export function sendReport(item: Event | ClientErrorReport): void {
  const report = reportOf(item);
  if (!report) return;
  const key = `${report.kind}|${report.message}|${report.path ?? report.stack?.split('\n', 2)[1] ?? ''}`;
  if (sent.has(key) || sent.size >= PAGE_MAX) return;
  sent.add(key);
  const wire = {
    ...report,
    message: report.message.slice(0, 1000) || 'error',
    stack: report.stack?.slice(0, 4000),
    path: report.path?.slice(0, 300),
    page: location.pathname.slice(0, 300),
  };
  fetch(ERRORS_ENDPOINT, {
    method: 'POST',
    body: JSON.stringify({ reports: [wire] }),
    headers: { 'content-type': 'application/json' },
    keepalive: true,
    credentials: 'same-origin',
  }).catch(() => undefined);
}

/** Forgets what was sent (tests). */
export function resetReporter(): void {
  sent.clear();
}
