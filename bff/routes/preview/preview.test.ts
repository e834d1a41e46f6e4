import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { PreviewCatalogue, PreviewCheck, ScreenPayload } from '../../../schemas/generated/types';
import { defaultScreensDir } from '../../app';
import { buildTestApp } from '../../test-helpers';

const BASE = '/hms_ms/api/v1/preview';
const TOKEN = 'preview-staff-token-0123456789';
/** A production configuration the server accepts (codes go to a webhook). */
const production = {
  nodeEnv: 'production',
  messageTransport: 'webhook' as const,
  messageWebhookUrl: 'https://hooks.example.com/messages',
};

describe('the staff preview', () => {
  it('lists the screens, fixture contexts and 19 languages, and composes any of them in development', async () => {
    const app = await buildTestApp();
    const catalogue = (await app.inject(BASE)).json<{ data: PreviewCatalogue }>().data;
    expect(catalogue.screens).toContainEqual({ screen_id: 'login', public: true });
    expect(catalogue.screens).toContainEqual({ screen_id: 'task_details', public: false });
    expect(catalogue.contexts).toContainEqual({ name: 'anonymous.json', signed_in: false });
    expect(catalogue.contexts).toContainEqual({ name: 'owner-task-address.json', signed_in: true });
    expect(catalogue.locales).toHaveLength(19);

    const check = await app.inject(`${BASE}/check/task_details?context=owner-task-address.json`);
    expect(check.json<{ data: PreviewCheck }>().data).toEqual({ ok: true });
    const screen = await app.inject({
      url: `${BASE}/screens/task_details?context=owner-task-address.json`,
      headers: { httpxoyolang: 'ar' },
    });
    expect(screen.statusCode).toBe(200);
    const payload = screen.json<{ data: ScreenPayload }>().data;
    expect(payload.widget_list.map((w) => w.id)).toContain('map_pin');
    expect(payload.title).toBe('موقع العقار');
  });

  it('tells the file and JSON path of a definition that does not compose', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'preview-'));
    cpSync(join(defaultScreensDir, 'fixtures'), join(dir, 'fixtures'), { recursive: true });
    mkdirSync(join(dir, 'parts'));
    writeFileSync(
      join(dir, 'probe.json'),
      JSON.stringify({ screen_id: 'probe', public: true, widget_list: [{ $use: 'parts/bad' }] }),
    );
    writeFileSync(
      join(dir, 'parts', 'bad.json'),
      JSON.stringify({ value: [{ id: 'a', widget_type: 'text', contents: { text: 42 } }] }),
    );
    const app = await buildTestApp({ screensDir: dir });
    const check = await app.inject(`${BASE}/check/probe?context=anonymous.json`);
    expect(check.json<{ data: PreviewCheck }>().data).toEqual({
      ok: false,
      file: 'parts/bad.json',
      path: '/value/0/contents/text',
      detail: expect.stringMatching(
        /^must be string \(used by .*probe\.json at \/widget_list\/0\)$/,
      ) as unknown,
    });
    expect((await app.inject(`${BASE}/screens/probe?context=anonymous.json`)).statusCode).toBe(404);
    expect((await app.inject(`${BASE}/check/nope?context=anonymous.json`)).statusCode).toBe(404);
    expect((await app.inject(`${BASE}/check/probe?context=nope.json`)).statusCode).toBe(404);
    expect((await app.inject(`${BASE}/check/probe?context=../x.json`)).statusCode).toBe(400);
    expect((await app.inject(`${BASE}/check/probe`)).statusCode).toBe(400);
  });

  it('in production, only staff with the support token', async () => {
    const closed = await buildTestApp({ config: { ...production, supportStaffToken: null } });
    expect((await closed.inject(BASE)).statusCode).toBe(404);

    const app = await buildTestApp({ config: { ...production, supportStaffToken: TOKEN } });
    const anonymous = await app.inject(`${BASE}/screens/login?context=anonymous.json`);
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json<{ error: { code: string } }>().error.code).toBe('ONB_STAFF_UNAUTHORIZED');
    const wrong = await app.inject({ url: BASE, headers: { authorization: `Bearer ${TOKEN}x` } });
    expect(wrong.statusCode).toBe(401);
    const staff = await app.inject({
      url: `${BASE}/screens/login?context=anonymous.json`,
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(staff.statusCode).toBe(200);
    expect(staff.json<{ data: ScreenPayload }>().data.screen_id).toBe('login');
  });

  it('lets only the preview frames be framed, by pages of the same origin', async () => {
    const app = await buildTestApp();
    const csp = async (url: string) =>
      (await app.inject({ url, headers: { accept: 'text/html' } })).headers['content-security-policy'];
    expect(await csp('/__preview/screens/frame?screen=login&context=anonymous.json')).toContain(
      "frame-ancestors 'self'",
    );
    expect(await csp('/__preview/screens')).toContain("frame-ancestors 'none'");
    expect(await csp('/propertyOnboard/login')).toContain("frame-ancestors 'none'");
  });
});
