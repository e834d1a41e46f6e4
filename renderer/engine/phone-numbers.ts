/**
 * libphonenumber-js (its `min` metadata, ≈35 KB gzip) for the engine's phone checks, loaded on first need
 * rather than with the page (issue 13: the sign-in route shows its phone field without it). The input
 * widget loads the same module when the owner first types a number, so by the time a number is checked it
 * is usually there; a submit waits for it ({@link fieldChecksReady}).
 */
export type PhoneNumbers = typeof import('libphonenumber-js');

let loaded: PhoneNumbers | null = null;
let loading: Promise<void> | null = null;

/** Tries of the library's chunk after the first (SPEC §4, §9: lazy-loaded modules retry up to 5 times). */
const RETRIES = 5;

/**
 * Loads libphonenumber-js once, retrying {@link RETRIES} times `delayMs` × attempt (ms) apart. Rejects with
 * the last error; a later call tries again.
 */
export function loadPhoneNumbers(delayMs = 300): Promise<void> {
  loading ??= (async () => {
    for (let attempt = 0; ; attempt += 1) {
      try {
        loaded = await import('libphonenumber-js');
        return;
      } catch (error) {
        if (attempt >= RETRIES) {
          loading = null;
          throw error;
        }
        await new Promise((resolve) => setTimeout(resolve, delayMs * (attempt + 1)));
      }
    }
  })();
  return loading;
}

/** libphonenumber-js once {@link loadPhoneNumbers} resolved, else null. */
export function phoneNumbers(): PhoneNumbers | null {
  return loaded;
}
