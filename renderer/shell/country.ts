import { BASE_PATH } from './config';
import { parseAppPath } from './route-table';

export { isCountrySegment, parseAppPath, type ParsedAppPath } from './route-table';

/** The country code of a pathname, or null when the path is not country-specific or invalid. */
export function countryOfPath(pathname: string): string | null {
  return parseAppPath(pathname).countryCode;
}

/**
 * The full browser path of an app path relative to /propertyOnboard ('/dashboard', '/', '/task?x=1'), with the
 * country segment when one is given (SPEC §2: the placeholder is replaced with the stored country code).
 */
export function toBrowserPath(appPath: string, countryCode: string | null): string {
  const clean = appPath === '' || appPath === '/' ? '' : appPath.startsWith('/') ? appPath : `/${appPath}`;
  const country = countryCode ? `/${countryCode}` : '';
  if (clean.startsWith('?')) return `${BASE_PATH}${country}${clean}`;
  if (clean.startsWith('/?')) return `${BASE_PATH}${country}${clean.slice(1)}`;
  return `${BASE_PATH}${country}${clean}`;
}

/** The sign-up page, country-aware (SPEC §4: /propertyOnboard/<cc>/sign_up on a country path). */
export function signUpPath(countryCode: string | null): string {
  return toBrowserPath('/sign_up', countryCode);
}
