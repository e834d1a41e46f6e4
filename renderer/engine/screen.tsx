import { useStore } from 'jotai';
import {
  startTransition,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type ReactElement,
} from 'react';
import { ErrorBoundary } from 'react-error-boundary';
import { useTranslation } from 'react-i18next';
import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Action, ScreenPayload, WidgetEnvelope } from '../../schemas/generated/types';
import type { Dispatch, Load, PopupApi, Send, WidgetComponent } from '../../widgets/widget-props';
import { apiRequest } from '../api/client';
import { activeHotelIdAtom, appStore, openPopupAtom } from '../state/atoms';
import { useStoreValue } from '../state/use-store-value';
import type { DispatchContext } from './dispatcher';
import { interactionCodeFirstTry, loadInteractionCode, loadedInteractionCode } from './interaction';
import type { DraftSaver, DraftSaverOptions } from './draft-saver';
import { startingValues, type DraftStatus } from './drafts';
import { replaceForm, useFormApi } from './form';
import { uploadsOf } from './lazy-uploads';
import { sendAnalyticsBlock, useShellHost } from './host';
import { widgetRegistry } from './registry';
import {
  INVALID_CONTENTS,
  INVALID_SCREEN,
  UNKNOWN_WIDGET,
  WIDGET_CRASHED,
  reportWidgetEvent,
  type WidgetReport,
} from './reports';
import { preloadWidget, widgetCodeLoaded, widgetFirstTry } from './lazy-widget';
import { pagePreloads } from '../../widgets/retry-import';
import { Skeleton } from '../../widgets/skeleton';
import { envelopesOf } from '../../schemas/app/widget-types';
import { AlertCard, ModuleLoadFallback } from './module-load-fallback';
import {
  checkScreenPayload,
  checkWidgetContents,
  loadWidgetValidators,
  prefetchWidgetValidators,
  widgetTypesOf,
} from './validation-schemas';

/** Path of the screen endpoint of the BFF (GET, data ScreenPayload). */
export const SCREEN_ENDPOINT = '/hms_ms/api/v1/screens/';

/**
 * What this build can draw, sent with every screen request (issue 16 item 4): the widget types of the
 * registry and the payload schema version it reads. The BFF replaces a widget of another type by its
 * fallback or leaves it out, so a client cached before a new widget shipped keeps working. Only screen
 * requests carry it, and it is the same on every one (header compression sends it once per connection).
 */
export const screenCapabilityHeaders: Readonly<Record<string, string>> = {
  'x-widget-types': Object.keys(widgetRegistry).join(','),
  'x-schema-version': '1',
};

/**
 * The `load` of every widget (widgets/widget-props.ts `Load`): a GET of `endpoint` with `query` through the
 * API client. Resolves with the envelope's `data`; rejects with ApiError, or the AbortError when `signal`
 * aborts.
 */
export const widgetLoad: Load = (endpoint, query, signal) => apiRequest<unknown>(endpoint, { query, signal });

/**
 * The `send` of every widget (widgets/widget-props.ts `Send`): a POST (or DELETE) of `body` as JSON to `endpoint` through
 * the API client. Resolves with the envelope's `data`; rejects with ApiError (a 401 also signs out), or the
 * AbortError when `signal` aborts.
 */
export const widgetSend: Send = (endpoint, body, signal, method = 'POST') =>
  apiRequest<unknown>(endpoint, { method, body, signal });

/** The quiet fallback drawn in place of a widget that cannot be shown (CONVENTIONS: a bad payload never breaks the page). */
export function WidgetFallback({ widgetId }: { widgetId: string }): ReactElement {
  const { t } = useTranslation();
  return (
    <Typography
      variant="caption"
      color="text.secondary"
      role="note"
      data-widget-fallback={widgetId}
      sx={{ display: 'block', py: 1 }}
    >
      {t('shell.widget_unavailable')}
    </Typography>
  );
}

type Resolution =
  | {
      kind: 'draw';
      Component: WidgetComponent;
      envelope: WidgetEnvelope;
      path: string;
      reports: WidgetReport[];
    }
  | { kind: 'drop'; reports: WidgetReport[] }
  | { kind: 'fallback'; reports: WidgetReport[] };

