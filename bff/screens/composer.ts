/**
 * The screen composer: turns a screen definition (bff/screens/<screen_id>.json, what product staff edit)
 * and a context into the ScreenPayload the renderer draws (DESIGN "bff/screens").
 *
 * A definition is read by {@link checkDefinition}, which first puts in place every fragment it uses
 * (`{"$use": "fragments/task_footer", "with": {...}}`, bff/screens/fragments.ts), so the composer below
 * never sees one. A definition is then a payload template:
 * - a widget's `condition` (JSON Logic, json-logic-js) over the context decides whether it is sent;
 * - `{"$t": "screens.sign_up.title", "values"?: {...}}` is replaced by the text translated into the
 *   context's locale (values may themselves be bindings);
 * - `{"$bind": "global_info.country_code"}` is replaced by the value at that path of the context;
 * - `{"$if": rule, "then": v, "else": v}` by one branch (itself composed), `{"$logic": rule}` by the
 *   rule's result (JSON Logic over the context, e.g. a path built with `cat`);
 * - `{"$merge": [v, …]}` by the objects its items compose to, merged left to right (later keys win;
 *   items that are not objects are skipped), e.g. defaults under the data a lead has saved;
 * - `{"$each": "images.room_requirements", "as": "room", "do": template}` repeats `template` once per item
 *   of the list at that path (see {@link WidgetRepeat}): in `widget_list` and inside any array it is
 *   replaced by the composed templates (spliced, in the list's order); elsewhere by the array of them. Inside,
 *   the item is bound as `room` and its position (0 first) as `room_index`, for `$bind`, `$logic`, `$t`
 *   values and `condition` alike; a missing, null or empty list gives nothing. Widget ids inside are
 *   computed from the item, so they stay unique;
 * - `analytics` blocks (issue 15 item 1) of the screen, of a widget and of actions are composed like
 *   contents (`{"$bind": …}` in the event name or a property) and checked against AnalyticsBlock;
 * - everything else (including the JSON Logic rules of actions and `visible_when`, which run in the
 *   browser) is sent as it is.
 * The composed payload is validated against schemas/screen.schema.json and every widget's contents
 * against schemas/widgets/<widget_type>.schema.json.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import jsonLogic from 'json-logic-js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { sharedAjv } from '../../schemas/ajv';
import type {
  FragmentUse,
  AnalyticsBlock,
  GlobalInfo,
  ImageRequirement,
  ImagesConfig,
  JsonLogic,
  KycDetails,
  TermsOfService,
  Locale,
  PropertyReview,
  PropertyList,
  PropertySummary,
  ScreenDefinition,
  ScreenPayload,
  UserDetails,
  WidgetDefinition,
  WidgetEnvelope,
  WidgetRepeat,
  WidgetTemplate,
} from '../../schemas/generated/types';
import languages from './data/languages.json' with { type: 'json' };
import propertyTypes from './data/property-types.json' with { type: 'json' };
import amenities from './data/amenities.json' with { type: 'json' };
import { termsDisplay } from './terms-display';
import { analyticsBlockProblem } from './analytics-catalogue';
import { ScreenDefinitionError } from './definition-error';
import { expandFragments, fileFragments, locate, type Expansion, type FragmentSource } from './fragments';
import { isRecord } from '../../schemas/app/is-record';

export { ScreenDefinitionError };
export { fileFragments, type FragmentSource };

/**
 * Data the definitions bind to besides the request's context: `languages` (the chooser's list) and
 * `catalogue` (`catalogue.property_types`, `catalogue.property_sub_types`: bff/screens/data/property-types.json;
 * `catalogue.amenities`: bff/screens/data/amenities.json). Catalogue entries may hold `{"$t": key}` labels, which are
 * translated when bound; nothing else that is bound is interpreted.
 */
export const screenData = { languages, catalogue: { ...propertyTypes, ...amenities } };

