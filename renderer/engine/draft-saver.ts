import type { DraftSave } from '../../schemas/generated/types';
import { ApiError, apiRequest, extractErrorMessage } from '../api/client';
import { formValuesAtom, type AppStore, type FormValues } from '../state/atoms';
import { isRecord } from '../../schemas/app/is-record';
import { writeLocalDraft, type DraftStatus, type LocalDraft } from './drafts';
import { setFieldError, writeField } from './form';
import type { ShellHost } from './host';

/** Quiet time after the last change before a draft is saved, in ms, when DraftSave.debounce_ms is absent. */
export const DEFAULT_DRAFT_DEBOUNCE_MS = 800;

/** Whether a draft field counts as having a value: not undefined, null or blank text. */
function hasValue(value: unknown): boolean {
  if (value === undefined || value === null) return false;
  return typeof value !== 'string' || value.trim() !== '';
}

/** Options of {@link createDraftSaver}. */
export interface DraftSaverOptions {
  draft: DraftSave;
  screenId: string;
  /** The jotai store holding the screen's form (renderer/state formValuesAtom). */
  store: AppStore;
  /** Only `toast` is used: the warning of a version conflict. */
  host: Pick<ShellHost, 'toast'>;
  /** A local copy was restored: send it at once. */
  resend: boolean;
  /** Called whenever the saver's {@link DraftStatus} changes (not after dispose). */
  onStatus(status: DraftStatus): void;
  /** Called after a 409: the local copy is gone, the screen must be fetched again (new initial and version). */
  onConflict(): void;
}

/** A running draft saver of one screen form; see {@link createDraftSaver}. */
export interface DraftSaver {
  /** Sends unsaved changes now (skipping the debounce). Resolves false after a version conflict. */
  flush(): Promise<boolean>;
  /**
   * Waits until every change is saved or a save failed, so that a final submit reads the latest version.
   * Resolves false after a version conflict (the screen is being fetched again), true otherwise.
   */
  settle(): Promise<boolean>;
  /** Stops watching the form; a change still waiting for its debounce is sent at once. */
  dispose(): void;
}

/** The save running per storage key, so that two savers of one draft (a quick remount) never overlap. */
const lanes = new Map<string, Promise<boolean>>();
/** The last version this tab received per storage key (a save may finish after its screen remounted). */
const lastVersions = new Map<string, number>();

type Outcome = 'saved' | 'failed' | 'conflict';

/**
 * Saves a screen's draft fields as the user types (ScreenPayload.form.draft, issue 3). Watches the screen's form
 * in `store`; on each change of a draft field it writes the local copy ({@link LocalDraft}, localStorage
 * `storage_key`) and, after `debounce_ms` (800) of quiet, sends `{ data: { field: value… (fields with a
 * value) }, version: form[version_field], draft: true }` with `method` (PUT) to `endpoint` through the API
 * client. One save runs at a time; changes made meanwhile are sent after it.
 *
 * Answers: success → `version_field` := data.section.version, local copy removed (unless the form changed
 * meanwhile). 409 → a warning toast with the server's message, local copy removed, `onConflict` (fetch the
 * screen again). 400 with `field` → that error under the field, local copy kept. Network failure (status 0)
 * → local copy kept, sent again on the window 'online' event (and on the next load of the screen through
 * drafts.ts `startingValues`). No toast on success or on other failures: the Screen's status line tells
 * ({@link DraftStatus}, reported only when it changes).
 */
