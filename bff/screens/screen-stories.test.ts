import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadFixtureContexts, readDefinition } from './composer';
import {
  composeScreenStoryPayloads,
  screenIds,
  screenStoriesDir,
  screenStoriesFiles,
  screenStoryCases,
  storyExportName,
} from './screen-stories';
import { createTranslations } from '../services/translations';

const dir = import.meta.dirname;
const storiesDir = screenStoriesDir(dir);

describe('Storybook "Screens" section', () => {
  it('has one story per screen × fixture context, as the staff preview offers them', () => {
    const contexts = loadFixtureContexts(dir);
    const expected = screenIds(dir).flatMap((screen) => {
      const isPublic = readDefinition(join(dir, `${screen}.json`)).public === true;
      return Object.keys(contexts)
        .filter((name) => isPublic || contexts[name]!.user)
        .map((context) => `${screen} × ${context}`);
    });
    // Every signed-in context with every screen, the anonymous ones with public screens only.
    expect(expected.some((c) => c.startsWith('welcome × '))).toBe(true);
    expect(expected).toContain('sign_up × anonymous.json');
    expect(expected).not.toContain('dashboard × anonymous.json');

    // What the written stories files hold: `Screens/<screen>` and one `args: { context }` per story.
    const written = readdirSync(storiesDir)
      .filter((name) => name.endsWith('.stories.tsx'))
      .sort()
      .flatMap((name) => {
        const text = readFileSync(join(storiesDir, name), 'utf8');
        const screen = /title: 'Screens\/([a-z0-9_]+)'/.exec(text)![1]!;
        return [...text.matchAll(/args: \{ context: '([^']+)' \}/g)].map((m) => `${screen} × ${m[1]}`);
      });
    expect(written.sort(), 'stale: run npm run gen:screen-stories').toEqual([...expected].sort());
    expect(screenStoryCases(dir).map((c) => `${c.screen} × ${c.context}`)).toEqual(expected);
  });

  it('writes the stories files exactly as `npm run gen:screen-stories` would now (not stale)', async () => {
    const files = await screenStoriesFiles(dir);
    for (const [name, text] of Object.entries(files)) {
      expect(existsSync(join(storiesDir, name)), `${name} missing: run npm run gen:screen-stories`).toBe(
        true,
      );
      expect(
        readFileSync(join(storiesDir, name), 'utf8'),
        `${name} stale: run npm run gen:screen-stories`,
      ).toBe(text);
    }
  });

  it('composes each story in English and Arabic with the real composer', () => {
    const { translate } = createTranslations();
    const payloads = composeScreenStoryPayloads(dir, 'sign_up', translate);
    expect(Object.keys(payloads)).toEqual(
      screenStoryCases(dir)
        .filter((c) => c.screen === 'sign_up')
        .map((c) => c.context),
    );
    const en = payloads['anonymous.json']!['en-GB'];
    const ar = payloads['anonymous.json']!.ar;
    expect(en.screen_id).toBe('sign_up');
    expect(en.title).toBe('Sign up');
    expect(ar.title).toBe('إنشاء حساب');
  });

  it('names each story export after its context file', () => {
    expect(storyExportName('owner-task-address.json')).toBe('OwnerTaskAddress');
    expect(storyExportName('anonymous.json')).toBe('Anonymous');
    expect(storyExportName('360-owner.json')).toBe('Context360Owner');
  });
});
