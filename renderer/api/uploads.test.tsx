import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useEffect, useSyncExternalStore } from 'react';
import { act, render, screen } from '@testing-library/react';
import { createStore } from 'jotai';
import type { PropertyImage, UploadImageResult } from '../../schemas/generated/types';
import type { UploadApi } from '../../widgets/widget-props';
import { ApiError, type ApiUploadOptions, apiRequest, apiUpload } from './client';
import { loggedInAtom, type AppStore } from '../state/atoms';
import { uuidV4 } from './idempotency';
import { createUploadManager, uploadFailure, uploadManagerFor, uploadsAtom } from './uploads';

const ENDPOINT = '/hms_ms/api/v1/onboard/leads/PO1/images';

/** One call of the fake transport: what was sent, and how to answer it. */
interface Call {
  path: string;
  fields: [string, FormDataEntryValue][];
  options: ApiUploadOptions;
  resolve(result: UploadImageResult): void;
  reject(error: unknown): void;
}

let calls: Call[];
let store: AppStore;
let manager: UploadApi;
let counter: number;

const fakeUpload = ((path: string, form: FormData, options: ApiUploadOptions = {}) =>
  new Promise((resolve, reject) => {
    calls.push({
      path,
      fields: [...form.entries()],
      options,
      resolve: resolve as (r: UploadImageResult) => void,
      reject,
    });
  })) as typeof apiUpload;

const request = vi.fn<(path: string, options?: unknown) => Promise<unknown>>();

function image(fields: Partial<PropertyImage> = {}): PropertyImage {
  counter += 1;
  return {
    image_id: `aaaaaaaa-0000-4000-8000-${String(counter).padStart(12, '0')}`,
    client_upload_id: '',
    category: 'room',
    room_category: null,
    status: 'accepted',
    is_active: true,
    error_type: null,
    message: null,
    width: 4000,
    height: 3000,
    bytes: 1000,
    url: '/x',
    thumbnail_url: '/x/thumb',
    created_at: '2025-05-01T09:30:00.000Z',
    can_delete: true,
    ...fields,
  };
}

const answer = (call: Call, fields: Partial<PropertyImage> = {}) => {
  const img = image({ client_upload_id: String(field(call, 'client_upload_id')), ...fields });
  call.resolve({ image: img, completed: false, accepted_count: 1 });
  return img;
};

const field = (call: Call, name: string) => call.fields.find(([n]) => n === name)?.[1];
const files = (n: number) =>
  Array.from({ length: n }, (_, i) => new File([`photo ${i}`], `p${i}.jpg`, { type: 'image/jpeg' }));
const items = () => manager.items(ENDPOINT, 'room');
const flush = () => act(async () => new Promise((r) => setTimeout(r, 0)));

beforeEach(() => {
  calls = [];
  counter = 0;
  localStorage.setItem('isLoggedIn', 'true');
  store = createStore();
  request.mockReset();
  let ids = 0;
  manager = createUploadManager(store, {
    upload: fakeUpload,
    request: request as unknown as typeof apiRequest,
    newId: () => `00000000-0000-4000-8000-${String(++ids).padStart(12, '0')}`,
  });
});

afterEach(() => localStorage.clear());

