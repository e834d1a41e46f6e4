import { cpSync, mkdirSync, mkdtempSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadFixtureContexts, ScreenDefinitionError } from './composer';
import { watchScreenCatalogue, type WatchedScreenCatalogue } from './watch';
import { buildTestApp } from '../test-helpers';

const here = import.meta.dirname;
const anonymous = loadFixtureContexts(here)['anonymous.json']!;
const translate = (_locale: string, key: string) => key;

/** A folder of definitions: the fixture contexts, a public screen `probe` and its fragment `parts/greeting`. */
function screensDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'screens-watch-'));
  cpSync(join(here, 'fixtures'), join(dir, 'fixtures'), { recursive: true });
  mkdirSync(join(dir, 'parts'));
  writeFileSync(
    join(dir, 'probe.json'),
    JSON.stringify({ screen_id: 'probe', public: true, widget_list: [{ $use: 'parts/greeting' }] }),
  );
  saveGreeting(dir, 'Hello');
  return dir;
}
/** Saves the fragment as many editors (and `sed -i`) do: a new file renamed over the old one. */
const saveGreeting = (dir: string, text: unknown) => {
  const temp = join(dir, 'parts', `.greeting.${Math.random().toString(36).slice(2)}`);
  writeFileSync(
    temp,
    JSON.stringify({ value: [{ id: 'greeting', widget_type: 'text', contents: { text } }] }),
  );
  renameSync(temp, join(dir, 'parts', 'greeting.json'));
};

/** Follows `dir`; `next()` resolves with the outcome of the next reload (the ids, or the error). */
function follow(dir: string) {
  let settle: ((outcome: { ids?: string[]; error?: unknown }) => void) | undefined;
  const catalogue = watchScreenCatalogue({
    dir,
    translate,
    debounceMs: 20,
    onReload: (ids) => settle?.({ ids }),
    onError: (error) => settle?.({ error }),
  });
  watched.push(catalogue);
  const next = () => new Promise<{ ids?: string[]; error?: unknown }>((resolve) => (settle = resolve));
  return { catalogue, next };
}
const watched: WatchedScreenCatalogue[] = [];
afterEach(() => {
  for (const w of watched.splice(0)) w.close();
});

const greeting = (c: WatchedScreenCatalogue) =>
  (c.compose('probe', anonymous).widget_list[0]?.contents as { text?: string } | undefined)?.text;

describe('watchScreenCatalogue (development)', () => {
  it('serves a saved fragment at once, and keeps the last good definitions after an invalid save', async () => {
    const dir = screensDir();
    const { catalogue, next } = follow(dir);
    expect(greeting(catalogue)).toBe('Hello');
    const before = catalogue.revision('probe');

    let reloaded = next();
    saveGreeting(dir, 'Welcome');
    expect((await reloaded).ids).toEqual(['probe']);
    expect(greeting(catalogue)).toBe('Welcome');
    expect(catalogue.revision('probe')).toBeGreaterThan(before);

    // Contents that break the text widget's schema: refused with file and path, the last good one served.
    reloaded = next();
    saveGreeting(dir, 42);
    const { error } = await reloaded;
    expect(error).toBeInstanceOf(ScreenDefinitionError);
    expect((error as ScreenDefinitionError).file).toBe(join(dir, 'parts', 'greeting.json'));
    expect((error as ScreenDefinitionError).path).toBe('/value/0/contents/text');
    expect(greeting(catalogue)).toBe('Welcome');

    // A definition naming a fragment that does not exist.
    reloaded = next();
    writeFileSync(
      join(dir, 'probe.json'),
      JSON.stringify({ screen_id: 'probe', public: true, widget_list: [{ $use: 'parts/nope' }] }),
    );
    const second = (await reloaded).error as ScreenDefinitionError;
    expect([second.file, second.path]).toEqual([join(dir, 'probe.json'), '/widget_list/0/$use']);
    expect(greeting(catalogue)).toBe('Welcome');

    // Put right again (the fragment replaced a third time): served.
    reloaded = next();
    writeFileSync(
      join(dir, 'probe.json'),
      JSON.stringify({ screen_id: 'probe', public: true, widget_list: [{ $use: 'parts/greeting' }] }),
    );
    await reloaded;
    reloaded = next();
    saveGreeting(dir, 'Hi again');
    expect((await reloaded).ids).toEqual(['probe']);
    expect(greeting(catalogue)).toBe('Hi again');
  });

  it('a kept public screen is composed again after a reload', async () => {
    const dir = screensDir();
    const { catalogue, next } = follow(dir);
    const app = await buildTestApp({ screens: catalogue });
    const get = async () =>
      (await app.inject('/hms_ms/api/v1/screens/probe')).json<{
        data: { widget_list: { contents: { text: string } }[] };
      }>().data.widget_list[0]!.contents.text;
    expect(await get()).toBe('Hello');
    expect(await get()).toBe('Hello');
    const reloaded = next();
    saveGreeting(dir, 'Bonjour');
    await reloaded;
    expect(await get()).toBe('Bonjour');
  });
});
