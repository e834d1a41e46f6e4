import type { WidgetEnvelope } from '../../schemas/generated/types';
import * as validators from '../../schemas/generated/validators';

/** One schema problem: the JSON path (JSON Pointer into the validated value) and ajv's message. */
export interface SchemaIssue {
  path: string;
  message: string;
}

/** Result of a validation: ok, or the issues found (paths relative to the validated value). */
export type SchemaCheck = { ok: true } | { ok: false; issues: SchemaIssue[] };

type Validator = ((data: unknown) => boolean) & {
  errors?: Array<{ instancePath: string; message?: string }> | null;
};

function run(validator: Validator, data: unknown): SchemaCheck {
  if (validator(data)) return { ok: true };
  const issues = (validator.errors ?? []).map((e) => ({
    path: e.instancePath || '/',
    message: e.message ?? 'invalid',
  }));
  return { ok: false, issues: issues.length > 0 ? issues : [{ path: '/', message: 'invalid' }] };
}

/** Validates a screen payload with the ahead-of-time compiled `screen` validator (schemas/screen.schema.json). */
export function checkScreenPayload(data: unknown): SchemaCheck {
  return run(validators.screen as Validator, data);
}

type ValidatorModule = Record<string, unknown>;

/** validators-lazy.js once loaded (see {@link loadLazyValidators}). */
let lazyValidators: ValidatorModule | null = null;
let lazyLoad: Promise<void> | null = null;

const lazyTypes: ReadonlySet<string> = new Set(validators.lazy_widget_types);

/** Tries of validators-lazy.js after the first (SPEC §4, §9: lazy-loaded modules retry up to 5 times). */
const LAZY_VALIDATOR_RETRIES = 5;

/**
 * Whether drawing these widgets (or the fallbacks they declare) needs validators-lazy.js: a widget type whose
 * schema says `"x-lazy": true` (image_uploader, photo_tips) appears and the module is not loaded yet.
 */
export function needsLazyValidators(widgets: readonly WidgetEnvelope[]): boolean {
  if (lazyValidators) return false;
  const visit = (envelope: WidgetEnvelope): boolean =>
    lazyTypes.has(envelope.widget_type) ||
    (typeof envelope.fallback === 'object' && envelope.fallback !== null && visit(envelope.fallback));
  return widgets.some(visit);
}

/**
 * Loads validators-lazy.js (the contents validators of the lazy widgets, kept out of the chunk every screen
 * loads), retrying {@link LAZY_VALIDATOR_RETRIES} times `delayMs` × attempt apart. Resolves once
 * {@link checkWidgetContents} knows them; rejects with the last error (the screen shows its error card).
 */
export function loadLazyValidators(delayMs = 300): Promise<void> {
  lazyLoad ??= (async () => {
    for (let attempt = 0; ; attempt += 1) {
      try {
        lazyValidators =
          (await import('../../schemas/generated/validators-lazy')) as unknown as ValidatorModule;
        return;
      } catch (error) {
        if (attempt >= LAZY_VALIDATOR_RETRIES) {
          lazyLoad = null;
          throw error;
        }
        await new Promise((resolve) => setTimeout(resolve, delayMs * (attempt + 1)));
      }
    }
  })();
  return lazyLoad;
}

/**
 * Validates a widget's `contents` with `widget_<widgetType>` (from validators.js, or validators-lazy.js once
 * {@link loadLazyValidators} resolved). Returns null when no validator is at hand for the type (an unknown
 * widget_type, or a lazy one before its validators are loaded).
 */
export function checkWidgetContents(widgetType: string, contents: unknown): SchemaCheck | null {
  const name = `widget_${widgetType}`;
  const eager = (validators as unknown as ValidatorModule)[name];
  const validator = typeof eager === 'function' ? eager : lazyValidators?.[name];
  if (typeof validator !== 'function') return null;
  return run(validator as Validator, contents);
}
