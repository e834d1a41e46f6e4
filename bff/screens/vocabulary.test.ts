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

  it('flags an analytics event the catalogue does not list, on a widget, in an action and in a fragment', () => {
    const tap = (event: unknown) => ({
      type: 'navigate',
      to: '/kyc',
      analytics: { event, properties: { task: 'kyc' } },
    });
    const doc = {
      screen_id: 'probe',
      widget_list: [
        { id: 'a', widget_type: 'text', contents: { text: 'x' }, analytics: { event: 'checklist_staus' } },
        { id: 'b', widget_type: 'button', contents: { label: 'x', actions: [tap('checklist_task_ad')] } },
        {
          id: 'c',
          widget_type: 'button',
          contents: {
            label: 'x',
            actions: [
              tap({ $if: { var: 'done' }, then: 'checklist_task_edit', else: 'checklist_task_adds' }),
            ],
          },
        },
      ],
    };
    expect(definition(doc)).toBe(false);
    const errors = paths(definition);
    expect(errors).toContain('/widget_list/0/analytics/event enum');
    expect(errors).toContain('/widget_list/1/contents/actions/0/analytics/event enum');
    expect(errors).toContain('/widget_list/2/contents/actions/0/analytics/event/else enum');
    expect(errors.some((e) => e.includes('/event/then'))).toBe(false);
    // Listed names, a computed name and a fragment's ${param} pass.
    const listed = {
      screen_id: 'probe',
      widget_list: [
        { id: 'a', widget_type: 'text', contents: { text: 'x' }, analytics: { event: 'checklist_status' } },
        {
          id: 'b',
          widget_type: 'button',
          contents: { label: 'x', actions: [tap('checklist_task_add'), tap({ $bind: 'flags.event_name' })] },
        },
      ],
    };
    expect(definition(listed), paths(definition).join('; ')).toBe(true);
    expect(fragment({ params: { name: {} }, value: tap('${name}') })).toBe(true);
    expect(fragment({ value: tap('checklist_task_nope') })).toBe(false);
    expect(paths(fragment)).toContain('/value/analytics/event enum');
  });

  it('the server does not rely on the enums: a key added since the last gen:types still loads', () => {
    const server = createAjv().getSchema('screen-definition.schema.json') as ValidateFunction;
    const doc = {
      screen_id: 'probe',
      widget_list: [
        {
          id: 'a',
          widget_type: 'text',
          contents: { text: { $t: 'screens.brand_new_key' } },
          analytics: { event: 'brand_new_event' },
        },
      ],
    };
    expect(definition(doc)).toBe(false);
    expect(server(doc)).toBe(true);
  });
});