/** What a screen may read (DESIGN: `{ global_info, flags, user, lead, locale, brand }`). */
export interface ScreenContext {
  global_info: GlobalInfo;
  flags: Record<string, unknown>;
  user: UserDetails | null;
  lead: Record<string, unknown> | null;
  locale: Locale;
  brand: string;
  /** Query parameters of the page the screen is drawn on (e.g. `property_unique_id`, `task`). */
  params?: Record<string, string>;
  /** The lead's photos by category, on screens that draw them (the photos screen); else null or absent. */
  images?: ScreenImages | null;
  /** The lead's KYC details (SPEC §3 kycDetails), on the KYC screen; else null or absent. */
  kyc?: KycDetails | null;
  /** The lead's terms of service and latest contract (SPEC §3 termsOfServiceInfo, finalContractInfo), on the terms screen; else null or absent. */
  contract?: TermsOfService | null;
  /**
   * The e-mail or number of this session's last verification that belongs to another account (SPEC §3
   * is_another_user_present, §6 switching profile), on the 'Resolve an issue' screen; else null or absent.
   */
  conflict?: { channel: 'email' | 'phone'; masked_destination: string; expires_at: string } | null;
  /** The lead's review (getPropertyReview: buckets, photos, readiness), on the review screen; else null or absent. */
  review?: PropertyReview | null;
  /** The owner's properties by section (listProperties), on the dashboard; else null or absent. */
  properties?: PropertyList | null;
  /** The page's property (`params.property_unique_id`) as the dashboard shows it, on the referral screen. */
  property?: PropertySummary | null;
  /**
   * Property sub types not onboarded in the owner's country (serviceability configuration, SPEC §4): left
   * out of `catalogue.property_sub_types`, with the property types left without any sub type (issue 12
   * item 19: offer only what the country onboards). Absent or empty: the whole catalogue.
   */
  unsupported_sub_types?: string[] | null;
  /**
   * The login providers configured on this server (routes/social `configuredProviders`), on the screens composed
   * without a session: the social_login_buttons widget's `configured`, so that its buttons come with the screen.
   * Absent on signed-in screens (Account asks, for the providers the owner has not linked yet).
   */
  social_providers?: string[] | null;
}

/**
 * The catalogue offered in a context: {@link screenData}'s catalogue without the `unsupported` sub types
 * and the property types that have none left. When nothing would be left the whole catalogue is offered
 * (a country not served at all is told so by the create answer and recorded as a cold lead, SPEC §4).
 */
export function offeredCatalogue(
  unsupported: readonly string[] | null | undefined,
): typeof screenData.catalogue {
  const all = screenData.catalogue;
  if (!unsupported?.length) return all;
  const skip = new Set(unsupported);
  const subTypes = all.property_sub_types.filter((s) => !skip.has(s.value));
  if (subTypes.length === 0) return all;
  const groups = new Set(subTypes.map((s) => s.group));
  return {
    ...all,
    property_types: all.property_types.filter((t) => groups.has(t.value)),
    property_sub_types: subTypes,
  };
}

/**
 * ImagesConfig (SPEC §3 imagesConfig) as the photos screen reads it: `by_category` keys the requirements
 * that stand for a whole category (not those of one room category); `room_requirements` lists the
 * requirements of the lead's room categories in the owner's order (empty without saved room categories);
 * `other_room_photos` is the group of room photos whose room category is gone, or null.
 */
export type ScreenImages = ImagesConfig & {
  by_category: Record<string, ImageRequirement>;
  room_requirements: ImageRequirement[];
  other_room_photos: ImageRequirement | null;
};

/** Translates `key` (e.g. `screens.sign_up.title`) into `locale`; returns the key itself when missing. */
export type Translate = (locale: Locale, key: string, values?: Record<string, unknown>) => string;

/** The loaded, checked screen definitions. */
export interface ScreenCatalogue {
  /** Whether a definition with this screen_id exists. */
  has(id: string): boolean;
  /** Whether the screen is served without a session (definition `public: true`). */
  isPublic(id: string): boolean;
  /** Every screen_id, sorted. */
  ids(): string[];
  /**
   * Composes the payload of screen `id` for `ctx`: its variant whose rule holds ({@link variant}), else
   * its file.
   * @throws ScreenDefinitionError when the screen is unknown or the result breaks a schema.
   */
  compose(id: string, ctx: ScreenContext): ScreenPayload;
  /**
   * A number that changes whenever what screen `id` composes to may have changed (definitions reloaded in
   * development, bff/screens/watch.ts); composed screens kept by it (the public screen cache) are
   * composed again. Absent: the definitions never change while the process runs.
   */
  revision?(id: string): number;
  /**
   * The name of the variant of screen `id` (bff/screens/variants/<id>.<name>.json) that {@link compose}
   * draws for a request with these switches, or null for the screen's own file. Absent: no variants.
   */
  variant?(id: string, switches: VariantSwitches): string | null;
}

/**
 * What a variant's `when` reads (issue 16 item 5): the request-level switches only, so the variant is known
 * before the owner's data is read and a screen request resolves one document (a variant, or a version).
 */
export type VariantSwitches = Pick<ScreenContext, 'global_info' | 'flags' | 'params'>;

