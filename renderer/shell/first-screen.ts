import { startingValues } from '../engine/drafts';
import { replaceForm } from '../engine/form';
import { primeScreenRequest } from '../engine/screen';
import { queryFromSearch } from '../engine/query';
import { loggedInAtom, type AppStore } from '../state/atoms';
import { parseAppPath } from './country';
import type { EmbeddedScreen } from './embedded-screen';
import { SIGNED_IN_REDIRECTS } from './route-table';

/**
 * At start, before React draws: when the page opened is a screen that will be drawn as it is — a public
 * route (not a sign-in page a signed-in user is sent away from, SPEC §2), or a route that needs a session
 * for a visitor who is signed in — starts its screen request with the headers and query the page will send
 * (`user_url_country` of the path's country, the location's query), so that the payload is on its way while
 * the code runs and the session checks of SPEC §4 are made (issue 13); the screen takes it once the gate lets
 * it draw, and a page the gate sends elsewhere forgets it. When the server put this very screen in the page
 * (`embedded`: same screen, language, country and query: a public page without one, or a signed-in owner's
 * page composed with the page's query), that payload is taken instead,
 * already checked, and nothing is fetched. Returns the screen id primed, whether it came embedded and `code`:
 * resolves once the embedded payload's lazy widgets have their code or failed a first try (at once when it did
 * not come embedded; engine/screen.tsx `primeScreenRequest`). Null: a signed-out visitor of a page that needs
 * a session, a path that is not a route.
 *
 * An embedded screen's starting form values (`form.initial`, a draft kept on the device) are put in `store`
 * now, so that its first draw shows them: the screen applies them again once drawn (engine/screen.tsx), which
 * changes nothing then, instead of drawing every widget a second time before the first paint.
 */
export function primeFirstScreen(
  store: AppStore,
  location: Pick<Location, 'pathname' | 'search'>,
  language: string,
  embedded: EmbeddedScreen | null = null,
): { screenId: string; embedded: boolean; code: Promise<void> } | null {
  const parsed = parseAppPath(location.pathname);
  if (parsed.kind !== 'route') return null;
  const loggedIn = store.get(loggedInAtom);
  if (parsed.route.public ? loggedIn && SIGNED_IN_REDIRECTS.includes(parsed.route.path) : !loggedIn) {
    return null;
  }
  const { countryCode } = parsed;
  const country = countryCode ? countryCode.toUpperCase() : null;
  const query = queryFromSearch(location.search);
  const { screenId } = parsed.route;
  const fromPage =
    embedded !== null &&
    embedded.screen_id === screenId &&
    embedded.locale === language &&
    embedded.country === country &&
    sameQuery(embedded.query ?? {}, query);
  if (fromPage && embedded.payload.form) {
    replaceForm(store, screenId, startingValues(embedded.payload.form).values);
  }
  const code = primeScreenRequest(
    screenId,
    language,
    country ? { user_url_country: country } : undefined,
    query,
    fromPage ? embedded.payload : undefined,
  );
  return { screenId, embedded: fromPage, code };
}

/** Whether two queries have the same names with the same values. */
function sameQuery(a: Readonly<Record<string, string>>, b: Readonly<Record<string, unknown>>): boolean {
  const names = Object.keys(a);
  return names.length === Object.keys(b).length && names.every((name) => b[name] === a[name]);
}
