import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultScreensDir } from '../../app';
import { loadScreenCatalogue, type ScreenCatalogue } from '../../screens/composer';
import { createTranslations } from '../../services/translations';
import {
  buildTestApp,
  createTestLead,
  sharedDatabase,
  signInNewOwner,
  stubScreens,
} from '../../test-helpers';
import { compressedBodies, keptByKey } from '.';

/**
 * The stub catalogue with a long text on every screen (so the answer is compressed), counting compositions and
 * the requests that looked a screen up (`has`: each one the route resolves rather than answers as kept).
 */
function countingScreens(): ScreenCatalogue & { composed: () => number; looked: () => number } {
  const stub = stubScreens();
  let count = 0;
  let looked = 0;
  return {
    ...stub,
    has: (id) => {
      looked += 1;
      return stub.has(id);
    },
    looked: () => looked,
    compose: (id, ctx) => {
      count += 1;
      const payload = stub.compose(id, ctx);
      payload.widget_list.push({
        id: 'long',
        widget_type: 'text',
        contents: { text: `${ctx.locale} ${'a long paragraph of help text. '.repeat(60)}` },
      });
      return payload;
    },
    composed: () => count,
  };
}

/** `screens` drawing, as a last text widget, what `text` makes of the context's lead. */
function drawingOfLead(screens: ScreenCatalogue, text: (lead: unknown) => string): ScreenCatalogue {
  return {
    ...screens,
    compose: (id, ctx) => {
      const payload = screens.compose(id, ctx);
      payload.widget_list.push({ id: 'lead', widget_type: 'text', contents: { text: text(ctx.lead) } });
      return payload;
    },
  };
}

// The file's database is created once, in a hook (it takes seconds on a loaded machine).
beforeAll(async () => {
  await sharedDatabase();
});

describe('public screens, composed once per language, country and query', () => {
  it('answers the same bytes with an ETag, no-cache, and 304 to a matching If-None-Match', async () => {
    const screens = countingScreens();
    const app = await buildTestApp({ screens });
    const url = '/hms_ms/api/v1/screens/public_test';
    const first = await app.inject(url);
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('no-cache');
    expect(first.headers.etag).toMatch(/^"[\w-]+"$/);
    expect(String(first.headers.vary)).toContain('httpxoyolang');
    expect(first.json().data.title).toBe('public_test en-GB');

    const again = await app.inject(url);
    expect(again.body).toBe(first.body);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(screens.composed()).toBe(1);

    const revalidated = await app.inject({ url, headers: { 'if-none-match': first.headers.etag! } });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.body).toBe('');
    expect(revalidated.headers.etag).toBe(first.headers.etag);

    const stale = await app.inject({ url, headers: { 'if-none-match': '"something-else"' } });
    expect(stale.statusCode).toBe(200);
    expect(stale.body).toBe(first.body);

    // Another language, country or query is another screen.
    const arabic = await app.inject({ url, headers: { httpxoyolang: 'ar' } });
    expect(arabic.json().data.title).toBe('public_test ar');
    expect(arabic.headers.etag).not.toBe(first.headers.etag);
    const indonesia = await app.inject({ url, headers: { user_url_country: 'ID' } });
    expect(indonesia.json().data.widget_list[1].contents.text).toBe('ID');
    await app.inject(`${url}?ref=abc`);
    expect(screens.composed()).toBe(4);
  });

  it('answers a request that names what an earlier one named as kept, without resolving it again', async () => {
    const screens = countingScreens();
    // A clock that stands still: the releases in memory stay current, so the request alone decides.
    const app = await buildTestApp({ screens, now: () => 1_000_000 });
    const url = '/hms_ms/api/v1/screens/public_test?ref=abc';
    const headers = {
      httpxoyolang: 'ar',
      user_url_country: 'ID',
      'x-widget-types': 'text,button',
      'x-schema-version': '1',
    };
    const first = await app.inject({ url, headers });
    expect(first.statusCode).toBe(200);
    const looked = screens.looked();
    const again = await app.inject({ url, headers });
    expect(again.body).toBe(first.body);
    expect(again.headers.etag).toBe(first.headers.etag);
    expect(again.headers['x-screen-version']).toBe(first.headers['x-screen-version']);
    expect(screens.looked()).toBe(looked);

    // Any part of what it names changed: resolved again, and answered for what it names.
    const changed = async (request: { url?: string; headers?: Record<string, string> }) => {
      const before = screens.looked();
      const res = await app.inject({ url: request.url ?? url, headers: request.headers ?? headers });
      expect(res.statusCode).toBe(200);
      expect(screens.looked()).toBe(before + 1);
      return res.json().data as { title: string; widget_list: { contents: { text?: string } }[] };
    };
    await changed({ url: '/hms_ms/api/v1/screens/public_test?ref=abd' });
    expect((await changed({ headers: { ...headers, httpxoyolang: 'en-GB' } })).title).toBe(
      'public_test en-GB',
    );
    expect(
      (await changed({ headers: { ...headers, user_url_country: 'IN' } })).widget_list[1]?.contents.text,
    ).toBe('IN');
    await changed({ headers: { ...headers, 'x-widget-types': 'text' } });
    const { 'x-schema-version': _, ...withoutVersion } = headers;
    await changed({ headers: withoutVersion });
    // Asked again, each is kept too.
    const settled = screens.looked();
    await app.inject({ url, headers: { ...headers, user_url_country: 'IN' } });
    expect(screens.looked()).toBe(settled);
  });

  it('sends the kept brotli copy to a browser that accepts it', async () => {
    const app = await buildTestApp({ screens: countingScreens() });
    const url = '/hms_ms/api/v1/screens/public_test';
    const plain = await app.inject(url);
    const br = await app.inject({ url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^application\/json/);
    expect(String(br.headers.vary)).toContain('accept-encoding');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    const gz = await app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
  });

  it('never shares what is drawn for a signed-in user, and composes it again when what it is drawn from changes', async () => {
    const screens = countingScreens();
    const app = await buildTestApp({ screens });
    const url = '/hms_ms/api/v1/screens/public_test';
    const anonymous = await app.inject(url);
    const cookie = await signInNewOwner(app);
    const mine = await app.inject({ url, headers: { cookie } });
    expect(mine.statusCode).toBe(200);
    expect(mine.headers['cache-control']).toBe('no-store');
    expect(mine.headers.etag).toBeUndefined();
    expect(mine.json().data.widget_list[0].contents.text).toMatch(/^\+91/);
    // The same owner with nothing changed: the same body, not composed again.
    expect((await app.inject({ url, headers: { cookie } })).body).toBe(mine.body);
    expect(screens.composed()).toBe(2);
    // Another language, another owner: composed for them.
    const arabic = await app.inject({ url, headers: { cookie, httpxoyolang: 'ar' } });
    expect(arabic.json().data.title).toBe('public_test ar');
    const other = await app.inject({ url, headers: { cookie: await signInNewOwner(app) } });
    expect(other.json().data.widget_list[0].contents.text).not.toBe(
      mine.json().data.widget_list[0].contents.text,
    );
    expect(screens.composed()).toBe(4);
    // The anonymous copy is unchanged.
    expect((await app.inject(url)).body).toBe(anonymous.body);
  });
});

