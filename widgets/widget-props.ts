import type { ComponentType } from 'react';
import type { Action, JsonLogic } from '../schemas/generated/types';

/**
 * The screen's form state as a widget sees it. The engine keeps it in jotai atoms keyed by screen and
 * field, and saves nothing on the widget's behalf: widgets read and write values only through this.
 */
export interface FormApi {
  /** Current value of a field (undefined when never set). */
  value(field: string): unknown;
  /** Sets a field's value and clears its error. */
  setValue(field: string, value: unknown): void;
  /** The (already translated) error shown under a field, if any. */
  error(field: string): string | undefined;
  /** Evaluates a JSON Logic rule over `{ form }`; an absent rule is true. */
  evaluate(rule: JsonLogic | undefined): boolean;
}

/**
 * What a widget hands the dispatcher with its actions. `response` is what their JSON Logic rules read as
 * `response` (as after a submit or fetch): place_search passes `{ success: true, data: <the chosen place> }`
 * so that `{ "var": "response.data.lat" }` reads the place's latitude.
 */
export interface DispatchScope {
  response?: unknown;
}

/**
 * Runs actions in order through the engine's one dispatcher, with `scope.response` (when given) as the
 * `response` their rules read. Resolves true when all succeeded, false when one failed (the engine has
 * already shown the error); never rejects.
 */
export type Dispatch = (actions: Action[], scope?: DispatchScope) => Promise<boolean>;

/** Query parameters of {@link Load}: undefined values are left out, numbers are sent as text. */
export type LoadQuery = Record<string, string | number | undefined>;

/**
 * Reads from a BFF endpoint: a GET through the engine's API client (renderer/api/client.ts, with its headers,
 * credentials and SPEC §8 error handling), e.g. `load('/hms_ms/api/v1/places/search', { q: 'Gurg' }, signal)`.
 * Resolves with `data` of the success envelope `{ success: true, data }`. Rejects with the client's ApiError
 * (status, body, code, translated message; a 401 also signs out) or, when `signal` aborts, with the
 * AbortError. Shows nothing itself: the widget decides what to tell the user. Widgets never call fetch.
 */
export type Load = (endpoint: string, query: LoadQuery, signal?: AbortSignal) => Promise<unknown>;

/** Dialogs of the screen: at most one open at a time, by popup_id. */
export interface PopupApi {
  openId: string | null;
  close(): void;
}

/** What the engine passes to every widget. `contents` has been validated against the widget's schema. */
export interface WidgetProps<C> {
  /** The widget's id, unique within the screen. */
  id: string;
  /** The screen it belongs to. */
  screenId: string;
  contents: C;
  form: FormApi;
  dispatch: Dispatch;
  /** GET requests through the engine (search suggestions and other look-ups). */
  load: Load;
  popup: PopupApi;
}

/** A registered widget component. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type WidgetComponent<C = any> = ComponentType<WidgetProps<C>>;
