import type { FastifyInstance } from 'fastify';
import type { GlobalInfo } from '../../../schemas/generated/types';
import type { Config } from '../../config';
import { flattenMessages } from '../../services/translations';
import { keptAnswer, sendKept, type KeptAnswer } from '../kept-answer';
import { errorResponses, ok, ref } from '../responses';
import { notModifiedResponse } from '../stored-files';
import { BROWSER_TRACES_PATH } from '../telemetry';

/** Where the map opens when no pin is set (SPEC §9 default map coordinates). */
export const DEFAULT_MAP_CENTER = { lat: 28.3991744, lng: 77.0387653 } as const;

/**
 * Global info for a country (SPEC §3, §7): the configured switches, with `is_self_onboard_enabled` false
 * for countries in SELF_ONBOARD_DISABLED_COUNTRIES. `country` is upper-case ISO2 when valid; anything
 * else falls back to DEFAULT_COUNTRY.
 */
export function globalInfoFor(config: Config, country: string | undefined | null): GlobalInfo {
  const cc = country && /^[A-Za-z]{2}$/.test(country) ? country.toUpperCase() : config.defaultCountry;
  return {
    is_downtime_active: config.isDowntimeActive,
    oyo_360_chat_enabled: config.oyo360ChatEnabled,
    is_self_onboard_enabled: config.isSelfOnboardEnabled && !config.selfOnboardDisabledCountries.includes(cc),
    enable_oyo360_l1_revamp: config.enableOyo360L1Revamp,
    country_code: cc,
    partner_site_url: config.partnerSiteUrl,
    ...(config.tracing.enabled
      ? { tracing: { sample_ratio: config.tracing.sampleRatio, traces_path: BROWSER_TRACES_PATH } }
      : {}),
    map_config: {
      tile_url: config.mapTileUrl,
      attribution: config.mapTileUrl ? config.mapTileAttribution : '',
      default_center: DEFAULT_MAP_CENTER,
    },
  };
}

/** The translation feature key (SPEC §9) and the area its labels come from. */
export const featureAreas = { property_onboarding: 'screens' } as const;

/** The support chat's feature key (SPEC §9 'support chat key support-center'): its labels are shell.support-center. */
export const SUPPORT_CHAT_FEATURE = 'support-center';

/** Screen names used by the app (SPEC §2) → screen ids of bff/screens. */
export const screenNames: Record<string, string> = {
  propertyOnboardTaskDetailsScreen: 'task_details',
  propertyOnboardTaskScreen: 'task',
  propertyDashboardScreen: 'dashboard',
  propertyAccountScreen: 'account',
  propertyAddScreen: 'property_add',
  propertyScreen: 'property_middleware',
  mobileOTPLogin: 'sign_up',
};

const splitFeatures = (features: string) => [...new Set(features.split(',').filter(Boolean))];

/** GET global_info, feature-metadata, screen-metadata. */
export default async function globalRoutes(app: FastifyInstance, opts: { config: Config }) {
  // Global info is the same for everyone of a country (issue 13 item 6): one kept answer per country code
  // (at most 26 × 26: globalInfoFor reads only two letters, anything else is the default country).
  const keptGlobalInfo = new Map<string, KeptAnswer>();
  app.get<{ Headers: { user_url_country?: string } }>(
    '/hms_ms/api/v1/global_info',
    {
      config: { public: true },
      compress: false,
      schema: {
        operationId: 'getGlobalInfo',
        tags: ['global'],
        summary: 'Global switches for the country of the page (header user_url_country)',
        description:
          'The same for everyone of a country: Cache-Control: no-cache with a strong ETag (304 without a body when If-None-Match names it); varies on user_url_country.',
        headers: ref('api/client-headers.schema.json'),
        response: {
          200: ok(ref('api/global-info.schema.json')),
          304: notModifiedResponse,
          ...errorResponses,
        },
      },
    },
    async (request, reply) => {
      const data = globalInfoFor(opts.config, request.headers.user_url_country);
      let answer = keptGlobalInfo.get(data.country_code);
      if (!answer) {
        answer = keptAnswer(reply.serialize({ success: true, data }) as string);
        keptGlobalInfo.set(data.country_code, answer);
      }
      return sendKept(request, reply, answer, {
        cacheControl: 'no-cache',
        vary: 'user_url_country, accept-encoding',
        type: 'application/json; charset=utf-8',
      });
    },
  );

  app.get<{ Querystring: { features: string } }>(
    '/hms_ms/api/v1/feature-metadata',
    {
      schema: {
        operationId: 'getFeatureMetadata',
        tags: ['global'],
        summary: 'Translated labels per feature (property_onboarding → the screens messages)',
        querystring: ref('api/features-query.schema.json'),
        response: { 200: ok(ref('api/feature-metadata.schema.json')), ...errorResponses },
      },
    },
    async (request) => {
      const messages = app.translations.messages(request.locale);
      const feature_labels: Record<string, Record<string, string>> = {};
      for (const f of splitFeatures(request.query.features)) {
        if (Object.hasOwn(featureAreas, f)) {
          feature_labels[f] = flattenMessages(messages[featureAreas[f as keyof typeof featureAreas]]);
        } else if (f === SUPPORT_CHAT_FEATURE) {
          const tree = messages.shell[SUPPORT_CHAT_FEATURE];
          if (tree && typeof tree === 'object') feature_labels[f] = flattenMessages(tree);
        }
      }
      return { success: true, data: { feature_labels } };
    },
  );

  app.get<{ Querystring: { features: string } }>(
    '/owner_ms/api/v1/app/screen-metadata',
    {
      schema: {
        operationId: 'getScreenMetadata',
        tags: ['global'],
        summary: 'Translated labels (title) per screen name of SPEC §2',
        querystring: ref('api/features-query.schema.json'),
        response: { 200: ok(ref('api/screen-metadata.schema.json')), ...errorResponses },
      },
    },
    async (request) => {
      const screen_labels: Record<string, { title?: string }> = {};
      for (const name of splitFeatures(request.query.features)) {
        const id = screenNames[name] ?? (Object.values(screenNames).includes(name) ? name : undefined);
        if (!id) continue;
        const key = `screens.${id}.title`;
        const title = app.translations.translate(request.locale, key);
        screen_labels[name] = title === key ? {} : { title };
      }
      return { success: true, data: { screen_labels } };
    },
  );
}
