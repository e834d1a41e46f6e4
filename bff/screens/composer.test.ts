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

describe('$each', () => {
  const rooms = [
    { name: 'Deluxe', count: 2, beds: ['king', 'sofa'] },
    { name: 'Suite', count: 1, beds: [] },
    { name: 'Dorm', count: 0, beds: ['bunk'] },
  ];
  const withRooms = (list: unknown = rooms) => ({ ...owner, lead: { rooms: list } });
  const roomId = (prefix: string) => ({ $logic: { cat: [prefix, { var: 'room_index' }] } });
  const heading = (text: string) => ({ id: text, widget_type: 'text' as const, contents: { text } });

  it('repeats a widget per item in place, binding the item and its index for $bind, $t values, $logic and condition', () => {
    const payload = composeDefinition(
      'probe.json',
      def([
        heading('before'),
        {
          $each: 'lead.rooms',
          as: 'room',
          do: {
            id: roomId('room_'),
            widget_type: 'text',
            condition: { '>': [{ var: 'room.count' }, 0] },
            contents: {
              text: { $t: 'screens.t.hello', values: { name: { $bind: 'room.name' } } },
              variant: { $if: { '==': [{ var: 'room_index' }, 0] }, then: 'title', else: 'body' },
            },
          },
        },
        heading('after'),
      ]),
      withRooms(),
      translate,
    );
    // Dorm (count 0) fails its condition; the index still counts it.
    expect(payload.widget_list.map((w) => [w.id, w.contents])).toEqual([
      ['before', { text: 'before' }],
      ['room_0', { text: 'Hello Deluxe', variant: 'title' }],
      ['room_1', { text: 'Hello Suite', variant: 'body' }],
      ['after', { text: 'after' }],
    ]);
  });

  it('gives nothing for an empty, missing or null list', () => {
    const each = {
      $each: 'lead.rooms',
      as: 'room',
      do: { id: roomId('room_'), widget_type: 'text' as const, contents: { text: { $bind: 'room.name' } } },
    };
    for (const list of [[], undefined, null]) {
      const payload = composeDefinition(
        'probe.json',
        def([heading('only'), each]),
        { ...owner, lead: { rooms: list } },
        translate,
      );
      expect(payload.widget_list.map((w) => w.id)).toEqual(['only']);
    }
    const noLead = composeDefinition('probe.json', def([each]), { ...owner, lead: null }, translate);
    expect(noLead.widget_list).toEqual([]);
  });

  it('repeats several widgets per item and nests: an inner $each sees the outer item', () => {
    const payload = composeDefinition(
      'probe.json',
      def([
        {
          $each: 'lead.rooms',
          as: 'room',
          do: [
            { id: roomId('title_'), widget_type: 'text', contents: { text: { $bind: 'room.name' } } },
            {
              $each: 'room.beds',
              as: 'bed',
              do: {
                id: { $logic: { cat: ['bed_', { var: 'room_index' }, '_', { var: 'bed_index' }] } },
                widget_type: 'text',
                contents: { text: { $logic: { cat: [{ var: 'room.name' }, ': ', { var: 'bed' }] } } },
              },
            },
          ],
        },
      ]),
      withRooms(),
      translate,
    );
    expect(payload.widget_list.map((w) => [w.id, (w.contents as { text: string }).text])).toEqual([
      ['title_0', 'Deluxe'],
      ['bed_0_0', 'Deluxe: king'],
      ['bed_0_1', 'Deluxe: sofa'],
      ['title_1', 'Suite'],
      ['title_2', 'Dorm'],
      ['bed_2_0', 'Dorm: bunk'],
    ]);
  });

  it('splices into arrays of contents, and makes an array where it stands alone', () => {
    const payload = composeDefinition(
      'probe.json',
      def([
        {
          id: 'tips',
          widget_type: 'photo_tips',
          contents: {
            title: 'Tips',
            tips: [
              'First',
              {
                $each: 'lead.rooms',
                as: 'room',
                do: { $t: 'screens.t.hello', values: { name: { $bind: 'room.name' } } },
              },
              'Last',
            ],
          },
        },
      ]),
      withRooms(),
      translate,
    );
    expect(payload.widget_list[0]!.contents).toEqual({
      title: 'Tips',
      tips: ['First', 'Hello Deluxe', 'Hello Suite', 'Hello Dorm', 'Last'],
    });
    const alone = composeDefinition(
      'probe.json',
      def([], {
        form: { initial: { names: { $each: 'lead.rooms', as: 'room', do: { $bind: 'room.name' } } } },
      }),
      withRooms(),
      translate,
    );
    expect(alone.form?.initial).toEqual({ names: ['Deluxe', 'Suite', 'Dorm'] });
  });

  it('refuses ids that repeat across items, naming the definition path and the item', () => {
    const same = def([
      {
        $each: 'lead.rooms',
        as: 'room',
        do: { id: { $bind: 'lead.missing_so_constant' }, widget_type: 'text', contents: { text: 'x' } },
      },
    ]);
    expect(() => composeDefinition('probe.json', same, withRooms(), translate)).toThrowError(
      /probe\.json at \/widget_list\/0\/do\/id: must compose to a non-empty string \(room_index 0\)/,
    );
    const constant = def([
      heading('x'),
      {
        $each: 'lead.rooms',
        as: 'room',
        do: { id: { $logic: { cat: ['room'] } }, widget_type: 'text', contents: { text: 'x' } },
      },
    ]);
    expect(() => composeDefinition('probe.json', constant, withRooms(), translate)).toThrowError(
      /probe\.json at \/widget_list\/1\/do\/id: duplicate id 'room' \(room_index 1\)/,
    );
  });

  it('checks every composed widget against its schema and says which item broke it', () => {
    const bad = def([
      heading('x'),
      {
        $each: 'lead.rooms',
        as: 'room',
        do: {
          id: roomId('room_'),
          widget_type: 'text',
          // The count is a number where text must be a string: only items reaching it break.
          contents: {
            text: { $if: { '==': [{ var: 'room_index' }, 1] }, then: { $bind: 'room.count' }, else: 'ok' },
          },
        },
      },
    ]);
    let error: unknown;
    try {
      composeDefinition('probe.json', bad, withRooms(), translate);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ScreenDefinitionError);
    expect((error as ScreenDefinitionError).path).toBe('/widget_list/1/do/contents/text');
    expect((error as ScreenDefinitionError).detail).toMatch(/must be string \(room_index 1\)$/);
  });

  it('refuses a list that is not one, and a name that hides the context or an outer item', () => {
    const over = (path: string, as: string) =>
      def([{ $each: path, as, do: { id: roomId('r_'), widget_type: 'text', contents: { text: 'x' } } }]);
    expect(() => composeDefinition('p.json', over('lead', 'room'), withRooms(), translate)).toThrowError(
      /p\.json at \/widget_list\/0\/\$each: 'lead' is not a list/,
    );
    expect(() =>
      composeDefinition('p.json', over('lead.rooms', 'user'), withRooms(), translate),
    ).toThrowError(/\/widget_list\/0\/as: 'user' hides a name of the context/);
    const nested = def([
      {
        $each: 'lead.rooms',
        as: 'room',
        do: {
          $each: 'room.beds',
          as: 'room',
          do: { id: roomId('r_'), widget_type: 'text', contents: { text: 'x' } },
        },
      },
    ]);
    expect(() => composeDefinition('p.json', nested, withRooms(), translate)).toThrowError(
      /\/widget_list\/0\/do\/as: 'room' hides a name of the context/,
    );
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

  const uploaderProbe = (template: Record<string, unknown>) => ({
    screen_id: 'probe',
    widget_list: [{ $each: 'images.room_requirements', as: 'room', do: template }],
  });

  it('composes $each templates against the fixtures and flags one that breaks a widget schema once expanded', () => {
    const dir = copyDir();
    writeFileSync(
      join(dir, 'probe.json'),
      JSON.stringify(
        uploaderProbe({
          id: { $logic: { cat: ['room_', { var: 'room_index' }] } },
          widget_type: 'text',
          contents: { text: { $bind: 'room.min_count' } },
        }),
      ),
    );
    let error: unknown;
    try {
      loadScreenCatalogue({ dir, translate });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ScreenDefinitionError);
    expect((error as ScreenDefinitionError).path).toBe('/widget_list/0/do/contents/text');
    expect((error as ScreenDefinitionError).detail).toMatch(
      /must be string \(room_index 0\) \(context owner-images-room-categories\.json\)/,
    );

    writeFileSync(
      join(dir, 'probe.json'),
      JSON.stringify(
        uploaderProbe({
          id: { $logic: { cat: ['room_', { var: 'room_index' }] } },
          widget_type: 'text',
          contents: { text: { $bind: 'room.room_category' } },
        }),
      ),
    );
    expect(loadScreenCatalogue({ dir, translate }).has('probe')).toBe(true);
  });

  it('refuses an $each that no fixture context expands, and a literal id inside one', () => {
    const dir = copyDir();
    writeFileSync(
      join(dir, 'probe.json'),
      JSON.stringify({
        screen_id: 'probe',
        widget_list: [
          {
            $each: 'lead.nothing_here',
            as: 'room',
            do: { id: { $bind: 'room.name' }, widget_type: 'text', contents: { text: 'x' } },
          },
        ],
      }),
    );
    expect(() => loadScreenCatalogue({ dir, translate })).toThrowError(
      /probe\.json at \/widget_list\/0: 'lead\.nothing_here' has no items in any fixture context/,
    );
    writeFileSync(
      join(dir, 'probe.json'),
      JSON.stringify(uploaderProbe({ id: 'room', widget_type: 'text', contents: { text: 'x' } })),
    );
    expect(() => loadScreenCatalogue({ dir, translate })).toThrowError(
      /probe\.json at \/widget_list\/0\/do\/id: must be object/,
    );
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

describe('analytics blocks (issue 15 item 1)', () => {
  it('composes the blocks of the screen, a widget and an action, with $bind and $if', () => {
    const payload = composeDefinition(
      'probe.json',
      def(
        [
          {
            id: 'b',
            widget_type: 'button',
            analytics: {
              event: 'banner_shown',
              properties: { country: { $bind: 'global_info.country_code' } },
            },
            contents: {
              label: 'Go',
              actions: [
                {
                  type: 'navigate',
                  to: '/dashboard',
                  analytics: {
                    event: { $if: { '!!': { var: 'user' } }, then: 'go_signed_in', else: 'go_signed_out' },
                    properties: { code: { var: 'response.error.code' } },
                  },
                },
              ],
            },
          },
        ],
        {
          analytics: {
            event: 'probe_viewed',
            properties: { signed_in: { $logic: { '!!': { var: 'user' } } } },
          },
        },
      ),
      owner,
      translate,
    );
    expect(payload.analytics).toEqual({ event: 'probe_viewed', properties: { signed_in: true } });
    const [button] = payload.widget_list;
    expect(button!.analytics).toEqual({
      event: 'banner_shown',
      properties: { country: owner.global_info.country_code },
    });
    // A rule over {response} is left for the browser.
    expect((button!.contents as { actions: unknown[] }).actions[0]).toMatchObject({
      analytics: { event: 'go_signed_in', properties: { code: { var: 'response.error.code' } } },
    });
  });

  it.each([
    ['a personal key on a widget', { event: 'x', properties: { owner_name: 'A' } }, 'widget'],
    ['a name that is not snake_case on the screen', { event: 'Viewed' }, 'screen'],
    ['a personal key in an action', { event: 'x', properties: { phone: '1' } }, 'action'],
  ] as const)('refuses %s', (_what, block, where) => {
    const action = {
      type: 'navigate',
      to: '/dashboard',
      ...(where === 'action' ? { analytics: block } : {}),
    };
    const bad = def(
      [
        {
          id: 'b',
          widget_type: 'button',
          ...(where === 'widget' ? { analytics: block } : {}),
          contents: { label: 'Go', actions: [action] },
        },
      ] as unknown as ScreenDefinition['widget_list'],
      (where === 'screen' ? { analytics: block } : {}) as Partial<ScreenDefinition>,
    );
    expect(() => composeDefinition('probe.json', bad, owner, translate)).toThrowError(ScreenDefinitionError);
  });
});