describe('upload manager: queue', () => {
  it('sends category, client_upload_id, then the file, to the endpoint', async () => {
    const [file] = files(1);
    manager.add(ENDPOINT, 'room', [file!]);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.path).toBe(ENDPOINT);
    expect(calls[0]!.fields.map(([name]) => name)).toEqual(['category', 'client_upload_id', 'file']);
    expect(field(calls[0]!, 'category')).toBe('room');
    expect(field(calls[0]!, 'client_upload_id')).toBe('00000000-0000-4000-8000-000000000001');
    expect((field(calls[0]!, 'file') as File).name).toBe('p0.jpg');
  });

  it('sends room_category after category when the item has one, and keeps each room category apart', async () => {
    manager.add(ENDPOINT, 'room', files(1), undefined, undefined, 'Deluxe double');
    manager.add(ENDPOINT, 'room', files(1));
    expect(calls[0]!.fields.map(([name]) => name)).toEqual([
      'category',
      'room_category',
      'client_upload_id',
      'file',
    ]);
    expect(field(calls[0]!, 'room_category')).toBe('Deluxe double');
    expect(calls[1]!.fields.map(([name]) => name)).toEqual(['category', 'client_upload_id', 'file']);
    expect(manager.items(ENDPOINT, 'room', 'Deluxe double').map((i) => i.room_category)).toEqual([
      'Deluxe double',
    ]);
    expect(items().map((i) => i.room_category)).toEqual([null]);
    expect(manager.items(ENDPOINT, 'room', 'Family suite')).toEqual([]);
    // Watching one room category brings only its items to the foreground.
    const stop = manager.watch(ENDPOINT, 'room', 'Deluxe double');
    expect(manager.items(ENDPOINT, 'room', 'Deluxe double')[0]!.is_in_background).toBe(false);
    expect(items()[0]!.is_in_background).toBe(true);
    stop();
    expect(manager.items(ENDPOINT, 'room', 'Deluxe double')[0]!.is_in_background).toBe(true);
  });

  it('runs at most 2 uploads at once, in the order added', async () => {
    manager.add(ENDPOINT, 'room', files(5));
    expect(calls.map((c) => (field(c, 'file') as File).name)).toEqual(['p0.jpg', 'p1.jpg']);
    expect(items().map((i) => i.status)).toEqual(['uploading', 'uploading', 'queued', 'queued', 'queued']);
    answer(calls[1]!);
    await flush();
    expect(calls.map((c) => (field(c, 'file') as File).name)).toEqual(['p0.jpg', 'p1.jpg', 'p2.jpg']);
    calls[0]!.reject(
      new ApiError('Image Upload Failed. Please try again.', 422, {}, 'ONB_IMAGE_UPLOAD_FAILED'),
    );
    await flush();
    expect(calls).toHaveLength(4);
    expect(items().filter((i) => i.status === 'uploading')).toHaveLength(2);
  });

  it('follows the progress, then processing once every byte is sent, then the server’s verdict', async () => {
    manager.add(ENDPOINT, 'room', files(1));
    const call = calls[0]!;
    const tempId = items()[0]!.id;
    expect(tempId).toMatch(/^local-/);
    act(() => call.options.onProgress!(512, 2048));
    expect(items()[0]).toMatchObject({ status: 'uploading', uploaded_percentile: 25 });
    act(() => call.options.onSent!());
    expect(items()[0]).toMatchObject({ status: 'processing', uploaded_percentile: 100 });
    const stored = answer(call);
    await flush();
    expect(items()[0]).toMatchObject({ id: stored.image_id, status: 'accepted', image: stored, error: null });
    expect(items()[0]!.client_upload_id).toBe(field(call, 'client_upload_id'));
  });

  it('keeps the image answer as the item’s response', async () => {
    manager.add(ENDPOINT, 'room', files(1));
    const stored = answer(calls[0]!);
    await flush();
    expect(items()[0]!.response).toEqual({ image: stored, completed: false, accepted_count: 1 });
  });

  it('sends the fields it is given instead of category, and again on a retry', async () => {
    const KYC = '/hms_ms/api/v1/onboard/leads/PO1/kyc/documents';
    manager.add(KYC, 'document', files(1), undefined, { id_type: 'pan' });
    expect(calls[0]!.path).toBe(KYC);
    expect(calls[0]!.fields.map(([name]) => name)).toEqual(['id_type', 'client_upload_id', 'file']);
    expect(field(calls[0]!, 'id_type')).toBe('pan');
    calls[0]!.reject(new ApiError('Unable to connect', 0, undefined));
    await flush();
    const [item] = manager.items(KYC, 'document');
    expect(item).toMatchObject({ status: 'failed', fields: { id_type: 'pan' } });
    expect(manager.retry(item!.id)).toBe(true);
    expect(
      calls[1]!.fields.map(([name, value]) => [name, typeof value === 'string' ? value : 'file']),
    ).toEqual([
      ['id_type', 'pan'],
      ['client_upload_id', item!.client_upload_id],
      ['file', 'file'],
    ]);
  });

  it('leaves an answer that is not an image processing, with the answer as response', async () => {
    const KYC = '/hms_ms/api/v1/onboard/leads/PO1/kyc/documents';
    manager.add(KYC, 'document', files(1), undefined, { id_type: 'pan' });
    const document = { document_id: 'd0c00000-0000-4000-8000-000000000001', status: 'processing' };
    (calls[0]!.resolve as (r: unknown) => void)({ document });
    await flush();
    const [item] = manager.items(KYC, 'document');
    expect(item).toMatchObject({
      status: 'processing',
      uploaded_percentile: 100,
      image: null,
      error: null,
      response: { document },
    });
    expect(item!.id).toMatch(/^local-/);
    // The queue is free again for the next upload.
    manager.add(KYC, 'document', files(1), undefined, { id_type: 'pan' });
    expect(calls).toHaveLength(2);
  });

  it('takes a rejected image with the server’s message', async () => {
    manager.add(ENDPOINT, 'room', files(1));
    answer(calls[0]!, { status: 'rejected', error_type: 'VERTICAL', message: 'This photo is vertical.' });
    await flush();
    expect(items()[0]).toMatchObject({ status: 'rejected', error: 'This photo is vertical.' });
  });

  it('maps error codes: duplicate, refused (invalid) and failed', async () => {
    manager.add(ENDPOINT, 'room', files(4));
    const duplicate = 'This image has already been uploaded. Please re-upload a new image';
    calls[0]!.reject(new ApiError(duplicate, 409, {}, 'ONB_IMAGE_DUPLICATE'));
    calls[1]!.reject(new ApiError('Too large', 413, {}, 'ONB_IMAGE_TOO_LARGE'));
    await flush();
    calls[2]!.reject(new ApiError('Unable to connect', 0, undefined));
    calls[3]!.reject(new ApiError('Internal Server Error', 500, {}, 'ONB_INTERNAL'));
    await flush();
    expect(items().map((i) => [i.status, i.error, i.error_code])).toEqual([
      ['duplicate', duplicate, 'ONB_IMAGE_DUPLICATE'],
      ['invalid', 'Too large', 'ONB_IMAGE_TOO_LARGE'],
      ['failed', 'Unable to connect', null],
      ['failed', 'Internal Server Error', 'ONB_INTERNAL'],
    ]);
  });

  it('retries a failed upload with the same client_upload_id, and only a failed one', async () => {
    manager.add(ENDPOINT, 'room', files(2));
    calls[0]!.reject(
      new ApiError('Image Upload Failed. Please try again.', 422, {}, 'ONB_IMAGE_UPLOAD_FAILED'),
    );
    answer(calls[1]!);
    await flush();
    const [failed, accepted] = items();
    expect(failed!.status).toBe('failed');
    expect(manager.retry(accepted!.id)).toBe(false);
    expect(manager.retry(failed!.id)).toBe(true);
    expect(calls).toHaveLength(3);
    expect(field(calls[2]!, 'client_upload_id')).toBe(failed!.client_upload_id);
    expect(items()[0]).toMatchObject({ status: 'uploading', error: null, uploaded_percentile: 0 });
    answer(calls[2]!);
    await flush();
    expect(items().map((i) => i.status)).toEqual(['accepted', 'accepted']);
  });

  it('sends one random Idempotency-Key per file added, the same on a Retry after a network failure (issue 14 item 5)', async () => {
    // The app's own ids (crypto.randomUUID), not the counter of the other tests.
    const real = createUploadManager(store, {
      upload: fakeUpload,
      request: request as unknown as typeof apiRequest,
    });
    const [file] = files(1);
    real.add(ENDPOINT, 'room', [file!]);
    const key = calls[0]!.options.headers?.['Idempotency-Key'];
    expect(key).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    calls[0]!.reject(new ApiError('Unable to connect', 0, undefined));
    await flush();
    const [failed] = real.items(ENDPOINT, 'room');
    expect(failed!.status).toBe('failed');
    expect(real.retry(failed!.id)).toBe(true);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.options.headers?.['Idempotency-Key']).toBe(key);
    answer(calls[1]!);
    await flush();
    // The same photo chosen again is a new intent: a new key.
    real.add(ENDPOINT, 'room', [file!]);
    expect(calls).toHaveLength(3);
    const next = calls[2]!.options.headers?.['Idempotency-Key'];
    expect(next).toMatch(/^[0-9a-f-]{36}$/);
    expect(next).not.toBe(key);
  });

  it('pre-checks one file at a time, refuses with the reason, and keeps the order', async () => {
    const seen: string[] = [];
    let release: (() => void) | undefined;
    const check = vi.fn(async (file: File) => {
      seen.push(file.name);
      if (file.name === 'p0.jpg') await new Promise<void>((r) => (release = r));
      return file.name === 'p1.jpg' ? 'This photo is vertical.' : null;
    });
    manager.add(ENDPOINT, 'room', files(3), check);
    expect(items().map((i) => i.status)).toEqual(['checking', 'checking', 'checking']);
    await flush();
    expect(seen).toEqual(['p0.jpg']);
    expect(calls).toHaveLength(0);
    release!();
    await flush();
    expect(seen).toEqual(['p0.jpg', 'p1.jpg', 'p2.jpg']);
    expect(items().map((i) => [i.status, i.error])).toEqual([
      ['uploading', null],
      ['invalid', 'This photo is vertical.'],
      ['uploading', null],
    ]);
    expect(calls.map((c) => (field(c, 'file') as File).name)).toEqual(['p0.jpg', 'p2.jpg']);
  });

  it('counts a throwing pre-check as refused', async () => {
    manager.add(ENDPOINT, 'room', files(1), () => Promise.reject(new Error('boom')));
    await flush();
    expect(items()[0]).toMatchObject({ status: 'invalid' });
    expect(calls).toHaveLength(0);
  });

  it('removes an uploading item by aborting it, and starts the next', async () => {
    manager.add(ENDPOINT, 'room', files(3));
    const signal = calls[0]!.options.signal!;
    manager.remove(items()[0]!.id);
    expect(signal.aborted).toBe(true);
    expect(items().map((i) => i.file_name)).toEqual(['p1.jpg', 'p2.jpg']);
    calls[0]!.reject(new DOMException('aborted', 'AbortError'));
    await flush();
    expect(calls).toHaveLength(3);
    expect(items().map((i) => i.status)).toEqual(['uploading', 'uploading']);
  });
});

