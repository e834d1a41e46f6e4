import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ValidateFunction } from 'ajv';
import { createAjv } from '../../schemas/ajv';
import {
  composeDefinition,
  loadFixtureContexts,
  loadScreenCatalogue,
  readDefinition,
  type ScreenContext,
} from './composer';
import { createTranslations } from '../services/translations';
import { defaultScreensDir } from '../app';
import { STAFF_SCREENS } from '../routes/screen-versions';
import { buildTestApp, signInNewOwner } from '../test-helpers';

/**
 * Variants (issue 16 item 5): bff/screens/variants/<screen_id>.<name>.json is composed instead of the
 * screen's file while its `when` holds; the L1 screens (SPEC §2) are variants under enable_oyo360_l1_revamp.
 */
const here = import.meta.dirname;
const { translate } = createTranslations();
const catalogue = loadScreenCatalogue({ dir: here, translate, check: false });
const contexts = loadFixtureContexts(here);
const withLead = contexts['owner-with-lead.json']!;

/** `ctx` with the L1 revamp switched on or off, on `task` of the task details screen when given. */
function revamp(ctx: ScreenContext, on: boolean, task?: string): ScreenContext {
  return {
    ...ctx,
    global_info: { ...ctx.global_info, enable_oyo360_l1_revamp: on },
    params: { ...ctx.params, ...(task ? { task } : {}) },
  };
}
/** The screen's own file composed for `ctx`, without the catalogue (so without any variant). */
const fromFile = (id: string, ctx: ScreenContext) => {
  const file = join(here, `${id}.json`);
  return composeDefinition(file, readDefinition(file), ctx, translate);
};
const texts = (payload: { widget_list: { widget_type: string; contents: unknown }[] }) =>
  payload.widget_list
    .filter((w) => w.widget_type === 'text')
    .map((w) => (w.contents as { text: string }).text);

describe('L1 variants chosen by enable_oyo360_l1_revamp', () => {
  it.each([
    ['property_add', undefined, 'l1', 'List your property in minutes'],
    ['task', undefined, 'l1', "You're a few steps from going live"],
    [
      'kyc',
      undefined,
      'l1',
      'Only what we need to verify you: your contacts, PAN and one identity document.',
    ],
    ['task_details', 'amenities', 'l1_amenities', 'Tick the essentials every listing needs to go live.'],
  ])('%s (task %s): the %s variant with the flag on', (id, task, name, text) => {
    const on = revamp(withLead, true, task);
    expect(catalogue.variant?.(id, on)).toBe(name);
    const payload = catalogue.compose(id, on);
    expect(payload.screen_id).toBe(id);
    expect(texts(payload)).toContain(text);
    expect(texts(fromFile(id, on))).not.toContain(text);
  });

  it.each(['property_add', 'task', 'kyc', 'task_details'])(
    '%s: with the flag off, the screen file exactly as before',
    (id) => {
      const off = revamp(withLead, false, id === 'task_details' ? 'amenities' : undefined);
      expect(catalogue.variant?.(id, off)).toBeNull();
      expect(catalogue.compose(id, off)).toEqual(fromFile(id, off));
    },
  );

  it('amenities L1 varies only the amenities task: other tasks keep task_details.json under the flag', () => {
    for (const task of ['basic_info', 'address', 'contact_info', 'room_categories']) {
      const on = revamp(withLead, true, task);
      expect(catalogue.variant?.('task_details', on)).toBeNull();
      expect(catalogue.compose('task_details', on)).toEqual(fromFile('task_details', on));
    }
    const amenities = catalogue.compose('task_details', revamp(withLead, true, 'amenities'));
    const choice = amenities.widget_list.find((w) => w.id === 'amenities')!;
    const options = (choice.contents as { options: { value: string; mandatory?: boolean }[] }).options;
    expect(options.map((o) => o.value)).toEqual([
      'wifi',
      'hot_water',
      'clean_linen',
      'fire_extinguisher',
      'first_aid',
    ]);
    expect(options.every((o) => o.mandatory)).toBe(true);
  });

  it('KYC L1 leaves out the business ID, and asks the number of rooms only when basic info has none', () => {
    const ids = (ctx: ScreenContext) => catalogue.compose('kyc', ctx).widget_list.map((w) => w.id);
    const known = ids(revamp(withLead, true));
    expect(known).not.toContain('business_id');
    expect(known).not.toContain('number_of_rooms');
    expect(known).toEqual(expect.arrayContaining(['name', 'pan_number', 'gstin_available', 'submit']));
    expect(ids(revamp(contexts['owner-l1-with-lead.json']!, true))).toContain('number_of_rooms');
    expect(ids(revamp(withLead, false))).toContain('business_id');
  });
});

