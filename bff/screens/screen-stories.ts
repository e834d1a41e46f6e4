/**
 * Storybook's "Screens" section (issue 16 item 2): every screen × fixture context, composed by the real
 * composer at build time (Storybook runs in the browser, without the BFF). The stories files under
 * stories/screens/ are written by `npm run gen:screen-stories` from {@link screenStoryCases}; their payloads
 * come from the Vite plugin of .storybook/main.ts, which calls {@link composeScreenStoryPayloads}
 * whenever Storybook builds, so the payloads always follow the definition files as they are.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { format, resolveConfig } from 'prettier';
import type { Locale, ScreenPayload } from '../../schemas/generated/types';
import { composeDefinition, loadFixtureContexts, readDefinition, type Translate } from './composer';

/** The languages of the stories: those of Storybook's language toolbar (.storybook/preview.tsx). */
export const screenStoryLocales = ['en-GB', 'ar'] as const satisfies readonly Locale[];
/** One of {@link screenStoryLocales}. */
export type ScreenStoryLocale = (typeof screenStoryLocales)[number];

/** One story: a screen id and a fixture context's file name (e.g. `owner-task-address.json`). */
export interface ScreenStoryCase {
  screen: string;
  context: string;
}

/** The payloads of one screen's stories: by context file name, then by language. */
export type ScreenStoryPayloads = Record<string, Record<ScreenStoryLocale, ScreenPayload>>;

/** The screen ids of `dir`: its top-level `<screen_id>.json` files, sorted (fragments live in folders). */
export function screenIds(dir: string): string[] {
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => name.slice(0, -'.json'.length));
}

/**
 * Every screen × fixture context the "Screens" section shows, as the staff preview offers them
 * (bff/routes/preview): a public screen with every context, any other screen with the signed-in contexts
 * (those with a `user`) only. Sorted by screen, then context.
 * @throws ScreenDefinitionError when a definition cannot be read.
 */
export function screenStoryCases(dir: string): ScreenStoryCase[] {
  const contexts = loadFixtureContexts(dir);
  const cases: ScreenStoryCase[] = [];
  for (const screen of screenIds(dir)) {
    const isPublic = readDefinition(join(dir, `${screen}.json`)).public === true;
    for (const [context, ctx] of Object.entries(contexts)) {
      if (isPublic || ctx.user) cases.push({ screen, context });
    }
  }
  return cases;
}

/**
 * The payloads of every story of `screen` ({@link screenStoryCases}), composed by the composer exactly as
 * the preview does (the context's `locale` replaced by each of {@link screenStoryLocales}).
 * @throws ScreenDefinitionError naming the file and JSON path when the definition does not compose.
 */
export function composeScreenStoryPayloads(
  dir: string,
  screen: string,
  translate: Translate,
): ScreenStoryPayloads {
  const file = join(dir, `${screen}.json`);
  const def = readDefinition(file);
  const contexts = loadFixtureContexts(dir);
  const out: ScreenStoryPayloads = {};
  for (const { context } of screenStoryCases(dir).filter((c) => c.screen === screen)) {
    const ctx = contexts[context]!;
    const [en, ar] = screenStoryLocales.map((locale) =>
      composeDefinition(file, def, { ...ctx, locale }, translate),
    );
    out[context] = { 'en-GB': en!, ar: ar! };
  }
  return out;
}

/** The CSF export name of a context's story: `owner-task-address.json` → `OwnerTaskAddress`. */
export function storyExportName(context: string): string {
  const name = context
    .replace(/\.json$/, '')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');
  return /^[0-9]/.test(name) ? `Context${name}` : name;
}

/**
 * The text of stories/screens/<screen>.stories.tsx: title `Screens/<screen>`, one story per context,
 * named after the context file (CSF needs every story as its own static export, hence a written file).
 */
export function screenStoriesFile(screen: string, contexts: readonly string[]): string {
  const stories = contexts
    .map(
      (context) =>
        `export const ${storyExportName(context)}: Story = {\n` +
        `  name: ${JSON.stringify(context.replace(/\.json$/, ''))},\n` +
        `  args: { context: ${JSON.stringify(context)} },\n` +
        `};\n`,
    )
    .join('\n');
  return `// Written by \`npm run gen:screen-stories\` (bff/screens/screen-stories.ts): do not edit.
import type { Meta, StoryObj } from '@storybook/react-vite';
import { ScreenStory } from '../../renderer/preview/screen-story';

const meta = {
  title: 'Screens/${screen}',
  component: ScreenStory,
  args: { screen: ${JSON.stringify(screen)} },
  loaders: [
    async () => ({ payloads: (await import('virtual:screen-payloads/${screen}')).default }),
  ],
  render: (args, { loaded }) => <ScreenStory {...args} payloads={loaded.payloads} />,
} satisfies Meta<typeof ScreenStory>;
export default meta;
type Story = StoryObj<typeof meta>;

${stories}`;
}

/** Where the stories files of the screens of `dir` (bff/screens) are written: stories/screens/. */
export const screenStoriesDir = (dir: string): string => join(dir, '..', '..', 'stories', 'screens');

/**
 * Every stories file of the section, by file name (`<screen>.stories.tsx`), formatted by prettier with the
 * repository's settings so that `npm run lint` accepts them as written.
 */
export async function screenStoriesFiles(dir: string): Promise<Record<string, string>> {
  const byScreen = new Map<string, string[]>();
  for (const { screen, context } of screenStoryCases(dir)) {
    byScreen.set(screen, [...(byScreen.get(screen) ?? []), context]);
  }
  const files: Record<string, string> = {};
  for (const [screen, contexts] of byScreen) {
    const filepath = join(screenStoriesDir(dir), `${screen}.stories.tsx`);
    const options = (await resolveConfig(filepath)) ?? {};
    files[`${screen}.stories.tsx`] = await format(screenStoriesFile(screen, contexts), {
      ...options,
      filepath,
    });
  }
  return files;
}