export function createDraftSaver(options: DraftSaverOptions): DraftSaver {
  const { draft, screenId, store, host, onStatus, onConflict } = options;
  const key = draft.storage_key;
  const debounceMs = draft.debounce_ms ?? DEFAULT_DRAFT_DEBOUNCE_MS;
  const method = draft.method ?? 'PUT';

  let frozen: FormValues | null = null;
  const current = (): FormValues => frozen ?? store.get(formValuesAtom)[screenId] ?? {};
  const snapshot = (form: FormValues): string =>
    JSON.stringify(draft.fields.map((field) => (form[field] === undefined ? null : form[field])));
  const versionOf = (form: FormValues): number => {
    const raw = form[draft.version_field];
    const held = typeof raw === 'number' && Number.isSafeInteger(raw) ? raw : draft.version;
    return Math.max(held, lastVersions.get(key) ?? 0);
  };
  const localCopy = (form: FormValues, version: number): LocalDraft => {
    const fields: Record<string, unknown> = {};
    for (const field of draft.fields) if (form[field] !== undefined) fields[field] = form[field];
    return { fields, version, saved_at: new Date().toISOString() };
  };

  let confirmed: string | null = options.resend ? null : snapshot(current());
  let seen = snapshot(current());
  let timer: ReturnType<typeof setTimeout> | undefined;
  let running: Promise<boolean> | null = null;
  let again = false;
  let conflicted = false;
  let disposed = false;
  let status: DraftStatus = 'idle';

  const report = (next: DraftStatus) => {
    if (disposed || next === status) return;
    status = next;
    onStatus(next);
  };
  const clearTimer = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
  };

  async function send(form: FormValues, snap: string): Promise<Outcome> {
    const data: Record<string, unknown> = {};
    for (const field of draft.fields) if (hasValue(form[field])) data[field] = form[field];
    const version = versionOf(form);
    report('saving');
    try {
      const answer = await apiRequest<unknown>(draft.endpoint, {
        method,
        body: { data, version, draft: true },
      });
      const section = isRecord(answer) && isRecord(answer.section) ? answer.section : undefined;
      const next =
        section && Number.isSafeInteger(section.version) ? (section.version as number) : version + 1;
      confirmed = snap;
      lastVersions.set(key, next);
      if (!disposed) writeField(store, screenId, draft.version_field, next);
      const now = current();
      const changed = snapshot(now) !== snap;
      writeLocalDraft(key, changed ? localCopy(now, next) : null);
      // Changed meanwhile: not all saved yet, the next save follows.
      report(changed ? 'saving' : 'saved');
      return 'saved';
    } catch (error) {
      if (error instanceof ApiError && error.status === 409) {
        conflicted = true;
        clearTimer();
        lastVersions.delete(key);
        writeLocalDraft(key, null);
        host.toast({ text: extractErrorMessage(error), status: 'warning' });
        report('idle');
        if (!disposed) onConflict();
        return 'conflict';
      }
      if (error instanceof ApiError && error.status === 0) {
        report('offline');
        return 'failed';
      }
      if (error instanceof ApiError && error.status === 400 && error.field && !disposed) {
        setFieldError(store, screenId, error.field, extractErrorMessage(error));
      }
      report('failed');
      return 'failed';
    }
  }

  async function run(): Promise<boolean> {
    for (;;) {
      again = false;
      if (conflicted) return false;
      const form = current();
      const snap = snapshot(form);
      if (snap === confirmed) {
        if (status === 'saving') report('saved');
        return true;
      }
      const outcome = await send(form, snap);
      if (outcome === 'conflict') return false;
      if (outcome === 'failed') return true;
      // Still typing: the debounce timer sends the rest.
      if (timer !== undefined && !again) return true;
    }
  }

  function flush(): Promise<boolean> {
    clearTimer();
    if (running) {
      again = true;
      return running;
    }
    const before = lanes.get(key) ?? Promise.resolve(true);
    const mine: Promise<boolean> = before
      .catch(() => true)
      .then(run)
      .catch(() => true)
      .finally(() => {
        if (running === mine) running = null;
        if (lanes.get(key) === mine) lanes.delete(key);
      });
    running = mine;
    lanes.set(key, mine);
    return mine;
  }

  const unsubscribe = store.sub(formValuesAtom, () => {
    // The screen's form was reset (sign-out): nothing to keep or send.
    if (conflicted || store.get(formValuesAtom)[screenId] === undefined) {
      clearTimer();
      return;
    }
    const form = current();
    const snap = snapshot(form);
    if (snap === seen) return;
    seen = snap;
    if (snap === confirmed && !running) {
      clearTimer();
      writeLocalDraft(key, null);
      if (status === 'saving') report('saved');
      return;
    }
    writeLocalDraft(key, localCopy(form, versionOf(form)));
    // "Saved" would be untrue while this change waits for its debounce; "offline" and "not saved yet" stay true.
    if (status === 'idle' || status === 'saved') report('saving');
    clearTimer();
    timer = setTimeout(() => {
      timer = undefined;
      void flush();
    }, debounceMs);
  });

  const onOnline = () => {
    if (!conflicted && snapshot(current()) !== confirmed) void flush();
  };
  globalThis.addEventListener?.('online', onOnline);

  if (options.resend) void flush();

  return {
    flush,
    settle: () => (conflicted ? Promise.resolve(false) : flush()),
    dispose: () => {
      if (disposed) return;
      frozen = current();
      disposed = true;
      unsubscribe();
      globalThis.removeEventListener?.('online', onOnline);
      const waiting = timer !== undefined;
      clearTimer();
      if (waiting && !conflicted) void flush();
    },
  };
}
