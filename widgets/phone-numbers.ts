import { retryImport } from './retry-import';

/** libphonenumber-js with its `min` metadata (≈35 KB gzip): loaded when the owner first types a number. */
export type PhoneLib = typeof import('libphonenumber-js');

let lib: PhoneLib | null = null;
let loading: Promise<PhoneLib> | null = null;

/**
 * Loads libphonenumber-js once (issue 13: the sign-in page shows the phone field without it; it comes with
 * the phone field's first keystroke, or with the engine's first phone check, renderer/engine/field-validation.ts),
 * with retries ({@link retryImport}). Rejects with the last error; a later call tries again.
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