/** A checked variant document of a screen, from bff/screens/variants/<screen_id>.<name>.json. */
interface LoadedVariant {
  name: string;
  file: string;
  def: ScreenDefinition;
}

/** `<screen_id>.<name>.json`: the file name of a variant. */
const VARIANT_FILE = /^([a-z][a-z0-9_]*)\.([a-z][a-z0-9_]*)\.json$/;

/**
 * The variant of a screen that holds for `switches`: the first of `variants` (by file name) whose
 * `variant.when` is true over `{ global_info, flags, params }`; undefined when none does.
 */
export function chooseVariant<V extends { def: ScreenDefinition }>(
  variants: readonly V[] | undefined,
  switches: VariantSwitches,
): V | undefined {
  if (!variants?.length) return undefined;
  const data = { global_info: switches.global_info, flags: switches.flags, params: switches.params ?? {} };
  return variants.find((v) => v.def.variant && holds(v.def.variant.when as JsonLogic, data));
}

/**
 * Reads and checks the variants of bff/screens/variants (issue 16 item 5): each file
 * `<screen_id>.<name>.json` is a whole screen definition, read by the same {@link checkDefinition} as a
 * screen's file (fragments of `dir`, the schema, the analytics catalogue), whose `screen_id` is the screen it
 * varies and whose `variant.name` is `<name>`. The screen must exist (`known`) and the variant may not change
 * whether it is `public`. Returns them by screen_id, in file name order; with `only`, those of that screen.
 * `schemaChecked` as {@link checkDefinition}'s.
 * @throws ScreenDefinitionError naming the variant's file and JSON path.
 */
export function readVariants(
  dir: string,
  base: (id: string) => ScreenDefinition | undefined,
  only?: string,
  schemaChecked = false,
): Map<string, LoadedVariant[]> {
  const out = new Map<string, LoadedVariant[]>();
  const folder = join(dir, 'variants');
  if (!existsSync(folder)) return out;
  const fragments = fileFragments(dir);
  for (const name of readdirSync(folder)
    .filter((n) => n.endsWith('.json'))
    .sort()) {
    const file = join(folder, name);
    const m = VARIANT_FILE.exec(name);
    if (!m) throw new ScreenDefinitionError(file, '', 'a variant file is named <screen_id>.<variant>.json');
    const [, screenId, variantName] = m as unknown as [string, string, string];
    if (only !== undefined && screenId !== only) continue;
    const screen = base(screenId);
    if (!screen) throw new ScreenDefinitionError(file, '/screen_id', `no screen '${screenId}' to vary`);
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(file, 'utf8'));
    } catch (err) {
      throw new ScreenDefinitionError(file, '', `not valid JSON: ${(err as Error).message}`);
    }
    const def = checkDefinition(file, json, fragments, screenId, schemaChecked);
    if (def.variant?.name !== variantName)
      throw new ScreenDefinitionError(file, '/variant/name', `must be '${variantName}', as in the file name`);
    if ((def.public === true) !== (screen.public === true))
      throw new ScreenDefinitionError(file, '/public', `must be as in ${screenId}.json`);
    out.set(screenId, [...(out.get(screenId) ?? []), { name: variantName, file, def }]);
  }
  return out;
}

/**
 * The validator of schema `id`, compiled at its first use (issue 13 item 5): a server whose definitions passed
 * the check before (bff/app.ts `loadDefaultScreenCatalogue`) never validates a definition at start, and the
 * screen schema is first needed by a request; compiled at import, the two took ≈100–160 ms of every start.
 */
function compiledOnFirstUse(id: string): () => ValidateFunction {
  let compiled: ValidateFunction | undefined;
  return () => {
    compiled ??= sharedAjv().getSchema(id);
    if (!compiled) throw new Error(`no schema ${id}`);
    return compiled;
  };
}
const definitionValidator = compiledOnFirstUse('screen-definition.schema.json');
const payloadValidator = compiledOnFirstUse('screen.schema.json');
const contentValidators = new Map<string, ValidateFunction>();
function contentValidator(widgetType: string): ValidateFunction | undefined {
  if (!contentValidators.has(widgetType)) {
    const v = sharedAjv().getSchema(`widgets/${widgetType}.schema.json`);
    if (v) contentValidators.set(widgetType, v as ValidateFunction);
  }
  return contentValidators.get(widgetType);
}

