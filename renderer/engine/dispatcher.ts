import type {
  Action,
  FetchAction,
  SubmitAction,
  UserDetails,
  WidgetEnvelope,
} from '../../schemas/generated/types';
import { ApiError, apiRequest, extractErrorMessage } from '../api/client';
import { IDEMPOTENCY_KEY_HEADER, uuidV4 } from '../api/idempotency';
import { blockingLoaderAtom, openPopupAtom, type AppStore } from '../state/atoms';
import { findFieldRules, type Translate } from './field-validation';
import { readForm, setFieldError, writeField } from './form';
import { validateFormFieldsWhenReady } from './form-checks';
import { endpointTemplate, sendAnalyticsBlock, type ShellHost } from './host';
import { resolveDeep, resolveValue } from './logic';
import { queryStrings } from './query';
import { isRecord } from '../../schemas/app/is-record';

/**
 * What one dispatch needs: the screen it runs on, the jotai store holding form state, the shell's host
 * functions, the current widget list (for field rules), a way to refetch the screen and a translator.
 * `response` is set for on_success / on_error / on_error_codes lists: the success envelope
 * `{ success: true, data }` or the error body `{ success: false, error }`, so rules read `response.data.user`
 * or `response.error.message`; a widget may set it too (widget-props.ts `DispatchScope`).
 */
export interface DispatchContext {
  screenId: string;
  store: AppStore;
  host: ShellHost;
  getWidgets(): readonly WidgetEnvelope[];
  refresh(): void;
  t: Translate;
  response?: unknown;
  /**
   * Waits until the screen's draft saves are done (engine/drafts.ts `settle`) so that a submit sends the
   * version the last draft save returned. Resolves false when a save met a version conflict (the screen is
   * being fetched again); absent when the screen saves no drafts.
   */
  settleDrafts?: () => Promise<boolean>;
  /**
   * Shows the error card of SPEC §8 with `message` and a Retry button that runs `retry` (issue 14 item 4):
   * used when a submit met the server unavailable (a 5xx such as 503, or no network), so the owner keeps
   * everything typed on the screen and sends it again with one tap. Absent: an error toast instead.
   */
  showFailure?: (message: string, retry: () => Promise<boolean>) => void;
}

/** A failure the server or network may recover from (5xx such as 503 with Retry-After, or no answer at all). */
function isUnavailable(error: unknown): boolean {
  return error instanceof ApiError && (error.status === 0 || error.status >= 500);
}

function isUserDetails(value: unknown): value is UserDetails {
  return isRecord(value) && typeof value.id === 'string' && typeof value.devise_role === 'string';
}

/**
 * The submit action. `idempotencyKey` is the key of this intent when the action is `idempotent`: made
 * once per run (a tap), then passed unchanged to the error card's Retry so the server answers a retry
 * with the first answer (issue 14 item 5).
 */
async function submit(
  action: SubmitAction,
  ctx: DispatchContext,
  idempotencyKey: string | undefined = action.idempotent ? uuidV4() : undefined,
): Promise<boolean> {
  if (!(await validateFormFieldsWhenReady(ctx.store, ctx.screenId, action.fields ?? [], ctx))) return false;
  if (ctx.settleDrafts && !(await ctx.settleDrafts())) return false;
  const form = readForm(ctx.store, ctx.screenId);
  const body: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(action.body ?? {})) body[key] = resolveDeep(value, { form });

  if (action.blocking) ctx.store.set(blockingLoaderAtom, (n) => n + 1);
  try {
    const headers = idempotencyKey ? { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey } : undefined;
    const data = await apiRequest(action.endpoint, { method: action.method, body, headers });
    submitEvent(ctx, action, 'submit_success');
    return dispatch(action.on_success ?? [], { ...ctx, response: { success: true, data } });
  } catch (error) {
    submitEvent(ctx, action, 'submit_error', error);
    const response = errorResponse(error);
    const forCode = codeActions(action, error);
    if (forCode) {
      await dispatch(forCode, { ...ctx, response });
      return false;
    }
    if (error instanceof ApiError && error.field && findFieldRules(ctx.getWidgets(), error.field)) {
      setFieldError(ctx.store, ctx.screenId, error.field, extractErrorMessage(error));
    } else if (ctx.showFailure && isUnavailable(error)) {
      // The form's values stay where they are (the screen's atoms); Retry submits them again as they are then.
      // The same intent: the same idempotency key, so a publish that did reach the server is not repeated.
      ctx.showFailure(extractErrorMessage(error), () => submit(action, ctx, idempotencyKey));
    } else if (!(error instanceof ApiError && error.status === 401)) {
      // A 401 is answered by the shell (local sign-out + 'Session Expired'), not by a second toast.
      ctx.host.toast({ text: extractErrorMessage(error), status: 'error' });
    }
    if (action.on_error && action.on_error.length > 0) await dispatch(action.on_error, { ...ctx, response });
    return false;
  } finally {
    if (action.blocking) ctx.store.set(blockingLoaderAtom, (n) => Math.max(0, n - 1));
  }
}

