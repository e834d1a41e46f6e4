/** Query parameters of a page or a navigation: name → text (already decoded). */
export type QueryParams = Record<string, string>;

/**
 * Appends `query` to an app path (NavigateAction.query, RedirectContents.query): each name and value is
 * URL-encoded (URLSearchParams), joined with `&` when `to` already has a query, before any `#hash`. Returns
 * `to` unchanged when `query` is absent or empty.
 */
export function withQuery(to: string, query: QueryParams | undefined): string {
  if (!query) return to;
  const search = new URLSearchParams(query).toString();
  if (!search) return to;
  const hashAt = to.indexOf('#');
  const path = hashAt >= 0 ? to.slice(0, hashAt) : to;
  const hash = hashAt >= 0 ? to.slice(hashAt) : '';
  const separator = path.includes('?') ? (path.endsWith('?') || path.endsWith('&') ? '' : '&') : '?';
  return `${path}${separator}${search}${hash}`;
}

/**
 * The parameters of a location's search string ('?a=1&b=x%20y' → { a: '1', b: 'x y' }); the last value wins
 * for a repeated name. `{}` for an empty search.
 */
export function queryFromSearch(search: string): QueryParams {
  const params: QueryParams = {};
  for (const [key, value] of new URLSearchParams(search)) params[key] = value;
  return params;
}

/**
 * Turns resolved query values into strings: strings as they are, numbers and booleans with String(), other
 * objects as JSON; null and undefined (e.g. a rule reading a missing field) leave the parameter out.
 */
export function queryStrings(values: Record<string, unknown>): QueryParams {
  const params: QueryParams = {};
  for (const [key, value] of Object.entries(values)) {
    if (value === undefined || value === null) continue;
    params[key] = typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
  return params;
}
