import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, expect } from 'vitest';
import type { CreateLeadBody, Lead } from '../schemas/generated/types';
import { buildApp, type BuildAppOptions } from './app';
import { loadConfig, type Config } from './config';
import { migrateToLatest, openDatabase, type DatabaseHandle } from './db';
import { isPgliteImageCurrent, pgliteImagePath, writePgliteImage } from './db/pglite-image';
import type { ScreenCatalogue } from './screens/composer';
import { sessionIdFromCookies } from './services/sessions';

let shared: Promise<{ handle: DatabaseHandle; drop: () => Promise<void> }> | null = null;
const apps = new Set<FastifyInstance>();

/**
 * The database shared by every app of one test file: an in-memory PGlite (one instance per file, loaded
 * from the pre-initialised image of `db/pglite-image.ts`), or, when TEST_DATABASE_URL is set, a fresh PostgreSQL schema dropped afterwards.
 */
export function sharedDatabase(): Promise<DatabaseHandle> {
  shared ??= (async () => {
    const url = process.env.TEST_DATABASE_URL;
    if (!url) {
      // Made once (by `npm run build`, or here by the first file that needs it), then every file's database
      // is loaded from it instead of running initdb.
      if (!isPgliteImageCurrent()) await writePgliteImage(pgliteImagePath(), (db) => migrateToLatest(db));
      const handle = await openDatabase({ kind: 'pglite', dataDir: null });
      return { handle, drop: async () => {} };
    }
    const schema = `t_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.end();
    const handle = await openDatabase({ kind: 'postgres', url, schema });
    return {
      handle,
      drop: async () => {
        const c = new pg.Client({ connectionString: url });
        await c.connect();
        await c.query(`drop schema ${schema} cascade`);
        await c.end();
      },
    };
  })();
  return shared.then((s) => s.handle);
}

/** Configuration for tests: defaults, NODE_ENV=test, rate limiter off, overridden by `config`. */
export function testConfig(config: Partial<Config> = {}): Config {
  // Load shedding on event-loop delay is off: a test file's server shares a loaded CI machine with others, and
  // a 503 there would say nothing about the code (the health tests turn it on with their own limits).
  return {
    ...loadConfig({
      NODE_ENV: 'test',
      RATE_LIMIT_MAX: '0',
      LOG_LEVEL: 'silent',
      PRESSURE_MAX_EVENT_LOOP_DELAY_MS: '0',
      // The analytics partitions' upkeep runs once at start and drops nothing (tests share a database and
      // post events of fixed days); its scheduler and the retention have their own test.
      ANALYTICS_MAINTENANCE_MS: '0',
      ANALYTICS_RETENTION_DAYS: '0',
    }),
    ...config,
  };
}

/** A catalogue with one public screen (`public_test`) and one private (`private_test`), for route tests. */
export function stubScreens(): ScreenCatalogue {
  const defs: Record<string, boolean> = { public_test: true, private_test: false };
  return {
    has: (id) => Object.hasOwn(defs, id),
    isPublic: (id) => defs[id] === true,
    ids: () => Object.keys(defs).sort(),
    compose: (id, ctx) => ({
      screen_id: id,
      schema_version: 1,
      title: `${id} ${ctx.locale}`,
      widget_list: [
        { id: 'who', widget_type: 'text', contents: { text: ctx.user ? ctx.user.phone : 'anonymous' } },
        { id: 'country', widget_type: 'text', contents: { text: ctx.global_info.country_code } },
      ],
    }),
  };
}

/**
 * Builds an app for a test over the shared database, with test configuration (`overrides.config` merged
 * over {@link testConfig}), the stub screen catalogue unless `overrides.screens` is given, and no logs.
 * Every app is closed after the file's tests, then the database.
 */
export async function buildTestApp(
  overrides: Omit<Partial<BuildAppOptions>, 'config'> & { config?: Partial<Config> } = {},
): Promise<FastifyInstance> {
  const { config, ...rest } = overrides;
  const app = await buildApp({
    screens: stubScreens(),
    logger: false,
    clientDir: '/nonexistent-client-dir',
    ...rest,
    config: testConfig(config),
    db: rest.db ?? (await sharedDatabase()),
  });
  apps.add(app);
  await app.ready();
  return app;
}

afterAll(async () => {
  for (const app of apps) await app.close();
  apps.clear();
  if (shared) {
    const s = await shared;
    await s.handle.close();
    await s.drop();
    shared = null;
  }
});

let phoneCounter = 0;
/**
 * A different valid Indian mobile number per call (E.164 `+9198…`), so tests in one file do not share
 * OTP rate limits.
 */
export function uniquePhone(): string {
  phoneCounter += 1;
  const tail = String((Date.now() % 100000) * 100 + phoneCounter)
    .padStart(8, '0')
    .slice(-8);
  return `+9198${tail}`;
}

/**
 * Signs a new owner in on `app` (sign-up OTP read from the development outbox) and returns the cookie
 * header to send with later requests.
 * @throws Error when verification does not answer 200.
 */
export async function signInNewOwner(app: FastifyInstance): Promise<string> {
  const phone = uniquePhone();
  await app.inject({
    method: 'POST',
    url: '/hms_ms/api/v2/request_otp',
    payload: { phone, purpose: 'sign_up' },
  });
  const answer = await app.inject('/__dev/outbox');
  if (answer.statusCode !== 200) throw new Error(`outbox: ${answer.statusCode} ${answer.body}`);
  const outbox = answer.json<{ to: string; code: string }[]>();
  const code = outbox.find((e) => e.to === phone)?.code;
  const verified = await app.inject({
    method: 'POST',
    url: '/hms_ms/api/v2/verify_otp',
    payload: { phone, purpose: 'sign_up', otp: code },
  });
  if (verified.statusCode !== 200) throw new Error(`sign-in failed: ${verified.statusCode} ${verified.body}`);
  return verified.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
}

/**
 * The id of the user whose session the `cookie` header carries.
 * @throws when it carries no session of `app`'s database.
 */
export async function userIdOfSession(app: FastifyInstance, cookie: string): Promise<string> {
  const session = await app.db
    .selectFrom('sessions')
    .select('user_id')
    .where('id', '=', sessionIdFromCookies(app.parseCookie(cookie)) ?? '')
    .executeTakeFirstOrThrow();
  return session.user_id;
}

/**
 * Turns the user of the session in `cookie` into a PropertyManager (SPEC §6), the role every owner route refuses.
 * @returns their user id.
 */
export async function makePropertyManager(app: FastifyInstance, cookie: string): Promise<string> {
  const userId = await userIdOfSession(app, cookie);
  await app.db
    .updateTable('users')
    .set({ devise_role: 'PropertyManager' })
    .where('id', '=', userId)
    .execute();
  return userId;
}

/**
 * Adds a property for the owner signed in with `cookie` (POST /hms_ms/api/v1/onboard/leads), a boutique
 * hotel named 'Sea View Residency' unless `body` says otherwise, and returns the created lead.
 * @throws Error (a failed expectation) when the answer is not 201.
 */
export async function createTestLead(
  app: FastifyInstance,
  cookie: string,
  body: Partial<CreateLeadBody> = {},
): Promise<Lead> {
  const res = await app.inject({
    method: 'POST',
    url: '/hms_ms/api/v1/onboard/leads',
    headers: { cookie },
    payload: {
      title: 'Sea View Residency',
      property_type: 'hotel',
      property_sub_type: 'boutique_hotel',
      ...body,
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ data: { lead: Lead } }>().data.lead;
}

/** One part of a multipart body: a text field or a file. */
export type MultipartPart =
  { name: string; value: string } | { name: string; filename: string; type: string; data: Buffer };

/** A multipart/form-data body written by hand, parts in the given order (uploads read fields before the file). */
export function multipartBody(parts: MultipartPart[]): { payload: Buffer; contentType: string } {
  const boundary = `----onboard${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const head =
      'data' in p
        ? `Content-Disposition: form-data; name="${p.name}"; filename="${p.filename}"\r\nContent-Type: ${p.type}`
        : `Content-Disposition: form-data; name="${p.name}"`;
    chunks.push(Buffer.from(`--${boundary}\r\n${head}\r\n\r\n`));
    chunks.push('data' in p ? p.data : Buffer.from(p.value));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** The latest code the development outbox holds for `to` (a phone number or an e-mail address). */
export async function outboxCode(app: FastifyInstance, to: string): Promise<string> {
  const outbox = (await app.inject('/__dev/outbox')).json<{ to: string; code: string }[]>();
  const code = outbox.find((e) => e.to === to)?.code;
  if (!code) throw new Error(`no code sent to ${to}`);
  return code;
}
