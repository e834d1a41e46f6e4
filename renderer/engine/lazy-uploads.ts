import type { UploadApi } from '../../widgets/widget-props';
import type { AppStore } from '../state/atoms';

type UploadsModule = typeof import('../api/uploads');

let loaded: UploadsModule | null = null;
let loading: Promise<UploadsModule> | null = null;

/**
 * Loads the photo upload manager (`renderer/api/uploads.ts`, a chunk of its own: issue 13 item 2, the sign-in
 * page does not carry it). The registry entries of `image_uploader` and `document_uploader`, the only widgets
 * that use it, wait for it with their own chunk, so it is loaded before either draws. Rejects when the chunk
 * fails to load (the widget's module-load fallback shows then).
 */
export function loadUploads(): Promise<UploadsModule> {
  loading ??= import('../api/uploads').then((m) => (loaded = m));
  loading.catch(() => {
    loading = null;
  });
  return loading;
}

const apis = new WeakMap<AppStore, UploadApi>();

/**
 * The `uploads` every widget gets: the store's one upload manager (`uploadManagerFor`), reached through
 * {@link loadUploads}. The same object for a store, so widgets may subscribe to it.
 * @throws Error when a method is called before {@link loadUploads} resolved (only the uploaders call it, and
 *   their registry entries load it first).
 */
export function uploadsOf(store: AppStore): UploadApi {
  let api = apis.get(store);
  if (!api) {
    const real = (): UploadApi => {
      if (!loaded) throw new Error('the upload manager was used before loadUploads() resolved');
      return loaded.uploadManagerFor(store);
    };
    api = {
      add: (...a) => real().add(...a),
      start: () => real().start(),
      stop: () => real().stop(),
      reset: () => real().reset(),
      retry: (id) => real().retry(id),
      remove: (id) => real().remove(id),
      deleteImage: (endpoint, imageId) => real().deleteImage(endpoint, imageId),
      items: (...a) => real().items(...a),
      bulk: () => real().bulk(),
      subscribe: (listener) => real().subscribe(listener),
      watch: (...a) => real().watch(...a),
    };
    apis.set(store, api);
  }
  return api;
}
