import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { dequal } from 'dequal';
import rfdc from 'rfdc';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Lead, Locale } from '../../../schemas/generated/types';
import type { Config } from '../../config';
import { onboardError } from '../../errors';
import { screenData, type ScreenCatalogue } from '../../screens/composer';
import { capabilityKey, fitToClient, knownWidgetTypes, parseCapabilities } from '../../screens/capabilities';
import type { ScreenVersions } from '../../services/screen-versions';
import { BRANDS } from '../../services/brands';
import { warmContractPdf } from '../../services/contract-pdf';
import { toScreenImages } from '../../services/images';
import { globalInfoFor } from '../global';
import { sessionIdFromCookies } from '../../services/sessions';
import { errorResponses, ok, ref } from '../responses';
import { notModifiedResponse } from '../stored-files';
import { signedInUser, userOf } from '../signed-in';
import { COMPRESS_THRESHOLD_BYTES } from '../../plugins/external/compress';
import { keptAnswer, preferredEncoding, sendKept, type KeptAnswer } from '../kept-answer';
import { createPublicScreens, PUBLIC_SCREEN_CACHE_SIZE, type PublicScreens } from './public-screens';

/** Brand of screens drawn without a lead; with one, the lead's brand (bff/screens/data/brands.json). */
export const SCREEN_BRAND = BRANDS.defaultBrand.brand;

/** Longest query value passed to the composer as a param, in characters. */
export const MAX_SCREEN_PARAM_LENGTH = 200;

/**
 * The page's query parameters for the composer: every string value of at most
 * {@link MAX_SCREEN_PARAM_LENGTH} characters; repeated or longer ones are left out.
 */
export function screenParams(query: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!query || typeof query !== 'object') return out;
  for (const [k, v] of Object.entries(query as Record<string, unknown>)) {
    if (typeof v === 'string' && v.length <= MAX_SCREEN_PARAM_LENGTH) out[k] = v;
  }
  return out;
}

export { PUBLIC_SCREEN_CACHE_SIZE } from './public-screens';

/**
 * Brotli (quality 4, as @fastify/compress compresses other answers) or gzip of the signed-in screens' bodies,
 * kept by body for the {@link SIGNED_IN_BODIES_KEPT} most recently sent (issue 13 item 6): an owner's
 * screen is the same from one request to the next until their data changes, and compressing it took about
 * as much CPU as composing it. Exact whatever the instances: an entry is a function of the body alone, so a
 * changed screen is a new body, compressed anew. Kept in this process only, never in an HTTP cache (the
 * answer stays `Cache-Control: no-store`).
 */
