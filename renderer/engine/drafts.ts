import type { ScreenForm } from '../../schemas/generated/types';
import type { FormValues } from '../state/atoms';
import { readStorage, writeStorage } from '../state/storage-keys';
import { isRecord } from '../../schemas/app/is-record';

/**
 * The local copy of a draft the server has not confirmed yet, stored as JSON in localStorage under
 * `DraftSave.storage_key`: the draft fields (field → value; empty strings kept so that a cleared field stays
 * cleared), the section version those edits were made on, and when the copy was written (ISO 8601).
 */
export interface LocalDraft {
  fields: Record<string, unknown>;
  version: number;
  saved_at: string;
}

/**
 * What the saver is doing, for the status line of the Screen: nothing yet, a change waiting for its debounce or
 * a save running, every change confirmed, the network down (changes kept on this device), or the last save
 * refused. A change made after 'saved' turns it back to 'saving' at once, so that "Saved" is never shown while
 * something typed has not reached the server.
 */
export type DraftStatus = 'idle' | 'saving' | 'saved' | 'offline' | 'failed';

/** The local copy under `key`, or null when there is none or it is not a {@link LocalDraft}. */
export function readLocalDraft(key: string): LocalDraft | null {
  const raw = readStorage(key);
  if (raw === null) return null;
  try {
    const parsed: unknown = JSON.parse(raw);
    if (
      isRecord(parsed) &&
      isRecord(parsed.fields) &&
      Number.isSafeInteger(parsed.version) &&
      typeof parsed.saved_at === 'string'
    ) {
      return parsed as unknown as LocalDraft;
    }
  } catch {
    // Not ours or corrupted: treated as absent.
  }
  return null;
}

/** Writes (or, for null, removes) the local copy under `key`; never throws (storage full or disabled). */
export function writeLocalDraft(key: string, draft: LocalDraft | null): void {
  writeStorage(key, draft === null ? null : JSON.stringify(draft));
}

/**
 * The starting form values of a screen (ScreenPayload.form): `initial`, overlaid with the draft fields of the
 * local copy (values typed here that the server has not confirmed win), plus `version_field` := the local
 * copy's version or else `draft.version`. `resend` is true when a local copy exists and must be sent again.
 */
export function startingValues(form: ScreenForm): { values: FormValues; resend: boolean } {
  const values: FormValues = { ...(isRecord(form.initial) ? form.initial : {}) };
  const { draft } = form;
  if (!draft) return { values, resend: false };
  const local = readLocalDraft(draft.storage_key);
  if (local) {
    for (const field of draft.fields) if (field in local.fields) values[field] = local.fields[field];
  }
  values[draft.version_field] = local ? local.version : draft.version;
  return { values, resend: local !== null };
}
