/**
 * Fragments: parts of screen definitions kept in files of their own and used by name, so a field group, a
 * footer, a task header or a rule is written once (bff/screens/README.md "Fragments").
 *
 * - `{"$use": "fragments/task_footer", "with": {"task": "amenities"}, "condition"?: rule}` anywhere in a
 *   definition (or in another fragment) is replaced by the fragment's `value`, read from
 *   `bff/screens/<name>.json`. Inside an array (e.g. `widget_list`) a fragment whose value is an array is
 *   spliced in, in order. `condition`, where the fragment gives widgets, is added to every widget's own
 *   condition (both must hold).
 * - Inside a fragment, `{"$param": "task"}` is replaced by the value `with` gives (or the param's
 *   `default`), and `${task}` inside a string by a string or number param, e.g.
 *   `"$t": "screens.task_details.${task}.saved"`.
 * - A fragment file: `{"$schema": "../../schemas/screen-fragment.schema.json", "description": "…",
 *   "params": {"task": {"description": "…", "default"?: value}}, "value": …}`.
 *
 * Fragments are resolved when a definition document is turned into a checked definition (from a file or an
 * upload alike), before the schema check; what is served is the definition with every fragment in place.
 * Errors name the file and JSON path where the author must look: an unknown fragment or param, a cycle
 * (`a → b → a`), and, through {@link Expansion.origins}, any later problem inside a fragment.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ValidateFunction } from 'ajv';
import { sharedAjv } from '../../schemas/ajv';
import { ScreenDefinitionError } from './definition-error';
import { isRecord } from '../../schemas/app/is-record';

/** A fragment's name: its path under bff/screens without `.json`, in a folder (`fragments/task_footer`). */
export const FRAGMENT_NAME = /^[a-z0-9_]+(\/[a-z0-9_]+)+$/;

/** A fragment as found: the file it comes from (for errors) and its parsed JSON (a fragment document). */
export interface FoundFragment {
  file: string;
  json: unknown;
}

/** Finds a fragment by name; undefined when there is none. */
export type FragmentSource = (name: string) => FoundFragment | undefined;

/**
 * The fragments of a folder of definitions: `<dir>/<name>.json`, read when used (so an edited fragment is
 * seen by the next load). @throws ScreenDefinitionError when the file is not valid JSON.
 */
export function fileFragments(dir: string): FragmentSource {
  return (name) => {
    if (!FRAGMENT_NAME.test(name)) return undefined;
    const file = join(dir, `${name}.json`);
    if (!existsSync(file)) return undefined;
    try {
      return { file, json: JSON.parse(readFileSync(file, 'utf8')) as unknown };
    } catch (err) {
      throw new ScreenDefinitionError(file, '', `not valid JSON: ${(err as Error).message}`);
    }
  };
}

/**
 * Where a part of an expanded definition was written: the value at JSON path `at` of the expanded
 * definition comes from `path` of `file`; `site` is the `$use` that brought it in, when it came from a fragment.
 */
export interface Origin {
  at: string;
  file: string;
  path: string;
  site?: { file: string; path: string };
}

/** A definition document with every fragment in place. */
export interface Expansion {
  value: unknown;
  /** Where the parts that moved were written (see {@link locate}). */
  origins: Origin[];
  /** Every fragment file used, directly or not. */
  files: Set<string>;
}

interface Param {
  value: unknown;
  origins: Origin[];
}

interface Frame {
  file: string;
  /** The params of the fragment being expanded; null in the definition itself. */
  params: Record<string, Param> | null;
  /** Fragment names being expanded, outermost first (for cycles). */
  stack: string[];
  files: Set<string>;
  fragments: FragmentSource;
}

interface Result {
  value: unknown;
  /** Relative to the value's own root ('' is the value itself). */
  origins: Origin[];
}

