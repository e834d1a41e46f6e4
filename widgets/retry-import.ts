/** Tries of a lazily loaded module after the first (SPEC §4, §9: lazy-loaded modules retry up to 5 times). */
export const IMPORT_RETRIES = 5;

/**
 * Calls `load` (a dynamic import) until it resolves: the first try and up to {@link IMPORT_RETRIES} more,
 * `delayMs` × attempt (ms) apart. Rejects with the last error.
 */
export async function retryImport<T>(load: () => Promise<T>, delayMs = 300): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await load();
    } catch (error) {
      if (attempt >= IMPORT_RETRIES) throw error;
      await new Promise((resolve) => setTimeout(resolve, delayMs * (attempt + 1)));
    }
  }
}
