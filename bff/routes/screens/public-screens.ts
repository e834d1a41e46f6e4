import type { Locale, ScreenPayload } from '../../../schemas/generated/types';
import type { Config } from '../../config';
import { passesClientChecks, type ScreenCatalogue, type ScreenContext } from '../../screens/composer';
import { globalInfoFor } from '../global';
import type { KeptAnswer } from '../kept-answer';

/** Brand of screens drawn without a lead (bff/screens/data/brands.json's default brand). */
type Brand = string;

/** Most composed public screens kept in memory (per screen, language, country and query), oldest out first. */
export const PUBLIC_SCREEN_CACHE_SIZE = 500;

/**
 * A composed public screen, kept: the payload, and what is made from it once asked for — the API answer
 * (`answer`: its body, ETag and compressed copies) and whether it passes the renderer's checks (`checked`,
 * {@link passesClientChecks}).
 */
export interface PublicScreen {
  payload: ScreenPayload;
  answer?: KeptAnswer;
  checked?: boolean;
}

/**
 * Which variant of a public screen: the published version picked for the request (issue 16 item 3; absent:
 * the definition file) and what the client can draw (issue 16 item 4; absent: everything).
 */
export interface PublicScreenVariant {
  version?: { number: number; compose: (ctx: ScreenContext) => ScreenPayload };
  capabilities?: { key: string; fit: (payload: ScreenPayload) => ScreenPayload };
}

/** The composed public screens of one server, shared by GET /screens/:id and index.html (issue 13). */
export interface PublicScreens {
  /**
   * The public screen `id` as composed without a session for `locale`, `country` (the `user_url_country`
   * header: upper-case ISO2 when valid, else the default country), the page's query `params` and the
   * `variant` (version and client capabilities): composed once per key — with the catalogue's revision, so
   * a definition reloaded in development is composed again — then kept ({@link PUBLIC_SCREEN_CACHE_SIZE}).
   * The caller checks that the screen exists and is public.
   * @throws ScreenDefinitionError from the composer.
   */
  get(
    id: string,
    locale: Locale,
    country: string | undefined,
    params: Record<string, string>,
    variant?: PublicScreenVariant,
  ): PublicScreen;
}

/**
 * The composed public screens of a catalogue, for a configuration; `brand`: the brand drawn without a lead;
 * `socialProviders`: the login providers configured here (routes/social `configuredProviders`), bound as the
 * context's `social_providers` (absent: the social buttons ask the server).
 */
export function createPublicScreens(
  config: Config,
  screens: ScreenCatalogue,
  brand: Brand,
  socialProviders?: readonly string[],
): PublicScreens {
  const cache = new Map<string, PublicScreen>();
  return {
    get(id, locale, country, params, variant = {}) {
      const globalInfo = globalInfoFor(config, country);
      const key = JSON.stringify([
        id,
        screens.revision?.(id) ?? 0,
        locale,
        globalInfo.country_code,
        params,
        variant.version?.number ?? 0,
        variant.capabilities?.key ?? '',
      ]);
      let entry = cache.get(key);
      if (!entry) {
        const compose = variant.version?.compose ?? ((ctx: ScreenContext) => screens.compose(id, ctx));
        const composed = compose({
          global_info: globalInfo,
          images: null,
          kyc: null,
          contract: null,
          conflict: null,
          review: null,
          properties: null,
          property: null,
          flags: config.featureFlags,
          user: null,
          lead: null,
          params,
          locale,
          brand,
          ...(socialProviders ? { social_providers: [...socialProviders] } : {}),
        });
        const payload = variant.capabilities ? variant.capabilities.fit(composed) : composed;
        entry = { payload };
        if (cache.size >= PUBLIC_SCREEN_CACHE_SIZE) cache.delete(cache.keys().next().value!);
        cache.set(key, entry);
      }
      return entry;
    },
  };
}

/** Whether a kept screen passes the renderer's checks (computed once per entry). */
export function isChecked(entry: PublicScreen): boolean {
  entry.checked ??= passesClientChecks(entry.payload);
  return entry.checked;
}