export function compressedBodies(kept: number) {
  const entries = new Map<string, { br?: Buffer; gzip?: Buffer }>();
  return {
    /** The body compressed with `encoding`, from the kept entries or compressed now (and kept). */
    compressed(body: string, encoding: 'br' | 'gzip'): Buffer {
      let entry = entries.get(body);
      if (entry) entries.delete(body);
      else {
        entry = {};
        if (entries.size >= kept) entries.delete(entries.keys().next().value!);
      }
      entries.set(body, entry);
      if (encoding === 'br') {
        const raw = Buffer.from(body);
        entry.br ??= brotliCompressSync(raw, {
          params: { [constants.BROTLI_PARAM_QUALITY]: 4, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
        });
        return entry.br;
      }
      entry.gzip ??= gzipSync(body);
      return entry.gzip;
    },
    /** How many bodies are kept. */
    get size() {
      return entries.size;
    },
  };
}

/**
 * The `kept` values last set, by key, the least recently used dropped first (ours, issue 13 item 6): the
 * signed-in screens last composed, by screen, user and request ({@link signedInScreens}). A value set with
 * more than `maxEntryChars` characters (`chars`, as the caller counts them: a dashboard of many properties) is
 * not kept, so the whole is bounded by `kept × maxEntryChars` characters.
 */
export function keptByKey<V>(kept: number, maxEntryChars = Number.POSITIVE_INFINITY) {
  const entries = new Map<string, V>();
  return {
    get(key: string): V | undefined {
      const value = entries.get(key);
      if (value !== undefined) {
        entries.delete(key);
        entries.set(key, value);
      }
      return value;
    },
    /** Keeps `value` under `key` unless `chars` is over the limit; either way what `key` held is dropped. */
    set(key: string, value: V, chars: number): void {
      entries.delete(key);
      if (chars > maxEntryChars) return;
      if (entries.size >= kept) entries.delete(entries.keys().next().value!);
      entries.set(key, value);
    },
    /** How many values are kept. */
    get size() {
      return entries.size;
    },
  };
}

/**
 * Signed-in screen bodies whose compressed forms are kept (ours, issue 13 item 6): a few hundred owners'
 * current screens, ≈5 KB each with both encodings.
 */
export const SIGNED_IN_BODIES_KEPT = 500;

/**
 * Longest composition context (as JSON) and body, together, of a signed-in screen kept composed, in characters
 * (ours): a checklist is ≈5,000; with {@link SIGNED_IN_BODIES_KEPT} the kept bodies and slot keys stay under
 * ≈64 MB of strings, and the contexts' copies, as objects, take a small multiple of their JSON's length.
 */
export const SIGNED_IN_ENTRY_MAX_CHARS = 65_536;

/**
 * GET /hms_ms/api/v1/screens/:screen_id — a composed screen (DESIGN "bff/screens") in the language of
 * `httpxoyolang` (else en-GB). Unknown screen → 404 ONB_SCREEN_NOT_FOUND; a screen not marked public
 * without a session → 401 ONB_UNAUTHORIZED. The context's country is `user_url_country` when valid,
 * else the user's, else DEFAULT_COUNTRY. The page's query parameters reach the composer as `params`
 * ({@link screenParams}); the context's `lead` is the signed-in user's lead of `property_unique_id`
 * (404 ONB_LEAD_NOT_FOUND when it is not theirs), else their newest lead still open (in progress, or cold for being outside the served area), else null
 * (always null without a session).
 *
 * Caching (issue 13 item 6): a public screen asked without a session is the same for everyone of a
 * language, country and query, so it is composed once and kept ({@link PUBLIC_SCREEN_CACHE_SIZE}), with
 * its brotli and gzip copies, and answered with an `ETag` and `Cache-Control: no-cache` (the browser
 * revalidates every time, so it is never stale: `If-None-Match` → 304). A request that names what an earlier
 * one named (`publicRequestKey`: screen, language, country header, query, capabilities, and the releases in
 * memory while they are current) is answered with that answer at once. Anything drawn for a signed-in
 * user is `no-store`, read from the database on every request, and composed again whenever anything it is
 * drawn from changed: its body is kept with a copy of its whole composition context ({@link keptByKey}) and
 * its compressed copies by body ({@link compressedBodies}), in this process only.
 *
 * Versions (issue 16 item 3): each request resolves the screen's version once (`versions.pick`: the published
 * one, or during a rollout the owner's), after at most one cheap check of the database for a change
 * (`versions.refresh`), and composes only that version; `x-screen-version` tells which (0: the file). The
 * public cache is kept per version. Capabilities (issue 16 item 4, `screens/capabilities.ts`): with
 * `x-widget-types`, widgets the client cannot draw are replaced by their fallback or dropped; the public
 * cache is kept per capability set and the answer varies on those headers.
 */
/** What a public screen's answer varies on: language, session, country, encoding and the client's capabilities. */
export const VARY_PUBLIC =
  'httpxoyolang, cookie, user_url_country, accept-encoding, x-widget-types, x-schema-version';
/** What a signed-in screen's answer varies on (never kept: `no-store`). */
const VARY_SIGNED_IN = 'httpxoyolang, cookie, x-widget-types, x-schema-version';

/** A public screen's answer as sent: the kept body (with its ETag and compressed copies), version and variant. */
interface PublicAnswer {
  answer: KeptAnswer;
  version: number;
  variant: string | null;
}

/**
 * What a public screen's answer is made from, as a request without a session names it (ours, issue 13 item 6):
 * the screen and its definition's revision, the releases in memory, the language, and the raw
 * `user_url_country`, query string, `x-widget-types` and `x-schema-version`. Two requests with the same key
 * get the same answer (the configuration and feature flags are fixed for the process); two that differ only
 * in how they spell the same thing (the order of a query, of the widget types) get two keys for one answer.
 * HTTP headers and a request target hold no line break, so the parts cannot run into each other.
 */
function publicRequestKey(
  request: FastifyRequest<{ Headers: ScreenClientHeaders }>,
  id: string,
  revisions: { screen: number; releases: string },
): string {
  const { url, headers } = request;
  const query = url.indexOf('?');
  return [
    id,
    revisions.screen,
    revisions.releases,
    request.locale,
    headers.user_url_country ?? '',
    query < 0 ? '' : url.slice(query + 1),
    headers['x-widget-types'] ?? '',
    headers['x-schema-version'] ?? '',
  ].join('\n');
}

/** The headers of a screen request that the answer depends on besides the language (SPEC §3, issue 16 item 4). */
type ScreenClientHeaders = {
  user_url_country?: string;
  'x-widget-types'?: string;
  'x-schema-version'?: string;
};

/** Screens whose context carries the lead's images (`images`), read only where drawn. */
const SCREENS_WITH_IMAGES: ReadonlySet<string> = new Set(['images']);

/**
 * The one document a screen request composes (issue 16 items 3 and 5): a variant whose rule holds
 * (bff/screens/variants, e.g. the L1 screens under enable_oyo360_l1_revamp) is served as version 0 whatever
 * version is published; else the published version, or during a rollout the one of `userId`.
 */
function pickDocument(
  opts: { config: Config; screens: ScreenCatalogue; versions: ScreenVersions },
  id: string,
  switches: { global_info: ReturnType<typeof globalInfoFor>; params: Record<string, string> },
  userId: string | null,
) {
  const { config, screens, versions } = opts;
  const variant = screens.variant?.(id, { ...switches, flags: config.featureFlags }) ?? null;
  const pick = variant
    ? {
        version: 0,
        compose: (ctx: Parameters<ScreenCatalogue['compose']>[1]) => screens.compose(id, ctx),
      }
    : versions.pick(id, userId, config.featureFlags);
  return { variant, pick };
}

/** A signed-in screen composed: its answer's body and the version and variant drawn. */
export interface SignedInScreen {
  /** `{"success":true,"data":<payload>}`, as GET /screens/:screen_id answers it. */
  body: string;
  version: number;
  variant: string | null;
}

/** How a signed-in screen is asked for: the page's query (as params), language, country and capabilities. */
export interface SignedInScreenRequest {
  params: Record<string, string>;
  locale: Locale;
  /** `user_url_country`, else the user's (undefined: theirs, else DEFAULT_COUNTRY). */
  country: string | undefined;
  caps: ReturnType<typeof parseCapabilities>;
}

/**
 * Composes screen `id` for the signed-in user of `request` (see the route below for the context): what
 * GET /screens/:screen_id answers with a session, and what a signed-in page embeds
 * (bff/plugins/external/static.ts). A body is kept with a copy of the context it was composed from
 * ({@link keptByKey}) and sent again while the context is equal to it.
 * `serialize` writes the answer as the route's response schema does.
 * @throws ONB_LEAD_NOT_FOUND when `property_unique_id` names no lead of the user; ONB_UNAUTHORIZED without a user;
 * ONB_ROLE_FORBIDDEN (403) for a PropertyManager asking for a screen that is not public (SPEC §6: the manager
 * role cannot open the onboarding pages; the client shows them not found, and the BFF refuses them too).
 */
export function signedInScreens(
  app: FastifyInstance,
  opts: { config: Config; screens: ScreenCatalogue; versions: ScreenVersions },
): (
  request: FastifyRequest,
  id: string,
  asked: SignedInScreenRequest,
  serialize: (answer: unknown) => string,
) => Promise<SignedInScreen> {
  const { config, screens, versions } = opts;
  // The signed-in screens last composed, one per screen, version, variant, capabilities, user, language and
  // query, each with a copy of the whole context it was drawn from (user, lead and the rest, read from the
  // database on this request): a request whose context is equal to the kept one (`dequal`) gets the kept
  // body. Exact on any number of instances: a change of anything it is drawn from composes anew; nothing read
  // from the database is kept in place of reading it. Comparing the two contexts costs about half of writing
  // the context as one JSON key and looking that ≈5,000-character key up, as this did until 2026-12-04 (a CPU
  // profile of the checklist: ≈16 % of the busy samples then, ≈8.5 % now).
  const kept = keptByKey<{ context: unknown; body: string }>(
    SIGNED_IN_BODIES_KEPT,
    SIGNED_IN_ENTRY_MAX_CHARS,
  );
  return async (request, id, { params, locale, country, caps }, serialize) => {
    const user = screens.isPublic(id) ? signedInUser(request) : userOf(request);
    const globalInfo = globalInfoFor(config, country ?? user.country_code);
    await versions.refresh();
    const { variant, pick } = pickDocument(opts, id, { global_info: globalInfo, params }, user.id);
    const wanted = params.property_unique_id;
    const lead: Lead | null =
      (wanted
        ? await app.leads.find(user.id, wanted)
        : (request.newestOpenLead?.lead ??
          (request.newestOpenLead ? null : await app.leads.newestOpen(user.id)))) ?? null;
    if (wanted && !lead) throw onboardError('ONB_LEAD_NOT_FOUND');
    // The photos screen draws the lead's images by category and room category (SPEC §3 imagesConfig).
    const images =
      lead && SCREENS_WITH_IMAGES.has(id)
        ? toScreenImages(await app.images.list(user.id, lead.property_unique_id, locale))
        : null;
    // The KYC screen draws the verification flags and the document (SPEC §3 kycDetails); the 'Resolve an
    // issue' screen the conflict of this session's last verification (SPEC §6). Only they need the session's id
    // (a hash of the token): other screens do not compute it.
    const sessionId = id === 'kyc' || id === 'resolve_issue' ? sessionIdFromCookies(request.cookies) : null;
    const kyc =
      lead && id === 'kyc'
        ? await app.kyc.details(user.id, lead.property_unique_id, locale, sessionId)
        : null;
    // The terms screen draws the commercial terms and the latest contract (SPEC §3 termsOfServiceInfo).
    const contract =
      lead && id === 'terms' ? await app.contracts.info(user.id, lead.property_unique_id) : null;
    // The terms screen has the "Generate contract" button: the PDF engine loads now, after this answer,
    // rather than on the owner's first tap (issue 13 item 5).
    if (contract) setImmediate(() => void warmContractPdf());
    const conflict =
      sessionId && id === 'resolve_issue'
        ? ((await app.contactVerification.pendingSwitch(sessionId)) ?? null)
        : null;
    // The review screen draws the property as a guest would see it, its buckets and readiness (SPEC §3).
    const review =
      lead && id === 'review' ? await app.publish.review(user.id, lead.property_unique_id, locale) : null;
    // The dashboard draws the owner's properties by section; the referral screen one property's referral.
    const properties = id === 'dashboard' ? await app.properties.list(user.id) : null;
    const property =
      lead && id === 'referral'
        ? ((await app.properties.get(user.id, lead.property_unique_id)) ?? null)
        : null;
    // The add property screen offers only the sub types the account's country onboards (issue 12 item 19),
    // the country lead creation checks (the account's, else DEFAULT_COUNTRY).
    const leadCountry = user.country_code || config.defaultCountry;
    const unsupported =
      id === 'property_add'
        ? screenData.catalogue.property_sub_types
            .map((s) => s.value)
            .filter((v) => !app.leads.isOnboarded(leadCountry, v))
        : null;
    const context = {
      global_info: globalInfo,
      unsupported_sub_types: unsupported,
      images,
      kyc,
      contract,
      conflict,
      review,
      properties,
      property,
      // `flags.web_push_reminders`: reminders by web push are on (VAPID keys set) and not turned off by a
      // feature flag of that name; the checklist offers 'Remind me to finish' only then (issue 15 item 5).
      flags: {
        ...config.featureFlags,
        web_push_reminders: app.reminders.enabled && config.featureFlags.web_push_reminders !== false,
      },
      user,
      lead: lead as unknown as Record<string, unknown> | null,
      params,
      locale,
      // The lead's brand decides the wording (hotel or the holiday-home variant, bff/screens/data/brands.json).
      brand: lead?.brand ?? SCREEN_BRAND,
    };
    // Composed again only when something it is drawn from changed (`kept`, above).
    const slot = JSON.stringify([
      id,
      screens.revision?.(id) ?? 0,
      pick.version,
      variant,
      capabilityKey(caps, knownWidgetTypes),
      user.id,
      locale,
      params,
    ]);
    const held = kept.get(slot);
    if (held && dequal(held.context, context)) return { body: held.body, version: pick.version, variant };
    // A copy, taken before composing as the key was: the request's objects are not held past it.
    const copy = copyContext(context);
    const chars = slot.length + JSON.stringify(context).length;
    const body = serialize({ success: true, data: fitToClient(pick.compose(context), caps) });
    kept.set(slot, { context: copy, body }, chars + body.length);
    return { body, version: pick.version, variant };
  };
}

/** A private copy of a composition context: plain objects, arrays, Dates and scalars (rfdc). */
const copyContext = rfdc({ proto: false, circles: false });

export default async function screenRoutes(
  app: FastifyInstance,
  opts: {
    config: Config;
    screens: ScreenCatalogue;
    versions: ScreenVersions;
    publicScreens?: PublicScreens;
    /** The composer of signed-in screens, shared with the pages that embed them ({@link signedInScreens}). */
    signedIn?: ReturnType<typeof signedInScreens>;
  },
) {
  const { config, screens, versions } = opts;
  const publicScreens = opts.publicScreens ?? createPublicScreens(config, screens, SCREEN_BRAND);
  const signedInBodies = compressedBodies(SIGNED_IN_BODIES_KEPT);
  const composeSignedIn = opts.signedIn ?? signedInScreens(app, { config, screens, versions });
  // The public answers last sent, by what the request names (publicRequestKey): a request that names the
  // same as an earlier one, while the releases in memory are current, is answered from here without
  // resolving its country, query, capabilities, version and variant again (the sign-up screen, the first
  // request of every visitor: issue 13 item 6). Bounded like the composed screens they come from.
  const publicAnswers = new Map<string, PublicAnswer>();
  const revisionsOf = (id: string) => ({
    screen: screens.revision?.(id) ?? 0,
    releases: versions.revision(),
  });
  const sendPublic = (request: FastifyRequest, reply: FastifyReply, kept: PublicAnswer) => {
    reply.header('x-screen-version', String(kept.version));
    if (kept.variant) reply.header('x-screen-variant', kept.variant);
    return sendKept(request, reply, kept.answer, {
      cacheControl: 'no-cache',
      vary: VARY_PUBLIC,
      type: 'application/json; charset=utf-8',
    });
  };
  type ScreenRoute = {
    Params: { screen_id: string };
    Headers: ScreenClientHeaders;
    Querystring: Record<string, unknown>;
  };

  /**
   * Answers a request the kept public answers do not hold: resolves what it asks for (screen, session,
   * country, query, capabilities, version, variant) and sends the screen, composed or from the caches above.
   */
  const resolveAndSend = async (request: FastifyRequest<ScreenRoute>, reply: FastifyReply) => {
    const id = request.params.screen_id;
    if (!screens.has(id)) throw onboardError('ONB_SCREEN_NOT_FOUND');
    if (!screens.isPublic(id) && !request.user) throw onboardError('ONB_UNAUTHORIZED');
    const country = request.headers.user_url_country ?? request.user?.country_code;
    const params = screenParams(request.query);
    const caps = parseCapabilities(request.headers['x-widget-types'], request.headers['x-schema-version']);
    if (request.user) {
      const drawn = await composeSignedIn(
        request,
        id,
        { params, locale: request.locale, country: request.headers.user_url_country, caps },
        (answer) => reply.serialize(answer) as string,
      );
      reply.header('x-screen-version', String(drawn.version));
      if (drawn.variant) reply.header('x-screen-variant', drawn.variant);
      reply.header('cache-control', 'no-store').header('vary', `${VARY_SIGNED_IN}, accept-encoding`);
      reply.type('application/json; charset=utf-8');
      const encoding =
        Buffer.byteLength(drawn.body) >= COMPRESS_THRESHOLD_BYTES
          ? preferredEncoding(request.headers['accept-encoding'])
          : null;
      if (!encoding) return reply.send(drawn.body);
      return reply.header('content-encoding', encoding).send(signedInBodies.compressed(drawn.body, encoding));
    }
    const globalInfo = globalInfoFor(config, country);
    // One version per request: resolved once here, and only that version is composed.
    await versions.refresh();
    const revisions = revisionsOf(id);
    const { variant, pick } = pickDocument(opts, id, { global_info: globalInfo, params }, null);

    // The same for everyone of this language, country, query, version and capabilities: composed once,
    // then sent as kept.
    const entry = publicScreens.get(id, request.locale, country, params, {
      version: { number: pick.version, compose: pick.compose },
      capabilities: { key: capabilityKey(caps, knownWidgetTypes), fit: (p) => fitToClient(p, caps) },
    });
    entry.answer ??= keptAnswer(reply.serialize({ success: true, data: entry.payload }) as string);
    const kept = { answer: entry.answer, version: pick.version, variant };
    if (publicAnswers.size >= PUBLIC_SCREEN_CACHE_SIZE)
      publicAnswers.delete(publicAnswers.keys().next().value!);
    publicAnswers.set(publicRequestKey(request, id, revisions), kept);
    return sendPublic(request, reply, kept);
  };

  app.get<ScreenRoute>(
    '/hms_ms/api/v1/screens/:screen_id',
    {
      // Public at the route level: the catalogue decides per screen.
      config: { public: true, withNewestOpenLead: true },
      // The route compresses its answers itself, from copies kept compressed (below): @fastify/compress's
      // hooks would only look at each answer and pass it on (issue 13 item 6).
      compress: false,
      schema: {
        operationId: 'getScreen',
        tags: ['screens'],
        summary:
          'A composed screen; public screens need no session, others answer 401 without one and 403 to a PropertyManager',
        description:
          'The answer header x-screen-version names the version of the definition composed (0: the deployed file; others were published through the staff API). With x-widget-types (the widget types the client draws, comma-separated) a widget of another type is replaced by its fallback or left out; without it the payload is as composed.',
        headers: ref('api/screen-client-headers.schema.json'),
        params: ref('api/screen-params.schema.json'),
        querystring: ref('api/screen-query.schema.json'),
        response: { 200: ok(ref('screen.schema.json')), 304: notModifiedResponse, ...errorResponses },
      },
    },
    (request, reply) => {
      if (!request.user && !versions.due()) {
        const id = request.params.screen_id;
        const kept = publicAnswers.get(publicRequestKey(request, id, revisionsOf(id)));
        if (kept) return sendPublic(request, reply, kept);
      }
      return resolveAndSend(request, reply);
    },
  );
}