const firstError = (errors: ErrorObject[] | null | undefined, prefix = ''): [string, string] => {
  const e = errors?.[0];
  if (!e) return [prefix, 'invalid'];
  const extra = e.keyword === 'additionalProperties' ? ` '${String(e.params.additionalProperty)}'` : '';
  return [`${prefix}${e.instancePath}`, `${e.message ?? 'invalid'}${extra}`];
};

/** Reads a dotted path ("user.phone") of an object; undefined when any step is missing. */
export function readPath(source: unknown, path: string): unknown {
  let cur: unknown = source;
  for (const step of path.split('.')) {
    if (!isRecord(cur) && !Array.isArray(cur)) return undefined;
    cur = (cur as Record<string, unknown>)[step];
  }
  return cur;
}

/**
 * Where `$each` sites were met while composing, by JSON path of the definition: `seen` every site,
 * `expanded` those whose list had at least one item (so their template was composed and checked).
 */
export interface RepeatLog {
  seen: Map<string, string>;
  expanded: Set<string>;
}

interface ResolveScope {
  /** The definition file, for errors. */
  file: string;
  ctx: Record<string, unknown>;
  locale: Locale;
  translate: Translate;
  /** Translation keys that were missing, with the JSON path that asked for them. */
  missing: { key: string; path: string }[];
  /** Which item of which `$each` this is ('room_index 1'), outermost first; empty outside any. */
  items: readonly string[];
  repeats?: RepeatLog;
}

/** Names of the context an `$each` may not bind its item to. */
const RESERVED_NAMES: ReadonlySet<string> = new Set([
  'global_info',
  'flags',
  'user',
  'lead',
  'locale',
  'brand',
  'params',
  'images',
  'languages',
  'catalogue',
  'terms_display',
]);
const NAME = /^[a-z][a-z0-9_]*$/;

const isRepeat = (v: unknown): v is { $each: unknown; as: unknown; do: unknown } =>
  isRecord(v) && '$each' in v;

/** The `(room_index 1)` note of an item, or ''. */
const itemNote = (scope: ResolveScope) => (scope.items.length ? ` (${scope.items.join(', ')})` : '');

/**
 * The scopes of an `$each` at `path`: one per item of its list, with the item bound as `as` and its position
 * as `<as>_index`.
 * @throws ScreenDefinitionError when `as` is not a name, hides a name of the context (or of an enclosing
 *   `$each`), or the value at `$each` is neither a list nor missing/null.
 */
function repeatScopes(
  rep: { $each: unknown; as: unknown },
  scope: ResolveScope,
  path: string,
): ResolveScope[] {
  const { as } = rep;
  if (typeof rep.$each !== 'string' || rep.$each === '')
    throw new ScreenDefinitionError(scope.file, `${path}/$each`, 'must be the dotted path of a list');
  if (typeof as !== 'string' || !NAME.test(as))
    throw new ScreenDefinitionError(scope.file, `${path}/as`, 'must be a name like room (a-z, 0-9, _)');
  const index = `${as}_index`;
  if (RESERVED_NAMES.has(as) || as in scope.ctx || index in scope.ctx)
    throw new ScreenDefinitionError(scope.file, `${path}/as`, `'${as}' hides a name of the context`);
  const list = readPath(scope.ctx, rep.$each);
  scope.repeats?.seen.set(path, rep.$each);
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list))
    throw new ScreenDefinitionError(
      scope.file,
      `${path}/$each`,
      `'${rep.$each}' is not a list${itemNote(scope)}`,
    );
  if (list.length > 0) scope.repeats?.expanded.add(path);
  return list.map((item: unknown, i) => ({
    ...scope,
    ctx: { ...scope.ctx, [as]: item, [index]: i },
    items: [...scope.items, `${index} ${i}`],
  }));
}

