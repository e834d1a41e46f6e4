import { CALLING_CODES } from './calling-codes';

/** libphonenumber-js with its `min` metadata (≈35 KB gzip): loaded when the owner first types a number. */
export type PhoneLib = typeof import('libphonenumber-js');

let lib: PhoneLib | null = null;
let loading: Promise<PhoneLib> | null = null;

/** Tries of the library's chunk after the first (SPEC §4, §9: lazy-loaded modules retry up to 5 times). */
const RETRIES = 5;

/**
 * Loads libphonenumber-js once (issue 13: the sign-in page shows the phone field without it; it comes with
 * the first keystroke), retrying {@link RETRIES} times 300 ms × attempt apart. Rejects with the last error;
 * a later call tries again.
 */
export function loadPhoneLib(): Promise<PhoneLib> {
  loading ??= (async () => {
    for (let attempt = 0; ; attempt += 1) {
      try {
        lib = await import('libphonenumber-js');
        return lib;
      } catch (error) {
        if (attempt >= RETRIES) {
          loading = null;
          throw error;
        }
        await new Promise((resolve) => setTimeout(resolve, 300 * (attempt + 1)));
      }
    }
  })();
  return loading;
}

/** libphonenumber-js once {@link loadPhoneLib} resolved, else null. */
export function phoneLib(): PhoneLib | null {
  return lib;
}

/**
 * Every country with its calling code (ISO 3166-1 alpha-2 → digits without '+', from ./calling-codes.ts):
 * the same 245 countries as libphonenumber-js' `getCountries()`, without loading it.
 */
export const COUNTRY_CALLING_CODES: ReadonlyMap<string, string> = new Map(
  Object.entries(CALLING_CODES).flatMap(([code, countries]) =>
    countries.map((country) => [country, code] as const),
  ),
);

/** The main country of a calling code (e.g. '1' → 'US'), or undefined. */
export function mainCountryOf(callingCode: string): string | undefined {
  return Object.hasOwn(CALLING_CODES, callingCode) ? CALLING_CODES[callingCode]?.[0] : undefined;
}