function lookup(widgetType: string): WidgetComponent | undefined {
  const registry = widgetRegistry as Record<string, WidgetComponent | undefined>;
  return Object.hasOwn(registry, widgetType) ? registry[widgetType] : undefined;
}

/**
 * Decides what to draw for an envelope: the widget, its declared fallback (recursively), 'drop' or the quiet
 * fallback. `checked`: the payload was checked by the server as the renderer would (a first screen embedded
 * in the page), so a known widget is drawn without its validator.
 */
function resolveWidget(
  screenId: string,
  envelope: WidgetEnvelope,
  path: string,
  checked: boolean,
): Resolution {
  const Component = lookup(envelope.widget_type);
  const check = Component
    ? checked
      ? ({ ok: true } as const)
      : checkWidgetContents(envelope.widget_type, envelope.contents)
    : null;
  let report: WidgetReport | undefined;
  if (!Component || !check) {
    report = UNKNOWN_WIDGET(screenId, envelope.id, path, envelope.widget_type);
  } else if (!check.ok) {
    const first = check.issues[0] ?? { path: '/', message: 'invalid' };
    report = INVALID_CONTENTS(screenId, envelope.id, path, first.path, `${first.path} ${first.message}`);
  } else {
    return { kind: 'draw', Component, envelope, path, reports: [] };
  }
  const { fallback } = envelope;
  if (fallback === 'drop') return { kind: 'drop', reports: [report] };
  if (fallback && typeof fallback === 'object') {
    const inner = resolveWidget(screenId, fallback, `${path}/fallback`, checked);
    return { ...inner, reports: [report, ...inner.reports] };
  }
  return { kind: 'fallback', reports: [report] };
}

interface SlotProps {
  screenId: string;
  envelope: WidgetEnvelope;
  path: string;
  ctx: Omit<DispatchContext, 'response'>;
  popup: PopupApi;
  /** The payload was checked by the server (see {@link resolveWidget}). */
  checked: boolean;
  /** The dispatcher's code failed every try (SPEC §4): the screen shows the fallback that reloads the page. */
  onModuleError: () => void;
}

/** One widget: resolved, validated, wrapped in its own error boundary. */
function WidgetSlot({
  screenId,
  envelope,
  path,
  ctx,
  popup,
  checked,
  onModuleError,
}: SlotProps): ReactElement | null {
  const form = useFormApi(screenId, ctx);
  const resolution = useMemo(
    () => resolveWidget(screenId, envelope, path, checked),
    [screenId, envelope, path, checked],
  );
  const host = ctx.host;
  useEffect(() => {
    for (const report of resolution.reports) reportWidgetEvent(report);
    // A widget's analytics block (issue 15 item 1): once when it is drawn with these contents.
    if (resolution.kind === 'draw') sendAnalyticsBlock(host, resolution.envelope.analytics, screenId);
  }, [resolution, host, screenId]);
  // A widget's scope (e.g. the place it picked) becomes the `response` its actions' rules read. The
  // dispatcher comes after the first paint (engine/interaction.ts), usually before the owner's first act.
  const widgetDispatch = useCallback<Dispatch>(
    (actions: Action[], scope) =>
      loadInteractionCode().then(
        ({ dispatch }) =>
          dispatch(actions, scope && 'response' in scope ? { ...ctx, response: scope.response } : ctx),
        () => {
          onModuleError();
          return false;
        },
      ),
    [ctx, onModuleError],
  );

  if (resolution.kind === 'drop') return null;
  if (resolution.kind === 'fallback') return <WidgetFallback widgetId={envelope.id} />;
  const { Component, envelope: drawn } = resolution;
  return (
    <ErrorBoundary
      resetKeys={[drawn]}
      fallbackRender={() => <WidgetFallback widgetId={drawn.id} />}
      onError={(error) => reportWidgetEvent(WIDGET_CRASHED(screenId, drawn.id, resolution.path, error))}
    >
      <Component
        id={drawn.id}
        screenId={screenId}
        contents={drawn.contents}
        form={form}
        dispatch={widgetDispatch}
        load={widgetLoad}
        send={widgetSend}
        popup={popup}
        uploads={uploadsOf(ctx.store)}
      />
    </ErrorBoundary>
  );
}

