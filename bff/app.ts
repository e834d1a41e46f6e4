import { randomUUID } from 'node:crypto';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { assertConfigUsable, type Config } from './config';
import { targetFromConfig, type DatabaseHandle } from './db';
import analyticsPlugin from './plugins/app/analytics';
import contactVerificationPlugin from './plugins/app/contact-verification';
import dbPlugin from './plugins/app/db';
import { onboardError } from './errors';
import errorsPlugin, { sendError } from './plugins/app/errors';
import imagesPlugin from './plugins/app/images';
import leadsPlugin from './plugins/app/leads';
import kycPlugin from './plugins/app/kyc';
import contractsPlugin from './plugins/app/contracts';
import mailPlugin from './plugins/app/mail';
import otpPlugin from './plugins/app/otp';
import passwordsPlugin from './plugins/app/passwords';
import placesPlugin from './plugins/app/places';
import publishPlugin from './plugins/app/publish';
import remindersPlugin from './plugins/app/reminders';
import propertiesPlugin from './plugins/app/properties';
import allowedMethodsPlugin from './plugins/app/allowed-methods';
import schemasPlugin, { lazySerializerFactory } from './plugins/app/schemas';
import securityPlugin from './plugins/app/security';
import sessionsPlugin from './plugins/app/sessions';
import socialLoginPlugin from './plugins/app/social-login';
import supportChatPlugin from './plugins/app/support-chat';
import translationsPlugin from './plugins/app/translations';
import transportPlugin from './plugins/app/transport';
import compressPlugin from './plugins/external/compress';
import cookiePlugin from './plugins/external/cookie';
import utmPlugin from './plugins/app/utm';
import helmetPlugin from './plugins/external/helmet';
import rateLimitPlugin from './plugins/external/rate-limit';
import underPressurePlugin from './plugins/external/under-pressure';
import staticPlugin, { clientFilePaths, serverDrawingOf } from './plugins/external/static';
import swaggerPlugin from './plugins/external/swagger';
import analyticsRoutes from './routes/analytics';
import errorRoutes from './routes/errors';
import funnelRoutes from './routes/funnel';
import authRoutes from './routes/auth';
import contactRoutes from './routes/contact';
import kycRoutes from './routes/kyc';
import contractRoutes from './routes/contract';
import devRoutes from './routes/dev';
import globalRoutes, { globalInfoFor } from './routes/global';
import healthRoutes from './routes/health';
import imageRoutes from './routes/images';
import leadRoutes from './routes/leads';
import metaRoutes from './routes/meta';
import placeRoutes from './routes/places';
import publishRoutes from './routes/publish';
import pushRoutes from './routes/push';
import propertyRoutes from './routes/properties';
import previewRoutes from './routes/preview';
import screenRoutes, { SCREEN_BRAND, signedInScreens } from './routes/screens';
import { createPublicScreens } from './routes/screens/public-screens';
import screenVersionRoutes from './routes/screen-versions';
import socialRoutes, { configuredProviders } from './routes/social';
import ssoRoutes from './routes/sso';
import supportRoutes from './routes/support';
import telemetryRoutes from './routes/telemetry';
import translationRoutes from './routes/translations';
import { rememberScreensChecked, screensCheckedBefore, screensCheckKey } from './screens/check-stamp';
import {
  loadFixtureContexts,
  loadScreenCatalogue,
  ScreenDefinitionError,
  type ScreenCatalogue,
  type Translate,
} from './screens/composer';
import { watchScreenCatalogue } from './screens/watch';
import { createScreenVersions, type ScreenVersions } from './services/screen-versions';
import { defaultLocalesDir } from './services/translations';
import { schemasDir } from '../schemas/tools/schema-files';
import { BUILD_VARIANTS, type BuildVariantName } from '../schemas/app/build-variants';
import type { ImageStorage } from './services/image-storage';
import type { MessageTransport } from './services/transport';
import type { DrawFirstScreen } from '../schemas/app/first-screen';

const here = dirname(fileURLToPath(import.meta.url));

/** Default folder of the built client (`vite build` output, the standard build variant). */
export const defaultClientDir = join(here, '..', BUILD_VARIANTS.standard.outDir);

