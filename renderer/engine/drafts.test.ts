import { createStore } from 'jotai';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DraftSave } from '../../schemas/generated/types';
import { formErrorsAtom, formValuesAtom, resetUserAtoms } from '../state/atoms';
import { createDraftSaver } from './draft-saver';
import { readLocalDraft, startingValues, writeLocalDraft, type DraftStatus } from './drafts';
import { writeField } from './form';

const fetchMock = vi.fn<typeof fetch>();
const SCREEN = 'task_details';
const ENDPOINT = '/hms_ms/api/v1/onboard/leads/PO1A2B3C4D5E/sections/basic_info';
let keyCounter = 0;
const running: Array<{ dispose(): void }> = [];

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}
const saved = (version: number) =>
  json(200, { success: true, data: { section: { data: {}, version, completed: false, updated_at: null } } });

function setup(options: { version?: number; values?: Record<string, unknown>; resend?: boolean } = {}) {
  keyCounter += 1;
  const draft: DraftSave = {
    endpoint: ENDPOINT,
    method: 'PUT',
    fields: ['title', 'description', 'total_rooms'],
    version: options.version ?? 1,
    version_field: 'version',
    debounce_ms: 800,
    storage_key: `draft:test-${keyCounter}:basic_info`,
  };
  const store = createStore();
  store.set(formValuesAtom, { [SCREEN]: { version: draft.version, ...options.values } });
  const host = { toast: vi.fn() };
  const statuses: DraftStatus[] = [];
  const onConflict = vi.fn();
  const saver = createDraftSaver({
    draft,
    screenId: SCREEN,
    store,
    host,
    resend: options.resend ?? false,
    onStatus: (s) => statuses.push(s),
    onConflict,
  });
  running.push(saver);
  const type = (field: string, value: unknown) => writeField(store, SCREEN, field, value);
  const form = () => store.get(formValuesAtom)[SCREEN] ?? {};
  const bodies = () => fetchMock.mock.calls.map((call) => JSON.parse(call[1]!.body as string) as unknown);
  return { draft, store, host, statuses, onConflict, saver, type, form, bodies };
}

