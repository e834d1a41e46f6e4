import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultScreensDir } from '../../app';
import { loadScreenCatalogue, type ScreenCatalogue } from '../../screens/composer';
import { knownWidgetTypes } from '../../screens/capabilities';
import { rolloutBucket } from '../../services/screen-versions';
import { createTranslations } from '../../services/translations';
import { buildTestApp, sharedDatabase, signInNewOwner } from '../../test-helpers';
import { STAFF_SCREENS } from '.';

/**
 * The staff API of the screens' versions (issue 16 item 3) over the real definitions, on PGlite or, with
 * TEST_DATABASE_URL, PostgreSQL.
 */
const TOKEN = 'staff-screens-token-0123456789';
const auth = { authorization: `Bearer ${TOKEN}` };
const SCREEN = '/hms_ms/api/v1/screens';

const translations = createTranslations();
// Read, not checked again here: screens:check and the composer's tests check the files.
const catalogue: ScreenCatalogue = loadScreenCatalogue({
  dir: defaultScreensDir,
  translate: translations.translate,
  check: false,
});
const fileOf = (id: string) =>
  JSON.parse(readFileSync(join(defaultScreensDir, `${id}.json`), 'utf8')) as {
    widget_list: Record<string, unknown>[];
  } & Record<string, unknown>;

/** login.json with the heading's text replaced by `text`. */
function loginWithHeading(text: unknown) {
  const doc = fileOf('login');
  const heading = doc.widget_list.find((w) => w.id === 'heading')!;
  heading.contents = { ...(heading.contents as object), text };
  return doc;
}

let app: FastifyInstance;
beforeAll(async () => {
  // Every screen request checks the database (0 ms): the multi-instance test below sets its own.
  app = await buildTestApp({
    screens: catalogue,
    config: { supportStaffToken: TOKEN, screenVersionsCheckMs: 0 },
  });
});

const upload = (screenId: string, body: Record<string, unknown>, headers: Record<string, string> = auth) =>
  app.inject({ method: 'POST', url: `${STAFF_SCREENS}/${screenId}/versions`, headers, payload: body });
const publish = (screenId: string, body: Record<string, unknown>) =>
  app.inject({ method: 'POST', url: `${STAFF_SCREENS}/${screenId}/publish`, headers: auth, payload: body });
const rollback = (screenId: string, body: Record<string, unknown>) =>
  app.inject({ method: 'POST', url: `${STAFF_SCREENS}/${screenId}/rollback`, headers: auth, payload: body });
const heading = async (target: FastifyInstance = app, headers: Record<string, string> = {}) => {
  const res = await target.inject({ url: `${SCREEN}/login`, headers });
  expect(res.statusCode).toBe(200);
  const data = res.json().data as { widget_list: { id: string; contents: { text?: string } }[] };
  return {
    text: data.widget_list.find((w) => w.id === 'heading')?.contents.text,
    version: res.headers['x-screen-version'],
  };
};

