import type { WidgetEnvelope } from '../generated/types';

/**
 * The widget types of `widgets` and of the fallbacks they declare (recursively), in order of first
 * appearance, each once: the widgets a screen draws, whose code and contents validators the renderer loads
 * (renderer/engine/validation-schemas.ts) and whose code the server names for preloading in a page that
 * carries the screen (bff/plugins/external/static.ts).
 */
export function widgetTypesOf(widgets: readonly WidgetEnvelope[]): string[] {
  const types = new Set<string>();
  const visit = (envelope: WidgetEnvelope) => {
    types.add(envelope.widget_type);
    if (typeof envelope.fallback === 'object' && envelope.fallback !== null) visit(envelope.fallback);
  };
  widgets.forEach(visit);
  return [...types];
}
