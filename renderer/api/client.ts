import { accessTokenAtom, activeHotelIdAtom, appStore, loginTypeAtom } from '../state/atoms';
import { currentLocale, i18n } from '../i18n/instance';
import { isRecord } from '../../schemas/app/is-record';

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

/** Header marking a session started by the hand-off from the main app (SPEC §7); its value is 'sso'. */
export const LOGIN_TYPE_HEADER = 'x-login-type';
/** Header carrying an access token supplied by a host app (SPEC §7). */
export const ACCESS_TOKEN_HEADER = 'access-token';
/** Header naming the micro-front-end sign-in type when an access token is supplied (SPEC §7); value 'mfe'. */
export const SIGN_IN_TYPE_HEADER = 'x-sign-in-type';

/**
 * Supplies (or with null withdraws) the access token of a host that embeds the app as a micro front end:
 * every later call carries `access-token: <token>` and `x-sign-in-type: mfe` (SPEC §7).
 */
export function setAccessToken(token: string | null): void {
  appStore.set(accessTokenAtom, token);
}

/**
 * Headers of every call (SPEC §7): Accept JSON, the language, `x-qid` when an active hotel is set,
 * `x-login-type: sso` while the login type is sso, and `access-token` + `x-sign-in-type: mfe` when an access
 * token is supplied.
 */
function commonHeaders(qid: string | null, extra: Record<string, string> = {}): Record<string, string> {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    httpxoyolang: currentLocale(),
    ...extra,
  };
  if (qid) headers['x-qid'] = qid;
  if (appStore.get(loginTypeAtom) === 'sso') headers[LOGIN_TYPE_HEADER] = 'sso';
  const accessToken = appStore.get(accessTokenAtom);
  if (accessToken) {
    headers[ACCESS_TOKEN_HEADER] = accessToken;
    headers[SIGN_IN_TYPE_HEADER] = 'mfe';
  }
  return headers;
}

/** Where a failed answer came from: the API path (its query is left out of the event) and the answer's x-request-id. */
interface FailureOrigin {
  path: string;
  request_id: string | null;
}

/**
 * Turns an answer into the caller's result (SPEC §7–§8): `data` of a success envelope (the whole body when
 * it is not one), else an ApiError — the internal-server-error text for status ≥ 500, the extracted message
 * for 4xx or `success: false` (a 401 first calls the unauthorized handler; a 403 without a message reads
 * 'You do not have rights to view/modify', SPEC §8). A status ≥ 500 with `origin` also dispatches an
 * `api-failure` CustomEvent on window (detail: status, path, request_id) for error reporting.
 */
function settle<T>(status: number, body: unknown, origin?: FailureOrigin): T {
  if (status >= 500) {
    // Error reporting (issue 15 item 3) listens for this on window; the client imports nothing of it.
    if (origin) {
      const detail = { status, path: origin.path.split('?', 1)[0], request_id: origin.request_id };
      dispatchEvent(new CustomEvent('api-failure', { detail }));
    }
    throw errorFromEnvelope(status, body, i18n.t('shell.errors.internal_server_error'));
  }
  const ok = status >= 200 && status < 300;
  if (!ok || (isRecord(body) && body.success === false)) {
    // A 403 without a message of its own (e.g. a proxy's page) says so in the owner's language (SPEC §8).
    const fallback = status === 403 ? i18n.t('shell.errors.forbidden') : fallbackErrorMessage();
    const error = errorFromEnvelope(status, body, messageFromBody(body) ?? fallback);
    if (status === 401) unauthorizedHandler?.(error);
    throw error;
  }
  if (isRecord(body) && body.success === true) return body.data as T;
  return body as T;
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
  const headers = commonHeaders(qid, { 'Content-Type': 'application/json', ...options.headers });

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

  return settle<T>(response.status, body, {
    path,
    request_id: response.headers.get('x-request-id'),
  });
}

