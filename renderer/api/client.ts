import { activeHotelIdAtom, appStore } from '../state/atoms';
import { currentLocale, i18n } from '../i18n/instance';

/**
 * Last-resort message when nothing else can be extracted (SPEC §8 message extraction order: 'Something went
 * wrong'), in the current language.
 */
const fallbackErrorMessage = (): string => i18n.t('shell.errors.something_went_wrong');

/**
 * A failed call (SPEC §8). `status` is the HTTP status, 0 for a network failure. `body` is the parsed JSON
 * body, the text body (e.g. an HTML error page), or undefined. `code` and `field` come from the error
 * envelope `{ success: false, error: { code, message, field? } }` when present. `message` is already
 * translated: the server's message for 4xx, the internal-server-error text for 5xx, the unable-to-connect
 * text for network failures.
 */
export class ApiError extends Error {
  override name = 'ApiError';
  readonly status: number;
  readonly body: unknown;
  readonly code: string | undefined;
  readonly field: string | undefined;

  constructor(message: string, status: number, body: unknown, code?: string, field?: string) {
    super(message);
    this.status = status;
    this.body = body;
    this.code = code;
    this.field = field;
  }
}

/** Options of {@link apiRequest}. */
export interface ApiRequestOptions {
  /** HTTP method; GET by default. */
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON. */
  body?: unknown;
  /** Added to the query string; undefined values are left out. */
  query?: Record<string, string | number | boolean | undefined>;
  /** Aborts the request; an aborted request rejects with the AbortError untouched. */
  signal?: AbortSignal;
  /** Extra headers (e.g. `user_url_country`, or the sign-out `intent` header of SPEC §7). */
  headers?: Record<string, string>;
}

type UnauthorizedHandler = (error: ApiError) => void;
let unauthorizedHandler: UnauthorizedHandler | null = null;

/**
 * Registers the function called on any 401 answer (SPEC §4, §8: local sign-out and 'Session Expired').
 * The shell registers it once; returns a function that unregisters it.
 */
export function setUnauthorizedHandler(handler: UnauthorizedHandler | null): () => void {
  unauthorizedHandler = handler;
  return () => {
    if (unauthorizedHandler === handler) unauthorizedHandler = null;
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function nonEmptyString(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** The message of a response body alone: body.error.message, body.error as string, body.message. */
function messageFromBody(body: unknown): string | undefined {
  if (!isRecord(body)) return undefined;
  const error = body.error;
  return (
    (isRecord(error) ? nonEmptyString(error.message) : undefined) ??
    nonEmptyString(error) ??
    nonEmptyString(body.message)
  );
}

/**
 * The text to show for any error (SPEC §8), in this order: the error's own message, body.error.message,
 * body.error as a string, body.message, else 'Something went wrong'. Never throws.
 */
export function extractErrorMessage(error: unknown): string {
  if (typeof error === 'string' && error.trim() !== '') return error;
  if (typeof error !== 'object' || error === null) return fallbackErrorMessage();
  const record = error as Record<string, unknown>;
  return nonEmptyString(record.message) ?? messageFromBody(record.body) ?? fallbackErrorMessage();
}

function isAbort(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError';
}

function buildUrl(path: string, query: ApiRequestOptions['query'], qid: string | null): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) params.set(key, String(value));
  }
  if (qid) params.set('qid', qid);
  const search = params.toString();
  if (!search) return path;
  return `${path}${path.includes('?') ? '&' : '?'}${search}`;
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      return await response.json();
    } catch {
      return undefined;
    }
  }
  const text = await response.text();
  return text === '' ? undefined : text;
}

function errorFromEnvelope(status: number, body: unknown, message: string): ApiError {
  const error = isRecord(body) && isRecord(body.error) ? body.error : undefined;
  const code = error && typeof error.code === 'string' ? error.code : undefined;
  const field = error && typeof error.field === 'string' ? error.field : undefined;
  return new ApiError(message, status, body, code, field);
}

/**
 * The one HTTP client (SPEC §7–§8). Sends `httpxoyolang: <current locale>`, `x-qid` + query `qid` when an
 * active hotel id is set, credentials 'include' and a JSON content type. Resolves with `data` of the success
 * envelope `{ success: true, data }` (undefined for 204; the whole body when it is not an envelope).
 *
 * Rejects with an {@link ApiError}: status ≥ 500 → 'Internal Server Error' (translated, server text never
 * shown); network failure → the translated unable-to-connect text, status 0; 4xx or `success: false` →
 * status, parsed JSON body (or text for HTML) and the extracted message. A 401 first calls the handler set by
 * {@link setUnauthorizedHandler}. An aborted request rejects with the original AbortError.
 */
export async function apiRequest<T = unknown>(path: string, options: ApiRequestOptions = {}): Promise<T> {
  const method = options.method ?? 'GET';
  const qid = appStore.get(activeHotelIdAtom);
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'Content-Type': 'application/json',
    httpxoyolang: currentLocale(),
    ...options.headers,
  };
  if (qid) headers['x-qid'] = qid;

  let response: Response;
  try {
    response = await fetch(buildUrl(path, options.query, qid), {
      method,
      headers,
      credentials: 'include',
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
      signal: options.signal,
    });
  } catch (error) {
    if (isAbort(error)) throw error;
    throw new ApiError(i18n.t('shell.errors.unable_to_connect'), 0, undefined);
  }

  let body: unknown;
  try {
    body = await readBody(response);
  } catch (error) {
    if (isAbort(error)) throw error;
    throw new ApiError(i18n.t('shell.errors.unable_to_connect'), 0, undefined);
  }

  if (response.status >= 500) {
    throw errorFromEnvelope(response.status, body, i18n.t('shell.errors.internal_server_error'));
  }
  if (!response.ok || (isRecord(body) && body.success === false)) {
    const error = errorFromEnvelope(response.status, body, messageFromBody(body) ?? fallbackErrorMessage());
    if (response.status === 401) unauthorizedHandler?.(error);
    throw error;
  }
  if (isRecord(body) && body.success === true) return body.data as T;
  return body as T;
}
