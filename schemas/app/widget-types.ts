import type { WidgetEnvelope } from '../generated/types';

/**
 * The widget types of `widgets` and of the fallbacks they declare (recursively), in order of first
 * appearance, each once: the widgets a screen draws, whose code and contents validators the renderer loads
 * (renderer/engine/validation-schemas.ts) and whose code the server names for preloading in a page that
 * carries the screen (bff/plugins/external/static.ts).
 */
export function widgetTypesOf(widgets: readonly WidgetEnvelope[]): string[] {
  return [...new Set(envelopesOf(widgets).map((envelope) => envelope.widget_type))];
}

/** `widgets` and the fallbacks they declare (recursively), each widget before its fallback. */
export function envelopesOf(widgets: readonly WidgetEnvelope[]): WidgetEnvelope[] {
  const all: WidgetEnvelope[] = [];
  const visit = (envelope: WidgetEnvelope) => {
    all.push(envelope);
    if (typeof envelope.fallback === 'object' && envelope.fallback !== null) visit(envelope.fallback);
  };
  widgets.forEach(visit);
  return all;
}

/**
 * The modules a widget's contents need beyond the widget's own code (widgets/widget-props.ts `ContentsCode`),
 * as paths from the repository root, by `widget_type`: the language chooser's list variant
 * (widgets/language-chooser/language-list.tsx) and the input widget's multiline, number and identifier fields
 * (widgets/input/kinds.tsx). The renderer fetches them before it draws a screen that needs them; the server
 * names them for preloading in a page that carries such a screen (bff/plugins/external/static.ts), and
 * `npm run size` counts them on the routes whose screens draw them.
 */
export const CONTENTS_CODE: Readonly<
  Record<string, (contents: Record<string, unknown>) => readonly string[]>
> = {
  language_chooser: (contents) =>
    contents.variant === 'compact' ? [] : ['widgets/language-chooser/language-list.tsx'],
  input: (contents) =>
    contents.kind === 'multiline' ||
    contents.kind === 'number' ||
    (contents.kind === 'text' && contents.identifier !== undefined)
      ? ['widgets/input/kinds.tsx']
      : [],
};

/** Every module {@link CONTENTS_CODE} may name. */
export const ALL_CONTENTS_CODE: readonly string[] = [
  'widgets/language-chooser/language-list.tsx',
  'widgets/input/kinds.tsx',
];

/** The modules of {@link CONTENTS_CODE} the contents of `widgets` (and their fallbacks) need, each once. */
export function contentsCodeOf(widgets: readonly WidgetEnvelope[]): string[] {
  const modules = envelopesOf(widgets).flatMap(({ widget_type: type, contents }) =>
    Object.hasOwn(CONTENTS_CODE, type) && contents && typeof contents === 'object'
      ? CONTENTS_CODE[type]!(contents as Record<string, unknown>)
      : [],
  );
  return [...new Set(modules)];
}
