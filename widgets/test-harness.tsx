/**
 * A tiny stand-in for the engine, used by widget tests and stories: it builds WidgetProps with an
 * in-memory FormApi, a recording dispatch, a PopupApi, a `load` the caller supplies and an in-memory upload
 * manager ({@link createHarnessUploads}), and wraps a widget in the MUI theme (with the RTL emotion cache
 * for Arabic) and an i18next instance initialised synchronously with widgets.json.
 * It is not shipped in the app: the real engine (renderer/engine) provides these props there.
 */
import { useMemo, useState, type ReactNode } from 'react';
import { CacheProvider } from '@emotion/react';
import createCache, { type EmotionCache } from '@emotion/cache';
import { prefixer } from 'stylis';
import rtlPlugin from 'stylis-plugin-rtl';
import { createTheme, CssBaseline, ThemeProvider } from '@mui/material';
import { createInstance, type i18n as I18n } from 'i18next';
import { I18nextProvider, useTranslation } from 'react-i18next';
import jsonLogic from 'json-logic-js';
import type { Action, DeleteImageResult, JsonLogic, Locale } from '../schemas/generated/types';
import type {
  Dispatch,
  DispatchScope,
  FormApi,
  Load,
  PopupApi,
  Send,
  UploadApi,
  UploadBulkState,
  UploadItem,
  WidgetComponent,
} from './widget-props';
// The harness is the one widgets/ file allowed to read renderer/: it loads the widgets' own translations.
// eslint-disable-next-line no-restricted-imports
import enGbWidgets from '../renderer/i18n/locales/en-GB/widgets.json';
// eslint-disable-next-line no-restricted-imports
import arWidgets from '../renderer/i18n/locales/ar/widgets.json';

/** Languages the harness knows: the default and the right-to-left one. */
export type HarnessLanguage = Extract<Locale, 'en-GB' | 'ar'>;

/**
 * What a harnessed widget did: `values` is the form state after every setValue (field → value),
 * `actions` lists every dispatch call's action list in order and `scopes` the scope passed with each
 * (undefined when none; same index as `actions`). Tests read it; stories ignore it.
 */
export interface HarnessRecord {
  values: Record<string, unknown>;
  actions: Action[][];
  scopes: (DispatchScope | undefined)[];
  /** Every field the widget asked to validate (FormApi.validate), in order. */
  validated: string[];
}

/** An empty record to pass to {@link HarnessedWidget} / {@link harness}. */
export function createHarnessRecord(): HarnessRecord {
  return { values: {}, actions: [], scopes: [], validated: [] };
}

/** The harness's default `load`: there is no server, so every request fails (tests and stories pass one). */
const noLoad: Load = async (endpoint) => {
  throw new Error(`no load in the harness for ${endpoint}`);
};

/** The harness's default `send`: there is no server, so every request fails (tests and stories pass one). */
const noSend: Send = async (endpoint) => {
  throw new Error(`no send in the harness for ${endpoint}`);
};

/** What a harnessed widget asked of {@link createHarnessUploads}, in order. */
export interface HarnessUploadCalls {
  added: {
    endpoint: string;
    category: string;
    room_category: string | null;
    files: File[];
    fields?: Readonly<Record<string, string>>;
  }[];
  retried: string[];
  removed: string[];
  deleted: { endpoint: string; imageId: string }[];
}

/**
 * The harness's upload manager: an in-memory {@link UploadApi} with no network. `add` runs the widget's
 * pre-check like the engine's manager (`checking`, then `invalid` with the reason or `queued`) and stops
 * there; tests and stories move items on with `update`. `retry` turns a failed item back to queued, `remove`
 * forgets it, `deleteImage` answers with `options.deleteImage` (default: a success). `calls` records it all.
 */
export interface HarnessUploads extends UploadApi {
  calls: HarnessUploadCalls;
  /** Changes one item (found by id or client_upload_id), as the manager would after network events. */
  update(id: string, change: Partial<UploadItem>): void;
  /** Resolves once every pre-check started so far has finished. */
  settled(): Promise<void>;
}

let harnessUploadCounter = 0;

/**
 * An upload item for stories and tests: a File of `bytes` bytes named `file_name` (type from the extension),
 * in `status` (default queued), with the other fields filled as the engine's manager would.
 */