/** Options of {@link apiUpload}. */
export interface ApiUploadOptions {
  /**
   * Called as the request body goes out (XHR upload progress events): bytes sent so far and in all. When
   * the browser cannot compute the total, `totalBytes` is the size of the form's files.
   */
  onProgress?: (loadedBytes: number, totalBytes: number) => void;
  /** Called once every byte of the body is sent; the answer is still awaited ('processing', SPEC §4). */
  onSent?: () => void;
  /** Aborts the request; an aborted upload rejects with a DOMException named AbortError. */
  signal?: AbortSignal;
  /** Extra headers. */
  headers?: Record<string, string>;
}

/** The bytes of the files of a form, for progress when the browser cannot compute the total. */
function formFileBytes(form: FormData): number {
  let total = 0;
  form.forEach((value) => {
    if (typeof value !== 'string') total += value.size;
  });
  return total;
}

function abortError(): DOMException {
  return new DOMException('The upload was aborted', 'AbortError');
}

/** The body of an XHR answer as {@link readBody} reads a fetch answer: JSON by content type, else text. */
function xhrBody(xhr: XMLHttpRequest): unknown {
  if (xhr.status === 204) return undefined;
  const type = xhr.getResponseHeader('content-type') ?? '';
  const text = xhr.responseText;
  if (type.includes('json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return undefined;
    }
  }
  return text === '' ? undefined : text;
}

/**
 * Sends a multipart form with POST through XMLHttpRequest, so that upload progress can be followed (SPEC
 * §7 'Image upload: direct request with progress events'). Same headers as {@link apiRequest}
 * (`httpxoyolang`, `x-qid` + query `qid`, Accept JSON; no Content-Type: the browser writes the multipart
 * boundary), credentials included, and the same answers: resolves with `data` of the success envelope;
 * rejects with an {@link ApiError} (status ≥ 500 → the internal-server-error text; network failure →
 * unable-to-connect, status 0; 4xx or `success: false` → status, body, `code` and the extracted message;
 * a 401 first calls the unauthorized handler), or with an AbortError when `signal` aborts.
 */
export function apiUpload<T = unknown>(
  path: string,
  form: FormData,
  options: ApiUploadOptions = {},
): Promise<T> {
  const { signal, onProgress, onSent } = options;
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) {
      reject(abortError());
      return;
    }
    const qid = appStore.get(activeHotelIdAtom);
    const xhr = new XMLHttpRequest();
    xhr.open('POST', buildUrl(path, undefined, qid));
    xhr.withCredentials = true;
    for (const [name, value] of Object.entries(commonHeaders(qid, options.headers))) {
      xhr.setRequestHeader(name, value);
    }
    const fallbackTotal = formFileBytes(form);
    let sent = false;
    const markSent = () => {
      if (sent) return;
      sent = true;
      onSent?.();
    };
    xhr.upload.addEventListener('progress', (event) => {
      const total = event.lengthComputable && event.total > 0 ? event.total : fallbackTotal;
      onProgress?.(Math.min(event.loaded, total), total);
    });
    xhr.upload.addEventListener('load', markSent);
    const onAbort = () => xhr.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    const done = () => signal?.removeEventListener('abort', onAbort);
    xhr.addEventListener('load', () => {
      done();
      markSent();
      try {
        resolve(
          settle<T>(xhr.status, xhrBody(xhr), {
            path,
            request_id: xhr.getResponseHeader('x-request-id'),
          }),
        );
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    xhr.addEventListener('error', () => {
      done();
      reject(new ApiError(i18n.t('shell.errors.unable_to_connect'), 0, undefined));
    });
    xhr.addEventListener('timeout', () => {
      done();
      reject(new ApiError(i18n.t('shell.errors.unable_to_connect'), 0, undefined));
    });
    xhr.addEventListener('abort', () => {
      done();
      reject(abortError());
    });
    xhr.send(form);
  });
}