describe('staff API of the screens’ versions: refusals', () => {
  it('needs the staff token: none or a wrong one is 401, and no token configured is 404', async () => {
    const refused: Record<string, string>[] = [
      {},
      { authorization: 'Bearer wrong-token' },
      { authorization: TOKEN },
    ];
    for (const headers of refused) {
      const res = await upload('login', { author: 'a@b.c', definition: fileOf('login') }, headers);
      expect(res.statusCode).toBe(401);
      expect(res.json().error.code).toBe('ONB_STAFF_UNAUTHORIZED');
      const list = await app.inject({ url: STAFF_SCREENS, headers });
      expect(list.statusCode).toBe(401);
    }
    const off = await buildTestApp({ screens: catalogue, config: { supportStaffToken: null } });
    const res = await off.inject({ url: `${STAFF_SCREENS}/login/versions`, headers: auth });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('ONB_NOT_FOUND');
  });

  it('refuses an unknown screen, an unknown version and bodies with unlisted or missing fields', async () => {
    const unknown = await upload('no_such_screen', { author: 'a@b.c', definition: fileOf('login') });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error.code).toBe('ONB_SCREEN_NOT_FOUND');
    const list = await app.inject({ url: `${STAFF_SCREENS}/no_such_screen/versions`, headers: auth });
    expect(list.json().error.code).toBe('ONB_SCREEN_NOT_FOUND');
    for (const call of [publish, rollback]) {
      const res = await call('login', { author: 'a@b.c', version: 9999 });
      expect(res.statusCode).toBe(404);
      expect(res.json().error.code).toBe('ONB_SCREEN_VERSION_NOT_FOUND');
    }
    const extra = await upload('login', { author: 'a@b.c', definition: fileOf('login'), sneaky: 1 });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().error.code).toBe('ONB_INVALID_INPUT');
    const noAuthor = await publish('login', { version: 0 });
    expect(noAuthor.statusCode).toBe(400);
    const badRollout = await publish('login', { author: 'a', version: 0, rollout: { percent: 100 } });
    expect(badRollout.statusCode).toBe(400);
    const badQuery = await app.inject({ url: `${STAFF_SCREENS}/audit?limit=0`, headers: auth });
    expect(badQuery.statusCode).toBe(400);
  });

  it('refuses an invalid definition with the reasons: file and JSON path', async () => {
    const wrongWidget = fileOf('login');
    wrongWidget.widget_list[2] = { id: 'heading', widget_type: 'no_such_widget', contents: {} };
    const schema = await upload('login', { author: 'a@b.c', definition: wrongWidget });
    expect(schema.statusCode).toBe(400);
    expect(schema.json().error.code).toBe('ONB_SCREEN_DEFINITION_INVALID');
    expect(schema.json().error.details.reasons[0]).toMatchObject({
      file: 'screens/login.json (uploaded)',
      path: '/widget_list/2/widget_type',
    });

    const missingKey = await upload('login', {
      author: 'a@b.c',
      definition: loginWithHeading({ $t: 'screens.login.no_such_key' }),
    });
    expect(missingKey.statusCode).toBe(400);
    const [reason] = missingKey.json().error.details.reasons as { path: string; detail: string }[];
    expect(reason!.path).toBe('/widget_list/2/contents/text');
    expect(reason!.detail).toMatch(/translation key 'screens\.login\.no_such_key' not found \(context /);

    // Contents breaking the widget's schema, in a fixture context (composition is checked, not only the shape).
    const badContents = await upload('login', { author: 'a@b.c', definition: loginWithHeading(42) });
    expect(badContents.json().error.details.reasons[0].path).toBe('/widget_list/2/contents/text');

    const otherId = await upload('login', {
      author: 'a@b.c',
      definition: { ...fileOf('login'), screen_id: 'sign_up' },
    });
    expect(otherId.json().error.details.reasons[0]).toMatchObject({ path: '/screen_id' });

    const madePublic = await upload('dashboard', {
      author: 'a@b.c',
      definition: { ...fileOf('dashboard'), public: true },
    });
    expect(madePublic.json().error.details.reasons[0]).toMatchObject({ path: '/public' });

    // Nothing refused was stored.
    const list = await app.inject({ url: `${STAFF_SCREENS}/login/versions`, headers: auth });
    expect(list.json().data.versions.map((v: { version: number }) => v.version)).toEqual([0]);
    const audit = await app.inject({ url: `${STAFF_SCREENS}/audit?screen_id=dashboard`, headers: auth });
    expect(audit.json().data.entries).toEqual([]);
  });
});