/**
 * The event every submit sends when its answer arrives (issue 15 item 1: publish success and error, each
 * sign-in step, every checklist submit, without a block in each definition): `submit_success` or
 * `submit_error`, with the endpoint as a route template (ids replaced by ':id'), the method and, for an
 * error, the HTTP status (0: no answer) and the error code of the answer.
 */
function submitEvent(ctx: DispatchContext, action: SubmitAction, event: string, error?: unknown): void {
  const failed = error instanceof ApiError ? error : undefined;
  ctx.host.logEvent?.(
    event,
    {
      endpoint: endpointTemplate(action.endpoint),
      method: action.method,
      ...(error === undefined ? {} : { status: failed?.status ?? 0, error_code: failed?.code ?? null }),
    },
    ctx.screenId,
  );
}

/** The `response` of on_error lists: the error body when it is an object, else `{ success: false }`. */
function errorResponse(error: unknown): Record<string, unknown> {
  return error instanceof ApiError && isRecord(error.body) ? error.body : { success: false };
}

/** The on_error_codes entry for the error's `error.code`, if the submit declares one. */
function codeActions(action: SubmitAction, error: unknown): Action[] | undefined {
  const codes = action.on_error_codes;
  if (!codes || !(error instanceof ApiError) || error.code === undefined) return undefined;
  return Object.hasOwn(codes, error.code) ? codes[error.code] : undefined;
}

/**
 * The fetch action: GET `endpoint` with `query` resolved over {form, response} (undefined / null values left
 * out, others as text, see queryStrings), then on_success with the success envelope as `response`. A failure
 * shows an error toast unless `quiet` (a 401 never: the shell answers it), runs on_error with the error body
 * and resolves false.
 */
/**
 * The newest fetch started per screen and endpoint: an answer that arrives after a newer fetch to the
 * same endpoint started on the same screen is stale (e.g. the place under a pin that has moved since).
 */
const latestFetch = new Map<string, number>();
let fetchCounter = 0;

async function fetchData(action: FetchAction, ctx: DispatchContext): Promise<boolean> {
  const data = { form: readForm(ctx.store, ctx.screenId), response: ctx.response };
  const query = action.query
    ? queryStrings(resolveDeep(action.query, data) as Record<string, unknown>)
    : undefined;
  const key = `${ctx.screenId} ${action.endpoint}`;
  const ticket = ++fetchCounter;
  latestFetch.set(key, ticket);
  const stale = () => latestFetch.get(key) !== ticket;
  let answer: unknown;
  try {
    answer = await apiRequest(action.endpoint, { query });
  } catch (error) {
    // A newer fetch replaced this one: its own answer decides; this one is dropped quietly.
    if (stale()) return true;
    if (!action.quiet && !(error instanceof ApiError && error.status === 401)) {
      ctx.host.toast({ text: extractErrorMessage(error), status: 'error' });
    }
    if (action.on_error && action.on_error.length > 0) {
      await dispatch(action.on_error, { ...ctx, response: errorResponse(error) });
    }
    return false;
  }
  if (stale()) return true;
  return dispatch(action.on_success ?? [], { ...ctx, response: { success: true, data: answer } });
}