beforeEach(() => {
  vi.useFakeTimers();
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
  localStorage.clear();
});
afterEach(() => {
  // Savers listen to window 'online': stop them so that one test's saver never answers another's event.
  for (const saver of running.splice(0)) saver.dispose();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('startingValues', () => {
  it('starts from initial and the server version without a local copy', () => {
    const { values, resend } = startingValues({
      initial: { title: 'Sea View', total_rooms: 12 },
      draft: {
        endpoint: ENDPOINT,
        fields: ['title'],
        version: 3,
        version_field: 'version',
        storage_key: 'k1',
      },
    });
    expect(values).toEqual({ title: 'Sea View', total_rooms: 12, version: 3 });
    expect(resend).toBe(false);
  });

  it('lets the unconfirmed local copy win, with the version it was typed on', () => {
    writeLocalDraft('k2', {
      fields: { title: 'Sea View Inn', other: 'x' },
      version: 2,
      saved_at: '2025-01-01T00:00:00Z',
    });
    const { values, resend } = startingValues({
      initial: { title: 'Sea View', total_rooms: 12 },
      draft: {
        endpoint: ENDPOINT,
        fields: ['title'],
        version: 3,
        version_field: 'version',
        storage_key: 'k2',
      },
    });
    expect(values).toEqual({ title: 'Sea View Inn', total_rooms: 12, version: 2 });
    expect(resend).toBe(true);
  });

  it('ignores a local copy that is not one', () => {
    localStorage.setItem('k3', '{"fields":1}');
    expect(readLocalDraft('k3')).toBeNull();
    expect(startingValues({ initial: { a: 1 } }).values).toEqual({ a: 1 });
  });
});

describe('createDraftSaver', () => {
  it('keeps a local copy at once and sends one debounced draft with the values and version', async () => {
    const { type, bodies, draft, form, statuses } = setup({ version: 1 });
    fetchMock.mockResolvedValue(saved(2));
    type('title', 'Sea');
    await vi.advanceTimersByTimeAsync(500);
    type('title', 'Sea View');
    type('total_rooms', 12);
    type('description', '');
    expect(readLocalDraft(draft.storage_key)).toMatchObject({
      fields: { title: 'Sea View', total_rooms: 12, description: '' },
      version: 1,
    });
    await vi.advanceTimersByTimeAsync(799);
    expect(fetchMock).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(fetchMock.mock.calls[0]![0]).toBe(ENDPOINT);
    expect(fetchMock.mock.calls[0]![1]!.method).toBe('PUT');
    expect(bodies()[0]).toEqual({ data: { title: 'Sea View', total_rooms: 12 }, version: 1, draft: true });
    expect(form().version).toBe(2);
    expect(readLocalDraft(draft.storage_key)).toBeNull();
    expect(statuses).toEqual(['saving', 'saved']);
  });

  it('never says saved while a change waits for its debounce or for the save after a running one', async () => {
    const { type, statuses } = setup({ version: 1 });
    let answer: (r: Response) => void = () => undefined;
    fetchMock.mockResolvedValueOnce(saved(2));
    type('description', 'Sea');
    expect(statuses).toEqual(['saving']);
    await vi.advanceTimersByTimeAsync(800);
    expect(statuses).toEqual(['saving', 'saved']);

    // Typed after "Saved": back to "Saving…" before anything is sent.
    type('description', 'Sea View');
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(statuses.at(-1)).toBe('saving');

    // Typed while that save runs: its answer does not say "Saved", the one after it does.
    fetchMock.mockImplementationOnce(() => new Promise<Response>((resolve) => (answer = resolve)));
    fetchMock.mockResolvedValueOnce(saved(4));
    await vi.advanceTimersByTimeAsync(800);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    type('total_rooms', 12);
    answer(saved(3));
    await vi.advanceTimersByTimeAsync(0);
    expect(statuses.at(-1)).toBe('saving');
    await vi.advanceTimersByTimeAsync(800);
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(statuses).toEqual(['saving', 'saved', 'saving', 'saved']);
  });

  it('keeps saying offline while more is typed offline', async () => {
    const { type, statuses } = setup({ version: 1 });
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    type('title', 'Sea View Inn');
    await vi.advanceTimersByTimeAsync(800);
    expect(statuses).toEqual(['saving', 'offline']);
    type('title', 'Sea View Inn and Spa');
    expect(statuses).toEqual(['saving', 'offline']);
    await vi.advanceTimersByTimeAsync(800);
    // The second try says "Saving…" while it runs, then "Offline" again.
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(statuses).toEqual(['saving', 'offline', 'saving', 'offline']);
  });

  it('says saved again when a change is undone before it is sent, and sends nothing', async () => {
    const { type, statuses } = setup({ version: 1, values: { title: 'Sea View' } });
    type('title', 'Sea View Inn');
    expect(statuses).toEqual(['saving']);
    type('title', 'Sea View');
    expect(statuses).toEqual(['saving', 'saved']);
    await vi.advanceTimersByTimeAsync(2000);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('ignores changes of other fields', async () => {
    const { type } = setup();
    type('otp', '1234');
    await vi.advanceTimersByTimeAsync(2000);
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('runs one save at a time and sends changes made meanwhile after it, with the new version', async () => {
    const { type, bodies, form, draft } = setup({ version: 1 });
    let answer: (r: Response) => void = () => undefined;
    fetchMock.mockImplementationOnce(() => new Promise<Response>((resolve) => (answer = resolve)));
    fetchMock.mockResolvedValueOnce(saved(3));
    type('title', 'Sea View');
    await vi.advanceTimersByTimeAsync(800);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    type('title', 'Sea View Inn');
    await vi.advanceTimersByTimeAsync(800);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(readLocalDraft(draft.storage_key)?.fields.title).toBe('Sea View Inn');
    answer(saved(2));
    await vi.advanceTimersByTimeAsync(0);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(bodies()[1]).toEqual({ data: { title: 'Sea View Inn' }, version: 2, draft: true });
    await vi.advanceTimersByTimeAsync(0);
    expect(form().version).toBe(3);
    expect(readLocalDraft(draft.storage_key)).toBeNull();
  });

  it('on 409 shows the server message as a warning, drops the local copy and asks for a refetch', async () => {
    const { type, host, onConflict, draft, saver } = setup();
    const message = 'This section was changed on another device or tab. The latest version has been loaded.';
    fetchMock.mockResolvedValue(
      json(409, { success: false, error: { code: 'ONB_VERSION_CONFLICT', message } }),
    );
    type('title', 'Mine');
    await vi.advanceTimersByTimeAsync(800);
    expect(host.toast).toHaveBeenCalledWith({ text: message, status: 'warning' });
    expect(readLocalDraft(draft.storage_key)).toBeNull();
    expect(onConflict).toHaveBeenCalledTimes(1);
    expect(await saver.settle()).toBe(false);
    type('title', 'Mine again');
    await vi.advanceTimersByTimeAsync(2000);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('on 400 with a field shows the error under it and keeps the local copy', async () => {
    const { type, store, draft, statuses, host } = setup();
    fetchMock.mockResolvedValue(
      json(400, {
        success: false,
        error: { code: 'ONB_INVALID_INPUT', message: 'Invalid Input', field: 'total_rooms' },
      }),
    );
    type('total_rooms', 5000);
    await vi.advanceTimersByTimeAsync(800);
    expect(store.get(formErrorsAtom)[SCREEN]).toEqual({ total_rooms: 'Invalid Input' });
    expect(readLocalDraft(draft.storage_key)?.fields.total_rooms).toBe(5000);
    expect(statuses.at(-1)).toBe('failed');
    expect(host.toast).not.toHaveBeenCalled();
  });

  it('offline keeps the local copy and sends it again when the network comes back', async () => {
    const { type, draft, statuses, form } = setup({ version: 4 });
    fetchMock.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    type('description', 'Rooftop pool');
    await vi.advanceTimersByTimeAsync(800);
    expect(statuses.at(-1)).toBe('offline');
    expect(readLocalDraft(draft.storage_key)).toMatchObject({
      fields: { description: 'Rooftop pool' },
      version: 4,
    });
    fetchMock.mockResolvedValueOnce(saved(5));
    window.dispatchEvent(new Event('online'));
    await vi.advanceTimersByTimeAsync(0);
    expect(fetchMock).toHaveBeenCalledTimes(2);
    expect(form().version).toBe(5);
    expect(readLocalDraft(draft.storage_key)).toBeNull();
    expect(statuses.at(-1)).toBe('saved');
  });

  it('sends a restored local copy at once', async () => {
    fetchMock.mockResolvedValue(saved(3));
    const { bodies } = setup({ version: 2, values: { title: 'Typed offline' }, resend: true });
    await vi.advanceTimersByTimeAsync(0);
    expect(bodies()).toEqual([{ data: { title: 'Typed offline' }, version: 2, draft: true }]);
  });

  it('settle sends a change still waiting for its debounce and resolves once saved', async () => {
    const { type, saver, form } = setup({ version: 1 });
    fetchMock.mockResolvedValue(saved(2));
    type('title', 'Quick');
    const settled = saver.settle();
    await vi.advanceTimersByTimeAsync(0);
    expect(await settled).toBe(true);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(form().version).toBe(2);
  });

  it('dispose sends a change still waiting, and stops watching', async () => {
    const { type, saver } = setup();
    fetchMock.mockResolvedValue(saved(2));
    type('title', 'Leaving');
    saver.dispose();
    await vi.advanceTimersByTimeAsync(0);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    type('title', 'After');
    await vi.advanceTimersByTimeAsync(2000);
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });

  it('neither keeps nor sends anything when the form is reset by sign-out', async () => {
    const { store, draft } = setup({ values: { title: 'Sea View' } });
    resetUserAtoms(store);
    await vi.advanceTimersByTimeAsync(2000);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(readLocalDraft(draft.storage_key)).toBeNull();
  });
});