describe('staff API of the screens’ versions: upload, publish, rollback, audit', () => {
  it('publishes an uploaded version to the next load and rolls back to the file in one call', async () => {
    const before = await heading();
    expect(before).toEqual({ text: 'Welcome back', version: '0' });

    const up = await upload('login', {
      author: 'designer@example.com',
      note: 'Friendlier heading',
      definition: loginWithHeading('Good to see you again'),
    });
    expect(up.statusCode).toBe(201);
    const { version } = up.json().data.version as { version: number };
    expect(version).toBeGreaterThan(0);
    // Uploaded is not published.
    expect(await heading()).toEqual(before);

    const pub = await publish('login', { author: 'designer@example.com', version });
    expect(pub.statusCode).toBe(200);
    expect(pub.json().data.release).toMatchObject({
      version,
      rollout: null,
      updated_by: 'designer@example.com',
    });
    expect(await heading()).toEqual({ text: 'Good to see you again', version: String(version) });
    // In Arabic too: a literal is the same in every language, the rest of the screen is translated.
    const ar = await app.inject({ url: `${SCREEN}/login`, headers: { httpxoyolang: 'ar' } });
    expect(ar.json().data.title).not.toBe((await app.inject(`${SCREEN}/login`)).json().data.title);

    const back = await rollback('login', { author: 'lead@example.com', version: 0 });
    expect(back.statusCode).toBe(200);
    expect(back.json().data.release).toMatchObject({ version: 0, updated_by: 'lead@example.com' });
    expect(await heading()).toEqual(before);

    const list = await app.inject({ url: `${STAFF_SCREENS}/login/versions`, headers: auth });
    expect(list.statusCode).toBe(200);
    expect(list.headers['cache-control']).toBe('no-store');
    const versions = list.json().data.versions as {
      version: number;
      created_by: string | null;
      note: string | null;
    }[];
    expect(versions[0]).toMatchObject({
      version,
      created_by: 'designer@example.com',
      note: 'Friendlier heading',
    });
    expect(versions.at(-1)).toMatchObject({ version: 0, created_by: null });

    const audit = await app.inject({ url: `${STAFF_SCREENS}/audit?screen_id=login&limit=3`, headers: auth });
    const entries = audit.json().data.entries as {
      action: string;
      version: number;
      actor: string;
      at: string;
    }[];
    expect(entries.map((e) => [e.action, e.version, e.actor])).toEqual([
      ['rollback', 0, 'lead@example.com'],
      ['publish', version, 'designer@example.com'],
      ['upload', version, 'designer@example.com'],
    ]);
    expect(entries.every((e) => !Number.isNaN(Date.parse(e.at)))).toBe(true);

    const releases = await app.inject({ url: STAFF_SCREENS, headers: auth });
    expect(
      releases.json().data.screens.find((r: { screen_id: string }) => r.screen_id === 'login'),
    ).toMatchObject({
      version: 0,
    });
  });

  it('rolls out by a stable share of owners, and by a feature flag', async () => {
    const up = await upload('dashboard', { author: 'a@b.c', definition: fileOf('dashboard') });
    const v1 = up.json().data.version.version as number;
    const pub = await publish('dashboard', { author: 'a@b.c', version: v1, rollout: { percent: 30 } });
    expect(pub.json().data.release).toMatchObject({
      version: v1,
      previous_version: 0,
      rollout: { percent: 30 },
    });
    const owners = Array.from(
      { length: 200 },
      (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    );
    const got = owners.map((o) => app.screenVersions.pick('dashboard', o, {}).version);
    owners.forEach((o, i) => expect(got[i]).toBe(rolloutBucket('dashboard', o) < 30 ? v1 : 0));
    const share = got.filter((v) => v === v1).length / owners.length;
    expect(share).toBeGreaterThan(0.15);
    expect(share).toBeLessThan(0.45);
    // Stable: the same owner gets the same version on every load.
    expect(owners.map((o) => app.screenVersions.pick('dashboard', o, {}).version)).toEqual(got);
    expect(app.screenVersions.pick('dashboard', null, {}).version).toBe(0);

    // A real owner's request resolves to their bucket's version.
    const cookie = await signInNewOwner(app);
    const { id: userId } = await app.db
      .selectFrom('users')
      .select('id')
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    const res = await app.inject({ url: `${SCREEN}/dashboard`, headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-screen-version']).toBe(String(rolloutBucket('dashboard', userId) < 30 ? v1 : 0));

    await publish('dashboard', { author: 'a@b.c', version: v1, rollout: { flag: 'enable_new_dashboard' } });
    expect(app.screenVersions.pick('dashboard', owners[0]!, { enable_new_dashboard: true }).version).toBe(v1);
    expect(app.screenVersions.pick('dashboard', owners[0]!, {}).version).toBe(0);
    const full = await publish('dashboard', { author: 'a@b.c', version: v1 });
    expect(full.json().data.release).toMatchObject({ version: v1, previous_version: null, rollout: null });
    // The next rollout keeps everyone else on the fully published version.
    const v2 = (await upload('dashboard', { author: 'a@b.c', definition: fileOf('dashboard') })).json().data
      .version.version as number;
    const next = await publish('dashboard', { author: 'a@b.c', version: v2, rollout: { percent: 10 } });
    expect(next.json().data.release).toMatchObject({ version: v2, previous_version: v1 });
    await rollback('dashboard', { author: 'a@b.c', version: 0 });
  });

  it('a composed screen never mixes versions: a request keeps the version it resolved', async () => {
    const v = (await upload('login', { author: 'a@b.c', definition: loginWithHeading('Version A') })).json()
      .data.version.version as number;
    await publish('login', { author: 'a@b.c', version: v });
    const pick = app.screenVersions.pick('login', null, {});
    await rollback('login', { author: 'a@b.c', version: 0 });
    const ctx = JSON.parse(
      readFileSync(join(defaultScreensDir, 'fixtures', 'contexts', 'anonymous.json'), 'utf8'),
    ) as Parameters<typeof pick.compose>[0];
    const payload = pick.compose(ctx);
    expect(payload.widget_list.find((w) => w.id === 'heading')?.contents).toMatchObject({
      text: 'Version A',
    });
    expect(app.screenVersions.pick('login', null, {}).version).toBe(0);
  });

  it('another instance serves a publish without a restart, within its check interval', async () => {
    let clock = 1_000_000;
    // A second server over the same database, checking for changes at most every 60 s of its clock.
    const other = await buildTestApp({
      screens: catalogue,
      db: await sharedDatabase(),
      now: () => clock,
      config: { supportStaffToken: TOKEN, screenVersionsCheckMs: 60_000 },
    });
    expect((await heading(other)).version).toBe('0');
    const seen = other.screenVersions.revision();
    expect(other.screenVersions.due()).toBe(false);
    const v = (
      await upload('login', { author: 'a@b.c', definition: loginWithHeading('From another instance') })
    ).json().data.version.version as number;
    await publish('login', { author: 'a@b.c', version: v });
    // Its last check is recent: it still serves what it had (the public cache is per version, so not stale).
    expect(await heading(other)).toEqual({ text: 'Welcome back', version: '0' });
    expect(other.screenVersions.revision()).toBe(seen);
    clock += 60_000;
    expect(other.screenVersions.due()).toBe(true);
    expect(await heading(other)).toEqual({ text: 'From another instance', version: String(v) });
    expect(other.screenVersions.revision()).not.toBe(seen);
    expect(other.screenVersions.due()).toBe(false);
    await rollback('login', { author: 'a@b.c', version: 0 });
    clock += 60_000;
    expect(await heading(other)).toEqual({ text: 'Welcome back', version: '0' });
  });
});

describe('a published version that no longer passes the checks', () => {
  it('is not served after a deploy that breaks it: the file is, and the problem is logged', async () => {
    // As if stored under an earlier deploy whose locales had this key.
    const broken = loginWithHeading({ $t: 'screens.login.key_of_an_earlier_deploy' });
    await app.db
      .insertInto('screen_versions')
      .values({
        screen_id: 'login',
        version: 900,
        definition: JSON.stringify(broken),
        created_by: 'old@deploy',
      })
      .execute();
    const logged: string[] = [];
    const other = await buildTestApp({
      screens: catalogue,
      db: await sharedDatabase(),
      config: { supportStaffToken: TOKEN, screenVersionsCheckMs: 0 },
      logger: {
        level: 'error',
        stream: { write: (line: string) => void logged.push(line) },
      },
    });
    const pub = await other.inject({
      method: 'POST',
      url: `${STAFF_SCREENS}/login/publish`,
      headers: auth,
      payload: { author: 'a@b.c', version: 900 },
    });
    expect(pub.statusCode).toBe(200);
    expect(await heading(other)).toEqual({ text: 'Welcome back', version: '0' });
    expect(logged.join('')).toContain(
      "version 900: translation key 'screens.login.key_of_an_earlier_deploy' not found",
    );
    await rollback('login', { author: 'a@b.c', version: 0 });
  });
});

describe('screens fitted to what the client draws (issue 16 item 4)', () => {
  it('an older client gets the fallback of a widget it cannot draw; without the header, today’s payload', async () => {
    // A version whose social sign-in buttons fall back to a line of text for clients without that widget.
    const doc = fileOf('login');
    const social = doc.widget_list.find((w) => w.id === 'social_login')!;
    social.fallback = {
      id: 'social_login_text',
      widget_type: 'text',
      contents: { text: { $t: 'screens.login.intro' }, variant: 'caption' },
    };
    const v = (await upload('login', { author: 'a@b.c', definition: doc })).json().data.version
      .version as number;
    expect(v).toBeGreaterThan(0);
    await publish('login', { author: 'a@b.c', version: v });

    const all = knownWidgetTypes.join(',');
    const older = knownWidgetTypes.filter((t) => t !== 'social_login_buttons').join(',');
    const get = (headers: Record<string, string>) => app.inject({ url: `${SCREEN}/login`, headers });
    const ids = (res: Awaited<ReturnType<typeof get>>) =>
      (res.json().data.widget_list as { id: string; widget_type: string }[]).map((w) => w.id);

    const today = await get({});
    expect(ids(today)).toContain('social_login');
    expect(today.headers.vary).toContain('x-widget-types');
    const current = await get({ 'x-widget-types': all, 'x-schema-version': '1' });
    expect(current.json().data).toEqual(today.json().data);
    const old = await get({ 'x-widget-types': older, 'x-schema-version': '1' });
    expect(ids(old)).not.toContain('social_login');
    expect(ids(old)).toContain('social_login_text');
    expect(
      old
        .json()
        .data.widget_list.every((w: { widget_type: string }) => w.widget_type !== 'social_login_buttons'),
    ).toBe(true);
    // Kept per capability set: each answer has its own ETag, and revalidates against it.
    expect(old.headers.etag).not.toBe(today.headers.etag);
    const again = await get({ 'x-widget-types': older, 'if-none-match': String(old.headers.etag) });
    expect(again.statusCode).toBe(304);
    const mismatch = await get({ 'if-none-match': String(old.headers.etag) });
    expect(mismatch.statusCode).toBe(200);

    // A signed-in screen is fitted too (never kept): the dashboard's widgets the client lacks are left out.
    const cookie = await signInNewOwner(app);
    const dash = await app.inject({
      url: `${SCREEN}/dashboard`,
      headers: { cookie, 'x-widget-types': 'text' },
    });
    expect(dash.statusCode).toBe(200);
    const types = (dash.json().data.widget_list as { widget_type: string }[]).map((w) => w.widget_type);
    expect(types.length).toBeGreaterThan(0);
    expect(types.every((t) => t === 'text')).toBe(true);
    const bad = await app.inject({ url: `${SCREEN}/login`, headers: { 'x-schema-version': 'one' } });
    expect(bad.statusCode).toBe(400);
    await rollback('login', { author: 'a@b.c', version: 0 });
  });
});
