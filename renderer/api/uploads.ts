import { atom, type PrimitiveAtom } from 'jotai';
import type { DeleteImageResult, UploadImageResult } from '../../schemas/generated/types';
import type {
  UploadApi,
  UploadBulkState,
  UploadCheck,
  UploadItem,
  UploadStatus,
} from '../../widgets/widget-props';
import { ApiError, apiRequest, apiUpload } from './client';
import { loggedInAtom, type AppStore } from '../state/atoms';
import { IDEMPOTENCY_KEY_HEADER, uuidV4 } from './idempotency';

/** Uploads running at once (issue 4: at most 2, so that a phone's uplink is not split too thin). */
export const UPLOAD_CONCURRENCY = 2;

/**
 * Error codes of the upload endpoint that refuse the file itself: a retry cannot help, so the item becomes
 * `invalid` (413 too large, 415 not a JPEG/PNG, 403 upload disabled for the property, SPEC §5–§6).
 */
const REFUSED_CODES: ReadonlySet<string> = new Set([
  'ONB_IMAGE_TOO_LARGE',
  'ONB_IMAGE_FORMAT',
  'ONB_IMAGE_UPLOAD_DISABLED',
]);

/** The error code of a duplicate image (409, SPEC §8 'This image has already been uploaded…'). */
export const DUPLICATE_CODE = 'ONB_IMAGE_DUPLICATE';

/**
 * Everything the manager holds in the store. `watchers` counts the widgets showing each endpoint + category +
 * room category.
 */
export interface UploadState {
  items: readonly UploadItem[];
  bulk: UploadBulkState;
  watchers: Readonly<Record<string, number>>;
}

const EMPTY_BULK: UploadBulkState = { is_bulk_upload: false, files_to_upload: [], start_index: 0 };
const EMPTY_STATE: UploadState = { items: [], bulk: EMPTY_BULK, watchers: {} };

/** The upload manager's state in the app's jotai store (SPEC §3 image and bulk upload). */
export const uploadsAtom: PrimitiveAtom<UploadState> = atom<UploadState>(EMPTY_STATE);

/** What a failed upload becomes, from the API client's error. */
export interface UploadFailure {
  status: Extract<UploadStatus, 'duplicate' | 'invalid' | 'failed'>;
  /** The translated message of the error (the server's for 4xx; generic texts for 5xx and network). */
  message: string;
  code: string | null;
}

/**
 * Maps an upload error to an item state by its `error.code`: ONB_IMAGE_DUPLICATE → `duplicate`;
 * ONB_IMAGE_TOO_LARGE, ONB_IMAGE_FORMAT, ONB_IMAGE_UPLOAD_DISABLED → `invalid` (nothing to retry); anything
 * else (ONB_IMAGE_UPLOAD_FAILED, 5xx, network failure, a non-ApiError) → `failed` (retry possible).
 */
export function uploadFailure(error: unknown): UploadFailure {
  const message =
    error instanceof Error && error.message.trim() !== '' ? error.message : String(error || 'Upload failed');
  const code = error instanceof ApiError ? (error.code ?? null) : null;
  if (code === DUPLICATE_CODE) return { status: 'duplicate', message, code };
  if (code !== null && REFUSED_CODES.has(code)) return { status: 'invalid', message, code };
  return { status: 'failed', message, code };
}

/** The stored image of an upload answer (`data.image` of uploadPropertyImage), or undefined for other answers. */
function imageOf(result: unknown): UploadImageResult['image'] | undefined {
  if (typeof result !== 'object' || result === null) return undefined;
  const { image } = result as Partial<UploadImageResult>;
  return typeof image === 'object' && image !== null && typeof image.image_id === 'string'
    ? image
    : undefined;
}

/** Options of {@link createUploadManager}; the defaults are the app's API client. */
export interface UploadManagerOptions {
  /** Sends one multipart form (default `apiUpload`). */
  upload?: typeof apiUpload;
  /** JSON requests, here the DELETE of an image (default `apiRequest`). */
  request?: typeof apiRequest;
  /** Uploads at once (default {@link UPLOAD_CONCURRENCY}). */
  concurrency?: number;
  /** Makes client_upload_ids (default {@link uuidV4}). */
  newId?: () => string;
}

const keyOf = (endpoint: string, category: string, roomCategory: string | null) =>
  JSON.stringify([endpoint, category, roomCategory]);

/** Whether `item` belongs to the uploader of this endpoint, category and room category. */
const shownBy = (item: UploadItem, endpoint: string, category: string, roomCategory: string | null) =>
  item.endpoint === endpoint && item.category === category && item.room_category === roomCategory;

/**
 * The photo upload manager (issue 4, SPEC §3–§4), holding its state in `store` ({@link uploadsAtom}) so that
 * it outlives the widgets: a widget on another task's screen unmounts, its uploads carry on
 * (`is_in_background`), and the image_uploader of the same endpoint, category and room category shows them
 * again. Files are pre-checked one at a time, then uploaded in the order added, `concurrency` at once, each as
 * multipart `category` (or the item's own `fields`, e.g. a KYC document's `id_type`), `room_category` (when the
 * item has one), `client_upload_id`, `file` with progress, and header `Idempotency-Key: <client_upload_id>`
 * (one per file added, unchanged by Retry: issue 14 item 5). The server's answer is kept as the item's
 * `response`; an image answer replaces the temporary id with the image's `image_id` and gives its status, any
 * other answer leaves the item `processing` (the widget follows what the server does next). Signing out
 * (loggedInAtom false) aborts every upload and forgets every item.
 */