describe('upload manager: bulk start, stop, reset (SPEC §4)', () => {
  it('start adds files to files_to_upload; stop records the index and starts nothing more; start resumes', async () => {
    const ids = manager.add(ENDPOINT, 'room', files(4));
    expect(manager.bulk()).toEqual({ is_bulk_upload: true, files_to_upload: ids, start_index: 2 });
    manager.stop();
    expect(manager.bulk()).toMatchObject({ is_bulk_upload: false, start_index: 2 });
    answer(calls[0]!);
    answer(calls[1]!);
    await flush();
    expect(calls).toHaveLength(2);
    expect(items().map((i) => i.status)).toEqual(['accepted', 'accepted', 'queued', 'queued']);
    manager.start();
    expect(calls).toHaveLength(4);
    expect(manager.bulk().start_index).toBe(4);
    answer(calls[2]!);
    answer(calls[3]!);
    await flush();
    expect(manager.bulk()).toEqual({ is_bulk_upload: false, files_to_upload: [], start_index: 0 });
  });

  it('reset clears the queue and drops the files not started; running uploads finish', async () => {
    manager.add(ENDPOINT, 'room', files(4));
    manager.reset();
    expect(manager.bulk()).toEqual({ is_bulk_upload: false, files_to_upload: [], start_index: 0 });
    expect(items().map((i) => i.file_name)).toEqual(['p0.jpg', 'p1.jpg']);
    answer(calls[0]!);
    answer(calls[1]!);
    await flush();
    expect(calls).toHaveLength(2);
    expect(items().map((i) => i.status)).toEqual(['accepted', 'accepted']);
  });
});