/** Loading placeholder of a screen (aria-busy). */
function ScreenSkeleton(): ReactElement {
  const { t } = useTranslation();
  return (
    <Stack spacing={2} aria-busy="true" aria-label={t('shell.loading')} role="status" sx={{ p: 2 }}>
      <Skeleton width="60%" height={32} />
      <Skeleton height={56} />
      <Skeleton height={56} />
      <Skeleton height={48} />
    </Stack>
  );
}

/** The generic error card of SPEC §2: common error text and a Refresh button. */
export function ErrorCard({ onRefresh }: { onRefresh: () => void }): ReactElement {
  const { t } = useTranslation();
  return (
    <AlertCard message={t('shell.errors.generic')} action={t('shell.actions.refresh')} onAction={onRefresh} />
  );
}

/**
 * The error card of SPEC §8 for an action the server could not answer (a 503 on save, no network): the
 * message and a Retry button. Shown above the screen's widgets, which keep what the owner typed. The Save
 * that failed is usually at the bottom of a long form: Retry is brought into view and focused.
 */
export function RetryCard({ message, onRetry }: { message: string; onRetry: () => void }): ReactElement {
  const { t } = useTranslation();
  return (
    <AlertCard
      message={message}
      action={t('shell.actions.retry')}
      onAction={onRetry}
      inScreen
      data-testid="retry-card"
    />
  );
}

/** `requestKey`: the screen id and query the payload was fetched for (its form is applied once per key). */
type LoadState =
  | { status: 'loading' }
  | { status: 'error' }
  | { status: 'module_error' }
  | { status: 'ready'; payload: ScreenPayload; requestKey: string; checked: boolean };

const DRAFT_STATUS_KEYS: Record<DraftStatus, string | null> = {
  idle: null,
  saving: 'shell.drafts.saving',
  saved: 'shell.drafts.saved',
  offline: 'shell.drafts.offline',
  failed: 'shell.drafts.failed',
};

/** The "Saving… / Saved" line of a screen that saves drafts: a polite live region, not a widget. */
function DraftStatusLine({ status }: { status: DraftStatus }): ReactElement {
  const { t } = useTranslation();
  const key = DRAFT_STATUS_KEYS[status];
  return (
    <Typography
      role="status"
      aria-live="polite"
      variant="caption"
      color={status === 'failed' || status === 'offline' ? 'warning.main' : 'text.secondary'}
      data-draft-status={status}
      sx={{ display: 'block', minHeight: '1.5em', textAlign: 'end' }}
    >
      {key ? t(key) : ''}
    </Typography>
  );
}

/** Props of {@link Screen}. */
export interface ScreenProps {
  /** The screen to fetch (GET /hms_ms/api/v1/screens/:screenId). */
  screenId: string;
  /**
   * Extra headers of the screen request, e.g. `user_url_country` so that the BFF composes the screen for the
   * country of a country-specific path (SPEC §2). A change fetches the screen again.
   */
  requestHeaders?: Record<string, string>;
  /**
   * Query parameters of the screen request: the shell passes the page's own (e.g.
   * `{ property_unique_id: 'PO…', task: 'basic_info' }`), so that the BFF composes the screen for them. A
   * change fetches the screen again.
   */
  requestQuery?: Record<string, string>;
  /**
   * Where the payload is asked for instead of {@link SCREEN_ENDPOINT} (the path before the screen id): the
   * staff preview draws screens composed for fixture contexts (`/hms_ms/api/v1/preview/screens/`).
   */
  endpoint?: string;
  /**
   * Where the payload comes from instead of a GET of `endpoint`: Storybook's "Screens" draw payloads the
   * composer made at build time (renderer/preview/screen-story.tsx). It is checked like a fetched payload
   * (the screen schema, then each widget's contents). Pass a stable function: a new one loads again.
   */
  source?: (signal: AbortSignal) => Promise<unknown>;
}

/**
 * Screen requests started before the app is drawn, by request key (see {@link primeScreenRequest});
 * `checked`: a payload the server embedded in the page after checking it as the renderer would.
 */
