import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultScreensDir } from '../app';
import { createTranslations } from '../services/translations';
import { buildTestApp } from '../test-helpers';
import { loadScreenCatalogue } from './composer';
import { runScreensCli } from './publish';

/** `npm run screens:publish` against a real server listening on a loopback port. */
const TOKEN = 'staff-cli-token-0123456789';
let app: FastifyInstance;
let url: string;
beforeAll(async () => {
  app = await buildTestApp({
    screens: loadScreenCatalogue({
      dir: defaultScreensDir,
      translate: createTranslations().translate,
      check: false,
    }),
    config: { supportStaffToken: TOKEN, screenVersionsCheckMs: 0 },
  });
  url = await app.listen({ port: 0, host: '127.0.0.1' });
});

async function cli(
  args: string[],
  env: Record<string, string> = { SUPPORT_STAFF_TOKEN: TOKEN },
  screensDir?: string,
) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runScreensCli([...args, '--url', url, '--author', 'cli@example.com'], {
    env,
    fetch,
    out: (l) => out.push(l),
    err: (l) => err.push(l),
    ...(screensDir ? { screensDir } : {}),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const heading = async () => {
  const res = await fetch(`${url}/hms_ms/api/v1/screens/login`);
  const data = (await res.json()) as { data: { widget_list: { id: string; contents: { text?: string } }[] } };
  return data.data.widget_list.find((w) => w.id === 'heading')?.contents.text;
};

describe('npm run screens:publish', () => {
  it('uploads a file, publishes it, lists, audits and rolls back', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'screens-cli-'));
    const doc = JSON.parse(readFileSync(join(defaultScreensDir, 'login.json'), 'utf8')) as {
      widget_list: { id: string; contents: Record<string, unknown> }[];
    };
    doc.widget_list.find((w) => w.id === 'heading')!.contents.text = 'Hello from the CLI';
    const file = join(dir, 'login.json');
    writeFileSync(file, JSON.stringify(doc));

    const up = await cli(['upload', 'login', file, '--note', 'CLI heading']);
    expect(up.err).toBe('');
    expect(up.code).toBe(0);
    const version = Number(/version (\d+)/.exec(up.out)![1]);
    expect(version).toBeGreaterThan(0);
    expect(await heading()).toBe('Welcome back');

    const pub = await cli(['publish', 'login', String(version)]);
    expect(pub).toMatchObject({ code: 0, out: `login: version ${version} published to every owner` });
    expect(await heading()).toBe('Hello from the CLI');

    const list = await cli(['list', 'login']);
    expect(list.out.split('\n')[0]).toMatch(
      new RegExp(`^\\* ${version}\\t.*\\tcli@example.com\\tCLI heading$`),
    );
    const audit = await cli(['audit', 'login']);
    expect(
      audit.out
        .split('\n')
        .slice(0, 2)
        .map((l) => l.split('\t').slice(1, 3)),
    ).toEqual([
      ['cli@example.com', 'publish'],
      ['cli@example.com', 'upload'],
    ]);

    const back = await cli(['rollback', 'login', '0']);
    expect(back).toMatchObject({ code: 0, out: 'login: version 0 restored to every owner' });
    expect(await heading()).toBe('Welcome back');
  });

  it('publishes a change to a fragment with the screen that uses it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'screens-cli-'));
    cpSync(defaultScreensDir, dir, { recursive: true });
    const fragmentFile = join(dir, 'login', 'role.json');
    const fragment = JSON.parse(readFileSync(fragmentFile, 'utf8')) as {
      value: { id: string; contents: { label?: unknown } }[];
    };
    fragment.value.find((w) => w.id === 'role')!.contents.label = 'Who are you? (from a fragment)';
    writeFileSync(fragmentFile, JSON.stringify(fragment));
    const roleLabel = async () => {
      const res = await fetch(`${url}/hms_ms/api/v1/screens/login`);
      const data = (await res.json()) as {
        data: { widget_list: { id: string; contents: { label?: string } }[] };
      };
      return data.data.widget_list.find((w) => w.id === 'role')?.contents.label;
    };
    const before = await roleLabel();

    const up = await cli(['upload', 'login'], undefined, dir);
    expect(up.err).toBe('');
    const version = Number(/version (\d+)/.exec(up.out)![1]);
    expect((await cli(['publish', 'login', String(version)])).code).toBe(0);
    expect(await roleLabel()).toBe('Who are you? (from a fragment)');

    expect((await cli(['rollback', 'login', '0'])).code).toBe(0);
    expect(await roleLabel()).toBe(before);
  });

  it('names the fragment file of a broken fragment and uploads nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'screens-cli-'));
    cpSync(defaultScreensDir, dir, { recursive: true });
    writeFileSync(join(dir, 'login', 'role.json'), '{ not json');
    const up = await cli(['upload', 'login'], undefined, dir);
    expect(up.code).toBe(1);
    expect(up.err).toContain(join(dir, 'login', 'role.json'));
    expect(up.out).toBe('');
  });

  it('prints the reasons of a refused definition and exits 1; bad usage exits 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'screens-cli-'));
    const file = join(dir, 'login.json');
    writeFileSync(file, JSON.stringify({ screen_id: 'login', widget_list: [{ id: 'x' }] }));
    const bad = await cli(['upload', 'login', file]);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('ONB_SCREEN_DEFINITION_INVALID');
    expect(bad.err).toMatch(/screens\/login\.json \(uploaded\) at \/widget_list\/0/);

    expect((await cli(['publish', 'login', '999'])).err).toContain('ONB_SCREEN_VERSION_NOT_FOUND');
    expect((await cli(['publish', 'login'])).code).toBe(2);
    expect((await cli(['list'], {})).code).toBe(2);
    const wrong = await cli(['list'], { SUPPORT_STAFF_TOKEN: 'wrong' });
    expect(wrong.code).toBe(1);
    expect(wrong.err).toContain('ONB_STAFF_UNAUTHORIZED');
  });
});
