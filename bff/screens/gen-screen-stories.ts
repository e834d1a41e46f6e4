/**
 * `npm run gen:screen-stories`: writes stories/screens/<screen>.stories.tsx, one story per screen × fixture
 * context (bff/screens/screen-stories.ts), and removes the files of screens that are gone. Run it after
 * adding a screen or a fixture context; bff/screens/screen-stories.test.ts fails while they are stale.
 *
 * `--payloads`: writes nothing, prints instead the stories' payloads of every screen as one JSON object
 * `{ <screen_id>: { <context file>: { 'en-GB': payload, ar: payload } } }` (Storybook's build reads it).
 */
import { mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  composeScreenStoryPayloads,
  screenIds,
  screenStoriesDir,
  screenStoriesFiles,
} from './screen-stories';
import { createTranslations } from '../services/translations';

const dir = dirname(fileURLToPath(import.meta.url));
if (process.argv.includes('--payloads')) {
  const { translate } = createTranslations();
  const all = Object.fromEntries(
    screenIds(dir).map((screen) => [screen, composeScreenStoryPayloads(dir, screen, translate)]),
  );
  process.stdout.write(JSON.stringify(all));
} else {
  const files = await screenStoriesFiles(dir);
  const out = screenStoriesDir(dir);
  mkdirSync(out, { recursive: true });
  for (const name of readdirSync(out)) {
    if (name.endsWith('.stories.tsx') && !(name in files)) rmSync(join(out, name));
  }
  for (const [name, text] of Object.entries(files)) writeFileSync(join(out, name), text);
  console.log(`${Object.keys(files).length} screen stories files written to stories/screens/`);
}