export function harnessUploadItem(
  fields: Partial<UploadItem> & { file_name: string; endpoint: string; category: string },
  bytes = 1024,
): UploadItem {
  harnessUploadCounter += 1;
  const clientUploadId = `00000000-0000-4000-8000-${String(harnessUploadCounter).padStart(12, '0')}`;
  const type = /\.png$/i.test(fields.file_name) ? 'image/png' : 'image/jpeg';
  const file = fields.file ?? new File([new Uint8Array(bytes)], fields.file_name, { type });
  return {
    id: `local-${clientUploadId}`,
    client_upload_id: clientUploadId,
    room_category: null,
    file,
    size: file.size,
    fields: { category: fields.category },
    status: 'queued',
    uploaded_percentile: 0,
    error: null,
    error_code: null,
    image: null,
    response: null,
    is_in_background: false,
    ...fields,
  };
}

/** A {@link HarnessUploads} holding `items` at first. */
export function createHarnessUploads(
  options: {
    items?: UploadItem[];
    deleteImage?: (endpoint: string, imageId: string) => Promise<DeleteImageResult>;
  } = {},
): HarnessUploads {
  let items: readonly UploadItem[] = options.items ?? [];
  let bulk: UploadBulkState = { is_bulk_upload: false, files_to_upload: [], start_index: 0 };
  let checks: Promise<void> = Promise.resolve();
  const listeners = new Set<() => void>();
  const watchers = new Map<string, number>();
  const snapshots = new Map<string, { source: readonly UploadItem[]; result: readonly UploadItem[] }>();
  const calls: HarnessUploadCalls = { added: [], retried: [], removed: [], deleted: [] };
  const key = (endpoint: string, category: string, roomCategory: string | null = null) =>
    JSON.stringify([endpoint, category, roomCategory]);
  const commit = (next: readonly UploadItem[]) => {
    items = next;
    for (const listener of listeners) listener();
  };
  const change = (id: string, patch: Partial<UploadItem>) =>
    commit(items.map((i) => (i.id === id || i.client_upload_id === id ? { ...i, ...patch } : i)));
  return {
    calls,
    update: change,
    settled: () => checks,
    add(endpoint, category, files, check, fields, roomCategory = null) {
      calls.added.push({
        endpoint,
        category,
        room_category: roomCategory,
        files: [...files],
        ...(fields ? { fields } : {}),
      });
      const added = files.map((file) =>
        harnessUploadItem({
          endpoint,
          category,
          fields: { ...(fields ?? { category }) },
          room_category: roomCategory,
          file,
          file_name: file.name,
          status: check ? 'checking' : 'queued',
          is_in_background: !watchers.get(key(endpoint, category, roomCategory)),
        }),
      );
      commit([...items, ...added]);
      bulk = {
        ...bulk,
        is_bulk_upload: true,
        files_to_upload: [...bulk.files_to_upload, ...added.map((i) => i.id)],
      };
      if (check) {
        for (const item of added) {
          checks = checks.then(async () => {
            const reason = await check(item.file).catch(() => '');
            change(item.id, reason === null ? { status: 'queued' } : { status: 'invalid', error: reason });
          });
        }
      }
      return added.map((i) => i.id);
    },
    start: () => {
      bulk = { ...bulk, is_bulk_upload: true };
    },
    stop: () => {
      bulk = { ...bulk, is_bulk_upload: false };
    },
    reset: () => {
      bulk = { is_bulk_upload: false, files_to_upload: [], start_index: 0 };
    },
    retry(id) {
      const item = items.find((i) => i.id === id);
      if (item?.status !== 'failed') return false;
      calls.retried.push(id);
      change(id, { status: 'queued', uploaded_percentile: 0, error: null, error_code: null });
      return true;
    },
    remove(id) {
      calls.removed.push(id);
      commit(items.filter((i) => i.id !== id));
    },
    async deleteImage(endpoint, imageId) {
      calls.deleted.push({ endpoint, imageId });
      const result = options.deleteImage
        ? await options.deleteImage(endpoint, imageId)
        : { image_id: imageId, is_active: false as const, completed: false, accepted_count: 0 };
      commit(items.filter((i) => i.id !== imageId && i.image?.image_id !== imageId));
      return result;
    },
    items(endpoint, category, roomCategory = null) {
      const k = key(endpoint, category, roomCategory);
      const cached = snapshots.get(k);
      if (cached?.source === items) return cached.result;
      const result = items.filter(
        (i) => i.endpoint === endpoint && i.category === category && i.room_category === roomCategory,
      );
      snapshots.set(k, { source: items, result });
      return result;
    },
    bulk: () => bulk,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    watch(endpoint, category, roomCategory = null) {
      const k = key(endpoint, category, roomCategory);
      watchers.set(k, (watchers.get(k) ?? 0) + 1);
      return () => watchers.set(k, Math.max(0, (watchers.get(k) ?? 0) - 1));
    },
  };
}

