import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fragmentNames } from '../../schemas/tools/gen-vocabulary';
import { checkDefinition, composeDefinition, loadFixtureContexts, ScreenDefinitionError } from './composer';
import type { FragmentSource } from './fragments';

const owner = loadFixtureContexts(import.meta.dirname)['owner.json']!;
const translate = (_locale: string, key: string) => (key === 'screens.t.ok' ? 'OK' : key);

/** A fragment library in memory: `name` → the fragment document, found as `<name>.json`. */
const library =
  (docs: Record<string, unknown>): FragmentSource =>
  (name) =>
    name in docs ? { file: `${name}.json`, json: docs[name] } : undefined;

const text = (id: string, t = 'x') => ({ id, widget_type: 'text', contents: { text: t } });

function thrown(fn: () => unknown): ScreenDefinitionError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ScreenDefinitionError) return err;
    throw err;
  }
  throw new Error('did not throw');
}

describe('fragments ($use)', () => {
  it('splices a fragment of widgets into widget_list in order, with params and a condition for each', () => {
    const fragments = library({
      'parts/pair': {
        params: { name: {}, second: { default: 'b' } },
        value: [text('${name}_a'), { ...text('${name}_${second}'), condition: { '!!': { var: 'user' } } }],
      },
    });
    const def = checkDefinition(
      'probe.json',
      {
        screen_id: 'probe',
        widget_list: [
          text('first'),
          { $use: 'parts/pair', with: { name: 'one' }, condition: { var: 'flags.on' } },
          text('last'),
        ],
      },
      fragments,
    );
    expect(def.widget_list).toEqual([
      text('first'),
      { ...text('one_a'), condition: { var: 'flags.on' } },
      { ...text('one_b'), condition: { and: [{ var: 'flags.on' }, { '!!': { var: 'user' } }] } },
      text('last'),
    ]);
    const ids = (flags: Record<string, unknown>) =>
      composeDefinition('probe.json', def, { ...owner, flags }, translate).widget_list.map((w) => w.id);
    expect(ids({ on: true })).toEqual(['first', 'one_a', 'one_b', 'last']);
    expect(ids({ on: false })).toEqual(['first', 'last']);
  });

  it('puts a value in place anywhere: a rule, an action, a $param of any type', () => {
    const fragments = library({
      'rules/signed_in': { value: { '!!': { var: 'user' } } },
      'parts/button': {
        params: { actions: {} },
        value: { id: 'go', widget_type: 'button', contents: { label: 'Go', actions: { $param: 'actions' } } },
      },
    });
    const def = checkDefinition(
      'probe.json',
      {
        screen_id: 'probe',
        widget_list: [
          {
            ...text('t'),
            condition: { $use: 'rules/signed_in' },
          },
          { $use: 'parts/button', with: { actions: [{ type: 'navigate', to: '/task' }] } },
        ],
      },
      fragments,
    );
    expect(def.widget_list[0]).toMatchObject({ condition: { '!!': { var: 'user' } } });
    expect(def.widget_list[1]).toMatchObject({ contents: { actions: [{ type: 'navigate', to: '/task' }] } });
  });

  it('names the file and JSON path of an unknown fragment, a cycle, an unknown or missing param', () => {
    const doc = (use: unknown) => ({ screen_id: 'probe', widget_list: [text('a'), use] });
    let e = thrown(() => checkDefinition('probe.json', doc({ $use: 'parts/nope' }), library({})));
    expect([e.file, e.path, e.detail]).toEqual([
      'probe.json',
      '/widget_list/1/$use',
      "unknown fragment 'parts/nope'",
    ]);

    const cyclic = library({
      'parts/a': { value: [{ $use: 'parts/b' }] },
      'parts/b': { value: { id: 'x', widget_type: 'text', contents: { text: { $use: 'parts/a' } } } },
    });
    e = thrown(() => checkDefinition('probe.json', doc({ $use: 'parts/a' }), cyclic));
    expect([e.file, e.path, e.detail]).toEqual([
      'parts/b.json',
      '/value/contents/text/$use',
      'fragment cycle: parts/a → parts/b → parts/a',
    ]);

    const withParam = library({ 'parts/p': { params: { name: {} }, value: [text('${name}')] } });
    e = thrown(() => checkDefinition('probe.json', doc({ $use: 'parts/p', with: { nam: 'x' } }), withParam));
    expect([e.path, e.detail]).toEqual([
      '/widget_list/1/with/nam',
      "'parts/p' has no param 'nam' (it has: name)",
    ]);
    e = thrown(() => checkDefinition('probe.json', doc({ $use: 'parts/p' }), withParam));
    expect([e.path, e.detail]).toEqual(['/widget_list/1/with', "'parts/p' needs param 'name'"]);

    const badRef = library({ 'parts/q': { value: [text('${other}')] } });
    e = thrown(() => checkDefinition('probe.json', doc({ $use: 'parts/q' }), badRef));
    expect([e.file, e.path]).toEqual(['parts/q.json', '/value/0/id']);
  });

  it('names the fragment file and path of a problem found after it is put in place, and who used it', () => {
    const fragments = library({
      'parts/head': { value: [text('h1'), { id: 'h2', widget_type: 'text', contents: { txt: 'x' } }] },
      'parts/dup': { value: [text('a')] },
    });
    // The schema check of the whole definition: a widget without contents.
    let e = thrown(() =>
      checkDefinition(
        'probe.json',
        {
          screen_id: 'probe',
          widget_list: [text('a'), { $use: 'parts/head' }, { id: 'z', widget_type: 'text' }],
        },
        fragments,
      ),
    );
    expect([e.file, e.path]).toEqual(['probe.json', '/widget_list/2']);
    // The composer's check of a widget's contents, inside the fragment.
    const def = checkDefinition(
      'probe.json',
      { screen_id: 'probe', widget_list: [text('a'), text('b'), { $use: 'parts/head' }] },
      fragments,
    );
    e = thrown(() => composeDefinition('probe.json', def, owner, translate));
    expect([e.file, e.path]).toEqual(['parts/head.json', '/value/1/contents']);
    expect(e.detail).toMatch(/\(used by probe\.json at \/widget_list\/2\)$/);
    // A duplicate id brought in by a fragment.
    const dup = checkDefinition(
      'probe.json',
      { screen_id: 'probe', widget_list: [text('a'), { $use: 'parts/dup' }] },
      fragments,
    );
    e = thrown(() => composeDefinition('probe.json', dup, owner, translate));
    expect([e.file, e.path, e.detail]).toEqual([
      'parts/dup.json',
      '/value/0/id',
      "duplicate id 'a' (used by probe.json at /widget_list/1)",
    ]);
  });

  it('refuses a fragment file that breaks its schema, and keys it does not know beside $use', () => {
    let e = thrown(() =>
      checkDefinition(
        'probe.json',
        { screen_id: 'probe', widget_list: [{ $use: 'parts/x' }] },
        library({ 'parts/x': { valu: [] } }),
      ),
    );
    expect(e.file).toBe('parts/x.json');
    e = thrown(() =>
      checkDefinition(
        'probe.json',
        { screen_id: 'probe', widget_list: [{ $use: 'parts/x', width: {} }] },
        library({ 'parts/x': { value: [] } }),
      ),
    );
    expect([e.path, e.detail]).toEqual(['/widget_list/0/width', "'width' is not allowed beside $use"]);
  });
});

describe('definitions a person can read (issue 16 item 1)', () => {
  const MAX_LINES = 400;

  it(`keeps every definition and fragment file within ${MAX_LINES} lines`, () => {
    const here = import.meta.dirname;
    const files = [
      ...readdirSync(here).filter((n) => n.endsWith('.json')),
      ...fragmentNames(here).map((n) => `${n}.json`),
    ];
    expect(files).toContain('dashboard/cards/menu.json');
    expect(files).toContain('review/publish.json');
    const long = files
      .map((f) => [f, readFileSync(join(here, f), 'utf8').split('\n').length - 1] as const)
      .filter(([, lines]) => lines > MAX_LINES);
    expect(long).toEqual([]);
  });
});