function resolveValue(value: unknown, scope: ResolveScope, path: string): unknown {
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    value.forEach((v, i) => {
      if (isRepeat(v)) out.push(...(resolveValue(v, scope, `${path}/${i}`) as unknown[]));
      else out.push(resolveValue(v, scope, `${path}/${i}`));
    });
    return out;
  }
  if (!isRecord(value)) return value;
  if (isRepeat(value))
    return repeatScopes(value, scope, path).map((item) => resolveValue(value.do, item, `${path}/do`));
  if ('$t' in value) {
    // The key may itself be computed, e.g. {"$t": {"$logic": {"cat": ["screens.", …]}}}.
    const key = typeof value.$t === 'string' ? value.$t : resolveValue(value.$t, scope, `${path}/$t`);
    const values = isRecord(value.values)
      ? (resolveValue(value.values, scope, `${path}/values`) as Record<string, unknown>)
      : undefined;
    const text = scope.translate(scope.locale, String(key), values);
    if (text === String(key)) scope.missing.push({ key: String(key), path: `${path}${itemNote(scope)}` });
    return text;
  }
  if (typeof value.$bind === 'string') {
    const bound = readPath(scope.ctx, value.$bind);
    // Only our own catalogue data may carry translation keys; user data is sent as it is.
    return value.$bind.startsWith('catalogue.') ? resolveValue(bound, scope, path) : bound;
  }
  if ('$logic' in value) return jsonLogic.apply(value.$logic as never, scope.ctx);
  if (Array.isArray(value.$merge)) {
    const merged: Record<string, unknown> = {};
    value.$merge.forEach((item, i) => {
      const part = resolveValue(item, scope, `${path}/$merge/${i}`);
      if (isRecord(part)) Object.assign(merged, part);
    });
    return merged;
  }
  if ('$if' in value) {
    const branch = holds(value.$if as JsonLogic, scope.ctx) ? value.then : value.else;
    return resolveValue(branch, scope, path);
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = resolveValue(v, scope, `${path}/${k}`);
  return out;
}

const holds = (rule: JsonLogic | undefined, ctx: Record<string, unknown>): boolean =>
  rule === undefined ? true : Boolean(jsonLogic.apply(rule as never, ctx));

function composeWidget(
  def: WidgetDefinition | WidgetTemplate,
  scope: ResolveScope,
  path: string,
): WidgetEnvelope | undefined {
  if (!holds(def.condition, scope.ctx)) return undefined;
  const id = typeof def.id === 'string' ? def.id : resolveValue(def.id, scope, `${path}/id`);
  if (typeof id !== 'string' || id === '')
    throw new ScreenDefinitionError(
      scope.file,
      `${path}/id`,
      `must compose to a non-empty string${itemNote(scope)}`,
    );
  const widget: WidgetEnvelope = {
    id,
    widget_type: def.widget_type,
    contents: resolveValue(def.contents, scope, `${path}/contents`) as Record<string, unknown>,
  };
  if (def.visible_when !== undefined) widget.visible_when = def.visible_when;
  if (def.analytics !== undefined) {
    widget.analytics = resolveValue(def.analytics, scope, `${path}/analytics`) as AnalyticsBlock;
  }
  if (def.fallback === 'drop') widget.fallback = 'drop';
  else if (def.fallback) {
    const fb = composeWidget(def.fallback, scope, `${path}/fallback`);
    if (fb) widget.fallback = fb;
  }
  return widget;
}

/** A composed widget with the definition path it came from and which `$each` item made it. */
interface Composed {
  widget: WidgetEnvelope;
  path: string;
  note: string;
}

/** Composes one item of widget_list (a widget, or an `$each` of widgets) into `out`. */
function composeListItem(
  item: WidgetDefinition | WidgetTemplate | WidgetRepeat | FragmentUse,
  scope: ResolveScope,
  path: string,
  out: Composed[],
): void {
  // checkDefinition puts every fragment in place; a definition built by hand may still hold one.
  if ('$use' in item)
    throw new ScreenDefinitionError(
      scope.file,
      `${path}/$use`,
      'fragment not put in place (see checkDefinition)',
    );
  if ('$each' in item) {
    for (const child of repeatScopes(item, scope, path)) {
      if (Array.isArray(item.do))
        item.do.forEach((t, j) => composeListItem(t, child, `${path}/do/${j}`, out));
      else composeListItem(item.do, child, `${path}/do`, out);
    }
    return;
  }
  const widget = composeWidget(item, scope, path);
  if (widget) out.push({ widget, path, note: itemNote(scope) });
}

function checkWidget(file: string, widget: WidgetEnvelope, path: string): void {
  const validate = contentValidator(widget.widget_type);
  if (!validate)
    throw new ScreenDefinitionError(file, `${path}/widget_type`, `no schema for '${widget.widget_type}'`);
  if (!validate(widget.contents)) {
    const [p, msg] = firstError(validate.errors, `${path}/contents`);
    throw new ScreenDefinitionError(file, p, msg);
  }
  if (widget.fallback && widget.fallback !== 'drop') checkWidget(file, widget.fallback, `${path}/fallback`);
}

/**
 * Whether a composed payload passes every check the renderer makes before it draws (issue 13 item 2): the
 * `screen` schema, and each widget's contents (and each declared fallback's) against
 * schemas/widgets/<widget_type>.schema.json — the schemas the client's validators are generated from. The
 * server embeds a public first screen in index.html only when this holds, so that the browser draws it
 * without loading those validators. Never throws.
 */