/** Folder of the built client of a build variant (schemas/app/build-variants.ts `outDir`; SPEC §9). */
export function clientDirOf(variant: BuildVariantName): string {
  return join(here, '..', BUILD_VARIANTS[variant].outDir);
}
/** Default folder of the screen definitions. */
export const defaultScreensDir = join(here, 'screens');

/** Where the key of the last passed check of the default screen definitions is kept (`dist/server`). */
export const screensCheckStamp = join(here, '..', 'dist', 'server', 'screens-checked');

/**
 * The screen catalogue of bff/screens with the default locales. The definitions are checked (composed
 * against every fixture context and validated, ≈3 s of CPU) unless that check already passed on the same
 * files — definitions, fixtures, data, the composer's code, locales and schemas (`screens/check-stamp.ts`;
 * `npm run build` runs it) — so an edited definition is still checked at the next start.
 * @throws ScreenDefinitionError as {@link loadScreenCatalogue}.
 */
export function loadDefaultScreenCatalogue(translate: Translate): ScreenCatalogue {
  const key = screensCheckKey([defaultScreensDir, defaultLocalesDir, schemasDir]);
  const checked = screensCheckedBefore(key, screensCheckStamp);
  const catalogue = loadScreenCatalogue({ dir: defaultScreensDir, translate, check: !checked });
  if (!checked) rememberScreensChecked(key, screensCheckStamp);
  return catalogue;
}

/** Retry-After, in seconds, of a request answered 503 while the server drains before exiting. */
export const DRAINING_RETRY_AFTER_S = 1;

declare module 'fastify' {
  interface FastifyInstance {
    /** `draining`: the app is closing (SIGTERM); new requests are answered 503 with Retry-After. */
    lifecycle: { readonly draining: boolean };
    /** Versions of the screen definitions published without a deploy (issue 16 item 3). */
    screenVersions: ScreenVersions;
  }
}

/** What {@link buildApp} needs; everything but `config` has a production default. */
export interface BuildAppOptions {
  config: Config;
  /** An open database to use instead of the configured one; not closed with the app (tests share one). */
  db?: DatabaseHandle;
  /** A message transport to use instead of the configured one. */
  transport?: MessageTransport;
  /** Where photos, documents and contracts go instead of table stored_files. */
  imageStorage?: ImageStorage;
  /** Clock in ms since the epoch (tests move time for expiry). Default Date.now. */
  now?: () => number;
  /** A screen catalogue to use instead of loading `screensDir`. */
  screens?: ScreenCatalogue;
  /** Folder of the screen definitions (default bff/screens). */
  screensDir?: string;
  /**
   * Development (`npm run dev`): reload the screen definitions when a file of `screensDir` is saved, without
   * a restart (bff/screens/watch.ts); an invalid save keeps the last good ones and is logged with its file
   * and JSON path. Ignored with `screens`.
   */
  watchScreens?: boolean;
  /** Folder of the locale files (default renderer/i18n/locales). */
  localesDir?: string;
  /** Folder of the built client (default: the BUILD_VARIANT's, dist/client for the standard build). */
  clientDir?: string;
  /**
   * The server's drawing of a public page's first screen (issue 13 item 4); default: the one built beside
   * `clientDir` (`npm run build`), none without it (plugins/external/static.ts `serverDrawingOf`).
   */
  drawFirstScreen?: DrawFirstScreen;
  /** The longest a page waits for that drawing, ms (default schemas/app/first-screen.ts `DRAWING_LIMIT_MS`). */
  drawingLimitMs?: number;
  /** Key prefix of the rate-limit counters in Redis (tests isolate themselves with their own). */
  rateLimitNameSpace?: string;
  /**
   * Whether building waits for the database to be open and migrated (default true: tests inject at once).
   * `false` (the server): it opens in the background, so the server can listen at once; /readyz answers
   * 503 until it is ready, and requests that need it wait (see `plugins/app/db.ts`).
   */
  waitForDatabase?: boolean;
  /** How long a request waits for a database still opening, in ms (only with `waitForDatabase: false`). */
  databaseWaitMs?: number;
  /** Fastify logger option; default: pino at LOG_LEVEL, pretty in development on a terminal. */
  logger?: FastifyServerOptions['logger'];
}