const primedRequests = new Map<
  string,
  { request: Promise<unknown>; checked: boolean; payload?: ScreenPayload }
>();

/** The key of a screen request: what makes two requests of a screen the same (SPEC §3 GET /screens/:id). */
function screenRequestKey(
  screenId: string,
  language: string,
  requestHeaders: Record<string, string> | undefined,
  requestQuery: ScreenProps['requestQuery'],
): string {
  const headersKey = requestHeaders ? JSON.stringify(requestHeaders) : '';
  const queryKey = requestQuery && Object.keys(requestQuery).length > 0 ? JSON.stringify(requestQuery) : '';
  return JSON.stringify([screenId, language, headersKey, queryKey]);
}

/**
 * Starts GET /hms_ms/api/v1/screens/:screenId now, before React has drawn anything, so that the first
 * screen's payload travels while the page's code runs (issue 13: one round trip less before the first
 * paint). The {@link Screen} that mounts first takes it when its screen id, `language`, headers and query
 * are the same (else it asks again); whichever screen mounts first forgets every other primed request.
 *
 * `embedded`: the payload of this very request, which the server put in index.html after checking it against
 * the `screen` schema and each widget's contents schema (bff/plugins/external/static.ts): nothing is fetched,
 * and the screen is drawn without loading the validators (issue 13 item 2); the code of its lazy widgets is
 * fetched at once.
 *
 * Resolves once the code of the embedded payload's lazy widgets, the code their contents need
 * (widgets/widget-props.ts `ContentsCode`) and, for a screen that saves drafts, the draft saver's
 * (engine/interaction.ts) has arrived or failed its first try (at once without `embedded`),
 * never rejects: the app waits for it before its first draw (renderer/main.tsx), so that
 * the screen is in the first paint rather than a skeleton first and the screen a paint later (issue 13
 * item 4, the largest paint). The page preloads those chunks with its own script, so the wait is their
 * evaluation; a chunk whose first try failed is drawn as the skeleton while it is tried again.
 */
export function primeScreenRequest(
  screenId: string,
  language: string,
  requestHeaders?: Record<string, string>,
  requestQuery?: ScreenProps['requestQuery'],
  embedded?: ScreenPayload,
): Promise<void> {
  const request =
    embedded !== undefined
      ? Promise.resolve<unknown>(embedded)
      : apiRequest<unknown>(`${SCREEN_ENDPOINT}${encodeURIComponent(screenId)}`, {
          headers: { ...screenCapabilityHeaders, ...requestHeaders },
          query: requestQuery && Object.keys(requestQuery).length > 0 ? requestQuery : undefined,
        });
  request.catch(() => undefined);
  primedRequests.set(screenRequestKey(screenId, language, requestHeaders, requestQuery), {
    request,
    checked: embedded !== undefined,
    ...(embedded !== undefined ? { payload: embedded } : {}),
  });
  // An embedded payload's lazy widgets: their code is fetched now, while React starts, not once it mounts.
  if (embedded === undefined) return Promise.resolve();
  const code = envelopesOf(embedded.widget_list).map(({ widget_type: type, contents }) =>
    widgetFirstTry(lookup(type), pagePreloads('widget-type', type), contents),
  );
  return Promise.all([...code, embedded.form?.draft && interactionCodeFirstTry()]).then(() => undefined);
}

/**
 * The code a payload's form needs before it is drawn: the draft saver (engine/interaction.ts) when it saves
 * drafts (`form.draft`), so that the saver starts with the screen. Rejects when it failed every try (the screen
 * shows the module fallback).
 */
function draftCode(payload: ScreenPayload): Promise<unknown> | undefined {
  return payload.form?.draft ? loadInteractionCode() : undefined;
}

/**
 * The payload the server embedded for `key`, when it can be drawn in the screen's very first render: the code
 * of every widget it names is there (it comes with the page, or a lazy widget's chunk has arrived). Only looks:
 * the screen's effect takes the primed request.
 */
