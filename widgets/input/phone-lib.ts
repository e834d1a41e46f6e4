export { loadPhoneLib, phoneLib, type PhoneLib } from '../phone-numbers';
import { CALLING_CODES } from '../../schemas/app/calling-codes';

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
