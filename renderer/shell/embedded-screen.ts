import { FIRST_SCREEN_ELEMENT_ID, type EmbeddedScreen } from '../../schemas/app/first-screen';
import { isRecord } from '../../schemas/app/is-record';

export { FIRST_SCREEN_ELEMENT_ID, type EmbeddedScreen } from '../../schemas/app/first-screen';

/**
 * The first screen embedded in `doc`, read once (the element is removed, so that a later screen of the same
 * id is fetched as usual); null when the page has none or it cannot be read.
 */
export function takeEmbeddedScreen(doc: Document | undefined = globalThis.document): EmbeddedScreen | null {
  const element = doc?.getElementById(FIRST_SCREEN_ELEMENT_ID);
  if (!element) return null;
  element.remove();
  try {
    const value = JSON.parse(element.textContent ?? '') as Partial<EmbeddedScreen> | null;
    if (
      value &&
      typeof value.screen_id === 'string' &&
      typeof value.locale === 'string' &&
      (value.country === null || typeof value.country === 'string') &&
      value.payload &&
      typeof value.payload === 'object' &&
      (value.regions === undefined ||
        (Array.isArray(value.regions) &&
          value.regions.every(
            (r) => Array.isArray(r) && r.length === 2 && r.every((part) => typeof part === 'string'),
          ))) &&
      (value.global_info === undefined ||
        (typeof value.global_info === 'object' &&
          value.global_info !== null &&
          typeof value.global_info.is_self_onboard_enabled === 'boolean')) &&
      (value.query === undefined ||
        (typeof value.query === 'object' &&
          value.query !== null &&
          Object.values(value.query).every((v) => typeof v === 'string'))) &&
      (value.texts === undefined || isRecord(value.texts))
    ) {
      return value as EmbeddedScreen;
    }
  } catch {
    // An unreadable element: the screen is fetched as usual.
  }
  return null;
}