export function passesClientChecks(payload: ScreenPayload): boolean {
  if (!payloadValidator()(payload)) return false;
  const valid = (widget: WidgetEnvelope): boolean => {
    const validate = contentValidator(widget.widget_type);
    if (!validate || !validate(widget.contents)) return false;
    return widget.fallback && widget.fallback !== 'drop' ? valid(widget.fallback) : true;
  };
  return payload.widget_list.every(valid);
}

/**
 * Composes one definition for one context and checks the result. `repeats`, when given, records the
 * `$each` sites met and those that had items (see {@link loadScreenCatalogue}). `validate: false` skips
 * the schema checks of the payload and of each widget's contents (ajv): the catalogue checks every
 * definition against every fixture context at start and in `npm run screens:check`, so the server does
 * not check again per request (issue 13 item 6, ≈17 % of a screen request's CPU); missing translations
 * and duplicate ids are still refused.
 * @throws ScreenDefinitionError naming `file` and the JSON path in the definition of the first problem
 *   (a widget made by `$each` adds which item, e.g. '(room_index 1)'), including a translation key missing
 *   from the catalogue, a duplicate widget id and contents breaking the widget's schema.
 */
export function composeDefinition(
  file: string,
  def: ScreenDefinition,
  ctx: ScreenContext,
  translate: Translate,
  repeats?: RepeatLog,
  validate = true,
): ScreenPayload {
  try {
    return composeChecked(file, def, ctx, translate, repeats, validate);
  } catch (err) {
    throw relocate(err, file, def);
  }
}

function composeChecked(
  file: string,
  def: ScreenDefinition,
  ctx: ScreenContext,
  translate: Translate,
  repeats: RepeatLog | undefined,
  validate: boolean,
): ScreenPayload {
  const scope: ResolveScope = {
    file,
    // `terms_display`: the terms of `contract` formatted for the locale (dates, money, rates).
    ctx: {
      params: {},
      ...ctx,
      ...screenData,
      catalogue: offeredCatalogue(ctx.unsupported_sub_types),
      ...(ctx.contract ? { terms_display: termsDisplay(ctx.contract, ctx.locale) } : {}),
    } as unknown as Record<string, unknown>,
    locale: ctx.locale,
    translate,
    missing: [],
    items: [],
    ...(repeats ? { repeats } : {}),
  };
  const payload: ScreenPayload = {
    screen_id: def.screen_id,
    schema_version: 1,
    widget_list: [],
  };
  if (def.title !== undefined) payload.title = String(resolveValue(def.title, scope, '/title'));
  if (def.hide_footer !== undefined) {
    payload.hide_footer =
      typeof def.hide_footer === 'boolean' ? def.hide_footer : holds(def.hide_footer as JsonLogic, scope.ctx);
  }
  if (def.active_hotel_id !== undefined) {
    const active = resolveValue(def.active_hotel_id, scope, '/active_hotel_id');
    if (typeof active === 'string' && active !== '') payload.active_hotel_id = active;
  }
  if (def.analytics !== undefined) {
    payload.analytics = resolveValue(def.analytics, scope, '/analytics') as AnalyticsBlock;
  }
  if (def.form !== undefined) payload.form = resolveValue(def.form, scope, '/form') as ScreenPayload['form'];
  const composed: Composed[] = [];
  def.widget_list.forEach((w, i) => composeListItem(w, scope, `/widget_list/${i}`, composed));
  payload.widget_list = composed.map((c) => c.widget);
  const miss = scope.missing[0];
  if (miss) throw new ScreenDefinitionError(file, miss.path, `translation key '${miss.key}' not found`);
  // Errors name the definition's path of the widget (and the $each item), not its place in the payload.
  const validatePayload = validate ? payloadValidator() : null;
  if (validatePayload && !validatePayload(payload)) {
    const [p, msg] = firstError(validatePayload.errors);
    const at = /^\/widget_list\/(\d+)(.*)$/.exec(p);
    const source = at ? composed[Number(at[1])] : undefined;
    if (source) throw new ScreenDefinitionError(file, `${source.path}${at![2]}`, `${msg}${source.note}`);
    throw new ScreenDefinitionError(file, p, msg);
  }
  const ids = new Set<string>();
  for (const { widget, path, note } of composed) {
    if (ids.has(widget.id))
      throw new ScreenDefinitionError(file, `${path}/id`, `duplicate id '${widget.id}'${note}`);
    ids.add(widget.id);
    if (!validate) continue;
    try {
      checkWidget(file, widget, path);
    } catch (err) {
      if (err instanceof ScreenDefinitionError && note)
        throw new ScreenDefinitionError(file, err.path, `${err.detail}${note}`);
      throw err;
    }
  }
  return payload;
}

