/**
 * The one place where the renderer's structured events are defined (CONVENTIONS: "Messages for these events
 * live in one module of factory functions"). Each factory builds an event; {@link reportWidgetEvent} logs it
 * with console.warn and fires a `widget-report` CustomEvent on window (detail = the event) for monitoring.
 */

/** Kinds of widget events. */
export type WidgetReportCode = 'UNKNOWN_WIDGET' | 'INVALID_CONTENTS' | 'WIDGET_CRASHED' | 'INVALID_SCREEN';

/** A structured widget event: code, screen, widget id, JSON path into the payload and a readable message. */
export interface WidgetReport {
  code: WidgetReportCode;
  screenId: string;
  widgetId: string;
  /** JSON Pointer into the screen payload, e.g. '/widget_list/2/contents/label'. */
  path: string;
  message: string;
}

/** widget_type is not in the registry (or has no contents schema). */
export function UNKNOWN_WIDGET(
  screenId: string,
  widgetId: string,
  path: string,
  widgetType: string,
): WidgetReport {
  return {
    code: 'UNKNOWN_WIDGET',
    screenId,
    widgetId,
    path: `${path}/widget_type`,
    message: `Unknown widget_type "${widgetType}" for widget "${widgetId}" on screen "${screenId}"`,
  };
}

/** contents failed the widget's schema; `issuePath` is the first failing path inside contents. */
export function INVALID_CONTENTS(
  screenId: string,
  widgetId: string,
  path: string,
  issuePath: string,
  detail: string,
): WidgetReport {
  const inner = issuePath === '/' ? '' : issuePath;
  return {
    code: 'INVALID_CONTENTS',
    screenId,
    widgetId,
    path: `${path}/contents${inner}`,
    message: `Invalid contents for widget "${widgetId}" on screen "${screenId}": ${detail}`,
  };
}

/** The widget threw while rendering; its error boundary drew the fallback. */
export function WIDGET_CRASHED(
  screenId: string,
  widgetId: string,
  path: string,
  error: unknown,
): WidgetReport {
  const detail = error instanceof Error ? error.message : String(error);
  return {
    code: 'WIDGET_CRASHED',
    screenId,
    widgetId,
    path,
    message: `Widget "${widgetId}" on screen "${screenId}" crashed: ${detail}`,
  };
}

/** The screen payload itself failed its schema. */
export function INVALID_SCREEN(screenId: string, issuePath: string, detail: string): WidgetReport {
  return {
    code: 'INVALID_SCREEN',
    screenId,
    widgetId: '',
    path: issuePath,
    message: `Invalid payload for screen "${screenId}": ${detail}`,
  };
}

/** Logs the event (console.warn) and dispatches `new CustomEvent('widget-report', { detail })` on window. */
export function reportWidgetEvent(report: WidgetReport): void {
  console.warn(`[${report.code}] ${report.message} (at ${report.path})`);
  if (typeof window !== 'undefined' && typeof CustomEvent === 'function') {
    window.dispatchEvent(new CustomEvent<WidgetReport>('widget-report', { detail: report }));
  }
}
