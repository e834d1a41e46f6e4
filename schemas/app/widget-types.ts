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