const isUse = (v: unknown): v is Record<string, unknown> & { $use: unknown } => isRecord(v) && '$use' in v;
const isWidget = (v: unknown): v is Record<string, unknown> => isRecord(v) && 'widget_type' in v;
/** Escapes a key for a JSON pointer (RFC 6901). */
const seg = (k: string | number) => String(k).replace(/~/g, '~0').replace(/\//g, '~1');

/** Origins of `r` moved under `prefix` of the enclosing value. */
const rebase = (origins: Origin[], prefix: string): Origin[] =>
  origins.map((o) => ({ ...o, at: `${prefix}${o.at}` }));

const PARAM_IN_STRING = /\$\{([a-z][a-z0-9_]*)\}/g;

let validateFragment: ValidateFunction | undefined;

function expand(v: unknown, f: Frame, src: string): Result {
  if (typeof v === 'string') {
    if (!f.params || !v.includes('${')) return { value: v, origins: [] };
    const params = f.params;
    const value = v.replace(PARAM_IN_STRING, (_, name: string) => {
      const p = params[name];
      if (!p) throw new ScreenDefinitionError(f.file, src, `unknown param '${name}' in '${v}'`);
      if (typeof p.value !== 'string' && typeof p.value !== 'number')
        throw new ScreenDefinitionError(f.file, src, `param '${name}' is not a string or a number`);
      return String(p.value);
    });
    return { value, origins: [] };
  }
  if (Array.isArray(v)) {
    const value: unknown[] = [];
    const origins: Origin[] = [];
    v.forEach((item, i) => {
      const r = isUse(item) ? use(item, f, `${src}/${i}`) : expand(item, f, `${src}/${i}`);
      if (isUse(item) && Array.isArray(r.value)) {
        // Spliced: element j of the fragment's value lands at value.length + j.
        const root = r.origins.find((o) => o.at === '');
        r.value.forEach((el, j) => {
          const at = `/${value.length + j}`;
          const inner = r.origins.filter((o) => o.at === `/${j}` || o.at.startsWith(`/${j}/`));
          if (root && !inner.some((o) => o.at === `/${j}`))
            origins.push({ ...root, at, path: `${root.path}/${j}` });
          origins.push(...inner.map((o) => ({ ...o, at: `${at}${o.at.slice(`/${j}`.length)}` })));
        });
        value.push(...r.value);
        return;
      }
      const at = `/${value.length}`;
      if (value.length !== i) origins.push({ at, file: f.file, path: `${src}/${i}` });
      origins.push(...rebase(r.origins, at));
      value.push(r.value);
    });
    return { value, origins };
  }
  if (!isRecord(v)) return { value: v, origins: [] };
  if (isUse(v)) return use(v, f, src);
  if ('$param' in v && f.params) {
    const name = v.$param;
    const p = typeof name === 'string' ? f.params[name] : undefined;
    if (!p) throw new ScreenDefinitionError(f.file, `${src}/$param`, `unknown param '${String(name)}'`);
    return p;
  }
  const value: Record<string, unknown> = {};
  const origins: Origin[] = [];
  for (const [k, item] of Object.entries(v)) {
    const r = expand(item, f, `${src}/${seg(k)}`);
    value[k] = r.value;
    origins.push(...rebase(r.origins, `/${seg(k)}`));
  }
  return { value, origins };
}

/** Adds `rule` to the condition of every widget of `value` (a widget, an `$each` or a list of them). */
function addCondition(value: unknown, rule: unknown, file: string, path: string): unknown {
  if (Array.isArray(value)) return value.map((w) => addCondition(w, rule, file, path));
  if (isRecord(value) && '$each' in value) return { ...value, do: addCondition(value.do, rule, file, path) };
  if (!isWidget(value))
    throw new ScreenDefinitionError(file, path, 'condition applies only to a fragment that gives widgets');
  const own = value.condition;
  return { ...value, condition: own === undefined ? rule : { and: [rule, own] } };
}

/** Expands one `{"$use": name, "with"?: {...}, "condition"?: rule}` written at `src` of `f.file`. */
function use(u: Record<string, unknown>, f: Frame, src: string): Result {
  const name = u.$use;
  for (const key of Object.keys(u))
    if (key !== '$use' && key !== 'with' && key !== 'condition')
      throw new ScreenDefinitionError(f.file, `${src}/${seg(key)}`, `'${key}' is not allowed beside $use`);
  if (typeof name !== 'string' || !FRAGMENT_NAME.test(name))
    throw new ScreenDefinitionError(
      f.file,
      `${src}/$use`,
      'must name a fragment, e.g. fragments/task_footer',
    );
  if (f.stack.includes(name))
    throw new ScreenDefinitionError(
      f.file,
      `${src}/$use`,
      `fragment cycle: ${[...f.stack.slice(f.stack.indexOf(name)), name].join(' → ')}`,
    );
  const found = f.fragments(name);
  if (!found) throw new ScreenDefinitionError(f.file, `${src}/$use`, `unknown fragment '${name}'`);
  validateFragment ??= sharedAjv().getSchema('screen-fragment.schema.json') as ValidateFunction;
  if (!validateFragment(found.json)) {
    const e = [...(validateFragment.errors ?? [])].sort(
      (a, b) => b.instancePath.split('/').length - a.instancePath.split('/').length,
    )[0];
    const extra = e?.keyword === 'additionalProperties' ? ` '${String(e.params.additionalProperty)}'` : '';
    throw new ScreenDefinitionError(found.file, e?.instancePath ?? '', `${e?.message ?? 'invalid'}${extra}`);
  }
  const doc = found.json as { params?: Record<string, { default?: unknown }>; value: unknown };
  const declared = doc.params ?? {};
  const given = isRecord(u.with) ? u.with : {};
  if (u.with !== undefined && !isRecord(u.with))
    throw new ScreenDefinitionError(f.file, `${src}/with`, 'must be an object of params');
  const params: Record<string, Param> = {};
  for (const [k, item] of Object.entries(given)) {
    if (!(k in declared))
      throw new ScreenDefinitionError(
        f.file,
        `${src}/with/${seg(k)}`,
        `'${name}' has no param '${k}' (it has: ${Object.keys(declared).join(', ') || 'none'})`,
      );
    const r = expand(item, f, `${src}/with/${seg(k)}`);
    params[k] = {
      value: r.value,
      origins: [{ at: '', file: f.file, path: `${src}/with/${seg(k)}` }, ...r.origins],
    };
  }
  for (const [k, spec] of Object.entries(declared)) {
    if (k in params) continue;
    if (!('default' in spec))
      throw new ScreenDefinitionError(f.file, `${src}/with`, `'${name}' needs param '${k}'`);
    params[k] = {
      value: spec.default,
      origins: [{ at: '', file: found.file, path: `/params/${seg(k)}/default` }],
    };
  }
  f.files.add(found.file);
  const inner: Frame = { ...f, file: found.file, params, stack: [...f.stack, name] };
  const r = expand(doc.value, inner, '/value');
  const site = { file: f.file, path: src };
  let value = r.value;
  if (u.condition !== undefined) {
    const rule = expand(u.condition, f, `${src}/condition`).value;
    value = addCondition(value, rule, f.file, `${src}/condition`);
  }
  return {
    value,
    origins: [
      { at: '', file: found.file, path: '/value', site },
      ...r.origins.map((o) => (o.site ? o : { ...o, site })),
    ],
  };
}

/**
 * Puts every fragment `doc` (a definition document written in `file`) uses in place.
 * @throws ScreenDefinitionError naming the file and JSON path of an unknown fragment or param, a cycle, a
 *   `$use` with keys it does not know, or a fragment file that breaks schemas/screen-fragment.schema.json.
 */
export function expandFragments(file: string, doc: unknown, fragments: FragmentSource): Expansion {
  const files = new Set<string>();
  const r = expand(doc, { file, params: null, stack: [], files, fragments }, '');
  return { value: r.value, origins: r.origins, files };
}

/**
 * Where the author must look for a problem found at `path` of an expanded definition written in `file`:
 * the file and path it was written at (a fragment's, when it came from one) and, for a fragment, the `$use`
 * that brought it in.
 */
export function locate(
  expansion: Pick<Expansion, 'origins'>,
  file: string,
  path: string,
): { file: string; path: string; site?: { file: string; path: string } } {
  let best: Origin | undefined;
  for (const o of expansion.origins) {
    if (
      (path === o.at || path.startsWith(`${o.at}/`) || o.at === '') &&
      (!best || o.at.length >= best.at.length)
    )
      best = o;
  }
  if (!best) return { file, path };
  return {
    file: best.file,
    path: `${best.path}${path.slice(best.at.length)}`,
    ...(best.site ? { site: best.site } : {}),
  };
}