async function copyText(text: string, toastText: string | undefined, ctx: DispatchContext): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
  } catch (error) {
    ctx.host.toast({ text: extractErrorMessage(error), status: 'error' });
    return false;
  }
  ctx.host.toast({ text: toastText ?? ctx.t('shell.copied'), status: 'success' });
  return true;
}

function openUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    console.warn(`open_url refused an invalid URL: ${url}`);
    return false;
  }
  if (parsed.protocol !== 'https:') {
    console.warn(`open_url refused a non-https URL: ${url}`);
    return false;
  }
  window.open(parsed.href, '_blank', 'noopener,noreferrer');
  return true;
}

/**
 * Saves a file the BFF serves on this origin (the session cookie goes with it): a temporary link with the
 * `download` attribute, so the page stays where it is. Refuses anything but an API path (ApiPath).
 */
function downloadFile(endpoint: string): boolean {
  if (!/^\/(hms_ms|owner_ms)\//.test(endpoint) || endpoint.includes('..')) {
    console.warn(`download_file refused a path that is not an API path: ${endpoint}`);
    return false;
  }
  const link = document.createElement('a');
  link.href = endpoint;
  link.download = '';
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  return true;
}

async function runAction(action: Action, ctx: DispatchContext): Promise<boolean> {
  // An action's own analytics block (issue 15 item 1) is sent as it starts to run.
  sendAnalyticsBlock(ctx.host, action.analytics, ctx.screenId, ctx.response);
  switch (action.type) {
    case 'navigate': {
      const replace = action.replace === true;
      if (!action.query) {
        ctx.host.navigate(action.to, { replace });
        return true;
      }
      const data = { form: readForm(ctx.store, ctx.screenId), response: ctx.response };
      const query = queryStrings(resolveDeep(action.query, data) as Record<string, unknown>);
      ctx.host.navigate(action.to, { replace, query });
      return true;
    }
    case 'go_back':
      ctx.host.goBack(action.fallback);
      return true;
    case 'submit':
      return submit(action, ctx);
    case 'fetch':
      return fetchData(action, ctx);
    case 'set_value':
      writeField(
        ctx.store,
        ctx.screenId,
        action.field,
        resolveValue(action.value, { form: readForm(ctx.store, ctx.screenId), response: ctx.response }),
      );
      return true;
    case 'show_toast':
      ctx.host.toast({ text: action.text, status: action.status, timer_ms: action.timer_ms });
      return true;
    case 'open_popup':
      ctx.store.set(openPopupAtom, action.popup_id);
      return true;
    case 'close_popup':
      ctx.store.set(openPopupAtom, null);
      return true;
    case 'copy_text':
      return copyText(action.text, action.toast_text, ctx);
    case 'open_url':
      return openUrl(action.url);
    case 'download_file':
      return downloadFile(action.endpoint);
    case 'sign_out':
      return ctx.host.signOut();
    case 'refresh':
      ctx.refresh();
      return true;
    case 'session_started': {
      const user = isRecord(ctx.response) && isRecord(ctx.response.data) ? ctx.response.data.user : undefined;
      if (!isUserDetails(user)) {
        console.warn('session_started without response.data.user');
        return false;
      }
      ctx.host.sessionStarted(user);
      return true;
    }
    case 'set_language':
      await ctx.host.setLanguage(action.language);
      return true;
    case 'track':
      // Its analytics block, sent above, is all it does.
      return true;
    default: {
      const unknownAction: never = action;
      console.warn(`Unknown action ${JSON.stringify(unknownAction)}`);
      return false;
    }
  }
}

/**
 * The one action dispatcher (DESIGN "behaviour is data"): runs `actions` in order; the first that fails
 * stops the rest. Resolves true when all succeeded, false otherwise (the user has already been told: field
 * errors under their fields, other failures as an error toast). Never rejects.
 */
export async function dispatch(actions: readonly Action[], ctx: DispatchContext): Promise<boolean> {
  for (const action of actions) {
    let ok: boolean;
    try {
      ok = await runAction(action, ctx);
    } catch (error) {
      ctx.host.toast({ text: extractErrorMessage(error), status: 'error' });
      ok = false;
    }
    if (!ok) return false;
  }
  return true;
}
