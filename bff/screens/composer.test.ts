import { mkdtempSync, mkdirSync, writeFileSync, cpSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  composeDefinition,
  loadFixtureContexts,
  loadScreenCatalogue,
  ScreenDefinitionError,
} from './composer';
import type { ScreenDefinition } from '../../schemas/generated/types';

const here = import.meta.dirname;
const contexts = loadFixtureContexts(here);
const owner = contexts['owner.json']!;
const anonymous = contexts['anonymous.json']!;
const catalogue: Record<string, string> = {
  'screens.t.hello': 'Hello {{name}}',
  'screens.t.title': 'Title',
};
const translate = (_locale: string, key: string, values?: Record<string, unknown>) =>
  catalogue[key]?.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(values?.[k] ?? `{{${k}}}`)) ?? key;

const def = (
  widgets: ScreenDefinition['widget_list'],
  extra: Partial<ScreenDefinition> = {},
): ScreenDefinition => ({
  screen_id: 'probe',
  widget_list: widgets,
  ...extra,
});

describe('composeDefinition', () => {
  it('drops widgets whose condition is false and keeps the others', () => {
    const payload = composeDefinition(
      'probe.json',
      def([
        {
          id: 'a',
          widget_type: 'text',
          condition: { var: 'global_info.is_downtime_active' },
          contents: { text: 'x' },
        },
        { id: 'b', widget_type: 'text', condition: { '!!': { var: 'user' } }, contents: { text: 'y' } },
      ]),
      owner,
      translate,
    );
    expect(payload.widget_list.map((w) => w.id)).toEqual(['b']);
  });

  it('merges objects with $merge, later keys winning and items that are not objects skipped', () => {
    const payload = composeDefinition(
      'probe.json',
      def([], {
        form: {
          initial: {
            $merge: [
              { country: { $bind: 'user.country_code' }, city: 'Default' },
              { $logic: { var: ['lead.nothing_here', null] } },
              { city: 'Saved', street: { $if: { '!!': { var: 'user' } }, then: 'Main', else: 'None' } },
            ],
          },
        },
      }),
      owner,
      translate,
    );
    expect(payload.form?.initial).toEqual({ country: 'IN', city: 'Saved', street: 'Main' });
  });

  it('fills bindings and translations, with bound values inside translations', () => {
    const payload = composeDefinition(
      'probe.json',
      def(
        [
          {
            id: 'a',
            widget_type: 'text',
            contents: { text: { $t: 'screens.t.hello', values: { name: { $bind: 'user.phone' } } } },
          },
        ],
        { title: { $t: 'screens.t.title' } },
      ),
      owner,
      translate,
    );
    expect(payload.title).toBe('Title');
    expect(payload.widget_list[0]!.contents).toEqual({ text: 'Hello +919876543210' });
  });

  it('leaves browser-side JSON Logic in actions and visible_when untouched', () => {
    const action = { type: 'set_value', field: 'x', value: { var: 'response.phone' } };
    const payload = composeDefinition(
      'probe.json',
      def([
        {
          id: 'b',
          widget_type: 'button',
          visible_when: { var: 'form.otp_sent' },
          contents: { label: 'Go', actions: [action] },
        },
      ]),
      anonymous,
      translate,
    );
    expect(payload.widget_list[0]).toMatchObject({
      visible_when: { var: 'form.otp_sent' },
      contents: { actions: [action] },
    });
  });

  it('chooses $if branches and computes $logic values over the context', () => {
    const payload = composeDefinition(
      'probe.json',
      def([
        {
          id: 'a',
          widget_type: 'text',
          contents: {
            text: { $if: { var: 'user' }, then: { $t: 'screens.t.title' }, else: 'anonymous' },
          },
        },
        {
          id: 'b',
          widget_type: 'redirect',
          contents: { to: { $logic: { cat: ['/task?id=', { var: 'user.country_code' }] } } },
        },
      ]),
      owner,
      translate,
    );
    expect(payload.widget_list[0]!.contents).toEqual({ text: 'Title' });
    expect(payload.widget_list[1]!.contents).toEqual({ to: '/task?id=IN' });
    const anon = composeDefinition(
      'p.json',
      def([
        {
          id: 'a',
          widget_type: 'text',
          contents: { text: { $if: { var: 'user' }, then: 'x', else: 'anonymous' } },
        },
      ]),
      anonymous,
      translate,
    );
    expect(anon.widget_list[0]!.contents).toEqual({ text: 'anonymous' });
  });

  it('translates labels of bound catalogue data but never of bound user data', () => {
    const withLead = { ...owner, lead: { title: { $t: 'screens.t.title' } } };
    const payload = composeDefinition(
      'probe.json',
      def([
        {
          id: 'types',
          widget_type: 'choice',
          contents: { field: 'property_type', label: 'Type', options: { $bind: 'catalogue.property_types' } },
        },
        {
          id: 'lead',
          widget_type: 'popup',
          contents: { toast_text: { $bind: 'lead.title.$t' }, status: 'generic' },
        },
      ]),
      withLead,
      (locale, key) =>
        key === 'screens.property_types.hotel' ? 'Hotel' : key.startsWith('screens.') ? `[${key}]` : key,
    );
    const options = (payload.widget_list[0]!.contents as { options: { value: string; label: string }[] })
      .options;
    expect(options[0]).toMatchObject({ value: 'hotel', label: 'Hotel' });
    expect(payload.widget_list[1]!.contents).toEqual({ toast_text: 'screens.t.title', status: 'generic' });
  });

  it('composes the screen form like contents', () => {
    const payload = composeDefinition(
      'probe.json',
      def([], { form: { initial: { phone: { $bind: 'user.phone' } } } } as Partial<ScreenDefinition>),
      owner,
      translate,
    );
    expect(payload.form).toEqual({ initial: { phone: '+919876543210' } });
  });

  it('evaluates hide_footer rules over the context', () => {
    const rule = { var: 'global_info.enable_oyo360_l1_revamp' };
    expect(composeDefinition('p.json', def([], { hide_footer: rule }), owner, translate).hide_footer).toBe(
      false,
    );
    const revamp = { ...owner, global_info: { ...owner.global_info, enable_oyo360_l1_revamp: true } };
    expect(composeDefinition('p.json', def([], { hide_footer: rule }), revamp, translate).hide_footer).toBe(
      true,
    );
  });

  it('names the file and the JSON path of invalid contents', () => {
    const bad = def([
      { id: 'ok', widget_type: 'text', contents: { text: 'fine' } },
      { id: 'bad', widget_type: 'input', contents: { field: 'phone', kind: 'fax', label: 'x' } },
    ]);
    expect(() => composeDefinition('probe.json', bad, owner, translate)).toThrowError(
      /probe\.json at \/widget_list\/1\/contents\/kind/,
    );
  });

  it('refuses a missing translation key and a duplicate widget id', () => {
    const missing = def([{ id: 'a', widget_type: 'text', contents: { text: { $t: 'screens.t.nope' } } }]);
    expect(() => composeDefinition('p.json', missing, owner, translate)).toThrowError(
      /\/widget_list\/0\/contents\/text: translation key 'screens.t.nope' not found/,
    );
    const dup = def([
      { id: 'a', widget_type: 'text', contents: { text: 'x' } },
      { id: 'a', widget_type: 'text', contents: { text: 'y' } },
    ]);
    expect(() => composeDefinition('p.json', dup, owner, translate)).toThrowError(/duplicate id 'a'/);
  });
});

