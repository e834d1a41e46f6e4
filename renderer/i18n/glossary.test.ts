import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { glossary } from './glossary';

const dir = join(__dirname, 'locales');
const locales = readdirSync(dir).sort();

/** The text of `key` (`<area>.<path>`) in `locale`, read from its file; undefined when missing. */
function text(locale: string, key: string): string | undefined {
  const [area, ...path] = key.split('.');
  let node: unknown = JSON.parse(readFileSync(join(dir, locale, `${area}.json`), 'utf8'));
  for (const p of path) node = (node as Record<string, unknown> | undefined)?.[p];
  return typeof node === 'string' ? node : undefined;
}

describe('glossary: one word per product term in each locale', () => {
  it('covers the 19 locales', () => {
    expect(locales).toHaveLength(19);
  });

  for (const locale of locales) {
    it(`${locale}: every term reads the same wherever it is used, and unlike the other things`, () => {
      for (const [term, { same, differs = [] }] of Object.entries(glossary)) {
        const texts = same.map((k) => [k, text(locale, k)] as const);
        for (const [k, v] of texts) expect(v, `${locale} ${k}`).toBeTypeOf('string');
        const first = texts[0]![1];
        for (const [k, v] of texts.slice(1)) expect(v, `${locale}: '${term}' at ${k}`).toBe(first);
        for (const k of differs)
          expect(text(locale, k), `${locale}: ${k} reads like '${term}'`).not.toBe(first);
      }
    });
  }
});
