import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { ClientErrorReport } from '../../schemas/generated/types';
import type { Database } from '../db/schema';

/**
 * Client error reports (issue 15 item 3): scrubbed of personal data, fingerprinted, and counted in
 * `error_groups` (migration 0020).
 */

/** What replaces each kind of personal or secret text. */
const SCRUBBERS: ReadonlyArray<[RegExp, string]> = [
  // E-mail addresses.
  [/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g, '<email>'],
  // Bearer tokens, JWTs and other long opaque strings (32+ characters of base64url or hex).
  [/\b(Bearer\s+)?[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\b/g, '<token>'],
  [/\b(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]{32,}\b/g, '<token>'],
  // Query strings and fragments of URLs (codes, tokens, names may ride there).
  [/(https?:\/\/[^\s?#"']+|\/[A-Za-z0-9_./-]*)[?#][^\s"')]*/g, '$1?<query>'],
  // Phone numbers and other long digit runs (7+ digits, spaces, dots or dashes between them), with a '+'.
  [/\+?\d[\d ().-]{5,}\d/g, '<number>'],
];

/**
 * `text` with personal data and secrets replaced (e-mail addresses by `<email>`, tokens by `<token>`,
 * query strings by `?<query>`, digit runs of 7 or more — phone numbers, card and document numbers — by
 * `<number>`). Used on every text of a report before it is logged or stored.
 */
export function scrub(text: string): string {
  let out = text;
  for (const [pattern, replacement] of SCRUBBERS) out = out.replace(pattern, replacement);
  return out;
}

/** The first line of a stack that names a place in code (a frame), scrubbed, without its column. */
export function topFrame(stack: string | undefined): string | null {
  if (!stack) return null;
  const frame = stack
    .split('\n')
    .map((line) => line.trim())
    .find((line) => /^at\s|@|:\d+:\d+/.test(line) && !/^\w*Error\b/.test(line));
  if (!frame) return null;
  // Builds put a content hash in file names and the column changes with every build: neither splits a group.
  return scrub(frame)
    .replace(/-[A-Za-z0-9_]{8}\.js/g, '.js')
    .replace(/:(\d+):\d+\)?$/, ':$1')
    .slice(0, 300);
}

/** A message as grouped: scrubbed, numbers and ids replaced, so 'lead PO1… not found' groups as one. */
function normalisedMessage(message: string): string {
  return scrub(message)
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, '<id>')
    .replace(/\bPO[A-Z0-9]{10}\b/g, '<id>')
    .replace(/\d+/g, '0');
}

/** A path segment that is an id: a property_unique_id (PO…), a UUID, or any segment with 3 or more digits. */
const ID_SEGMENT = /^(PO[A-Z0-9]{10}|[0-9a-f-]{36}|(?:[^\d]*\d){3}.*)$/i;

/** An API path as a route template ('/hms_ms/api/v1/onboard/leads/:id/publish'), query left out. */
function pathTemplate(path: string): string {
  const template = (path.split('?', 1)[0] ?? '')
    .split('/')
    .map((s) => (ID_SEGMENT.test(s) ? ':id' : s))
    .join('/');
  return scrub(template);
}

/** A report ready to store: scrubbed texts, its top frame and fingerprint. */
export interface ScrubbedReport {
  fingerprint: string;
  kind: ClientErrorReport['kind'];
  message: string;
  topFrame: string | null;
  details: Record<string, string | number>;
  requestId: string | null;
}

/**
 * Scrubs a report and computes its fingerprint: 16 hex digits of SHA-256 over the kind, the normalised
 * message and the top frame (for an api_5xx, the API path template), so the same fault from many owners
 * is one group.
 */
export function prepareReport(report: ClientErrorReport): ScrubbedReport {
  const message = scrub(report.message).slice(0, 1000);
  const frame = report.kind === 'api_5xx' && report.path ? pathTemplate(report.path) : topFrame(report.stack);
  const fingerprint = createHash('sha256')
    .update(`${report.kind}\n${normalisedMessage(report.message)}\n${frame ?? ''}`)
    .digest('hex')
    .slice(0, 16);
  const details: Record<string, string | number> = {};
  if (report.screen_id) details.screen_id = report.screen_id;
  if (report.widget_id) details.widget_id = scrub(report.widget_id);
  if (report.path) details.path = scrub(report.path);
  if (report.page) details.page = scrub(report.page);
  if (report.status !== undefined) details.status = report.status;
  return {
    fingerprint,
    kind: report.kind,
    message,
    topFrame: frame,
    details,
    requestId: report.request_id ?? null,
  };
}

/**
 * Counts `report` in its group (created on first sight) at `at`; `requestId` is the report's own request
 * id when the report carries none of a failed call.
 */
export async function storeReport(
  db: Kysely<Database>,
  report: ScrubbedReport,
  at: Date,
  requestId: string,
): Promise<void> {
  const lastRequestId = report.requestId ?? requestId;
  await db
    .insertInto('error_groups')
    .values({
      fingerprint: report.fingerprint,
      kind: report.kind,
      message: report.message,
      top_frame: report.topFrame,
      count: 1,
      first_seen: at,
      last_seen: at,
      last_details: JSON.stringify(report.details),
      last_request_id: lastRequestId,
    })
    .onConflict((oc) =>
      oc.column('fingerprint').doUpdateSet({
        count: sql<number>`error_groups.count + 1`,
        last_seen: sql<Date>`greatest(error_groups.last_seen, excluded.last_seen)`,
        last_details: sql<string>`excluded.last_details`,
        last_request_id: sql<string>`excluded.last_request_id`,
      }),
    )
    .execute();
}
