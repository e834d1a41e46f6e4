/**
 * Whether `value` is a JSON object (a record of properties): not null, not an array. What every reader of
 * untyped JSON checks before it reads a property — a widget's contents and scopes, API answers, drafts kept
 * in the browser, screen definitions. Shared by the page and the server.
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