/** A stand-in for a widget: shows the items of the room category and watches it while mounted. */
function Watcher({ uploads }: { uploads: UploadApi }) {
  const list = useSyncExternalStore(uploads.subscribe, () => uploads.items(ENDPOINT, 'room'));
  useEffect(() => uploads.watch(ENDPOINT, 'room'), [uploads]);
  return (
    <ul>
      {list.map((i) => (
        <li
          key={i.client_upload_id}
        >{`${i.file_name} ${i.status} ${i.is_in_background ? 'background' : 'shown'}`}</li>
      ))}
    </ul>
  );
}

describe('upload manager: background', () => {
  it('carries on after the widget unmounts, and shows the result when it comes back', async () => {
    const first = render(<Watcher uploads={manager} />);
    act(() => void manager.add(ENDPOINT, 'room', files(1)));
    expect(screen.getByText('p0.jpg uploading shown')).toBeInTheDocument();
    first.unmount();
    expect(items()[0]!.is_in_background).toBe(true);
    act(() => calls[0]!.options.onProgress!(50, 100));
    answer(calls[0]!);
    await flush();
    expect(items()[0]).toMatchObject({ status: 'accepted', is_in_background: true });
    render(<Watcher uploads={manager} />);
    expect(screen.getByText('p0.jpg accepted shown')).toBeInTheDocument();
  });

  it('marks files added while no widget shows the category as in the background', () => {
    manager.add(ENDPOINT, 'room', files(1));
    expect(items()[0]!.is_in_background).toBe(true);
    const stop = manager.watch(ENDPOINT, 'room');
    expect(items()[0]!.is_in_background).toBe(false);
    stop();
    stop();
    expect(items()[0]!.is_in_background).toBe(true);
  });

  it('hands back the same array until the category’s items change', async () => {
    manager.add(ENDPOINT, 'room', files(1));
    manager.add(ENDPOINT, 'bathroom', files(1));
    const before = items();
    expect(items()).toBe(before);
    act(() => calls[1]!.options.onProgress!(10, 100));
    expect(items()).toBe(before);
    act(() => calls[0]!.options.onProgress!(10, 100));
    expect(items()).not.toBe(before);
  });
});

