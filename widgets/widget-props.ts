import type { ComponentType } from 'react';
import type { Action, DeleteImageResult, JsonLogic, PropertyImage } from '../schemas/generated/types';

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
  /**
   * Checks a field's current value against the rules its widget declares, as a submit does (SPEC §5), and
   * shows the error under it or clears it. Widgets call it when a field loses focus (identifier fields).
   */
  validate(field: string): void;
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

/**
 * Sends a JSON body with POST to a BFF endpoint through the engine's API client (renderer/api/client.ts: the
 * same headers, credentials and SPEC §8 error handling as `load` and the submit action), e.g.
 * `send('/hms_ms/api/v1/onboard/leads/PO1/kyc/contact/otp', { channel: 'email', value }, signal)`. For
 * widgets whose requests are part of their own state (a one-time code sent and checked), not of a screen's
 * submit. Resolves with `data` of the success envelope. Rejects with the client's ApiError (see
 * {@link RequestFailure}; a 401 also signs out) or, when `signal` aborts, with the AbortError. Shows nothing
 * itself: the widget decides what to tell the user. `method` DELETE sends the body with DELETE instead (e.g.
 * forgetting a push subscription, deletePushSubscription).
 */
export type Send = (
  endpoint: string,
  body: Readonly<Record<string, unknown>>,
  signal?: AbortSignal,
  method?: 'POST' | 'DELETE',
) => Promise<unknown>;

/**
 * What a rejected {@link Load} or {@link Send} carries (the API client's ApiError, read by shape since widgets
 * do not import the client): `status` (0 for a network failure), `code` and `field` of the error envelope,
 * `body` (the parsed error body, whose `error.retry_after_s` gives the seconds to wait on a 429) and the
 * translated `message`.
 */
export interface RequestFailure {
  status: number;
  code?: string;
  field?: string;
  body?: unknown;
  message: string;
}

/** Dialogs of the screen: at most one open at a time, by popup_id. */
export interface PopupApi {
  openId: string | null;
  close(): void;
}

/**
 * Where one photo upload is (SPEC §3–§4 image states, and the browser's own before them):
 * - `checking`: the browser's pre-check is running; `invalid`: the pre-check (or the server, for format,
 *   size or a disabled upload) refused the file — nothing is stored, the owner removes it;
 * - `queued`: waiting for a free slot (at most 2 uploads run at once); `uploading`: bytes going out
 *   (`uploaded_percentile`); `processing`: every byte sent, the answer awaited (or the server is still
 *   processing the stored image);
 * - `accepted` / `rejected`: the server stored the image (`image`), good or failing a quality rule (a
 *   rejected image must be deleted before publishing, SPEC §5); `duplicate`: refused as already uploaded
 *   (409 ONB_IMAGE_DUPLICATE); `failed`: the upload did not get through (422 ONB_IMAGE_UPLOAD_FAILED, network,
 *   5xx…) and may be retried with the same client_upload_id.
 */
export type UploadStatus =
  | 'checking'
  | 'invalid'
  | 'queued'
  | 'uploading'
  | 'processing'
  | 'accepted'
  | 'rejected'
  | 'duplicate'
  | 'failed';

/** One photo in the engine's upload manager (SPEC §3 image: id, uploaded_percentile, image_id, isInBackground…). */
export interface UploadItem {
  /**
   * Identity of the item: a temporary `local-<uuid>` until the server answered with an image, then that
   * image's `image_id` (SPEC §4: a real id replaces the temporary one on success).
   */
  id: string;
  /** uuid sent as the multipart field `client_upload_id`; a retry sends the same one (idempotent upload). */
  client_upload_id: string;
  /** The upload endpoint (ApiPath) the file goes to. */
  endpoint: string;
  /** The image category (multipart field `category` unless `fields` says otherwise): with `endpoint`, the item's group. */
  category: string;
  /**
   * The multipart text fields sent before `client_upload_id` and `file`, in order (a retry sends them again):
   * `{ category }` unless {@link UploadApi.add} was given others (a KYC document sends `{ id_type }`).
   */
  fields: Readonly<Record<string, string>>;
  /**
   * The lead's room category the photo is of (multipart field `room_category`, sent before the file), or
   * null for a category not split by room category.
   */
  room_category: string | null;
  /** The file chosen by the owner (kept for a retry and for a local preview). */
  file: File;
  /** `file.name`. */
  file_name: string;
  /** `file.size`, bytes. */
  size: number;
  status: UploadStatus;
  /** Share of the bytes sent, 0–100 (whole number); 100 from `processing` on. */
  uploaded_percentile: number;
  /** Why the photo was refused or failed, already translated (pre-check text or the server's message); else null. */
  error: string | null;
  /** `error.code` of the server's refusal (e.g. ONB_IMAGE_DUPLICATE), null otherwise. */
  error_code: string | null;
  /** The image as the server stored it, once it answered; null before (and for uploads that are not images). */
  image: PropertyImage | null;
  /**
   * `data` of the server's success answer (`{ image, … }` of an image, `{ document }` of a KYC document), once
   * it answered; null before. An answer without `image` leaves the item `processing`: the server goes on with
   * it and the widget follows it (e.g. by polling the document).
   */
  response: unknown;
  /**
   * True while no widget shows this item's endpoint and category (SPEC §3 isInBackground): the owner went to
   * another task and the upload carries on.
   */
  is_in_background: boolean;
}