export function createUploadManager(store: AppStore, options: UploadManagerOptions = {}): UploadApi {
  const upload = options.upload ?? apiUpload;
  const request = options.request ?? apiRequest;
  const concurrency = Math.max(1, options.concurrency ?? UPLOAD_CONCURRENCY);
  const newId = options.newId ?? uuidV4;
  /** Running uploads by client_upload_id (stable while the item's id changes). */
  const running = new Map<string, AbortController>();
  /** Pre-checks run one after another: decoding several camera photos at once is heavy on a phone. */
  let checks: Promise<void> = Promise.resolve();
  const snapshots = new Map<string, { source: readonly UploadItem[]; result: readonly UploadItem[] }>();

  const get = () => store.get(uploadsAtom);
  const set = (next: (state: UploadState) => UploadState) => store.set(uploadsAtom, next);
  const byUpload = (clientUploadId: string) => get().items.find((i) => i.client_upload_id === clientUploadId);
  const patch = (clientUploadId: string, change: Partial<UploadItem>) =>
    set((s) => ({
      ...s,
      items: s.items.map((i) => (i.client_upload_id === clientUploadId ? { ...i, ...change } : i)),
    }));
  const setBulk = (change: Partial<UploadBulkState>) =>
    set((s) => ({ ...s, bulk: { ...s.bulk, ...change } }));

  function startUpload(item: UploadItem): void {
    const clientUploadId = item.client_upload_id;
    const controller = new AbortController();
    running.set(clientUploadId, controller);
    patch(clientUploadId, { status: 'uploading', uploaded_percentile: 0, error: null, error_code: null });
    const form = new FormData();
    // The fields come before the file, so that the server knows them before it streams the bytes.
    for (const [name, value] of Object.entries(item.fields)) form.append(name, value);
    if (item.room_category !== null) form.append('room_category', item.room_category);
    form.append('client_upload_id', clientUploadId);
    form.append('file', item.file, item.file_name);
    upload<unknown>(item.endpoint, form, {
      signal: controller.signal,
      // One key per file added (its client_upload_id), the same on every Retry: a retry of an upload the
      // server did store answers the stored photo again instead of a second one (issue 14 item 5).
      headers: { [IDEMPOTENCY_KEY_HEADER]: clientUploadId },
      onProgress: (loaded, total) => {
        const percent = total > 0 ? Math.min(100, Math.floor((loaded / total) * 100)) : 0;
        const current = byUpload(clientUploadId);
        if (current?.status === 'uploading' && current.uploaded_percentile !== percent) {
          patch(clientUploadId, { uploaded_percentile: percent });
        }
      },
      onSent: () => {
        if (byUpload(clientUploadId)?.status === 'uploading') {
          patch(clientUploadId, { status: 'processing', uploaded_percentile: 100 });
        }
      },
    })
      .then((result) => {
        if (!byUpload(clientUploadId)) return;
        const image = imageOf(result);
        if (!image) {
          // Another kind of upload (a KYC document): the server goes on with it; its widget follows it.
          patch(clientUploadId, {
            status: 'processing',
            uploaded_percentile: 100,
            response: result ?? null,
            error: null,
            error_code: null,
          });
          return;
        }
        patch(clientUploadId, {
          id: image.image_id,
          status: image.status,
          uploaded_percentile: 100,
          image,
          response: result,
          error: image.status === 'rejected' ? image.message : null,
          error_code: null,
        });
      })
      .catch((error: unknown) => {
        if (controller.signal.aborted || !byUpload(clientUploadId)) return;
        const failure = uploadFailure(error);
        patch(clientUploadId, { status: failure.status, error: failure.message, error_code: failure.code });
      })
      .finally(() => {
        running.delete(clientUploadId);
        pump();
      });
  }

  /** Starts queued files while slots are free; ends the bulk upload once every file has started and finished. */
  function pump(): void {
    for (;;) {
      const { bulk, items } = get();
      if (!bulk.is_bulk_upload || running.size >= concurrency) return;
      if (bulk.start_index >= bulk.files_to_upload.length) {
        if (running.size === 0) setBulk(EMPTY_BULK);
        return;
      }
      const id = bulk.files_to_upload[bulk.start_index];
      const item = items.find((i) => i.id === id);
      // Keep the order: wait for this file's pre-check before starting the next one.
      if (item?.status === 'checking') return;
      setBulk({ start_index: bulk.start_index + 1 });
      if (item?.status === 'queued') startUpload(item);
    }
  }

  function enqueue(ids: readonly string[]): void {
    set((s) => ({
      ...s,
      bulk: { ...s.bulk, is_bulk_upload: true, files_to_upload: [...s.bulk.files_to_upload, ...ids] },
    }));
  }

  function forgetAll(): void {
    for (const controller of running.values()) controller.abort();
    running.clear();
    store.set(uploadsAtom, (s) => ({ ...EMPTY_STATE, watchers: s.watchers }));
  }

  store.sub(loggedInAtom, () => {
    if (!store.get(loggedInAtom)) forgetAll();
  });

  const api: UploadApi = {
    add(
      endpoint,
      category,
      files,
      check?: UploadCheck,
      fields?: Readonly<Record<string, string>>,
      roomCategory: string | null = null,
    ) {
      const background = !(get().watchers[keyOf(endpoint, category, roomCategory)] ?? 0);
      const added: UploadItem[] = files.map((file) => {
        const clientUploadId = newId();
        return {
          id: `local-${clientUploadId}`,
          client_upload_id: clientUploadId,
          endpoint,
          category,
          fields: { ...(fields ?? { category }) },
          room_category: roomCategory,
          file,
          file_name: file.name,
          size: file.size,
          status: check ? 'checking' : 'queued',
          uploaded_percentile: 0,
          error: null,
          error_code: null,
          image: null,
          response: null,
          is_in_background: background,
        };
      });
      set((s) => ({ ...s, items: [...s.items, ...added] }));
      enqueue(added.map((i) => i.id));
      if (check) {
        for (const item of added) {
          checks = checks.then(async () => {
            if (byUpload(item.client_upload_id)?.status !== 'checking') return;
            let reason: string | null;
            try {
              reason = await check(item.file);
            } catch {
              reason = '';
            }
            if (byUpload(item.client_upload_id)?.status !== 'checking') return;
            patch(
              item.client_upload_id,
              reason === null ? { status: 'queued' } : { status: 'invalid', error: reason },
            );
            pump();
          });
        }
      }
      pump();
      return added.map((i) => i.id);
    },

    start() {
      const { bulk } = get();
      if (bulk.start_index < bulk.files_to_upload.length) setBulk({ is_bulk_upload: true });
      pump();
    },

    stop() {
      setBulk({ is_bulk_upload: false });
    },

    reset() {
      const { bulk } = get();
      const pending = new Set(bulk.files_to_upload.slice(bulk.start_index));
      set((s) => ({
        ...s,
        items: s.items.filter(
          (i) => !(pending.has(i.id) && (i.status === 'queued' || i.status === 'checking')),
        ),
        bulk: EMPTY_BULK,
      }));
    },

    retry(id) {
      const item = get().items.find((i) => i.id === id);
      if (!item || item.status !== 'failed') return false;
      patch(item.client_upload_id, {
        status: 'queued',
        uploaded_percentile: 0,
        error: null,
        error_code: null,
      });
      enqueue([item.id]);
      pump();
      return true;
    },

    remove(id) {
      const item = get().items.find((i) => i.id === id);
      if (!item) return;
      running.get(item.client_upload_id)?.abort();
      set((s) => ({ ...s, items: s.items.filter((i) => i.client_upload_id !== item.client_upload_id) }));
      pump();
    },

    async deleteImage(endpoint, imageId) {
      const result = await request<DeleteImageResult>(`${endpoint}/${encodeURIComponent(imageId)}`, {
        method: 'DELETE',
      });
      set((s) => ({
        ...s,
        items: s.items.filter((i) => i.id !== imageId && i.image?.image_id !== imageId),
      }));
      return result;
    },

    items(endpoint, category, roomCategory = null) {
      const key = keyOf(endpoint, category, roomCategory);
      const source = get().items;
      const cached = snapshots.get(key);
      if (cached?.source === source) return cached.result;
      const fresh = source.filter((i) => shownBy(i, endpoint, category, roomCategory));
      // Same contents as before: hand back the previous array so that readers do not re-render.
      const result =
        cached && cached.result.length === fresh.length && cached.result.every((i, n) => i === fresh[n])
          ? cached.result
          : fresh;
      snapshots.set(key, { source, result });
      return result;
    },

    bulk: () => get().bulk,

    subscribe: (listener) => store.sub(uploadsAtom, listener),

    watch(endpoint, category, roomCategory = null) {
      const key = keyOf(endpoint, category, roomCategory);
      const setWatchers = (delta: number) =>
        set((s) => {
          const count = Math.max(0, (s.watchers[key] ?? 0) + delta);
          const background = count === 0;
          return {
            ...s,
            watchers: { ...s.watchers, [key]: count },
            items: s.items.map((i) =>
              shownBy(i, endpoint, category, roomCategory) && i.is_in_background !== background
                ? { ...i, is_in_background: background }
                : i,
            ),
          };
        });
      setWatchers(1);
      let ended = false;
      return () => {
        if (ended) return;
        ended = true;
        setWatchers(-1);
      };
    },
  };
  return api;
}

const managers = new WeakMap<AppStore, UploadApi>();

/** The one upload manager of a store (created on first use): every screen of the app shares it. */
export function uploadManagerFor(store: AppStore): UploadApi {
  let manager = managers.get(store);
  if (!manager) {
    manager = createUploadManager(store);
    managers.set(store, manager);
  }
  return manager;
}