function embeddedPayloadToDraw(key: string): ScreenPayload | undefined {
  const primed = primedRequests.get(key);
  if (!primed?.checked || !primed.payload) return undefined;
  const drawable =
    (!primed.payload.form?.draft || loadedInteractionCode() !== null) &&
    envelopesOf(primed.payload.widget_list).every(({ widget_type: type, contents }) =>
      widgetCodeLoaded(lookup(type), contents),
    );
  return drawable ? primed.payload : undefined;
}

/**
 * Forgets every primed request: the server's drawing (renderer/server-render.tsx) after each page, where the
 * screen's effect that takes them in a browser never runs; else every owner's page it drew would stay in memory.
 */
export function forgetPrimedRequests(): void {
  primedRequests.clear();
}

/** Whether a request is primed and not yet taken ({@link primeScreenRequest}). */
export function hasPrimedRequests(): boolean {
  return primedRequests.size > 0;
}

/** The primed request of `key`, once; forgets all primed requests. */
function takePrimedRequest(key: string): { request: Promise<unknown>; checked: boolean } | undefined {
  const request = primedRequests.get(key);
  primedRequests.clear();
  return request;
}

/**
 * Draws one server-driven screen (DESIGN "renderer/"): fetches the payload with the API client, validates it
 * with the `screen` validator, then draws each visible widget (`visible_when` over {form}) through the
 * registry, each validated and in its own error boundary. Loading shows a skeleton (aria-busy); a failed
 * fetch or an invalid payload shows the generic error card with Refresh. Sets document.title from the payload,
 * tells the shell whether to hide the footer, and fetches again when the language changes.
 *
 * `payload.form` (issue 3): once per screen, storage key and query, the form starts from `initial` overlaid
 * with the unconfirmed local copy of the draft (engine/drafts.ts `startingValues`); with `form.draft` a
 * draft saver (engine/draft-saver.ts, whose code the screen waits for before it is drawn) saves the draft
 * fields as the user types, a "Saving… / Saved" line (aria-live polite) tells how it goes, a submit waits for
 * it, and a version conflict fetches the screen again and applies the new starting values.
 *
 * A `refresh` keeps the current widgets on screen until the new payload arrives (no skeleton), so that e.g.
 * an image_uploader refreshing its counts after an upload is not unmounted. A payload is drawn once the
 * contents validator of each of its widget types is loaded (schemas/generated/validators/<widget_type>.js,
 * one module per widget) and the code of its lazy widgets has arrived or failed (the skeleton shows
 * meanwhile; both are fetched at once, so a screen costs one round trip more than its payload at most).
 */
