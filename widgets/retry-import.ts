/** Tries of a lazily loaded module after the first (SPEC §4, §9: lazy-loaded modules retry up to 5 times). */
export const IMPORT_RETRIES = 5;

/**
 * A chunk the page has fetched itself (its `<link rel="modulepreload">`, {@link pagePreloads}): `fetches()` is
 * how many times the browser has fetched its address so far, failed fetches included (its Resource Timing
 * entries; 0 when it has none to tell).
 */
export interface PagePreload {
  fetches(): number;
}

/**
 * Whether the page has fetched a module before the renderer imports it: `false` no; a {@link PagePreload}
 * (what {@link pagePreloads} finds); `true` yes, once, with no way to tell more.
 */
export type PageTried = boolean | PagePreload;

/**
 * How many times a module has been fetched after `imports` failed imports of it. The page's own fetch
 * (`pageTried`) is one more, unless the first import shared it: an import made while the page's fetch is under
 * way waits for that fetch instead of making another, which the browser's count ({@link PagePreload}) shows.
 */
function fetchesSoFar(pageTried: PageTried, imports: number): number {
  if (pageTried === false) return imports;
  const counted = pageTried === true ? 0 : pageTried.fetches();
  return counted > 0 ? counted : imports + 1;
}

/**
 * Calls `load` (a dynamic import) until it resolves: the first fetch and up to {@link IMPORT_RETRIES} more
 * (SPEC §4: never more than 6), `delayMs` × attempt (ms) apart. Rejects with the last error. `pageTried`: the
 * page has fetched the module itself ({@link pagePreloads}); that fetch counts as the first, unless the first
 * import shared it (it was still under way): 5 imports then, else 6.
 */
export async function retryImport<T>(
  load: () => Promise<T>,
  delayMs = 300,
  pageTried: PageTried = false,
): Promise<T> {
  const most = 1 + IMPORT_RETRIES;
  for (let imports = 1; ; imports += 1) {
    try {
      return await load();
    } catch (error) {
      if (imports >= most || fetchesSoFar(pageTried, imports) >= most) throw error;
      await new Promise((resolve) => setTimeout(resolve, delayMs * imports));
    }
  }
}

/**
 * Whether the page names a chunk for preloading: a `<link rel="modulepreload" data-widget-type="…">` (a
 * widget's code), `data-contents-code="…"` (a module some contents need, by its path from the repository root,
 * schemas/app/widget-types.ts `CONTENTS_CODE`) or `data-shell-part="…"` (the shell's, e.g. `footer`) that the server writes in a page that
 * carries its first screen (bff/plugins/external/static.ts), fetched by the browser with the page's script.
 * That fetch counts as the first of the chunk (SPEC §4): the {@link PagePreload} of the link's address, else
 * false.
 */
export function pagePreloads(
  kind: 'widget-type' | 'shell-part' | 'contents-code',
  name: string,
  doc: Document | undefined = globalThis.document,
): PagePreload | false {
  if (!doc) return false;
  const link = [...doc.querySelectorAll<HTMLLinkElement>(`link[rel="modulepreload"][data-${kind}]`)].find(
    (l) => l.getAttribute(`data-${kind}`) === name,
  );
  if (!link) return false;
  const href = link.href;
  return {
    fetches: () =>
      typeof performance?.getEntriesByName === 'function'
        ? performance.getEntriesByName(href, 'resource').length
        : 0,
  };
}

/** A module fetched once, when first asked for ({@link lazyModule}). */
export interface LazyModule<T> {
  /**
   * Starts fetching the module (once: every call shares the same tries) and resolves with it; rejects when
   * every try failed ({@link retryImport}: 6 fetches in all, the page's own included when `pageTried`), and a
   * later call does not try again.
   */
  load(pageTried?: PageTried): Promise<T>;
  /**
   * Starts fetching as {@link LazyModule.load} does; resolves once the module is there or its first try failed
   * (the retries go on), never rejects. What a page waits for before its first draw: a chunk it preloads is
   * there by then, and one that failed does not keep the page blank through the retries' delays.
   */
  firstTry(pageTried?: PageTried): Promise<void>;
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
  const start = (pageTried: PageTried = false): Promise<T> => {
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
