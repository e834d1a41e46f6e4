import { BASE_PATH } from './config';
import { APP_ROUTES, ROUTE_FIRST_SEGMENTS, TOP_LEVEL_ROUTES, type AppRoute } from './route-table';

/** A country code segment (SPEC §2, §5): exactly two letters a-z, either case. */
const COUNTRY_SEGMENT = /^[a-zA-Z]{2}$/;

/** True when `segment` is a valid country code of a path (two letters a-z in either case). */
export function isCountrySegment(segment: string): boolean {
  return COUNTRY_SEGMENT.test(segment);
}

/** What a path under /propertyOnboard means. */
export type ParsedAppPath =
  | { kind: 'route'; route: AppRoute; countryCode: string | null }
  | { kind: 'not_found'; countryCode: string | null };

/**
 * Parses a pathname (SPEC §2). The first segment after /propertyOnboard that is not a route name is a country
 * code and must be exactly two letters a-z (either case; kept as written, upper-cased for headers by the
 * caller); anything else is not found (`/propertyOnboard/1x/task` → not found). Trailing slashes are ignored.
 * Outside /propertyOnboard only the top-level auth pages of SPEC §2 (TOP_LEVEL_ROUTES: /login,
 * /forgot-password-mail, /terms …) are routes; any other path is not found.
 */
export function parseAppPath(pathname: string): ParsedAppPath {
  const segments = pathname.split('/').filter((segment) => segment !== '');
  if (segments[0] !== BASE_PATH.slice(1)) {
    const top =
      segments.length === 1 ? TOP_LEVEL_ROUTES.find((r) => r.topLevelPath === segments[0]) : undefined;
    return top
      ? { kind: 'route', route: top.route, countryCode: null }
      : { kind: 'not_found', countryCode: null };
  }
  let rest = segments.slice(1);
  let countryCode: string | null = null;
  const first = rest[0];
  if (first !== undefined && !ROUTE_FIRST_SEGMENTS.has(first)) {
    if (!isCountrySegment(first)) return { kind: 'not_found', countryCode: null };
    countryCode = first;
    rest = rest.slice(1);
  }
  const route = APP_ROUTES.find((candidate) => candidate.path === rest.join('/'));
  return route ? { kind: 'route', route, countryCode } : { kind: 'not_found', countryCode };
}

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