function defaultLogger(config: Config): FastifyServerOptions['logger'] {
  const pretty = config.nodeEnv === 'development' && process.stdout.isTTY;
  return {
    level: config.logLevel,
    redact: ['req.headers.cookie', 'res.headers["set-cookie"]'],
    ...(pretty
      ? {
          transport: {
            target: 'pino-pretty',
            options: { translateTime: 'HH:MM:ss', ignore: 'pid,hostname' },
          },
        }
      : {}),
  };
}

/**
 * Builds the BFF (DESIGN "bff/"): plugins, routes, static client. Ready to `listen` or `inject`.
 * Throws when the configuration is unusable (dev transport in production), when the database cannot
 * be opened or migrated (with `waitForDatabase: false`, `app.dbReadiness.whenReady` rejects instead),
 * or when a screen definition is invalid (ScreenDefinitionError names the file
 * and JSON path). Close it with `app.close()`.
 */
export async function buildApp(opts: BuildAppOptions): Promise<FastifyInstance> {
  const { config } = opts;
  assertConfigUsable(config);
  const now = opts.now ?? Date.now;

  const app = Fastify({
    logger: opts.logger ?? defaultLogger(config),
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    // Only the configured proxies may name the client (X-Forwarded-For); issue 14 item 3.
    ...(config.trustProxy.length > 0 ? { trustProxy: config.trustProxy } : {}),
    routerOptions: { ignoreTrailingSlash: true },
    // Requests arriving while closing are answered by the draining hook below, in the API's error shape.
    return503OnClosing: false,
    // Errors the router raises before any route or hook (a malformed URL, a path parameter over
    // maxParamLength): answered in the API's error shape, without echoing the URL.
    frameworkErrors: (err, _request, reply) => sendError(reply, err),
    // Response serializers are built on first use, not all at start (issue 13 item 5).
    schemaController: { compilersFactory: { buildSerializer: lazySerializerFactory } },
  });

  // Draining (issue 14 item 4): once closing, a request that still arrives on an open keep-alive connection
  // is answered 503 in the API's error shape with Retry-After and `Connection: close` (the balancer or the
  // client retries elsewhere), instead of Fastify's own 503 body. Requests already in flight finish.
  const lifecycle = { draining: false };
  app.decorate('lifecycle', lifecycle);
  app.addHook('preClose', async () => {
    lifecycle.draining = true;
  });
  // Every answer names its request (x-request-id). Hooks of this app are synchronous where they can be: an
  // async hook costs a promise and a turn of the microtask queue on every request (issue 13 item 6).
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    if (!lifecycle.draining || request.url === '/healthz' || request.url === '/readyz') return done();
    reply.header('connection', 'close');
    done(onboardError('ONB_NOT_READY', { retryAfterS: DRAINING_RETRY_AFTER_S }));
  });

  // The client sends a JSON content type on every call, including sign_out which has no body.
  const jsonParser = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text === '') return done(null, undefined);
    return jsonParser(request, text, done);
  });
  // PostgreSQL cannot store a NUL character in text or jsonb: a parameter, query value or body string
  // holding one is refused as input (400 'Invalid Input'), before it can fail a query with a 500. The
  // parameters and query are decoded from the request target, where a NUL can only be written `%00` (the
  // HTTP parser refuses a raw one): without it they are not walked (most requests, issue 13 item 6).
  app.addHook('preValidation', (request, _reply, done) => {
    const urlMayHoldNul = request.url.includes('%00');
    if ((urlMayHoldNul && (holdsNul(request.params) || holdsNul(request.query))) || holdsNul(request.body)) {
      return done(onboardError('ONB_INVALID_INPUT'));
    }
    done();
  });

  // Before every route: it learns each route's path and method as they are registered.
  await app.register(allowedMethodsPlugin);
  await app.register(schemasPlugin);
  await app.register(translationsPlugin, {
    defaultLocale: config.defaultLocale,
    ...(opts.localesDir ? { dir: opts.localesDir } : {}),
  });
  await app.register(errorsPlugin, { databaseRetryAfterS: config.databaseRetryAfterS });
  await app.register(helmetPlugin, {
    production: config.nodeEnv === 'production',
    mapTileUrl: config.mapTileUrl,
  });
  await app.register(compressPlugin);
  const production = config.nodeEnv === 'production';
  // The build variant's client (BUILD_VARIANT, issue 15 item 7), unless the caller names a folder.
  const clientDir = opts.clientDir ?? clientDirOf(config.buildVariant);
  // The built client's files are not counted by the rate limit (issue 13 item 8).
  const clientFiles = clientFilePaths(clientDir, production);
  await app.register(rateLimitPlugin, {
    max: config.rateLimitMax,
    redisUrl: config.redisUrl,
    nameSpace: opts.rateLimitNameSpace,
    exempt: (request) =>
      (request.method === 'GET' || request.method === 'HEAD') &&
      clientFiles.has(request.url.split('?', 1)[0] ?? ''),
  });
  await app.register(underPressurePlugin, { pressure: config.pressure });
  await app.register(cookiePlugin);
  await app.register(utmPlugin, { config });
  await app.register(securityPlugin, { publicOrigin: config.publicOrigin });
  await app.register(dbPlugin, {
    config,
    background: opts.waitForDatabase === false,
    ...(opts.databaseWaitMs !== undefined ? { waitMs: opts.databaseWaitMs } : {}),
    ...(opts.db ? { handle: opts.db } : {}),
  });
  await app.register(transportPlugin, {
    config,
    now,
    ...(opts.transport ? { transport: opts.transport } : {}),
  });
  await app.register(analyticsPlugin, {
    config,
    now,
    database: opts.db
      ? { kind: opts.db.kind, url: opts.db.url, ...(opts.db.schema ? { schema: opts.db.schema } : {}) }
      : targetFromConfig(config),
  });
  await app.register(mailPlugin, { config });
  await app.register(otpPlugin, { config, now });
  await app.register(sessionsPlugin, { config, now });
  await app.register(passwordsPlugin, { config, now, nameSpace: opts.rateLimitNameSpace });
  await app.register(socialLoginPlugin, { config, now });
  await app.register(placesPlugin, { geocoderUrl: config.geocoderUrl });
  await app.register(leadsPlugin, { now, config, locator: app.places });
  await app.register(contactVerificationPlugin, { now });
  await app.register(propertiesPlugin, { now, config });
  await app.register(imagesPlugin, {
    config,
    now,
    ...(opts.imageStorage ? { storage: opts.imageStorage } : {}),
  });
  await app.register(kycPlugin, {
    config,
    now,
    contacts: app.contactVerification,
    ...(opts.imageStorage ? { storage: opts.imageStorage } : {}),
  });
  await app.register(contractsPlugin, {
    config,
    now,
    ...(opts.imageStorage ? { storage: opts.imageStorage } : {}),
  });
  await app.register(publishPlugin, { now });
  await app.register(supportChatPlugin, {
    config,
    now,
    database: opts.db ? { kind: opts.db.kind, url: opts.db.url } : targetFromConfig(config),
  });
  await app.register(remindersPlugin, {
    config,
    now,
    database: opts.db
      ? { kind: opts.db.kind, url: opts.db.url, ...(opts.db.schema ? { schema: opts.db.schema } : {}) }
      : targetFromConfig(config),
  });
  await app.register(swaggerPlugin);

  const loaded =
    opts.screens ??
    (opts.screensDir || opts.localesDir
      ? loadScreenCatalogue({
          dir: opts.screensDir ?? defaultScreensDir,
          translate: app.translations.translate,
        })
      : loadDefaultScreenCatalogue(app.translations.translate));
  let screens: ScreenCatalogue = loaded;
  if (opts.watchScreens && !opts.screens) {
    const dir = opts.screensDir ?? defaultScreensDir;
    const watched = watchScreenCatalogue({
      dir,
      translate: app.translations.translate,
      initial: loaded,
      onReload: (ids) => app.log.info({ screens: ids.length }, `screen definitions reloaded from ${dir}`),
      onError: (err) =>
        app.log.error(
          err instanceof ScreenDefinitionError
            ? { file: err.file, path: err.path, detail: err.detail }
            : { err },
          `screen definitions not reloaded, the last good ones are served: ${(err as Error).message}`,
        ),
    });
    app.addHook('onClose', async () => watched.close());
    screens = watched;
  }
  // Published versions over the files (version 0); uploads are checked against the fixture contexts.
  const screenVersions = createScreenVersions({
    db: app.db,
    catalogue: screens,
    translate: app.translations.translate,
    contexts: () => loadFixtureContexts(opts.screensDir ?? defaultScreensDir),
    localesDir: opts.localesDir ?? defaultLocalesDir,
    checkEveryMs: config.screenVersionsCheckMs,
    databaseReady: () => app.dbReadiness.ready,
    now,
    onCheckError: (err) => app.log.warn({ err }, 'screen versions check failed; serving the last known'),
    onInvalidVersion: (err) =>
      app.log.error({ err }, 'a published screen version fails the checks of this deploy; serving its file'),
  });
  app.decorate('screenVersions', screenVersions);

  await app.register(healthRoutes);
  await app.register(metaRoutes);
  await app.register(globalRoutes, { config });
  await app.register(authRoutes, { config });
  await app.register(socialRoutes, { config });
  await app.register(ssoRoutes, { config, now });
  await app.register(translationRoutes);
  await app.register(leadRoutes, { config });
  await app.register(imageRoutes);
  await app.register(contactRoutes);
  await app.register(kycRoutes, { config });
  await app.register(contractRoutes);
  await app.register(placeRoutes);
  await app.register(publishRoutes);
  await app.register(propertyRoutes);
  await app.register(supportRoutes, { config });
  await app.register(analyticsRoutes);
  await app.register(pushRoutes);
  await app.register(errorRoutes, { config });
  await app.register(funnelRoutes, { config, now });
  await app.register(telemetryRoutes, { tracing: config.tracing });
  // Public screens are composed once per language, country, query, version and capabilities, for the API
  // and for index.html.
  const publicScreens = createPublicScreens(config, screens, SCREEN_BRAND, configuredProviders(app));
  // One composer of signed-in screens for the API and for the pages that embed them (one kept set of bodies).
  const signedIn = signedInScreens(app, { config, screens, versions: screenVersions });
  await app.register(screenRoutes, { config, screens, versions: screenVersions, publicScreens, signedIn });
  await app.register(screenVersionRoutes, { config, versions: screenVersions });
  await app.register(previewRoutes, {
    config,
    screensDir: opts.screensDir ?? defaultScreensDir,
    translate: app.translations.translate,
  });
  await app.register(devRoutes, { nodeEnv: config.nodeEnv });
  await app.register(staticPlugin, {
    clientDir,
    production,
    screens,
    publicScreens,
    versions: screenVersions,
    flags: config.featureFlags,
    signedIn,
    globalInfo: (country) => globalInfoFor(config, country),
    drawFirstScreen: opts.drawFirstScreen ?? serverDrawingOf(clientDir),
    ...(opts.drawingLimitMs !== undefined ? { drawingLimitMs: opts.drawingLimitMs } : {}),
    messages: (locale) => app.translations.messages(locale),
  });

  // Expired sessions, codes and profile switches are deleted hourly (they are refused anyway; this keeps tables small).
  const purge = setInterval(() => {
    app.sessions
      .purgeExpired()
      .then(() =>
        app.db
          .deleteFrom('otp_codes')
          .where('created_at', '<', new Date(now() - 24 * 3600_000))
          .execute(),
      )
      .then(() => app.db.deleteFrom('profile_switches').where('expires_at', '<=', new Date(now())).execute())
      .catch((err: unknown) => app.log.error({ err }, 'purge failed'));
  }, 3600_000);
  purge.unref();
  app.addHook('onClose', async () => clearInterval(purge));

  // The gazetteer of cities (~1.5 s of CPU, ~100 MB) is not loaded at start: it loads on the first place
  // search or address check (issue 13 item 5), so neither /readyz nor idle memory waits for it.

  return app;
}

/** Whether any string (value or key) in `value`, at any depth, holds a NUL character (U+0000). */
function holdsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (value === null || typeof value !== 'object' || depth > 64) return false;
  if (Buffer.isBuffer(value)) return false;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\u0000') || holdsNul(item, depth + 1)) return true;
  }
  return false;
}
