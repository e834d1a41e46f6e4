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
