import { IMPORT_RETRIES, lazyModule, retryImport } from '../../widgets/retry-import';

/** One schema problem: the JSON path (JSON Pointer into the validated value) and ajv's message. */
export interface SchemaIssue {
  path: string;
  message: string;
}

/** Result of a validation: ok, or the issues found (paths relative to the validated value). */
export type SchemaCheck = { ok: true } | { ok: false; issues: SchemaIssue[] };

type Validator = ((data: unknown) => boolean) & {
  errors?: Array<{ instancePath: string; message?: string }> | null;
};

function run(validator: Validator, data: unknown): SchemaCheck {
  if (validator(data)) return { ok: true };
  const issues = (validator.errors ?? []).map((e) => ({
    path: e.instancePath || '/',
    message: e.message ?? 'invalid',
  }));
  return { ok: false, issues: issues.length > 0 ? issues : [{ path: '/', message: 'invalid' }] };
}

/** Tries of a widget's validator module after the first (SPEC §4, §9: lazy-loaded modules retry up to 5 times). */
export const VALIDATOR_LOAD_RETRIES = IMPORT_RETRIES;

/** The `screen` validator (a module of its own, fetched with the first screen that needs it). */
const screenValidator = lazyModule(() =>
  import('../../schemas/generated/validators').then((m) => m.screen as Validator),
);

/**
 * Validates a screen payload with the ahead-of-time compiled `screen` validator (schemas/screen.schema.json,
 * schemas/generated/validators.js). The validator is a module of its own, loaded with the first payload that
 * is fetched (a first screen the server embedded in the page, already checked, needs none: issue 13), and
 * retried as the widgets' validators are. Rejects when it failed every try (the screen then shows the
 * fallback that reloads the page).
 */
export async function checkScreenPayload(data: unknown): Promise<SchemaCheck> {
  return run(screenValidator.loaded() ?? (await screenValidator.load()), data);
}

/** The contents validators loaded so far, by widget type. */
const loaded = new Map<string, Validator>();
/** Loads under way (or done), by widget type; a load that failed every try is forgotten. */
const loading = new Map<string, Promise<void>>();

type Loaders = Record<string, (() => Promise<{ validate: unknown }>) | undefined>;

/**
 * The loaders of the validator modules (schemas/generated/widget-validators.ts), a chunk of their own: a page
 * whose first screen came checked by the server needs none (issue 13 item 2). Asked for with the first
 * screen payload that needs checking ({@link prefetchWidgetValidators}); retried as a module is (SPEC §4).
 */
const loaders = lazyModule(() =>
  import('../../schemas/generated/widget-validators').then((m) => m.widgetValidators as Loaders),
);

/**
 * Starts fetching the `screen` validator and what {@link loadWidgetValidators} needs first (the loaders' chunk),
 * so that they travel with a screen's payload rather than after it. Never rejects.
 */
export function prefetchWidgetValidators(): void {
  void loaders.firstTry();
  void screenValidator.firstTry();
}

/** The loader of a widget type's validator module, or undefined for a type without one (unknown). */
function loaderOf(map: Loaders, widgetType: string): (() => Promise<{ validate: unknown }>) | undefined {
  return Object.hasOwn(map, widgetType) ? map[widgetType] : undefined;
}

export { widgetTypesOf } from '../../schemas/app/widget-types';

/**
 * The widget types among `types` whose contents validator is known but not loaded yet (an unknown type has
 * none: the engine draws its quiet fallback without waiting).
 */
function validatorsToLoad(map: Loaders, types: Iterable<string>): string[] {
  return [...types].filter((type) => !loaded.has(type) && loaderOf(map, type) !== undefined);
}

/**
 * Loads the contents validator of each of `types` (schemas/generated/validators/<widget_type>.js, one module
 * per widget, issue 13), each once, retrying a module {@link VALIDATOR_LOAD_RETRIES} times `delayMs` ×
 * attempt (ms) apart. Resolves once {@link checkWidgetContents} knows all of them; rejects with the last
 * error when one failed every try (the screen shows its error card with Refresh). Unknown types are skipped.
 */
export async function loadWidgetValidators(types: Iterable<string>, delayMs = 300): Promise<void> {
  const map = loaders.loaded() ?? (await loaders.load());
  const loads = validatorsToLoad(map, types).map((type) => {
    let pending = loading.get(type);
    if (!pending) {
      const load = loaderOf(map, type)!;
      pending = retryImport(load, delayMs).then(
        (module) => {
          loaded.set(type, module.validate as Validator);
        },
        (error: unknown) => {
          loading.delete(type);
          throw error;
        },
      );
      loading.set(type, pending);
    }
    return pending;
  });
  return Promise.all(loads).then(() => undefined);
}

/**
 * Validates a widget's `contents` with its type's validator (loaded by {@link loadWidgetValidators}).
 * Returns null when no validator is at hand for the type (an unknown widget_type, or one not loaded).
 */
export function checkWidgetContents(widgetType: string, contents: unknown): SchemaCheck | null {
  const validator = loaded.get(widgetType);
  return validator ? run(validator, contents) : null;
}

/** Forgets every loaded validator (tests only: each test starts as a fresh page would). */
export function resetWidgetValidators(): void {
  loaded.clear();
  loading.clear();
}