describe('loadScreenCatalogue', () => {
  const copyDir = () => {
    const dir = mkdtempSync(join(tmpdir(), 'screens-'));
    mkdirSync(join(dir, 'fixtures'), { recursive: true });
    cpSync(join(here, 'fixtures'), join(dir, 'fixtures'), { recursive: true });
    return dir;
  };

  it('refuses a definition that breaks the definition schema, naming file and path', () => {
    const dir = copyDir();
    writeFileSync(
      join(dir, 'probe.json'),
      JSON.stringify({
        screen_id: 'probe',
        widget_list: [{ id: 'x', widget_type: 'carousel', contents: {} }],
      }),
    );
    let error: unknown;
    try {
      loadScreenCatalogue({ dir, translate });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ScreenDefinitionError);
    expect((error as ScreenDefinitionError).file).toBe(join(dir, 'probe.json'));
    expect((error as ScreenDefinitionError).path).toBe('/widget_list/0/widget_type');
  });

  it('refuses a file whose screen_id differs from its name', () => {
    const dir = copyDir();
    writeFileSync(
      join(dir, 'other.json'),
      JSON.stringify({ screen_id: 'probe', public: true, widget_list: [] }),
    );
    expect(() => loadScreenCatalogue({ dir, translate })).toThrowError(/other\.json at \/screen_id/);
  });

  it('knows which screens are public', () => {
    const dir = copyDir();
    writeFileSync(
      join(dir, 'open.json'),
      JSON.stringify({ screen_id: 'open', public: true, widget_list: [] }),
    );
    writeFileSync(join(dir, 'closed.json'), JSON.stringify({ screen_id: 'closed', widget_list: [] }));
    const screens = loadScreenCatalogue({ dir, translate });
    expect(screens.ids()).toEqual(['closed', 'open']);
    expect(screens.isPublic('open')).toBe(true);
    expect(screens.isPublic('closed')).toBe(false);
    expect(screens.has('nope')).toBe(false);
  });
});