/**
 * The pre-check of one file before it is queued: resolves null when the file may be uploaded, else the
 * (translated) reason it is refused. Must not reject; a rejection counts as refused with no reason.
 */
export type UploadCheck = (file: File) => Promise<string | null>;

/** The bulk upload of SPEC §3–§4 (isBulkUpload, filesToUpload, startIndex). */
export interface UploadBulkState {
  /** Files are being taken from the queue (false after stop, reset, or once the queue is done). */
  is_bulk_upload: boolean;
  /** Ids of the items added to the queue, in order (SPEC filesToUpload). */
  files_to_upload: readonly string[];
  /** Index in files_to_upload of the next file to start (SPEC startIndex); stop records it. */
  start_index: number;
}

/**
 * The upload manager as widgets see it (renderer/api/uploads.ts, passed by the engine). It lives in the app's
 * jotai store, not in a widget: uploads carry on while the owner opens another task, and a widget showing the
 * same endpoint and category finds them again. At most 2 uploads run at once.
 */
export interface UploadApi {
  /**
   * SPEC §4 bulk start: adds files to the queue for `endpoint`, `category` and `roomCategory` (default null:
   * none); each is pre-checked with `check` first (status `checking`, then `invalid` with the reason or
   * `queued`), one file at a time, then uploaded in order. `fields` are the multipart text fields sent before
   * `room_category`, `client_upload_id` and `file` (default `{ category }`). Starts the queue if it was
   * stopped. Returns the new items' ids.
   */
  add(
    endpoint: string,
    category: string,
    files: readonly File[],
    check?: UploadCheck,
    fields?: Readonly<Record<string, string>>,
    roomCategory?: string | null,
  ): string[];
  /** Takes files from the queue again from the recorded start_index (after stop). */
  start(): void;
  /** SPEC §4 bulk stop: starts no further file and records start_index; running uploads finish. */
  stop(): void;
  /** SPEC §4 bulk reset: drops the files not started yet and clears the queue; running uploads finish. */
  reset(): void;
  /** Uploads a `failed` item again with the same client_upload_id. False when `id` is not a failed item. */
  retry(id: string): boolean;
  /** Forgets an item; aborts it first when it is uploading. Never deletes anything on the server. */
  remove(id: string): void;
  /**
   * Deletes an image on the server (DELETE `<endpoint>/<imageId>` through the API client; SPEC §4 marks it
   * inactive) and forgets the items holding it. Rejects with the client's ApiError, e.g. 409
   * ONB_IMAGE_DELETE_NOT_RECENT ('You can only delete images that were recently uploaded').
   */
  deleteImage(endpoint: string, imageId: string): Promise<DeleteImageResult>;
  /**
   * The items of one endpoint, category and room category (default null), in the order they were added. The
   * same array is returned until the manager changes, so it suits `useSyncExternalStore`.
   */
  items(endpoint: string, category: string, roomCategory?: string | null): readonly UploadItem[];
  /** The bulk queue's state. */
  bulk(): UploadBulkState;
  /** Calls `listener` after every change; returns the unsubscribe function. */
  subscribe(listener: () => void): () => void;
  /**
   * Declares that a widget shows this endpoint, category and room category (default null): its items are not
   * `is_in_background` while at least one watcher is on. Returns the function that ends it (call it when the
   * widget unmounts).
   */
  watch(endpoint: string, category: string, roomCategory?: string | null): () => void;
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
  /** POST requests of JSON through the engine (a widget's own steps, e.g. sending and checking a code). */
  send: Send;
  popup: PopupApi;
  /** The engine's photo upload manager (image_uploader). */
  uploads: UploadApi;
}

/** A registered widget component. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type WidgetComponent<C = any> = ComponentType<WidgetProps<C>>;

/**
 * What a widget whose code depends on its contents adds to its component: a variant drawn by a chunk of its
 * own (the language chooser's list), which the engine fetches before it draws a payload that needs it, as it
 * does a lazy widget's code (renderer/engine/lazy-widget.tsx), so that the widget is drawn whole in its first
 * render.
 */
export interface ContentsCode<C> {
  /** Starts fetching the code `contents` needs; resolves once it is there or its first try failed. Never rejects. */
  prepare(contents: C): Promise<void>;
  /** Whether the code `contents` needs is there (true when it needs none). */
  prepared(contents: C): boolean;
}