/** Where the parts of each checked definition were written, when it uses fragments (for errors). */
const expansions = new WeakMap<ScreenDefinition, Expansion>();

/**
 * The error `err` (about JSON path `err.path` of the checked definition `def`, written in `file`) moved to
 * where the author wrote that part: a fragment's file and path, with the `$use` that brought it in.
 */
function relocate(err: unknown, file: string, def: ScreenDefinition): unknown {
  const expansion = expansions.get(def);
  if (!(err instanceof ScreenDefinitionError) || !expansion || err.file !== file) return err;
  const at = locate(expansion, file, err.path);
  if (at.file === file && at.path === err.path) return err;
  const site = at.site ? ` (used by ${at.site.file} at ${at.site.path})` : '';
  return new ScreenDefinitionError(at.file, at.path, `${err.detail}${site}`);
}

/**
 * Turns a definition document (parsed JSON, from a file or an upload alike) into a checked definition:
 * every `{"$use": fragment}` is put in place from `fragments` (bff/screens/fragments.ts), then the whole is
 * checked against schemas/screen-definition.schema.json and, when `expectedId` is given, its `screen_id`,
 * and its analytics blocks against the event catalogue (bff/screens/data/analytics-events.json).
 * `file` names the document in errors. Composing it for contexts is the next check ({@link composeDefinition}).
 * `schemaChecked`: the same document passed this check before (the catalogue's stamp, bff/app.ts), so it is not
 * validated against the schema again; every other step runs.
 * @throws ScreenDefinitionError naming the file (a fragment's, when the problem is in one) and JSON path.
 */
export function checkDefinition(
  file: string,
  json: unknown,
  fragments: FragmentSource,
  expectedId?: string,
  schemaChecked = false,
): ScreenDefinition {
  const expansion = expandFragments(file, json, fragments);
  const expanded = expansion.value;
  const validateDefinition = schemaChecked ? null : definitionValidator();
  if (validateDefinition && !validateDefinition(expanded)) {
    // A widget_list item is a widget or an $each: of the two branches' errors, the deepest is the one
    // about what the author wrote (e.g. /widget_list/3/do/id rather than "must have required property 'id'").
    const deepest = [...(validateDefinition.errors ?? [])].sort(
      (a, b) => b.instancePath.split('/').length - a.instancePath.split('/').length,
    );
    const [p, msg] = firstError(deepest);
    const at = locate(expansion, file, p);
    const site = at.site ? ` (used by ${at.site.file} at ${at.site.path})` : '';
    throw new ScreenDefinitionError(at.file, at.path, `${msg}${site}`);
  }
  const def = expanded as ScreenDefinition;
  if (expectedId !== undefined && def.screen_id !== expectedId) {
    throw new ScreenDefinitionError(file, '/screen_id', `must equal the file name '${expectedId}'`);
  }
  // Every event a block names, and each property it sends, is in the catalogue (issue 15 item 8).
  const problem = analyticsBlockProblem(expanded);
  if (problem) {
    const at = locate(expansion, file, problem.path);
    const site = at.site ? ` (used by ${at.site.file} at ${at.site.path})` : '';
    throw new ScreenDefinitionError(at.file, at.path, `${problem.detail}${site}`);
  }
  if (expansion.origins.length) expansions.set(def, expansion);
  return def;
}

/**
 * Reads and checks one definition file ({@link checkDefinition}, `schemaChecked` as there); its fragments are
 * read from the same folder (`<folder>/<fragment name>.json`) unless `fragments` is given.
 * @throws ScreenDefinitionError
 */
export function readDefinition(
  file: string,
  fragments: FragmentSource = fileFragments(dirname(file)),
  schemaChecked = false,
): ScreenDefinition {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new ScreenDefinitionError(file, '', `not valid JSON: ${(err as Error).message}`);
  }
  return checkDefinition(file, json, fragments, basename(file, '.json'), schemaChecked);
}

/**
 * A definition document uploaded through the staff API (issue 16 item 3) as a checked definition: the same
 * {@link checkDefinition} as a file — fragments of the deployed definitions (`fragments`, default those of
 * bff/screens), the schema, and `screen_id` equal to `screenId`. `file` names the document in errors.
 * @throws ScreenDefinitionError naming the file (a fragment's, when the problem is in one) and JSON path.
 */
