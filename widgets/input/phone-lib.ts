import { retryImport } from '../retry-import';
import { CALLING_CODES } from '../../schemas/app/calling-codes';

/** libphonenumber-js with its `min` metadata (≈35 KB gzip): loaded when the owner first types a number. */
export type PhoneLib = typeof import('libphonenumber-js');

let lib: PhoneLib | null = null;
let loading: Promise<PhoneLib> | null = null;

/**
 * Loads libphonenumber-js once (issue 13: the sign-in page shows the phone field without it; it comes with
 * the first keystroke), with retries ({@link retryImport}). Rejects with the last error; a later call tries
 * again.
 */
export function loadPhoneLib(): Promise<PhoneLib> {
  loading ??= retryImport(() => import('libphonenumber-js')).then(
    (module) => (lib = module),
    (error: unknown) => {
      loading = null;
      throw error;
    },
  );
  return loading;
}

/** libphonenumber-js once {@link loadPhoneLib} resolved, else null. */
export function phoneLib(): PhoneLib | null {
  return lib;
}

/**
 * Every country with its calling code (ISO 3166-1 alpha-2 → digits without '+', from schemas/app/calling-codes.ts):
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
