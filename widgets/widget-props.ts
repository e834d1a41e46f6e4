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
 * Runs actions in order through the engine's one dispatcher. Resolves true when all succeeded, false
 * when one failed (the engine has already shown the error); never rejects.
 */
export type Dispatch = (actions: Action[]) => Promise<boolean>;

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
  popup: PopupApi;
}

/** A registered widget component. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type WidgetComponent<C = any> = ComponentType<WidgetProps<C>>;