/** A set_value value: a JSON Logic rule over {form, response} is evaluated, as the engine does. */
function resolveHarnessValue(value: unknown, data: { form: Record<string, unknown>; response?: unknown }) {
  if (!jsonLogic.is_logic(value)) return value;
  try {
    return jsonLogic.apply(value as jsonLogic.RulesLogic, data);
  } catch {
    return value;
  }
}

/**
 * An i18next instance with the `widgets` area of en-GB and ar, initialised synchronously
 * (`initAsync: false`, as i18next 26 needs in tests). Keys are addressed `widgets.<key path>`.
 */
export function createWidgetI18n(language: HarnessLanguage = 'en-GB'): I18n {
  const instance = createInstance();
  void instance.init({
    lng: language,
    fallbackLng: 'en-GB',
    initAsync: false,
    resources: {
      'en-GB': { translation: { widgets: enGbWidgets } },
      ar: { translation: { widgets: arWidgets } },
    },
    interpolation: { escapeValue: false },
  });
  return instance;
}

const caches: Partial<Record<'ltr' | 'rtl', EmotionCache>> = {};

/** The emotion cache of a direction: the RTL one flips physical CSS properties (stylis-plugin-rtl). */
function cacheFor(direction: 'ltr' | 'rtl'): EmotionCache {
  caches[direction] ??=
    direction === 'rtl'
      ? createCache({ key: 'harness-rtl', stylisPlugins: [prefixer, rtlPlugin] })
      : createCache({ key: 'harness-ltr', stylisPlugins: [prefixer] });
  return caches[direction];
}

/** Text direction of a language (SPEC §1: Arabic is right to left). */
export function directionOf(language: string): 'ltr' | 'rtl' {
  return language === 'ar' ? 'rtl' : 'ltr';
}

/** Props of {@link WidgetProviders}. */
export interface WidgetProvidersProps {
  /** i18next instance; one is created for `language` when absent. */
  i18n?: I18n;
  language?: HarnessLanguage;
  children: ReactNode;
}

/**
 * MUI theme (direction from the language), emotion cache and i18next around `children`, inside an element
 * carrying `dir` and `lang` so that logical CSS properties and the bidi algorithm follow the language.
 */
export function WidgetProviders({ i18n, language = 'en-GB', children }: WidgetProvidersProps) {
  const instance = useMemo(() => i18n ?? createWidgetI18n(language), [i18n, language]);
  const direction = directionOf(language);
  const theme = useMemo(() => createTheme({ direction }), [direction]);
  return (
    <CacheProvider value={cacheFor(direction)}>
      <ThemeProvider theme={theme}>
        <CssBaseline />
        <I18nextProvider i18n={instance}>
          <div dir={direction} lang={language}>
            {children}
          </div>
        </I18nextProvider>
      </ThemeProvider>
    </CacheProvider>
  );
}

/** Props of {@link HarnessedWidget}: the widget, its contents and the starting state of the fake engine. */
export interface HarnessedWidgetProps<C> {
  component: WidgetComponent<C>;
  contents: C;
  id?: string;
  screenId?: string;
  /** Initial form values (field → value). */
  values?: Record<string, unknown>;
  /** Errors shown under fields (field → already translated text); a setValue clears its field's. */
  errors?: Record<string, string>;
  /** popup_id of the dialog open at first. */
  popupOpenId?: string | null;
  /**
   * What dispatch resolves to: a boolean, or a function of the actions and scope (may return a promise,
   * e.g. one the test resolves later to observe a busy state). Default true.
   */
  dispatchResult?: boolean | ((actions: Action[], scope?: DispatchScope) => boolean | Promise<boolean>);
  /** The widget's `load` (tests stub it; stories fake answers). Default: every request rejects. */
  load?: Load;
  /** The widget's `send` (tests stub it; stories fake answers). Default: every request rejects. */
  send?: Send;
  /** Filled with what the widget did. */
  record?: HarnessRecord;
  /** Called with each dispatched action list and its scope (stories log it in the Actions panel). */
  onDispatch?: (actions: Action[], scope?: DispatchScope) => void;
  /** The widget's upload manager (default: an empty {@link createHarnessUploads}). */
  uploads?: UploadApi;
  /**
   * Stands in for the engine's field rules on FormApi.validate: field and form values → the error to show
   * under the field, or undefined to clear it. Default: validate only records the field.
   */
  validate?: (field: string, values: Record<string, unknown>) => string | undefined;
}

