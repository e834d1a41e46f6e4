/** Tries of a lazily loaded module after the first (SPEC §4, §9: lazy-loaded modules retry up to 5 times). */
export const IMPORT_RETRIES = 5;

/**
 * Calls `load` (a dynamic import) until it resolves: the first try and up to {@link IMPORT_RETRIES} more,
 * `delayMs` × attempt (ms) apart. Rejects with the last error. `pageTried`: the page has already fetched the
 * module once ({@link pagePreloads}), which counts as the first try, so one import fewer is made (SPEC §4: never
 * more than 6 fetches).
 */
export async function retryImport<T>(load: () => Promise<T>, delayMs = 300, pageTried = false): Promise<T> {
  const retries = pageTried ? IMPORT_RETRIES - 1 : IMPORT_RETRIES;
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await load();
    } catch (error) {
      if (attempt >= retries) throw error;
      await new Promise((resolve) => setTimeout(resolve, delayMs * (attempt + 1)));
    }
  }
}

/**
 * Whether the page names a chunk for preloading: a `<link rel="modulepreload" data-widget-type="…">` (a
 * widget's code) or `data-shell-part="…"` (the shell's, e.g. `footer`) that the server writes in a page that
 * carries its first screen (bff/plugins/external/static.ts), fetched by the browser with the page's script.
 * That fetch counts as the first try of the chunk (SPEC §4).
 */
export function pagePreloads(
  kind: 'widget-type' | 'shell-part',
  name: string,
  doc: Document | undefined = globalThis.document,
): boolean {
  if (!doc) return false;
  return [...doc.querySelectorAll(`link[rel="modulepreload"][data-${kind}]`)].some(
    (link) => link.getAttribute(`data-${kind}`) === name,
  );
}

/** A module fetched once, when first asked for ({@link lazyModule}). */
export interface LazyModule<T> {
  /**
   * Starts fetching the module (once: every call shares the same tries) and resolves with it; rejects when
   * every try failed ({@link retryImport}: 6 in all, 5 when `pageTried`), and a later call does not try again.
   */
  load(pageTried?: boolean): Promise<T>;
  /**
   * Starts fetching as {@link LazyModule.load} does; resolves once the module is there or its first try failed
   * (the retries go on), never rejects. What a page waits for before its first draw: a chunk it preloads is
   * there by then, and one that failed does not keep the page blank through the retries' delays.
   */
  firstTry(pageTried?: boolean): Promise<void>;
  /** The module once it has arrived, else null. */
  loaded(): T | null;
}

/**
 * A module fetched once, when first asked for, with `load` (a dynamic import) retried as {@link retryImport}
 * does (SPEC §4), `delayMs` apart; what has arrived can be used at once, without waiting for a promise
 * (a widget drawn in the first render).
 */
export function lazyModule<T>(load: () => Promise<T>, delayMs = 300): LazyModule<T> {
  let module: T | null = null;
  let loading: Promise<T> | null = null;
  let firstFailed: () => void = () => undefined;
  const firstFailure = new Promise<void>((resolve) => (firstFailed = resolve));
  let attempts = 0;
  const attempt = (): Promise<T> => {
    const tried = load();
    if (attempts++ === 0) tried.catch(() => firstFailed());
    return tried;
  };
  const start = (pageTried = false): Promise<T> => {
    loading ??= retryImport(attempt, delayMs, pageTried).then((arrived) => (module = arrived));
    return loading;
  };
  return {
    load: start,
    firstTry: (pageTried) =>
      Promise.race([
        start(pageTried).then(
          () => undefined,
          () => undefined,
        ),
        firstFailure,
      ]),
    loaded: () => module,
  };
}
