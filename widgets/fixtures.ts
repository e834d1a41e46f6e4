/**
 * The widgets' fixture payloads, for tests (Vitest) and stories (Storybook); both run on Vite, which
 * bundles the JSON files through `import.meta.glob`. A fixture is a widget envelope
 * `{ id, widget_type, contents }` stored in widgets/<folder>/fixtures/good/*.json (payloads the widget
 * must accept) or widgets/<folder>/fixtures/errors/*.json (contents its schema must reject).
 */
import type { WidgetEnvelope, WidgetType } from '../schemas/generated/types';

type StandaloneValidator = ((data: unknown) => boolean) & {
  errors?: { instancePath: string; message?: string }[] | null;
};

/** One fixture: its file name without .json, and the envelope it holds. */
export interface WidgetFixture {
  name: string;
  envelope: WidgetEnvelope;
}

/** The contents validator modules, one per widget type (schemas/generated/validators/<widget_type>.js). */
const validators = import.meta.glob<StandaloneValidator>('../schemas/generated/validators/*.js', {
  eager: true,
  import: 'validate',
});

const good = import.meta.glob<WidgetEnvelope>('./*/fixtures/good/*.json', { eager: true, import: 'default' });
const errors = import.meta.glob<WidgetEnvelope>('./*/fixtures/errors/*.json', {
  eager: true,
  import: 'default',
});

/** The folder of a widget type: widget types are snake_case, folders kebab-case (CONVENTIONS). */
export function widgetFolder(widgetType: WidgetType): string {
  return widgetType.replaceAll('_', '-');
}

function pick(files: Record<string, WidgetEnvelope>, widgetType: WidgetType): WidgetFixture[] {
  const prefix = `./${widgetFolder(widgetType)}/fixtures/`;
  return Object.entries(files)
    .filter(([path]) => path.startsWith(prefix))
    .map(([path, envelope]) => ({ name: path.slice(path.lastIndexOf('/') + 1, -'.json'.length), envelope }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** Good fixtures of a widget type, sorted by file name; [] when it has none. */
export function goodFixtures(widgetType: WidgetType): WidgetFixture[] {
  return pick(good, widgetType);
}

/** Error fixtures of a widget type (contents its schema must reject), sorted by file name. */
export function errorFixtures(widgetType: WidgetType): WidgetFixture[] {
  return pick(errors, widgetType);
}

/**
 * The contents of the good fixture `name` of a widget type, typed as the caller says.
 * @throws Error when there is no such fixture (a typo in a test or story).
 */
export function fixtureContents<C>(widgetType: WidgetType, name: string): C {
  const found = goodFixtures(widgetType).find((f) => f.name === name);
  if (!found) throw new Error(`no good fixture '${name}' for widget ${widgetType}`);
  return found.envelope.contents as C;
}

/** Result of validating contents with the standalone validator `widget_<type>`. */
export interface ContentsCheck {
  valid: boolean;
  /** ajv errors as `instancePath message`, empty when valid. */
  errors: string[];
}

/**
 * Validates a widget's contents with the ahead-of-time validator of
 * schemas/generated/validators/<widget_type>.js (the one the engine loads in the browser).
 * @throws Error when no validator exists for the type (schemas/generated is stale: `npm run gen:validators`).
 */
export function checkContents(widgetType: WidgetType, contents: unknown): ContentsCheck {
  const validate = validators[`../schemas/generated/validators/${widgetType}.js`];
  if (typeof validate !== 'function') throw new Error(`no validator for ${widgetType}`);
  const valid = validate(contents);
  return {
    valid,
    errors: valid ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`),
  };
}