/** A screens folder of one screen `hello` and one fixture context, with `variants` written into it. */
function folder(variants: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'onboard-variants-'));
  mkdirSync(join(dir, 'fixtures', 'contexts'), { recursive: true });
  mkdirSync(join(dir, 'variants'));
  cpSync(join(here, 'fixtures', 'contexts', 'owner.json'), join(dir, 'fixtures', 'contexts', 'owner.json'));
  const screen = (text: string) => ({
    screen_id: 'hello',
    widget_list: [{ id: 'hi', widget_type: 'text', contents: { text } }],
  });
  writeFileSync(join(dir, 'hello.json'), JSON.stringify(screen('standard')));
  for (const [name, doc] of Object.entries(variants))
    writeFileSync(
      join(dir, 'variants', name),
      JSON.stringify(typeof doc === 'string' ? { ...screen(doc) } : doc),
    );
  return dir;
}
const variantDoc = (extra: Record<string, unknown>) => ({
  screen_id: 'hello',
  variant: { name: 'l1', when: { var: 'global_info.enable_oyo360_l1_revamp' } },
  widget_list: [{ id: 'hi', widget_type: 'text', contents: { text: 'light' } }],
  ...extra,
});

describe('variant files', () => {
  it('each is valid as written against the editors’ schema (its $schema), like a screen file', () => {
    const ajv = createAjv({ editorVocabulary: true });
    const definition = ajv.getSchema('screen-definition.schema.json') as ValidateFunction;
    const files = readdirSync(join(here, 'variants')).filter((n) => n.endsWith('.json'));
    expect(files).toEqual([
      'kyc.l1.json',
      'property_add.l1.json',
      'task.l1.json',
      'task_details.l1_amenities.json',
    ]);
    for (const name of files) {
      const doc = JSON.parse(readFileSync(join(here, 'variants', name), 'utf8')) as unknown;
      expect(definition(doc), `${name}: ${JSON.stringify(definition.errors)}`).toBe(true);
      expect(readFileSync(join(here, 'variants', name), 'utf8').split('\n').length).toBeLessThan(400);
    }
  });

  const owner = JSON.parse(
    readFileSync(join(here, 'fixtures', 'contexts', 'owner.json'), 'utf8'),
  ) as ScreenContext;

  it('the first variant whose rule holds is composed; its rule reads global_info, flags and params', () => {
    const dir = folder({
      'hello.a_flag.json': variantDoc({ variant: { name: 'a_flag', when: { var: 'flags.try_it' } } }),
      'hello.l1.json': variantDoc({}),
    });
    const cat = loadScreenCatalogue({ dir, translate });
    const text = (ctx: ScreenContext) =>
      (cat.compose('hello', ctx).widget_list[0]!.contents as { text: string }).text;
    expect(text(owner)).toBe('standard');
    expect(text(revamp(owner, true))).toBe('light');
    expect(cat.variant?.('hello', { ...revamp(owner, true), flags: { try_it: true } })).toBe('a_flag');
    // Not the owner's data: a rule over `lead` or `user` sees nothing.
    const byUser = folder({
      'hello.l1.json': variantDoc({ variant: { name: 'l1', when: { '!!': { var: 'user.phone' } } } }),
    });
    expect(loadScreenCatalogue({ dir: byUser, translate }).variant?.('hello', owner)).toBeNull();
  });

  it.each([
    ['hello-l1.json', variantDoc({}), 'a variant file is named <screen_id>.<variant>.json'],
    ['nope.l1.json', variantDoc({ screen_id: 'nope' }), "no screen 'nope' to vary"],
    ['hello.l2.json', variantDoc({}), "must be 'l2', as in the file name"],
    ['hello.l1.json', variantDoc({ screen_id: 'other' }), "must equal the file name 'hello'"],
    ['hello.l1.json', variantDoc({ public: true }), 'must be as in hello.json'],
    [
      'hello.l1.json',
      variantDoc({
        widget_list: [{ id: 'hi', widget_type: 'text', contents: { text: { $t: 'screens.nope' } } }],
      }),
      "translation key 'screens.nope' not found (context owner.json)",
    ],
  ])('%s is refused at load with the file and reason', (name, doc, reason) => {
    const dir = folder({ [name]: doc });
    expect(() => loadScreenCatalogue({ dir, translate })).toThrow(reason);
    try {
      loadScreenCatalogue({ dir, translate });
    } catch (err) {
      expect((err as { file: string }).file).toBe(join(dir, 'variants', name));
    }
  });
});

