/**
 * Payloads tied to what the client can draw (issue 16 item 4, after Adaptive Cards' `requires` and DivKit's
 * versioning): the browser says which widget types its build draws, and the BFF never sends it one it cannot
 * draw — the widget's `fallback` (a widget of a type it can draw, tried in turn) takes its place, or it is
 * dropped (`fallback: "drop"` or none). So a client cached before a new widget shipped keeps working.
 *
 * Wire: on screen requests only (GET /hms_ms/api/v1/screens/:screen_id, not every API call), the headers
 * `x-widget-types` (the types, comma-separated, e.g. `text,input,button`) and `x-schema-version` (the
 * payload schema version the client reads, `1`). Without `x-widget-types` the payload is sent as composed
 * (today's behaviour: the renderer's own quiet fallback covers an unknown type). The value is the same for
 * every request of one client build, so HTTP/2 header compression sends it once per connection; public
 * screens kept in the BFF's cache are kept per {@link capabilityKey} and answered with
 * `Vary: x-widget-types, x-schema-version`, and the ETag is of the fitted body.
 */
import type { ScreenPayload, WidgetEnvelope } from '../../schemas/generated/types';
import widgetTypeSchema from '../../schemas/widget-type.schema.json' with { type: 'json' };

/** Every widget type the server composes (schemas/widget-type.schema.json). */
export const knownWidgetTypes: readonly string[] = widgetTypeSchema.enum;

/** The payload schema version the composer produces (ScreenPayload.schema_version). */
export const PAYLOAD_SCHEMA_VERSION = 1;

/** Most widget types read from `x-widget-types`; the rest are ignored. */
export const MAX_CLIENT_WIDGET_TYPES = 200;

/** What a client says it can draw. */
export interface ClientCapabilities {
  /** The payload schema version it reads. */
  schemaVersion: number;
  /** The widget types it draws. */
  widgetTypes: ReadonlySet<string>;
}

const TYPE = /^[a-z][a-z0-9_]{0,99}$/;

/**
 * Reads the capability headers: null without `x-widget-types` (the payload is sent as composed). Names
 * that are not widget type names are ignored; `x-schema-version` missing or not a whole number counts as
 * {@link PAYLOAD_SCHEMA_VERSION}.
 */
export function parseCapabilities(
  widgetTypes: string | string[] | undefined,
  schemaVersion: string | string[] | undefined,
): ClientCapabilities | null {
  if (typeof widgetTypes !== 'string') return null;
  const types = new Set(
    widgetTypes
      .split(',')
      .map((t) => t.trim())
      .filter((t) => TYPE.test(t))
      .slice(0, MAX_CLIENT_WIDGET_TYPES),
  );
  const v =
    typeof schemaVersion === 'string' && /^\d{1,4}$/.test(schemaVersion.trim()) ? Number(schemaVersion) : 0;
  return { schemaVersion: v > 0 ? v : PAYLOAD_SCHEMA_VERSION, widgetTypes: types };
}

/**
 * The cache key part of a capability set, over the widget types the server knows (`known`), so that any
 * list naming the same known types shares one cached entry: '' without capabilities.
 */
export function capabilityKey(caps: ClientCapabilities | null, known: readonly string[]): string {
  if (!caps) return '';
  return `${caps.schemaVersion}:${known.filter((t) => caps.widgetTypes.has(t)).join(',')}`;
}

/** The widget the client can draw in place of `widget`: itself, its fallback (recursively), or none. */
function drawable(widget: WidgetEnvelope, caps: ClientCapabilities): WidgetEnvelope | undefined {
  if (caps.widgetTypes.has(widget.widget_type)) {
    const fb = widget.fallback;
    if (!fb || fb === 'drop') return widget;
    // The fallback is drawn when the widget's contents fail in the browser: keep only one it can draw.
    const fitted = drawable(fb, caps);
    const out: WidgetEnvelope = { ...widget };
    if (fitted) out.fallback = fitted;
    else delete out.fallback;
    return out;
  }
  const fb = widget.fallback;
  if (!fb || fb === 'drop') return undefined;
  return drawable(fb, caps);
}

/**
 * `payload` with every widget the client cannot draw replaced by its fallback, or dropped (see the module's
 * comment). A fallback takes the place of its widget, with its own id. Without capabilities, `payload`
 * itself.
 */
export function fitToClient(payload: ScreenPayload, caps: ClientCapabilities | null): ScreenPayload {
  if (!caps) return payload;
  const widgetList: WidgetEnvelope[] = [];
  for (const w of payload.widget_list) {
    const fitted = drawable(w, caps);
    if (fitted) widgetList.push(fitted);
  }
  return { ...payload, widget_list: widgetList };
}