describe('upload manager: delete and sign-out', () => {
  it('deletes through the API client and forgets the item holding the image', async () => {
    manager.add(ENDPOINT, 'room', files(1));
    const stored = answer(calls[0]!);
    await flush();
    request.mockResolvedValue({
      image_id: stored.image_id,
      is_active: false,
      completed: false,
      accepted_count: 0,
    });
    const result = await manager.deleteImage(ENDPOINT, stored.image_id);
    expect(request).toHaveBeenCalledWith(`${ENDPOINT}/${stored.image_id}`, { method: 'DELETE' });
    expect(result.is_active).toBe(false);
    expect(items()).toEqual([]);
  });

  it('keeps the item when the delete is refused', async () => {
    manager.add(ENDPOINT, 'room', files(1));
    const stored = answer(calls[0]!);
    await flush();
    request.mockRejectedValue(
      new ApiError(
        'You can only delete images that were recently uploaded',
        409,
        {},
        'ONB_IMAGE_DELETE_NOT_RECENT',
      ),
    );
    await expect(manager.deleteImage(ENDPOINT, stored.image_id)).rejects.toMatchObject({
      code: 'ONB_IMAGE_DELETE_NOT_RECENT',
    });
    expect(items()).toHaveLength(1);
  });

  it('aborts everything and forgets every item on sign-out', () => {
    manager.add(ENDPOINT, 'room', files(3));
    const signals = calls.map((c) => c.options.signal!);
    store.set(loggedInAtom, false);
    expect(signals.every((s) => s.aborted)).toBe(true);
    expect(store.get(uploadsAtom).items).toEqual([]);
    expect(manager.bulk().files_to_upload).toEqual([]);
  });
});

describe('helpers', () => {
  it('uploadFailure maps a plain error to failed', () => {
    expect(uploadFailure(new Error('offline'))).toEqual({ status: 'failed', message: 'offline', code: null });
  });

  it('uuidV4 makes version-4 uuids, also without crypto.randomUUID', () => {
    const pattern = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(uuidV4()).toMatch(pattern);
    const { getRandomValues } = crypto;
    vi.stubGlobal('crypto', { getRandomValues: getRandomValues.bind(crypto) });
    try {
      const a = uuidV4();
      expect(a).toMatch(pattern);
      expect(uuidV4()).not.toBe(a);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('uploadManagerFor gives one manager per store', () => {
    const a = createStore();
    expect(uploadManagerFor(a)).toBe(uploadManagerFor(a));
    expect(uploadManagerFor(a)).not.toBe(uploadManagerFor(createStore()));
  });
});
