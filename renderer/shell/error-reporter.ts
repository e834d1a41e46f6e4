import type { ClientErrorReport } from './error-reports';

/**
 * The part of error reporting loaded on the first report (issue 15 item 3; ./error-reports is the small
 * part on the first page). Reports are batched for {@link SEND_DELAY_MS} and sent to the BFF's first-party
 * endpoint (`POST /hms_ms/api/v1/errors`, api/client-error-reports.schema.json) with `fetch` keepalive,
 * or `navigator.sendBeacon` when the page is being left. A page sends at most {@link PAGE_MAX} reports and
 * the same report (kind, message, first stack line) once: an error in a render loop cannot flood the
 * endpoint, which also limits each client per minute. The BFF scrubs personal data and groups reports.
 */

/** The endpoint (bff/routes/errors). */
export const ERRORS_ENDPOINT = '/hms_ms/api/v1/errors';
/** Quiet time before a batch is sent, in ms. */
export const SEND_DELAY_MS = 1000;
/** Reports per request (the endpoint's maxItems). */
export const MAX_BATCH = 10;
/** Reports one page load sends at most. */
export const PAGE_MAX = 50;

/** Longest message, stack and path sent, in characters (the endpoint's maxLength). */
const LIMITS = { message: 1000, stack: 4000, path: 300 } as const;

const seen = new Set<string>();
let pending: ClientErrorReport[] = [];
let sent = 0;
let timer: ReturnType<typeof setTimeout> | null = null;

/** The report as sent: long texts cut, the page's path (no query, no fragment) added. */
function wire(report: ClientErrorReport): Record<string, unknown> {
  return {
    ...report,
    message: report.message.slice(0, LIMITS.message) || 'error',
    ...(report.stack ? { stack: report.stack.slice(0, LIMITS.stack) } : {}),
    ...(report.path ? { path: report.path.slice(0, LIMITS.path) } : {}),
    page: window.location.pathname.slice(0, LIMITS.path),
  };
}

/** Sends what is pending now, in batches of {@link MAX_BATCH}. Failures are dropped quietly. */
export function flush(leaving = false): void {
  if (timer !== null) clearTimeout(timer);
  timer = null;
  while (pending.length > 0) {
    const body = JSON.stringify({ reports: pending.splice(0, MAX_BATCH).map(wire) });
    if (leaving && navigator.sendBeacon?.(ERRORS_ENDPOINT, new Blob([body], { type: 'application/json' }))) {
      continue;
    }
    // Not the API client: a failure here must never become a report of its own.
    fetch(ERRORS_ENDPOINT, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json' },
      keepalive: true,
      credentials: 'same-origin',
    }).catch(() => undefined);
  }
}

let listening = false;

/** Takes the reports queued in `queue` (emptying it) and schedules their sending. */
export function take(queue: ClientErrorReport[]): void {
  if (!listening) {
    listening = true;
    window.addEventListener('pagehide', () => flush(true));
  }
  for (const report of queue.splice(0)) {
    const key = `${report.kind}|${report.message}|${report.stack?.split('\n', 2)[1] ?? report.path ?? ''}`;
    if (seen.has(key) || sent >= PAGE_MAX) continue;
    seen.add(key);
    sent += 1;
    pending.push(report);
  }
  if (pending.length > 0 && timer === null) timer = setTimeout(() => flush(), SEND_DELAY_MS);
}

/** Forgets what was sent (tests). */
export function resetReporter(): void {
  seen.clear();
  pending = [];
  sent = 0;
  if (timer !== null) clearTimeout(timer);
  timer = null;
}
