import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ApiError } from '../../../schemas/generated/types';
import { isDatabaseUnavailableError } from '../../db';
import {
  errorDefinitions,
  isOnboardError,
  onboardError,
  type ErrorCode,
  type OnboardError,
} from '../../errors';
import { escapeHtml } from '../../html';
import { isClientRoute } from '../external/static';

/**
 * Turns any error into the wire shape of SPEC §8 / the shared context:
 * `{ success: false, error: { code, message (translated), field? } }`.
 * Schema validation errors → 400 ONB_INVALID_INPUT 'Invalid Input' (field = the first offending
 * property when there is one); unknown 4xx (bad JSON, body too large…) → ONB_INVALID_INPUT with its
 * status; everything else → 500 'Internal Server Error', logged with the request id, never its message.
 */
export function toApiError(
  err: unknown,
  request: FastifyRequest,
): { status: number; body: ApiError; error: OnboardError } {
  let e: OnboardError;
  let field: string | undefined;
  const fe = err as FastifyError & {
    validation?: { instancePath?: string; params?: Record<string, unknown> }[];
  };
  if (isOnboardError(err)) {
    e = err;
  } else if (fe && fe.validation) {
    e = onboardError('ONB_INVALID_INPUT');
    const first = fe.validation[0];
    const fromPath = first?.instancePath?.split('/').filter(Boolean)[0];
    const fromParams = (first?.params?.additionalProperty ?? first?.params?.missingProperty) as
      string | undefined;
    field = fromPath ?? fromParams;
  } else if (fe && typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    e = onboardError('ONB_INVALID_INPUT');
    e.statusCode = fe.statusCode;
  } else {
    e = onboardError('ONB_INTERNAL');
  }
  const def = errorDefinitions[e.code as ErrorCode];
  const status = e.statusCode ?? def.status;
  const { translate } = request.server.translations;
  const listed = Object.entries(e.valueKeys ?? {}).map(([k, keys]) => [
    k,
    keys.map((key) => translate(request.locale, key)).join(', '),
  ]);
  const regions = Object.entries(e.regionValues ?? {}).map(([k, code]) => [
    k,
    regionName(code, request.locale),
  ]);
  const values =
    listed.length + regions.length > 0
      ? { ...e.values, ...Object.fromEntries(listed), ...Object.fromEntries(regions) }
      : e.values;
  const message = translate(request.locale, def.key, values);
  const resolvedField = e.field ?? ('field' in def ? def.field : undefined) ?? field;
  return {
    status,
    error: e,
    body: {
      success: false,
      error: {
        code: e.code,
        message,
        ...(resolvedField ? { field: resolvedField } : {}),
        ...(e.retryAfterS !== undefined ? { retry_after_s: e.retryAfterS } : {}),
        ...(e.details ? { details: e.details } : {}),
      },
    },
  };
}

/**
 * The name of the country `code` (ISO 3166-1 alpha-2) in `locale` (a BCP 47 tag such as 'ar' or 'en-GB'),
 * by the platform's `Intl.DisplayNames`; the code itself when it names no country.
 */
function regionName(code: string, locale: string): string {
  try {
    return new Intl.DisplayNames([locale, 'en'], { type: 'region', fallback: 'code' }).of(code) ?? code;
  } catch {
    return code;
  }
}

/** Sends the translated error answer (used by the error handler and by handlers that answer directly). */
export function sendError(reply: FastifyReply, err: unknown): FastifyReply {
  const { status, body, error } = toApiError(err, reply.request);
  if (status >= 500) {
    reply.log.error({ err, reqId: reply.request.id }, 'request failed');
  } else {
    reply.log.info({ code: body.error.code, status }, 'request refused');
  }
  if (error.retryAfterS !== undefined) reply.header('retry-after', String(error.retryAfterS));
  if (status >= 500 && isPageLoad(reply.request)) {
    return reply
      .code(status)
      .header('cache-control', 'no-store')
      .type('text/html; charset=utf-8')
      .send(errorPage(reply.request, body.error.message, error.retryAfterS));
  }
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

/**
 * Whether `request` is a browser opening a page (GET or HEAD of what the static plugin answers with
 * index.html: `isClientRoute`), not a call of the API.
 */
function isPageLoad(request: FastifyRequest): boolean {
  return (
    (request.method === 'GET' || request.method === 'HEAD') &&
    isClientRoute(request.url, request.headers.accept ?? '')
  );
}

/**
 * The page a browser shows when opening a page failed on the server (5xx: shed under load, database
 * unreachable…), instead of the API's JSON: `message` (the generic error text, SPEC §8), 'Please try after some
 * time.' and a Refresh link to the same address, in the request's language; with `retryAfterS` (seconds) the
 * page opens itself again after that long (`<meta http-equiv="refresh">`, as the answer's Retry-After says).
 */
function errorPage(request: FastifyRequest, message: string, retryAfterS: number | undefined): string {
  const { translate } = request.server.translations;
  const later = translate(request.locale, 'errors.try_later');
  const refresh = translate(request.locale, 'shell.actions.refresh');
  const again = retryAfterS !== undefined ? `<meta http-equiv="refresh" content="${retryAfterS}">` : '';
  return (
    `<!doctype html><html lang="${escapeHtml(request.locale)}"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width, initial-scale=1">${again}` +
    `<title>${escapeHtml(message)}</title></head>` +
    `<body style="font-family:system-ui,sans-serif;margin:0;padding:24px;color:#1A1A1A">` +
    `<main><h1 style="font-size:20px">${escapeHtml(message)}</h1><p>${escapeHtml(later)}</p>` +
    `<p><a href="" style="color:#B3132E">${escapeHtml(refresh)}</a></p></main></body></html>`
  );
}

/** Options of the errors plugin: Retry-After of the 503 answered while the database is unreachable. */
export interface ErrorsPluginOptions {
  /** Seconds (config DATABASE_RETRY_AFTER_S); default 5. */
  databaseRetryAfterS?: number;
}

/**
 * Installs the one error handler. An error meaning the database is unreachable or too slow
 * ({@link isDatabaseUnavailableError}: refused or lost connection, pool or query timeout, SQLSTATE class 08,
 * 57P01…) is answered 503 ONB_DATABASE_UNAVAILABLE with `Retry-After` and the generic error text (SPEC §8
 * 'Status 500 or above: the configured internal-server-error text'; issue 14 item 4), and logged as a warning.
 */
export default fp<ErrorsPluginOptions>(
  async (app, opts) => {
    const retryAfterS = opts.databaseRetryAfterS ?? 5;
    app.setErrorHandler((err, request, reply) => {
      if (!isOnboardError(err) && isDatabaseUnavailableError(err)) {
        request.log.warn({ err }, 'database unavailable');
        return sendError(reply, onboardError('ONB_DATABASE_UNAVAILABLE', { retryAfterS }));
      }
      return sendError(reply, err);
    });
  },
  { name: 'errors', dependencies: ['translations'] },
);
