/**
 * The first screen's modules in the page (issue 13 item 2): a page that draws a screen at once names the
 * chunks of that screen's lazy widgets, and the validators when the screen is not embedded, as
 * `<link rel="modulepreload">`, so that lazy loading adds no round trip after the payload.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ScreenCatalogue } from '../../screens/composer';
import { buildTestApp, sharedDatabase, signInNewOwner } from '../../test-helpers';
import { firstScreenModules, withModulePreloads, type ManifestChunk } from './static';

/** A build as Vite writes it: the entry shares a chunk with the checklist widget, which has one of its own. */
const manifest: Record<string, ManifestChunk> = {
  'index.html': { file: 'assets/index-e1.js', isEntry: true, imports: ['_runtime-r1.js'] },
  '_runtime-r1.js': { file: 'assets/runtime-r1.js' },
  '../widgets/checklist/index.ts': {
    file: 'assets/checklist-w1.js',
    imports: ['_runtime-r1.js', '_LinearProgress-l1.js'],
  },
  '_LinearProgress-l1.js': { file: 'assets/LinearProgress-l1.js', imports: ['_runtime-r1.js'] },
  '../widgets/empty-state/index.ts': { file: 'assets/empty_state-w2.js', imports: ['_runtime-r1.js'] },
  '../schemas/generated/validators.js': { file: 'assets/validators-v0.js' },
  '../schemas/generated/validators/checklist.js': { file: 'assets/checklist-v1.js' },
  '../schemas/generated/validators/text.js': { file: 'assets/text-v2.js' },
  '../schemas/generated/validators/button.js': { file: 'assets/button-v3.js' },
};

const preloadsOf = (html: string) =>
  [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((m) => m[1]);

describe('firstScreenModules', () => {
  it("lists each lazy widget's chunk with its imports, and with validators the screen's validators", () => {
    expect(firstScreenModules(manifest, ['checklist', 'text'], true)).toEqual([
      '/propertyOnboard/assets/checklist-w1.js',
      '/propertyOnboard/assets/LinearProgress-l1.js',
      '/propertyOnboard/assets/validators-v0.js',
      '/propertyOnboard/assets/checklist-v1.js',
      '/propertyOnboard/assets/text-v2.js',
    ]);
  });

  it('leaves out validators for an embedded screen, what the entry imports, and types without a chunk', () => {
    expect(firstScreenModules(manifest, ['text', 'button'], false)).toEqual([]);
    expect(firstScreenModules(manifest, ['empty_state', 'text'], false)).toEqual([
      '/propertyOnboard/assets/empty_state-w2.js',
    ]);
    expect(firstScreenModules({}, ['checklist'], true)).toEqual([]);
  });

  it('writes the links at the end of the head, and nothing for no module', () => {
    const html = '<html><head><title>t</title></head><body></body></html>';
    expect(withModulePreloads(html, ['/propertyOnboard/assets/a.js'])).toBe(
      '<html><head><title>t</title><link rel="modulepreload" crossorigin href="/propertyOnboard/assets/a.js"></head><body></body></html>',
    );
    expect(withModulePreloads(html, [])).toBe(html);
  });
});

const indexHtml =
  '<!doctype html><html><head><title>app</title></head><body><div id="root"></div>' +
  '<script type="module" src="/propertyOnboard/assets/index-e1.js"></script></body></html>';

function builtClientDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'client-first-modules-'));
  writeFileSync(join(dir, 'index.html'), indexHtml);
  mkdirSync(join(dir, '.vite'));
  writeFileSync(join(dir, '.vite/manifest.json'), JSON.stringify(manifest));
  return dir;
}

/** sign_up (public) draws text and empty_state; task (needs a session) text, button and checklist. */
function catalogue(): ScreenCatalogue {
  const types: Record<string, string[]> = {
    sign_up: ['empty_state', 'text'],
    task: ['button', 'checklist', 'text'],
  };
  return {
    has: (id) => Object.hasOwn(types, id),
    isPublic: (id) => id === 'sign_up',
    ids: () => Object.keys(types).sort(),
    compose: (id) => ({
      screen_id: id,
      schema_version: 1,
      widget_list: [{ id: 'hello', widget_type: 'text', contents: { text: 'Hello' } }],
    }),
    widgetTypes: (id) => types[id] ?? [],
  };
}

let app: FastifyInstance;
beforeAll(async () => {
  await sharedDatabase();
  app = await buildTestApp({ clientDir: builtClientDir(), screens: catalogue() });
});

describe("a page names its first screen's modules", () => {
  it("a signed-in owner's checklist asked for, not embedded: its widget chunks and validators, by ETag", async () => {
    // Not their property: the page does not embed the screen; the renderer asks for it and shows the error.
    const cookie = await signInNewOwner(app);
    const page = await app.inject({
      url: '/propertyOnboard/task?property_unique_id=P1',
      headers: { cookie },
    });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(String(page.headers.vary)).toContain('cookie');
    expect(preloadsOf(page.body)).toEqual([
      '/propertyOnboard/assets/checklist-w1.js',
      '/propertyOnboard/assets/LinearProgress-l1.js',
      '/propertyOnboard/assets/validators-v0.js',
      '/propertyOnboard/assets/button-v3.js',
      '/propertyOnboard/assets/checklist-v1.js',
      '/propertyOnboard/assets/text-v2.js',
    ]);
    const again = await app.inject({
      url: '/propertyOnboard/task?property_unique_id=P1',
      headers: { cookie, 'if-none-match': String(page.headers.etag) },
    });
    expect(again.statusCode).toBe(304);
  });

  it("a signed-in owner's checklist embedded: its widget chunks, no validators", async () => {
    const cookie = await signInNewOwner(app);
    const page = await app.inject({ url: '/propertyOnboard/task', headers: { cookie } });
    expect(page.body).toContain('id="first-screen"');
    expect(preloadsOf(page.body)).toEqual([
      '/propertyOnboard/assets/checklist-w1.js',
      '/propertyOnboard/assets/LinearProgress-l1.js',
    ]);
  });

  it('a signed-out visitor of the checklist (sent to sign in): no module of the checklist', async () => {
    const page = await app.inject({ url: '/propertyOnboard/task' });
    expect(page.statusCode).toBe(200);
    expect(preloadsOf(page.body)).toEqual([]);
  });

  it('the sign-up page, embedded: its lazy widgets without validators', async () => {
    const page = await app.inject({ url: '/propertyOnboard/sign_up' });
    expect(page.body).toContain('id="first-screen"');
    expect(preloadsOf(page.body)).toEqual(['/propertyOnboard/assets/empty_state-w2.js']);
  });

  it('the sign-up page with a query (not embedded): its validators too', async () => {
    const page = await app.inject({ url: '/propertyOnboard/sign_up?utm_source=mail' });
    expect(page.body).not.toContain('id="first-screen"');
    expect(preloadsOf(page.body)).toEqual([
      '/propertyOnboard/assets/empty_state-w2.js',
      '/propertyOnboard/assets/validators-v0.js',
      '/propertyOnboard/assets/text-v2.js',
    ]);
  });

  it('a signed-in owner opening sign-up (sent to their properties): none of its modules', async () => {
    const cookie = await signInNewOwner(app);
    const page = await app.inject({ url: '/propertyOnboard/sign_up', headers: { cookie } });
    expect(preloadsOf(page.body)).toEqual([]);
  });
});