describe('a signed-in screen', () => {
  it('is compressed for a browser that accepts it, and never cached by HTTP', async () => {
    const screens = countingScreens();
    const app = await buildTestApp({ screens });
    const url = '/hms_ms/api/v1/screens/private_test';
    const cookie = await signInNewOwner(app);
    const plain = await app.inject({ url, headers: { cookie } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    for (let i = 0; i < 2; i++) {
      const br = await app.inject({ url, headers: { cookie, 'accept-encoding': 'gzip, deflate, br' } });
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['cache-control']).toBe('no-store');
      expect(br.headers['content-type']).toMatch(/^application\/json/);
      expect(String(br.headers.vary)).toBe(
        'httpxoyolang, cookie, x-widget-types, x-schema-version, accept-encoding',
      );
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(plain.body);
    }
    const gz = await app.inject({ url, headers: { cookie, 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(plain.body);
    // Nothing it is drawn from changed between these requests.
    expect(screens.composed()).toBe(1);
  });
});

describe('a signed-in screen drawn from the database', () => {
  it('shows data changed since the last request (another lead is the newest)', async () => {
    const stub = countingScreens();
    const screens = drawingOfLead(stub, (lead) =>
      String((lead as { title?: string } | null)?.title ?? 'none'),
    );
    const app = await buildTestApp({ screens });
    const url = '/hms_ms/api/v1/screens/private_test';
    const cookie = await signInNewOwner(app);
    const leadText = async () =>
      (await app.inject({ url, headers: { cookie } })).json().data.widget_list.at(-1).contents.text;
    expect(await leadText()).toBe('none');
    await createTestLead(app, cookie, { title: 'First Residency' });
    expect(await leadText()).toBe('First Residency');
    expect(await leadText()).toBe('First Residency');
    await createTestLead(app, cookie, { title: 'Second Residency' });
    expect(await leadText()).toBe('Second Residency');
    expect(stub.composed()).toBe(3);
  });

  it('composes again when a value deep in the lead changed (a section saved), and not when nothing did', async () => {
    const stub = countingScreens();
    const screens = drawingOfLead(stub, (lead) => {
      const sections = (lead as { sections?: Record<string, { data?: { title?: string } }> } | null)
        ?.sections;
      return String(sections?.basic_info?.data?.title ?? 'none');
    });
    const app = await buildTestApp({ screens });
    const url = '/hms_ms/api/v1/screens/private_test';
    const cookie = await signInNewOwner(app);
    const lead = await createTestLead(app, cookie, { title: 'First Residency' });
    const title = async () =>
      (await app.inject({ url, headers: { cookie } })).json().data.widget_list.at(-1).contents.text;
    const before = await title();
    expect(await title()).toBe(before);
    expect(stub.composed()).toBe(1);
    const leadUrl = `/hms_ms/api/v1/onboard/leads/${lead.property_unique_id}`;
    const section = (await app.inject({ url: leadUrl, headers: { cookie } })).json().data.lead.sections
      .basic_info;
    const saved = await app.inject({
      method: 'PUT',
      url: `${leadUrl}/sections/basic_info`,
      headers: { cookie },
      payload: {
        data: { ...section.data, title: 'Sea View Residency & Spa' },
        version: section.version,
        draft: true,
      },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await title()).toBe('Sea View Residency & Spa');
    expect(await title()).toBe('Sea View Residency & Spa');
    expect(stub.composed()).toBe(2);
  });

  it('of the real catalogue, asked again with nothing changed, is not composed again', async () => {
    // Kept by a copy of its context compared with dequal: a context holding anything its copy does not equal
    // (a class instance, an object without prototype) would be composed on every request.
    const real = loadScreenCatalogue({
      dir: defaultScreensDir,
      translate: createTranslations().translate,
      check: false,
    });
    let composed = 0;
    const screens: ScreenCatalogue = {
      ...real,
      compose: (id, ctx) => {
        composed += 1;
        return real.compose(id, ctx);
      },
    };
    const app = await buildTestApp({ screens });
    const cookie = await signInNewOwner(app);
    await createTestLead(app, cookie);
    const answered: string[] = [];
    for (const id of ['task', 'images', 'kyc', 'terms', 'review', 'dashboard', 'referral', 'account']) {
      const url = `/hms_ms/api/v1/screens/${id}`;
      // The first view may write (the photos screen brings the lead's images task up to date): the second one
      // is drawn from what the third one reads too.
      if ((await app.inject({ url, headers: { cookie } })).statusCode !== 200) continue;
      answered.push(id);
      const second = await app.inject({ url, headers: { cookie } });
      const before = composed;
      expect((await app.inject({ url, headers: { cookie } })).body).toBe(second.body);
      expect(composed, id).toBe(before);
    }
    expect(answered.length).toBeGreaterThanOrEqual(6);
  });

  it('reads the same newest open lead with the session as the lead service does on its own', async () => {
    const app = await buildTestApp();
    const cookie = await signInNewOwner(app);
    const created = await createTestLead(app, cookie);
    const token = /onboard_sid=([^;]+)/.exec(cookie)![1]!;
    const found = await app.sessions.resolveWithNewestOpenLead(token);
    expect(found?.user.id).toBe((await app.sessions.resolve(token))?.id);
    expect(found?.lead).toEqual(await app.leads.newestOpen(found!.user.id));
    expect(found?.lead?.property_unique_id).toBe(created.property_unique_id);
  });
});

describe('keptByKey', () => {
  it('keeps the most recently used values', () => {
    const kept = keptByKey<string>(2);
    kept.set('a', '1', 2);
    kept.set('b', '2', 2);
    expect(kept.get('a')).toBe('1');
    kept.set('c', '3', 2);
    // b was the least recently used: dropped.
    expect(kept.get('b')).toBeUndefined();
    expect(kept.get('a')).toBe('1');
    expect(kept.get('c')).toBe('3');
    expect(kept.size).toBe(2);
  });

  it('keeps no entry longer than its limit, and drops what the key held before', () => {
    const kept = keptByKey<{ body: string }>(2, 10);
    kept.set('a', { body: '12345' }, 6);
    expect(kept.get('a')).toEqual({ body: '12345' });
    kept.set('a', { body: '1234567890' }, 11);
    expect(kept.get('a')).toBeUndefined();
    expect(kept.size).toBe(0);
  });
});

describe('compressedBodies', () => {
  it('keeps the most recently sent bodies, and a changed body is compressed anew', () => {
    const kept = compressedBodies(2);
    const a = kept.compressed('{"a":1}', 'br');
    expect(brotliDecompressSync(a).toString()).toBe('{"a":1}');
    expect(kept.compressed('{"a":1}', 'br')).toBe(a);
    expect(gunzipSync(kept.compressed('{"a":2}', 'gzip')).toString()).toBe('{"a":2}');
    kept.compressed('{"a":1}', 'br');
    kept.compressed('{"a":3}', 'br');
    // {"a":2} was the least recently sent: dropped.
    expect(kept.size).toBe(2);
    expect(kept.compressed('{"a":1}', 'br')).toBe(a);
  });
});
