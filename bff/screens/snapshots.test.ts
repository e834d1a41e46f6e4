/**
 * What every screen definition composes to, for every fixture context in English and Arabic (and, for the
 * task details screen, every task): one snapshot file per screen in `__snapshots__/<screen_id>.json`.
 * Reorganising definitions (files split, fragments shared) must leave these files unchanged; a change of
 * what a screen shows updates them with `npx vitest run bff/screens/snapshots.test.ts -u`, reviewed in
 * the diff.
 *
 * Each file lists the distinct payloads of the screen, each with the contexts (`<context file>@<locale>`,
 * plus `?task=<task>` for task details) that compose to it, so identical screens are stored once.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadFixtureContexts, loadScreenCatalogue, type ScreenContext } from './composer';
import { createTranslations } from '../services/translations';
import type { Locale } from '../../schemas/generated/types';

const here = import.meta.dirname;
const translations = createTranslations();
const catalogue = loadScreenCatalogue({ dir: here, translate: translations.translate, check: false });
const contexts = loadFixtureContexts(here);
const LOCALES: Locale[] = ['en-GB', 'ar'];
/** The tasks of the task details screen (`params.task`), plus one it does not know and none at all. */
const TASKS = ['basic_info', 'address', 'contact_info', 'amenities', 'room_categories', 'unknown', undefined];

/** The variants of `ctx` a screen is composed for: each locale, and each task on the task details screen. */
function variants(screen: string, name: string, ctx: ScreenContext): [string, ScreenContext][] {
  const out: [string, ScreenContext][] = [];
  for (const locale of LOCALES) {
    if (screen !== 'task_details') {
      out.push([`${name}@${locale}`, { ...ctx, locale }]);
      continue;
    }
    for (const task of TASKS) {
      const params: Record<string, string> = { ...ctx.params };
      if (task === undefined) delete params.task;
      else params.task = task;
      out.push([`${name}@${locale}?task=${task ?? ''}`, { ...ctx, locale, params }]);
    }
  }
  return out;
}

describe('screen snapshots', () => {
  it.each(catalogue.ids())('%s composes as before for every fixture context', async (screen) => {
    const byPayload = new Map<string, string[]>();
    for (const [name, ctx] of Object.entries(contexts)) {
      // As the catalogue checks: a screen needing a session is not composed for anonymous contexts.
      if (!ctx.user && !catalogue.isPublic(screen)) continue;
      for (const [key, variant] of variants(screen, name, ctx)) {
        let out: string;
        try {
          out = JSON.stringify(catalogue.compose(screen, variant), null, 2);
        } catch (err) {
          out = JSON.stringify({ error: (err as Error).message });
        }
        byPayload.set(out, [...(byPayload.get(out) ?? []), key]);
      }
    }
    const entries = [...byPayload.entries()]
      .map(([payload, keys]) => ({ contexts: keys, payload: JSON.parse(payload) as unknown }))
      .sort((a, b) => (a.contexts[0]! < b.contexts[0]! ? -1 : 1));
    expect(entries.length).toBeGreaterThan(0);
    await expect(`${JSON.stringify(entries, null, 1)}\n`).toMatchFileSnapshot(
      join(here, '__snapshots__', `${screen}.json`),
    );
  });
});
