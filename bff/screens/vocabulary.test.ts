/**
 * What an editor checks from a definition's `$schema` (issue 16 item 7): every definition and fragment file
 * is valid as written, and an unknown translation key, fragment name or widget type is flagged where it is.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ValidateFunction } from 'ajv';
import { createAjv } from '../../schemas/ajv';
import { fragmentNames } from '../../schemas/tools/gen-vocabulary';

const here = import.meta.dirname;
const ajv = createAjv({ editorVocabulary: true });
const definition = ajv.getSchema('screen-definition.schema.json') as ValidateFunction;
const fragment = ajv.getSchema('screen-fragment.schema.json') as ValidateFunction;
const read = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));
const paths = (v: ValidateFunction) => (v.errors ?? []).map((e) => `${e.instancePath} ${e.keyword}`);

describe('the editors’ vocabulary of screen definitions', () => {
  it('accepts every definition and fragment as written', () => {
    for (const name of readdirSync(here).filter((n) => n.endsWith('.json'))) {
      expect(definition(read(join(here, name))), `${name}: ${paths(definition).join('; ')}`).toBe(true);
    }
    const names = fragmentNames(here);
    expect(names).toContain('fragments/task_footer');
    for (const name of names) {
      expect(fragment(read(join(here, `${name}.json`))), `${name}: ${paths(fragment).join('; ')}`).toBe(true);
    }
  });

  it('flags an unknown translation key, fragment name and widget type where they are written', () => {
    const doc = {
      screen_id: 'probe',
      title: { $t: 'screens.sign_up.title' },
      widget_list: [
        { id: 'a', widget_type: 'text', contents: { text: { $t: 'screens.sign_up.titel' } } },
        { $use: 'fragments/task_foter' },
        { id: 'b', widget_type: 'txt', contents: {} },
        { id: 'c', widget_type: 'text', contents: { text: { $t: { $logic: { cat: ['screens.', 'x'] } } } } },
      ],
    };
    expect(definition(doc)).toBe(false);
    const errors = paths(definition);
    expect(errors).toContain('/widget_list/0/contents/text/$t enum');
    expect(errors).toContain('/widget_list/1/$use enum');
    expect(errors).toContain('/widget_list/2/widget_type enum');
    expect(errors.some((e) => e.startsWith('/title') || e.startsWith('/widget_list/3'))).toBe(false);
    // A fragment may hold its params in a key: "${task}" is filled in where it is used.
    expect(fragment({ params: { task: {} }, value: { $t: 'screens.task_details.${task}.saved' } })).toBe(
      true,
    );
    expect(fragment({ value: { $t: 'screens.task_details.nope' } })).toBe(false);
  });

  it('the server does not rely on the enums: a key added since the last gen:types still loads', () => {
    const server = createAjv().getSchema('screen-definition.schema.json') as ValidateFunction;
    const doc = {
      screen_id: 'probe',
      widget_list: [{ id: 'a', widget_type: 'text', contents: { text: { $t: 'screens.brand_new_key' } } }],
    };
    expect(definition(doc)).toBe(false);
    expect(server(doc)).toBe(true);
  });
});