export function Screen({
  screenId,
  requestHeaders,
  requestQuery,
  endpoint = SCREEN_ENDPOINT,
  source,
}: ScreenProps): ReactElement {
  const { t, i18n } = useTranslation();
  const host = useShellHost();
  const store = useStore();
  const language = i18n.language;
  // Compared by value: callers may pass a new object on every render.
  const headersKey = requestHeaders ? JSON.stringify(requestHeaders) : '';
  const queryKey = requestQuery && Object.keys(requestQuery).length > 0 ? JSON.stringify(requestQuery) : '';
  // A first screen the server put in the page is drawn in the very first render: no skeleton, and the first
  // paint is the screen itself (issue 13 item 4).
  const [firstKey] = useState(() => screenRequestKey(screenId, language, requestHeaders, requestQuery));
  const [state, setState] = useState<LoadState>(() => {
    // The staff preview asks its own endpoint: nothing the page embedded is its payload.
    const payload = endpoint === SCREEN_ENDPOINT && !source ? embeddedPayloadToDraw(firstKey) : undefined;
    return payload
      ? { status: 'ready', payload, requestKey: `${screenId}\n${queryKey}`, checked: true }
      : { status: 'loading' };
  });
  const drawnFromPageRef = useRef(state.status === 'ready' ? firstKey : null);
  const [reloadKey, setReloadKey] = useState(0);
  const widgetsRef = useRef<readonly WidgetEnvelope[]>([]);
  const openId = useStoreValue(openPopupAtom);
  const form = useFormApi(screenId);

  const refresh = useCallback(() => setReloadKey((k) => k + 1), []);
  const moduleFailed = useCallback(() => setState({ status: 'module_error' }), []);
  const saverRef = useRef<DraftSaver | null>(null);
  const appliedKeyRef = useRef<string | null>(null);
  const forceApplyRef = useRef(false);
  const [draftStatus, setDraftStatus] = useState<DraftStatus>('idle');
  // An action the server could not answer, shown as the error card with Retry (issue 14 item 4).
  const [failure, setFailure] = useState<{
    screenId: string;
    message: string;
    retry: () => Promise<boolean>;
  } | null>(null);

  const fetchedKeyRef = useRef<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    // A `refresh` of the screen on show keeps drawing it while the new payload comes, so that its widgets
    // stay mounted (focus, a file picker, uploads in progress); another screen, query or language starts
    // from the skeleton.
    const headers = headersKey ? (JSON.parse(headersKey) as Record<string, string>) : undefined;
    const query = queryKey ? (JSON.parse(queryKey) as Record<string, string>) : undefined;
    const fetchKey = screenRequestKey(screenId, language, headers, query);
    if (drawnFromPageRef.current === fetchKey) {
      // Drawn in the first render from the page's embedded payload: nothing to fetch.
      drawnFromPageRef.current = null;
      fetchedKeyRef.current = fetchKey;
      takePrimedRequest(fetchKey);
      return;
    }
    drawnFromPageRef.current = null;
    const quiet = fetchedKeyRef.current === fetchKey;
    fetchedKeyRef.current = fetchKey;
    setState((previous) => (quiet && previous.status === 'ready' ? previous : { status: 'loading' }));
    const primed = quiet || source || endpoint !== SCREEN_ENDPOINT ? undefined : takePrimedRequest(fetchKey);
    const checked = primed?.checked === true;
    // A payload to check: the validators' loaders travel with it.
    if (!checked) prefetchWidgetValidators();
    const moduleError = () => {
      // A validator whose chunk failed every try (SPEC §4, §8): the fallback that reloads the page.
      if (!controller.signal.aborted) setState({ status: 'module_error' });
    };
    const fetchPayload = () =>
      source
        ? source(controller.signal)
        : apiRequest<unknown>(`${endpoint}${encodeURIComponent(screenId)}`, {
            signal: controller.signal,
            headers: { ...screenCapabilityHeaders, ...headers },
            query,
          });
    // A primed request that failed (sent before the shell could handle a 401, or offline) is asked again.
    (primed ? primed.request.catch(fetchPayload) : fetchPayload()).then(
      (data) => {
        if (controller.signal.aborted) return;
        const draw = () => {
          const ready = data as ScreenPayload;
          // As a transition: React draws the screen in slices, not in one long task, when its payload or its
          // widgets' code arrive after the first draw (issue 13 item 4: Total Blocking Time).
          const show = () =>
            startTransition(() =>
              setState({ status: 'ready', payload: ready, requestKey: `${screenId}\n${queryKey}`, checked }),
            );
          const types = widgetTypesOf(ready.widget_list);
          const code = envelopesOf(ready.widget_list).map(({ widget_type: type, contents }) =>
            preloadWidget(lookup(type), false, contents),
          );
          // A payload the server checked needs no validators (issue 13): only the code of its widgets.
          Promise.all([checked ? undefined : loadWidgetValidators(types), ...code, draftCode(ready)]).then(
            () => {
              if (!controller.signal.aborted) show();
            },
            moduleError,
          );
        };
        if (checked) {
          draw();
          return;
        }
        checkScreenPayload(data).then((check) => {
          if (controller.signal.aborted) return;
          if (!check.ok) {
            const first = check.issues[0] ?? { path: '/', message: 'invalid' };
            reportWidgetEvent(INVALID_SCREEN(screenId, first.path, first.message));
            setState({ status: 'error' });
            return;
          }
          draw();
        }, moduleError);
      },
      () => {
        if (!controller.signal.aborted) setState({ status: 'error' });
      },
    );
    return () => controller.abort();
  }, [screenId, language, reloadKey, headersKey, queryKey, endpoint, source]);

  const payload = state.status === 'ready' ? state.payload : undefined;
  const requestKey = state.status === 'ready' ? state.requestKey : undefined;

  // Before paint, so that widgets never show the values of another lead.
  useLayoutEffect(() => {
    if (!payload || requestKey === undefined) return;
    const spec = payload.form;
    const key = spec ? `${requestKey}\n${spec.draft?.storage_key ?? ''}` : null;
    // A refetch for the same key (language change) keeps what the user typed and the running saver.
    if (key === appliedKeyRef.current && !forceApplyRef.current) return;
    forceApplyRef.current = false;
    saverRef.current?.dispose();
    saverRef.current = null;
    appliedKeyRef.current = key;
    setDraftStatus('idle');
    if (!spec) return;
    const { values, resend } = startingValues(spec);
    replaceForm(store, screenId, values);
    if (spec.draft) {
      const options: DraftSaverOptions = {
        draft: spec.draft,
        screenId,
        store,
        host,
        resend,
        onStatus: setDraftStatus,
        onConflict: () => {
          forceApplyRef.current = true;
          refresh();
        },
      };
      // Its code came before the screen was drawn (draftCode, embeddedPayloadToDraw).
      saverRef.current = loadedInteractionCode()?.createDraftSaver(options) ?? null;
    }
  }, [payload, requestKey, screenId, store, host, refresh]);

  useEffect(
    () => () => {
      saverRef.current?.dispose();
      saverRef.current = null;
      appliedKeyRef.current = null;
    },
    [],
  );
  widgetsRef.current = payload?.widget_list ?? [];

  useEffect(() => {
    if (payload?.title) document.title = payload.title;
    host.setFooterHidden(payload?.hide_footer === true);
    // The property the screen is about becomes the active hotel: the API client sends it as x-qid / qid.
    if (payload?.active_hotel_id) appStore.set(activeHotelIdAtom, payload.active_hotel_id);
  }, [payload, host]);

  // SPEC §9 analytics (issue 15): one screen_view each time a screen payload is drawn (a refresh that
  // brings a new payload counts again; a re-render does not).
  useEffect(() => {
    if (payload) {
      host.logEvent?.('screen_view', {}, screenId);
      sendAnalyticsBlock(host, payload.analytics, screenId);
    }
    // Only a new payload is a new view: screenId changes together with it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [payload, host]);

  useEffect(() => () => host.setFooterHidden(false), [host]);

  useEffect(() => {
    store.set(openPopupAtom, null);
  }, [store, screenId]);

  const ctx = useMemo<Omit<DispatchContext, 'response'>>(
    () => ({
      screenId,
      store,
      host,
      getWidgets: () => widgetsRef.current,
      refresh,
      t: (key, values) => t(key, values),
      settleDrafts: () => saverRef.current?.settle() ?? Promise.resolve(true),
      showFailure: (message, retry) => setFailure({ screenId, message, retry }),
    }),
    [screenId, store, host, refresh, t],
  );
  const popup = useMemo<PopupApi>(
    () => ({ openId, close: () => store.set(openPopupAtom, null) }),
    [openId, store],
  );

  if (state.status === 'loading') return <ScreenSkeleton />;
  if (state.status === 'error') return <ErrorCard onRefresh={refresh} />;
  if (state.status === 'module_error') return <ModuleLoadFallback />;

  const visible = state.payload.widget_list
    .map((envelope, index) => ({ envelope, path: `/widget_list/${index}` }))
    .filter(({ envelope }) => form.evaluate(envelope.visible_when));
  return (
    <Box
      component="main"
      sx={{ p: 2, pb: 10, maxWidth: 600, mx: 'auto' }}
      data-screen-id={state.payload.screen_id}
    >
      <Stack spacing={2}>
        {failure?.screenId === screenId && (
          <RetryCard
            message={failure.message}
            onRetry={() => {
              setFailure(null);
              void failure.retry();
            }}
          />
        )}
        {visible.map(({ envelope, path }) => (
          <WidgetSlot
            key={envelope.id}
            screenId={screenId}
            envelope={envelope}
            path={path}
            ctx={ctx}
            popup={popup}
            checked={state.checked}
            onModuleError={moduleFailed}
          />
        ))}
        {state.payload.form?.draft && <DraftStatusLine status={draftStatus} />}
      </Stack>
    </Box>
  );
}