/**
 * Renders one widget with an in-memory engine: form values in React state (so the widget re-renders on
 * setValue), `evaluate` through json-logic-js over `{ form }`, `validate` recorded and answered by the
 * `validate` prop, a dispatch that records each action list
 * with its scope and plays the local ones (open_popup, close_popup, set_value with rules over
 * `{ form, response: scope.response }`, set_language) so stories are live, and `load` as given.
 * Must sit inside {@link WidgetProviders} (or the Storybook preview).
 */
export function HarnessedWidget<C>({
  component: Widget,
  contents,
  id = 'widget',
  screenId = 'harness',
  values: initialValues = {},
  errors: initialErrors = {},
  popupOpenId = null,
  dispatchResult = true,
  load = noLoad,
  send = noSend,
  record,
  onDispatch,
  uploads: givenUploads,
  validate,
}: HarnessedWidgetProps<C>) {
  const { i18n } = useTranslation();
  const [ownUploads] = useState(() => createHarnessUploads());
  const uploads = givenUploads ?? ownUploads;
  const [values, setValues] = useState<Record<string, unknown>>(() => {
    if (record) Object.assign(record.values, initialValues);
    return initialValues;
  });
  const [errors, setErrors] = useState<Record<string, string>>(initialErrors);
  const [openId, setOpenId] = useState<string | null>(popupOpenId);

  const form = useMemo<FormApi>(
    () => ({
      value: (field) => values[field],
      setValue: (field, value) => {
        if (record) record.values[field] = value;
        setValues((prev) => ({ ...prev, [field]: value }));
        setErrors((prev) => {
          const { [field]: _cleared, ...rest } = prev;
          return rest;
        });
      },
      error: (field) => errors[field],
      evaluate: (rule: JsonLogic | undefined) =>
        rule === undefined ? true : Boolean(jsonLogic.apply(rule as jsonLogic.RulesLogic, { form: values })),
      validate: (field) => {
        record?.validated.push(field);
        if (!validate) return;
        const error = validate(field, values);
        setErrors((prev) => {
          const { [field]: _cleared, ...rest } = prev;
          return error === undefined ? rest : { ...rest, [field]: error };
        });
      },
    }),
    [values, errors, record, validate],
  );

  const dispatch = useMemo<Dispatch>(
    () => async (actions, scope) => {
      record?.actions.push(actions);
      record?.scopes.push(scope);
      onDispatch?.(actions, scope);
      const data = { form: { ...values }, response: scope?.response };
      for (const action of actions) {
        if (action.type === 'open_popup') setOpenId(action.popup_id);
        else if (action.type === 'close_popup') setOpenId(null);
        else if (action.type === 'set_value') {
          const value = resolveHarnessValue(action.value, data);
          data.form[action.field] = value;
          form.setValue(action.field, value);
        } else if (action.type === 'set_language') await i18n.changeLanguage(action.language);
      }
      try {
        return typeof dispatchResult === 'function' ? await dispatchResult(actions, scope) : dispatchResult;
      } catch {
        return false;
      }
    },
    [dispatchResult, form, values, i18n, record, onDispatch],
  );

  const popup = useMemo<PopupApi>(() => ({ openId, close: () => setOpenId(null) }), [openId]);

  return (
    <Widget
      id={id}
      screenId={screenId}
      contents={contents}
      form={form}
      dispatch={dispatch}
      load={load}
      send={send}
      popup={popup}
      uploads={uploads}
    />
  );
}

/**
 * A widget in the fake engine and the providers, ready for Testing Library's `render`:
 * `render(harness({ component: Button, contents, record }))`.
 */
export function harness<C>(
  options: HarnessedWidgetProps<C> & { language?: HarnessLanguage; i18n?: I18n },
): ReactNode {
  const { language, i18n, ...widget } = options;
  return (
    <WidgetProviders language={language} i18n={i18n}>
      <HarnessedWidget {...widget} />
    </WidgetProviders>
  );
}