export function definitionFromDocument(
  file: string,
  json: unknown,
  screenId: string,
  fragments: FragmentSource = fileFragments(dirname(fileURLToPath(import.meta.url))),
): ScreenDefinition {
  return checkDefinition(file, json, fragments, screenId);
}

/** The fixture contexts of bff/screens/fixtures/contexts/*.json, by file name. */
export function loadFixtureContexts(dir: string): Record<string, ScreenContext> {
  const out: Record<string, ScreenContext> = {};
  const ctxDir = join(dir, 'fixtures', 'contexts');
  for (const name of readdirSync(ctxDir)
    .filter((n) => n.endsWith('.json'))
    .sort()) {
    out[name] = JSON.parse(readFileSync(join(ctxDir, name), 'utf8')) as ScreenContext;
  }
  return out;
}

/**
 * Checks one definition by composing it for every context of `contexts` (by name; a public screen for
 * anonymous contexts too, every screen for signed-in ones), validating each payload, and requires every
 * `$each` to have items in at least one of them, so that its template is composed and checked too.
 * @throws ScreenDefinitionError naming `file`, the JSON path and the context of the first problem.
 */
export function checkDefinitionAgainstContexts(
  file: string,
  def: ScreenDefinition,
  contexts: Record<string, ScreenContext>,
  translate: Translate,
): void {
  const repeats: RepeatLog = { seen: new Map(), expanded: new Set() };
  for (const [ctxName, ctx] of Object.entries(contexts)) {
    if (!ctx.user && !def.public) continue;
    try {
      composeDefinition(file, def, ctx, translate, repeats);
    } catch (err) {
      if (err instanceof ScreenDefinitionError) {
        throw new ScreenDefinitionError(err.file, err.path, `${err.detail} (context ${ctxName})`);
      }
      throw err;
    }
  }
  // A template no fixture context expands was never composed, so nothing checked it.
  for (const [path, list] of repeats.seen) {
    if (!repeats.expanded.has(path))
      throw new ScreenDefinitionError(
        file,
        path,
        `'${list}' has no items in any fixture context, so the template is never checked: add a context of bff/screens/fixtures/contexts/ where it has some`,
      );
  }
}

/**
 * Loads every definition of `dir` (its *.json files) and checks each by composing it for every fixture
 * context of `dir/fixtures/contexts` (a public screen only for anonymous contexts too; every screen for
 * signed-in ones), so a broken edit never goes live. Every `$each` must have items in at least one of those
 * contexts, so that its template is composed and checked too.
 * @throws ScreenDefinitionError naming the file and the JSON path (the server refuses to start).
 */
export function loadScreenCatalogue(opts: {
  dir: string;
  translate: Translate;
  /**
   * false: the definitions are only read, neither validated against the schema nor composed against the
   * fixture contexts (checked before, on the same files).
   */
  check?: boolean;
}): ScreenCatalogue {
  const schemaChecked = opts.check === false;
  const defs = new Map<string, { file: string; def: ScreenDefinition }>();
  const files = readdirSync(opts.dir)
    .filter((n) => n.endsWith('.json'))
    .sort();
  for (const name of files) {
    const file = join(opts.dir, name);
    const def = readDefinition(file, undefined, schemaChecked);
    defs.set(def.screen_id, { file, def });
  }
  const variants = readVariants(opts.dir, (id) => defs.get(id)?.def, undefined, schemaChecked);
  const contexts = opts.check === false ? {} : loadFixtureContexts(opts.dir);
  const all = [...defs.values(), ...[...variants.values()].flat()];
  // A variant is checked against every fixture context, whether or not its `when` holds there.
  for (const { file, def } of opts.check === false ? [] : all) {
    checkDefinitionAgainstContexts(file, def, contexts, opts.translate);
  }
  return {
    has: (id) => defs.has(id),
    isPublic: (id) => defs.get(id)?.def.public === true,
    ids: () => [...defs.keys()].sort(),
    compose(id, ctx) {
      const entry = chooseVariant(variants.get(id), ctx) ?? defs.get(id);
      if (!entry) throw new ScreenDefinitionError(`${id}.json`, '', 'no such screen');
      // Checked against the fixture contexts above: not re-validated per request.
      return composeDefinition(entry.file, entry.def, ctx, opts.translate, undefined, false);
    },
    variant: (id, switches) => chooseVariant(variants.get(id), switches)?.name ?? null,
  };
}