describe('GET /screens/:screen_id with a variant', () => {
  const TOKEN = 'staff-variants-token-0123456789';
  const auth = { authorization: `Bearer ${TOKEN}` };
  const real = loadScreenCatalogue({ dir: defaultScreensDir, translate, check: false });

  it('serves the L1 property info with the flag on, whatever version is published; the file with it off', async () => {
    const config = { supportStaffToken: TOKEN, screenVersionsCheckMs: 0 };
    const on = await buildTestApp({ screens: real, config: { ...config, enableOyo360L1Revamp: true } });
    const off = await buildTestApp({ screens: real, config: { ...config, enableOyo360L1Revamp: false } });
    const get = async (app: typeof on) => {
      const res = await app.inject({
        url: '/hms_ms/api/v1/screens/property_add',
        headers: { cookie: await signInNewOwner(app) },
      });
      expect(res.statusCode).toBe(200);
      return {
        variant: res.headers['x-screen-variant'],
        version: res.headers['x-screen-version'],
        heading: res.json().data.widget_list[0].contents.text as string,
      };
    };
    expect(await get(on)).toEqual({ variant: 'l1', version: '0', heading: 'List your property in minutes' });
    expect(await get(off)).toEqual({ variant: undefined, version: '0', heading: 'Introduce your property' });

    // A published version of the screen's file reaches owners without the flag; the L1 variant stays.
    const doc = JSON.parse(readFileSync(join(defaultScreensDir, 'property_add.json'), 'utf8')) as {
      widget_list: { contents: Record<string, unknown> }[];
    };
    doc.widget_list[0]!.contents.text = 'Your property, in a minute';
    const up = await on.inject({
      method: 'POST',
      url: `${STAFF_SCREENS}/property_add/versions`,
      headers: auth,
      payload: { author: 'staff@example.org', definition: doc },
    });
    expect(up.statusCode).toBe(201);
    const { version } = up.json().data.version as { version: number };
    const pub = await on.inject({
      method: 'POST',
      url: `${STAFF_SCREENS}/property_add/publish`,
      headers: auth,
      payload: { author: 'staff@example.org', version },
    });
    expect(pub.statusCode).toBe(200);
    try {
      expect(await get(off)).toEqual({
        variant: undefined,
        version: String(version),
        heading: 'Your property, in a minute',
      });
      expect(await get(on)).toEqual({
        variant: 'l1',
        version: '0',
        heading: 'List your property in minutes',
      });
    } finally {
      await on.inject({
        method: 'POST',
        url: `${STAFF_SCREENS}/property_add/rollback`,
        headers: auth,
        payload: { author: 'staff@example.org', version: 0 },
      });
    }
  });
});

describe('the staff preview with a variant', () => {
  it('draws the L1 variant for a fixture context with the flag on, the screen file for one without', async () => {
    const app = await buildTestApp();
    const heading = async (context: string) => {
      const res = await app.inject(`/hms_ms/api/v1/preview/screens/property_add?context=${context}`);
      expect(res.statusCode).toBe(200);
      return res.json().data.widget_list[0].contents.text as string;
    };
    expect(await heading('owner-l1-with-lead.json')).toBe('List your property in minutes');
    expect(await heading('owner-with-lead.json')).toBe('Introduce your property');
  });
});
