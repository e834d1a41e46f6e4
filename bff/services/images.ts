import { createHash, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { sql, type Kysely, type Transaction } from 'kysely';
import { sharedAjv } from '../../schemas/ajv';
import type {
  DeleteImageResult,
  ImageRequirement,
  ImageRequirementsData,
  ImagesConfig,
  Locale,
  PropertyImage,
  UploadImageResult,
} from '../../schemas/generated/types';
import type { Database, LeadImageRow } from '../db/schema';
import { onboardError } from '../errors';
import defaultRequirements from '../screens/data/image-requirements.json' with { type: 'json' };
import type { ScreenImages } from '../screens/composer';
import type { IdempotencyStep } from './idempotency';
import type { ImageStorage, ServedFile } from './image-storage';
import { LEAD_STATUS_DISCARDED, LEAD_STATUS_REMOVED, leadApiPath } from './leads';
import { loadFileTypeFromBuffer, loadPhash, loadSharp } from './image-codecs';

/** Largest photo accepted, in bytes (SPEC §5, §9: 10485760 bytes, 10 MB). */
export const MAX_IMAGE_BYTES = 10_485_760;
/** Smallest width and height of a good photo, in px after EXIF orientation (SPEC §5, §9). */
export const MIN_IMAGE_SIDE_PX = 1000;
/** Content types accepted, read from the file's magic bytes (SPEC §5: .jpg, .jpeg, .png). */
export const IMAGE_MIME_TYPES = ['image/jpeg', 'image/png'] as const;
/**
 * Decoded size above which a file is refused as a decompression bomb, in pixels (width × height as
 * declared by the file): 50 megapixels, well above the 5640 × 3172 (17.9 MP) of a large camera photo.
 */
export const MAX_INPUT_PIXELS = 50_000_000;
/** Width of the display copy at most, in px (narrower photos keep their width). */
export const DISPLAY_WIDTH_PX = 2048;
/** Width of the thumbnail, in px. */
export const THUMBNAIL_WIDTH_PX = 400;
/**
 * Two photos whose 64-bit perceptual hashes differ in at most this many bits are the same photo
 * (re-encoded, resized, slightly recoloured). Measured on the test photographs: a resize plus
 * re-encoding at quality 55 differs by 1 bit; different photographs by 14 bits or more.
 */
export const PHASH_MAX_DISTANCE = 6;

/** What a stored file is: the re-encoded display copy or the thumbnail (never the original). */
export type ImageVariant = 'display' | 'thumb';

/** Why a kept photo was rejected (SPEC §5): portrait, or smaller than 1000 px on a side. */
export type ImageErrorType = 'VERTICAL' | 'RESOLUTION';

/** Translation keys (area errors) of the rejection reasons. */
const REJECTION_KEYS: Record<ImageErrorType, string> = {
  VERTICAL: 'errors.image_vertical',
  RESOLUTION: 'errors.image_resolution',
};

/** One category of bff/screens/data/image-requirements.json. */
export interface ImageCategoryRule {
  category: string;
  /** 1 first. */
  priority: number;
  /** Accepted photos of this category the images task needs (in all, when split by room category). */
  minCount: number;
  /**
   * Accepted photos each of the lead's room categories needs when this category is split by room category
   * (`min_per_room_category`); null when it is not.
   */
  minPerRoomCategory: number | null;
}

/** The photo requirements in force (SPEC §5 minimum count of good images). */
export interface ImageRequirementRules {
  /** Categories by priority, first first. */
  categories: readonly ImageCategoryRule[];
  /** Accepted photos needed in all. */
  minTotal: number;
  /** Whether `category` is one of the categories. */
  has(category: string): boolean;
  /** The category split by the lead's room categories (the one with min_per_room_category), or null. */
  roomSplit: (ImageCategoryRule & { minPerRoomCategory: number }) | null;
}

/**
 * Loads the photo requirements from `doc` (default bff/screens/data/image-requirements.json), checked
 * against schemas/data/image-requirements.schema.json; `minTotalOverride` (IMAGES_MIN_TOTAL) replaces
 * `min_total` when not null.
 * @throws Error naming the first schema error, or a category or priority given twice.
 */
export function loadImageRequirements(
  minTotalOverride: number | null,
  doc: unknown = defaultRequirements,
): ImageRequirementRules {
  const validate = sharedAjv().getSchema('data/image-requirements.schema.json');
  if (!validate) throw new Error('no schema data/image-requirements.schema.json');
  if (!validate(doc)) {
    const e = validate.errors?.[0];
    throw new Error(`image requirements: ${e?.instancePath || '/'} ${e?.message ?? 'invalid'}`);
  }
  const data = doc as ImageRequirementsData;
  const categories = data.categories
    .map((c) => ({
      category: c.category,
      priority: c.priority,
      minCount: c.min_count,
      minPerRoomCategory: c.min_per_room_category ?? null,
    }))
    .sort((a, b) => a.priority - b.priority);
  const keys = new Set(categories.map((c) => c.category));
  if (keys.size !== categories.length) throw new Error('image requirements: a category is listed twice');
  if (new Set(categories.map((c) => c.priority)).size !== categories.length)
    throw new Error('image requirements: two categories share a priority');
  const split = categories.filter((c) => c.minPerRoomCategory !== null);
  if (split.length > 1)
    throw new Error('image requirements: only one category may have min_per_room_category');
  return {
    categories,
    minTotal: minTotalOverride ?? data.min_total,
    has: (category) => keys.has(category),
    roomSplit: (split[0] as (ImageCategoryRule & { minPerRoomCategory: number }) | undefined) ?? null,
  };
}

/** A room category's name as shown: NFC, trimmed, runs of white space made one space. */
const cleanName = (name: string) => name.normalize('NFC').trim().replace(/\s+/g, ' ');

/**
 * The key two room category names are compared by: the name as shown ({@link cleanName}) in lower case, so
 * 'Deluxe  double' and 'deluxe double' are one category and a change of case keeps its photos.
 */
export function roomCategoryKey(name: string): string {
  return cleanName(name).toLocaleLowerCase('und');
}

/**
 * The lead's room categories a photo can be of, from the data of section room_categories as saved (draft
 * or final: what the owner last entered), in the owner's order: the names as shown, blank ones and unnamed
 * categories left out, a name given twice (same {@link roomCategoryKey}) kept once. [] for anything else.
 */
export function roomCategoriesOf(data: unknown): string[] {
  const list = (data as { room_categories?: unknown } | null | undefined)?.room_categories;
  if (!Array.isArray(list)) return [];
  const seen = new Set<string>();
  const names: string[] = [];
  for (const c of list) {
    const name = (c as { name?: unknown } | null)?.name;
    if (typeof name !== 'string' || cleanName(name) === '') continue;
    const key = roomCategoryKey(name);
    if (seen.has(key)) continue;
    seen.add(key);
    names.push(cleanName(name));
  }
  return names;
}

/**
 * ImagesConfig as the photos screen binds it ({@link ScreenImages}): the whole-category requirements by
 * category (`images.by_category.facade.images`), the requirements of the lead's room categories
 * (`images.room_requirements`, for an `$each`) and the group of room photos whose room category is gone
 * (`images.other_room_photos`, or null).
 */
export function toScreenImages(config: ImagesConfig): ScreenImages {
  const whole = config.requirements.filter((r) => r.room_category === undefined);
  return {
    ...config,
    by_category: Object.fromEntries(whole.map((r) => [r.category, r])),
    room_requirements: config.requirements.filter((r) => typeof r.room_category === 'string'),
    other_room_photos: config.requirements.find((r) => r.room_category === null) ?? null,
  };
}

/** A photo's file as it arrives: a byte stream (the multipart part's `file`), possibly truncated at the limit. */
export type UploadStream = Readable & {
  /** Set by @fastify/multipart (busboy) once the file reached `limits.fileSize` and the rest was dropped. */
  truncated?: boolean;
};

/** What an upload carries besides the owner and the property. */
export interface UploadInput {
  /** A category of the requirements. */
  category: string;
  /**
   * The multipart field `room_category` (undefined when not sent): one of the lead's room categories,
   * required for the split category once the lead has some, refused otherwise.
   */
  roomCategory?: string | undefined;
  /** UUID chosen by the browser; a retry with the same one answers the stored image (idempotent). */
  clientUploadId: string;
  /** The file's bytes; read only after the ownership, permission and idempotency checks. */
  file: UploadStream;
  /** The file's bytes when the caller read them already (to fingerprint a request with a key); else `file` is read. */
  bytes?: Buffer;
  /** The request's Idempotency-Key, claimed and answered in the transaction that stores the photo. */
  idempotency?: IdempotencyStep<UploadOutcome> | undefined;
  /** Language of the rejection message. */
  locale: Locale;
}

/** What {@link ImageService.upload} answers. */
export interface UploadOutcome extends UploadImageResult {
  /** False when an earlier upload is answered again (same client_upload_id, or the same bytes in the same slot). */
  created: boolean;
  /**
   * HTTP status of the answer: 201 stored now, or the same bytes in the same slot answered again (the
   * first answer's status, issue 14 item 5); 200 a retry with a known client_upload_id.
   */
  status: 200 | 201;
}

/** Photos of a property (SPEC §3 image, §4 image states, §5 photo rules, §8 image errors). */
export interface ImageService {
  /**
   * Checks and stores one photo. Order: the owner's lead (else 404 ONB_LEAD_NOT_FOUND); upload enabled
   * for the property (else 403 ONB_IMAGE_UPLOAD_DISABLED); a known (lead, clientUploadId) answers that
   * image again (`created` false) without reading the file; a known category (else 400 ONB_INVALID_INPUT
   * field category); for the category split by room category (min_per_room_category) once the lead has
   * saved room categories, `roomCategory` naming one of them, compared by {@link roomCategoryKey} and stored
   * as the lead spells it; no `roomCategory` in any other case (else 400 ONB_INVALID_INPUT field
   * room_category); the file read up to {@link MAX_IMAGE_BYTES} (over → 413 ONB_IMAGE_TOO_LARGE, the
   * rest is not read); JPEG or PNG by magic bytes (else 415 ONB_IMAGE_FORMAT); decodable within
   * {@link MAX_INPUT_PIXELS} (else 422 ONB_IMAGE_UPLOAD_FAILED: corrupt, truncated or a decompression
   * bomb); the same bytes (SHA-256) as an active photo of the lead in the same slot (category and room
   * category) are a retry that lost its answer: that photo is answered again, status 201, nothing stored
   * (issue 14 item 5); the same bytes in another slot, or the same picture (perceptual hash within
   * {@link PHASH_MAX_DISTANCE} bits) as an active photo of the lead, are refused (409
   * ONB_IMAGE_DUPLICATE, nothing stored). The files and the row are written in one transaction (issue 14
   * item 1), with the claim and answer of `idempotency` when given. A portrait photo (height > width after EXIF orientation) is kept as rejected
   * VERTICAL, one under 1000 px on a side as rejected RESOLUTION, any other as accepted. Stores a JPEG
   * display copy (≤ {@link DISPLAY_WIDTH_PX} px wide) and a {@link THUMBNAIL_WIDTH_PX} px thumbnail, both
   * without metadata (no EXIF, no GPS); never the original. Updates the images task of the checklist.
   */
  upload(userId: string, propertyUniqueId: string, input: UploadInput): Promise<UploadOutcome>;
  /**
   * The property's photo requirements with their active images, oldest first (SPEC §3 imagesConfig); the
   * split category as one requirement per room category of the lead (see ImageRequirement.room_category).
   * Brings the images task of the checklist up to date first (the requirements or the room categories may
   * have changed since the last upload).
   * @throws ONB_LEAD_NOT_FOUND (404) not the user's lead.
   */
  list(userId: string, propertyUniqueId: string, locale: Locale): Promise<ImagesConfig>;
  /**
   * Brings the images task of lead `leadId` (`leads.id`) up to date inside `trx`, e.g. the transaction that
   * saved its room categories: completed when every requirement, every category's total and min_total
   * are met and no rejected photo is left. Takes the lead's upload lock first.
   */
  syncTask(trx: Transaction<Database>, leadId: string): Promise<void>;
  /**
   * The photos the live listing of a published lead shows (issue 12 item 2), as {@link list} answers the
   * owner's photos: the requirements with the photos published last (`lead_images.is_live`), grouped by the
   * room categories as published; a photo deleted since is still there (is_active false) until the owner
   * submits changes. Every requirement is empty for a lead never published. Does not touch the checklist.
   * @throws ONB_LEAD_NOT_FOUND (404) not the user's lead.
   */
  listLive(userId: string, propertyUniqueId: string, locale: Locale): Promise<ImagesConfig>;
  /**
   * Puts the photo changes of lead `leadId` live inside `trx` (publishing or submitting changes, under the
   * lead's upload lock taken by {@link syncTask}): every active accepted photo becomes live, every other
   * photo not, and the files of deleted photos that were live until now are removed with the transaction.
   * Answers whether anything changed.
   */
  publishPhotos(trx: Transaction<Database>, leadId: string): Promise<boolean>;
  /**
   * Deletes a photo: it becomes inactive (SPEC §4) and its files are removed. Rejected photos always;
   * others only within the delete window after their upload (SPEC §5). A photo on the live listing of a
   * published lead keeps its files, and stays on the listing, until the owner submits changes
   * ({@link publishPhotos}).
   * @throws ONB_LEAD_NOT_FOUND (404); ONB_IMAGE_UPLOAD_DISABLED (403) upload and delete disabled for the
   *   property; ONB_IMAGE_NOT_FOUND (404) no active photo with this id on the lead;
   *   ONB_IMAGE_DELETE_NOT_RECENT (409) an accepted photo older than the window.
   */
  delete(userId: string, propertyUniqueId: string, imageId: string): Promise<DeleteImageResult>;
  /**
   * An active or live photo's display copy or thumbnail (JPEG) with its ETag, for its owner only; the bytes
   * are read on demand (a conditional GET whose tag matches needs none).
   * @throws ONB_LEAD_NOT_FOUND (404) not the user's lead; ONB_IMAGE_NOT_FOUND (404) unknown or deleted.
   */
  file(userId: string, propertyUniqueId: string, imageId: string, variant: ImageVariant): Promise<ServedFile>;
}

/** What the image service needs besides the database. */
export interface ImageServiceOptions {
  /** Where the display copies and thumbnails go. */
  storage: ImageStorage;
  /** The requirements (categories, minimums). */
  requirements: ImageRequirementRules;
  /** Accepted photos can be deleted for this many ms after upload (IMAGES_DELETE_WINDOW_MS). */
  deleteWindowMs: number;
  /** The text of a translation key in a locale (rejection reasons). */
  translate: (locale: Locale, key: string) => string;
  /** Clock in ms since the epoch (default Date.now). */
  now?: () => number;
  /** Where failures to decode or to remove files are reported. */
  log?: { warn(obj: Record<string, unknown>, msg: string): void };
}

/** The API path of a lead's images. */
export const imagesPath = (propertyUniqueId: string) => leadApiPath(propertyUniqueId, 'images');

/** Storage key of a stored file of an image: server ids only. */
const storageKey = (row: Pick<LeadImageRow, 'lead_id' | 'id'>, variant: ImageVariant) =>
  `${row.lead_id}/${row.id}-${variant}.jpg`;

/** Bits that differ between two perceptual hashes of 16 hex digits. */
export function hammingDistance(a: string, b: string): number {
  let x = BigInt(`0x${a}`) ^ BigInt(`0x${b}`);
  let n = 0;
  while (x > 0n) {
    n += Number(x & 1n);
    x >>= 1n;
  }
  return n;
}

/** sharp-phash's 64 characters of 0/1 as 16 hex digits. */
const phashHex = (bits: string) => BigInt(`0b${bits}`).toString(16).padStart(16, '0');

/**
 * Reads a file stream into memory, stopping at `maxBytes` (default {@link MAX_IMAGE_BYTES}). busboy stops passing data at
 * `limits.fileSize` and says so with a `limit` event, long before the part (and the request) ends: the
 * refusal is answered at that moment, so the rest of an oversized upload is never waited for.
 * @throws ONB_IMAGE_TOO_LARGE (413) as soon as the file goes over the limit (the stream is left paused);
 *   the stream's own error.
 */
export function readLimited(file: UploadStream, maxBytes: number = MAX_IMAGE_BYTES): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (err: Error | null) => {
      file.off('data', onData).off('limit', onLimit).off('end', onEnd).off('error', settle);
      if (!err) return resolve(Buffer.concat(chunks, size));
      file.pause();
      chunks.length = 0;
      reject(err);
    };
    const onLimit = () => settle(onboardError('ONB_IMAGE_TOO_LARGE'));
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      // A stream that is not busboy's is cut here.
      if (size > maxBytes) onLimit();
      else chunks.push(chunk);
    };
    const onEnd = () => (file.truncated ? onLimit() : settle(null));
    file.on('data', onData).on('limit', onLimit).on('end', onEnd).on('error', settle);
  });
}

/** A decoded photo: what the server keeps of it. */
export interface ProcessedImage {
  width: number;
  height: number;
  display: Buffer;
  thumbnail: Buffer;
  phash: string;
}

/**
 * Decodes `bytes` (JPEG or PNG) with the pixel limit: size after EXIF orientation, the display copy
 * (oriented, transparency on white, at most {@link DISPLAY_WIDTH_PX} wide, JPEG without metadata: sharp
 * writes none unless asked), the thumbnail and the perceptual hash of the oriented picture.
 * @throws Error from sharp for a corrupt, truncated or oversized image.
 */
export async function processImage(bytes: Buffer): Promise<ProcessedImage> {
  const [sharp, phash] = await Promise.all([loadSharp(), loadPhash()]);
  const input = { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' as const };
  const meta = await sharp(bytes, input).metadata();
  const width = meta.autoOrient?.width ?? meta.width;
  const height = meta.autoOrient?.height ?? meta.height;
  if (!width || !height) throw new Error('image without dimensions');
  const display = await sharp(bytes, input)
    .autoOrient()
    .flatten({ background: '#ffffff' })
    .resize({ width: DISPLAY_WIDTH_PX, withoutEnlargement: true })
    .jpeg({ quality: 82 })
    .toBuffer();
  const thumbnail = await sharp(display)
    .resize({ width: THUMBNAIL_WIDTH_PX, withoutEnlargement: true })
    .jpeg({ quality: 75 })
    .toBuffer();
  return { width, height, display, thumbnail, phash: phashHex(await phash(thumbnail)) };
}

/** Why a photo of this size is rejected (orientation first), or null when it is good (SPEC §5). */
export function qualityError(width: number, height: number): ImageErrorType | null {
  if (height > width) return 'VERTICAL';
  if (width < MIN_IMAGE_SIDE_PX || height < MIN_IMAGE_SIDE_PX) return 'RESOLUTION';
  return null;
}

/** The lead columns the image service reads. */
interface LeadRef {
  id: string;
  property_unique_id: string;
  image_upload_disabled: boolean;
}

/** The images task's state from the active photos of a lead. */
interface ImageTotals {
  acceptedCount: number;
  rejectedCount: number;
  /** Accepted photos by category. */
  byCategory: Map<string, number>;
  /** Accepted photos of the split category by {@link roomCategoryKey}, for the lead's room categories only. */
  byRoomCategory: Map<string, number>;
  completed: boolean;
}

/** The active photos of a lead, its room categories and the task's state, read in one transaction. */
interface LeadPhotos {
  rows: LeadImageRow[];
  roomCategories: string[];
  totals: ImageTotals;
}

const isUniqueViolation = (err: unknown) =>
  !!err && typeof err === 'object' && (err as { code?: unknown }).code === '23505';

/** Creates the image service over `db`. */
export function createImageService(db: Kysely<Database>, options: ImageServiceOptions): ImageService {
  const now = options.now ?? Date.now;
  const { storage, requirements } = options;

  const findLead = async (userId: string, propertyUniqueId: string): Promise<LeadRef> => {
    const lead = await db
      .selectFrom('leads')
      .select(['id', 'property_unique_id', 'image_upload_disabled'])
      .where('property_unique_id', '=', propertyUniqueId)
      .where('user_id', '=', userId)
      .where('status', 'not in', [LEAD_STATUS_DISCARDED, LEAD_STATUS_REMOVED])
      .executeTakeFirst();
    if (!lead) throw onboardError('ONB_LEAD_NOT_FOUND');
    return lead;
  };

  const activeImages = (q: Kysely<Database> | Transaction<Database>, leadId: string, live = false) =>
    q
      .selectFrom('lead_images')
      .selectAll()
      .where('lead_id', '=', leadId)
      .where(live ? 'is_live' : 'is_active', '=', true)
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
      .execute();

  const { roomSplit } = requirements;

  /**
   * The room categories of section room_categories of lead `leadId` ({@link roomCategoriesOf}), as saved
   * or, with `live`, as published.
   */
  const roomCategoriesFor = async (
    q: Kysely<Database> | Transaction<Database>,
    leadId: string,
    live = false,
  ) => {
    if (!roomSplit) return [];
    const row = await q
      .selectFrom('lead_sections')
      .select(['data', 'live_data'])
      .where('lead_id', '=', leadId)
      .where('section', '=', 'room_categories')
      .executeTakeFirst();
    return roomCategoriesOf(live ? row?.live_data : row?.data);
  };

  /** Whether a photo belongs to one of `keys` (room category keys) of the split category. */
  const roomKeyOf = (r: Pick<LeadImageRow, 'category' | 'room_category'>, keys: ReadonlySet<string>) => {
    if (!roomSplit || r.category !== roomSplit.category || r.room_category === null) return undefined;
    const key = roomCategoryKey(r.room_category);
    return keys.has(key) ? key : undefined;
  };

  const totalsOf = (
    rows: readonly Pick<LeadImageRow, 'category' | 'room_category' | 'status'>[],
    roomCategories: readonly string[],
  ): ImageTotals => {
    const keys = new Set(roomCategories.map(roomCategoryKey));
    const byCategory = new Map<string, number>();
    const byRoomCategory = new Map<string, number>();
    let acceptedCount = 0;
    let rejectedCount = 0;
    for (const r of rows) {
      if (r.status === 'accepted') {
        acceptedCount += 1;
        byCategory.set(r.category, (byCategory.get(r.category) ?? 0) + 1);
        const key = roomKeyOf(r, keys);
        if (key !== undefined) byRoomCategory.set(key, (byRoomCategory.get(key) ?? 0) + 1);
      } else if (r.status === 'rejected') rejectedCount += 1;
    }
    // Rejected photos must be deleted before publishing (SPEC §5), so they keep the task open. A split
    // category needs its own minimum in all besides each room category's.
    const completed =
      rejectedCount === 0 &&
      acceptedCount >= requirements.minTotal &&
      requirements.categories.every((c) => (byCategory.get(c.category) ?? 0) >= c.minCount) &&
      roomCategories.every(
        (name) => (byRoomCategory.get(roomCategoryKey(name)) ?? 0) >= (roomSplit?.minPerRoomCategory ?? 0),
      );
    return { acceptedCount, rejectedCount, byCategory, byRoomCategory, completed };
  };

  /** The lead's active (or, with `live`, live) photos, room categories and totals as `q` sees them. */
  const photosOf = async (
    q: Kysely<Database> | Transaction<Database>,
    leadId: string,
    live = false,
  ): Promise<LeadPhotos> => {
    const rows = await activeImages(q, leadId, live);
    const roomCategories = await roomCategoriesFor(q, leadId, live);
    return { rows, roomCategories, totals: totalsOf(rows, roomCategories) };
  };

  /**
   * Keeps the checklist's images task in step with the photos and the room categories (section `images`,
   * data `{ accepted_count, image_ids }`, the ids of the active photos sorted, so that the section's
   * `live_data` says which photos a published listing shows and a changed set is a pending change, issue 12
   * item 2): inserted at version 1, then version + 1 only when the data or the
   * completion changes. Runs in the transaction of the change, after the lead's upload lock. The lead's
   * updated_at moves when the task changed, or always with `touch` (an upload or a delete).
   */
  const syncChecklist = async (
    trx: Transaction<Database>,
    leadId: string,
    touch: boolean,
  ): Promise<LeadPhotos> => {
    const photos = await photosOf(trx, leadId);
    const { totals } = photos;
    const t = new Date(now());
    const changed = await trx
      .insertInto('lead_sections')
      .values({
        lead_id: leadId,
        section: 'images',
        data: JSON.stringify({
          accepted_count: totals.acceptedCount,
          image_ids: photos.rows.map((r) => r.id).sort(),
        }),
        version: 1,
        completed: totals.completed,
        updated_at: t,
      })
      .onConflict((oc) =>
        oc
          .columns(['lead_id', 'section'])
          .doUpdateSet({
            data: sql`excluded.data`,
            completed: sql`excluded.completed`,
            version: sql`lead_sections.version + 1`,
            updated_at: sql`excluded.updated_at`,
          })
          .where(
            sql<boolean>`lead_sections.data <> excluded.data or lead_sections.completed <> excluded.completed`,
          ),
      )
      .returning('version')
      .executeTakeFirst();
    if (changed || touch)
      await trx.updateTable('leads').set({ updated_at: t }).where('id', '=', leadId).execute();
    return photos;
  };

  /** One writer of a lead's photos at a time: uploads, deletes and syncs see each other. */
  const lockLead = (trx: Transaction<Database>, leadId: string) =>
    sql`select pg_advisory_xact_lock(hashtext(${leadId}))`.execute(trx);

  /** The requirements of ImagesConfig, the split category per room category (see ImageRequirement). */
  const requirementsOf = (photos: LeadPhotos, lead: LeadRef, locale: Locale): ImageRequirement[] => {
    const { rows, roomCategories, totals } = photos;
    const keys = new Set(roomCategories.map(roomCategoryKey));
    return requirements.categories.flatMap((c): ImageRequirement[] => {
      const own = rows.filter((r) => r.category === c.category);
      const whole = {
        category: c.category,
        priority: c.priority,
        min_count: c.minCount,
        accepted_count: totals.byCategory.get(c.category) ?? 0,
        images: own.map((r) => toImage(r, lead, locale)),
      };
      if (c.category !== roomSplit?.category || roomCategories.length === 0) return [whole];
      const perRoom: ImageRequirement[] = roomCategories.map((name) => {
        const key = roomCategoryKey(name);
        return {
          category: c.category,
          room_category: name,
          priority: c.priority,
          min_count: roomSplit.minPerRoomCategory,
          accepted_count: totals.byRoomCategory.get(key) ?? 0,
          images: own.filter((r) => roomKeyOf(r, keys) === key).map((r) => toImage(r, lead, locale)),
        };
      });
      // Photos of a room category renamed or removed since (or uploaded before there were any).
      const others = own.filter((r) => roomKeyOf(r, keys) === undefined);
      if (others.length === 0) return perRoom;
      return [
        ...perRoom,
        {
          category: c.category,
          room_category: null,
          priority: c.priority,
          min_count: 0,
          accepted_count: others.filter((r) => r.status === 'accepted').length,
          images: others.map((r) => toImage(r, lead, locale)),
        },
      ];
    });
  };

  /**
   * The room category an upload of `category` is stored with: null when the category is not split or the
   * lead has no room categories; else the lead's name matching `given`.
   * @throws ONB_INVALID_INPUT (400, field room_category) when `given` is missing where needed, unknown, or
   *   sent where none applies.
   */
  const roomCategoryFor = async (
    leadId: string,
    category: string,
    given: string | undefined,
  ): Promise<string | null> => {
    const invalid = () => onboardError('ONB_INVALID_INPUT', { field: 'room_category' });
    const names = category === roomSplit?.category ? await roomCategoriesFor(db, leadId) : [];
    if (names.length === 0) {
      if (given !== undefined) throw invalid();
      return null;
    }
    const key = given === undefined ? '' : roomCategoryKey(given);
    const name = names.find((n) => roomCategoryKey(n) === key);
    if (!name) throw invalid();
    return name;
  };

  const toImage = (row: LeadImageRow, lead: LeadRef, locale: Locale): PropertyImage => {
    const errorType = (row.error_type as ImageErrorType | null) ?? null;
    const base = `${imagesPath(lead.property_unique_id)}/${row.id}/file`;
    const recent = now() - new Date(row.created_at).getTime() <= options.deleteWindowMs;
    return {
      image_id: row.id,
      client_upload_id: row.client_upload_id,
      category: row.category,
      room_category: row.room_category,
      status: row.status as PropertyImage['status'],
      is_active: row.is_active,
      error_type: errorType,
      message: errorType ? options.translate(locale, REJECTION_KEYS[errorType]) : null,
      width: row.width,
      height: row.height,
      bytes: row.bytes,
      url: `${base}?variant=display`,
      thumbnail_url: `${base}?variant=thumb`,
      created_at: new Date(row.created_at).toISOString(),
      can_delete: row.is_active && !lead.image_upload_disabled && (row.status === 'rejected' || recent),
    };
  };

  const findByUploadId = (q: Kysely<Database> | Transaction<Database>, leadId: string, id: string) =>
    q
      .selectFrom('lead_images')
      .selectAll()
      .where('lead_id', '=', leadId)
      .where('client_upload_id', '=', id)
      .executeTakeFirst();

  /** The answer for an image stored earlier under the same client_upload_id. */
  const again = async (
    row: LeadImageRow,
    lead: LeadRef,
    locale: Locale,
    status: UploadOutcome['status'] = 200,
  ): Promise<UploadOutcome> => {
    const { totals } = await photosOf(db, lead.id);
    return {
      image: toImage(row, lead, locale),
      completed: totals.completed,
      accepted_count: totals.acceptedCount,
      created: false,
      status,
    };
  };

  /** An active photo of the same bytes in the same slot: the upload is a retry of it (issue 14 item 5). */
  const sameInSlot = (
    rows: readonly LeadImageRow[],
    sha256: string,
    category: string,
    roomCategory: string | null,
  ) => rows.find((r) => r.sha256 === sha256 && r.category === category && r.room_category === roomCategory);

  const isDuplicate = (
    rows: readonly Pick<LeadImageRow, 'sha256' | 'phash'>[],
    sha256: string,
    hash: string | null,
  ) =>
    rows.some(
      (r) => r.sha256 === sha256 || (hash !== null && hammingDistance(r.phash, hash) <= PHASH_MAX_DISTANCE),
    );

  /** ImagesConfig of `photos` (the active or the live ones). */
  const configOf = (photos: LeadPhotos, lead: LeadRef, locale: Locale): ImagesConfig => {
    const { totals } = photos;
    return {
      requirements: requirementsOf(photos, lead, locale),
      category_totals: Object.fromEntries(
        requirements.categories.map((c) => [
          c.category,
          { min_count: c.minCount, accepted_count: totals.byCategory.get(c.category) ?? 0 },
        ]),
      ),
      min_total: requirements.minTotal,
      accepted_count: totals.acceptedCount,
      rejected_count: totals.rejectedCount,
      completed: totals.completed,
      upload_enabled: !lead.image_upload_disabled,
      limits: {
        max_bytes: MAX_IMAGE_BYTES,
        min_width: MIN_IMAGE_SIDE_PX,
        min_height: MIN_IMAGE_SIDE_PX,
        mime_types: [...IMAGE_MIME_TYPES],
      },
    };
  };

  /**
   * Removes both files of an image after a failed upload: a storage that could not join the rolled-back
   * transaction (an object store) may hold them. A failure is logged, not thrown.
   */
  const removeFiles = async (row: Pick<LeadImageRow, 'lead_id' | 'id'>): Promise<void> => {
    for (const variant of ['display', 'thumb'] as const) {
      try {
        await storage.delete(storageKey(row, variant));
      } catch (err) {
        options.log?.warn({ err, imageId: row.id }, 'image file could not be removed');
      }
    }
  };

  return {
    async upload(userId, propertyUniqueId, input) {
      const lead = await findLead(userId, propertyUniqueId);
      if (lead.image_upload_disabled) throw onboardError('ONB_IMAGE_UPLOAD_DISABLED');
      const earlier = await findByUploadId(db, lead.id, input.clientUploadId);
      if (earlier) return again(earlier, lead, input.locale);
      if (!requirements.has(input.category)) throw onboardError('ONB_INVALID_INPUT', { field: 'category' });
      const roomCategory = await roomCategoryFor(lead.id, input.category, input.roomCategory);

      const bytes = input.bytes ?? (await readLimited(input.file));
      const type = await (await loadFileTypeFromBuffer())(bytes);
      if (!type || !(IMAGE_MIME_TYPES as readonly string[]).includes(type.mime))
        throw onboardError('ONB_IMAGE_FORMAT');
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      // The same bytes in the same slot: a retry whose answer was lost; elsewhere, refused before decoding.
      const active = await activeImages(db, lead.id);
      const retried = sameInSlot(active, sha256, input.category, roomCategory);
      if (retried) return again(retried, lead, input.locale, 201);
      if (isDuplicate(active, sha256, null)) throw onboardError('ONB_IMAGE_DUPLICATE');

      let processed: ProcessedImage;
      try {
        processed = await processImage(bytes);
      } catch (err) {
        options.log?.warn({ err, mime: type.mime, bytes: bytes.length }, 'image could not be decoded');
        throw onboardError('ONB_IMAGE_UPLOAD_FAILED');
      }
      const errorType = qualityError(processed.width, processed.height);
      const id = randomUUID();
      const row = {
        id,
        lead_id: lead.id,
        client_upload_id: input.clientUploadId,
        category: input.category,
        room_category: roomCategory,
        status: errorType ? 'rejected' : 'accepted',
        error_type: errorType,
        is_active: true,
        width: processed.width,
        height: processed.height,
        bytes: bytes.length,
        sha256,
        phash: processed.phash,
        created_at: new Date(now()),
        deleted_at: null,
        is_live: false,
      } satisfies LeadImageRow;

      let stored = false;
      try {
        const outcome = await db.transaction().execute(async (trx) => {
          // The key first: a retry of the same key waits here for the first to commit, then answers it.
          await input.idempotency?.begin(trx);
          // One upload of a lead at a time from here: the duplicate check and the insert see each other.
          await lockLead(trx, lead.id);
          const raced = await findByUploadId(trx, lead.id, input.clientUploadId);
          if (raced) return { kind: 'raced' as const, row: raced, status: 200 as const };
          const current = await activeImages(trx, lead.id);
          const same = sameInSlot(current, sha256, input.category, roomCategory);
          if (same) return { kind: 'raced' as const, row: same, status: 201 as const };
          if (isDuplicate(current, sha256, processed.phash)) throw onboardError('ONB_IMAGE_DUPLICATE');
          stored = true;
          // The files and the row commit together (issue 14 item 1): no orphan, no missing file.
          await storage.put(storageKey(row, 'display'), processed.display, trx);
          await storage.put(storageKey(row, 'thumb'), processed.thumbnail, trx);
          const inserted = await trx
            .insertInto('lead_images')
            .values(row)
            .returningAll()
            .executeTakeFirstOrThrow();
          const { totals } = await syncChecklist(trx, lead.id, true);
          const result: UploadOutcome = {
            image: toImage(inserted, lead, input.locale),
            completed: totals.completed,
            accepted_count: totals.acceptedCount,
            created: true,
            status: 201,
          };
          await input.idempotency?.end(trx, result);
          return { kind: 'stored' as const, result };
        });
        if (outcome.kind === 'raced') return again(outcome.row, lead, input.locale, outcome.status);
        return outcome.result;
      } catch (err) {
        if (stored) await removeFiles(row);
        // A retry that got past the lock-free checks at the same moment: answer the image it stored.
        if (isUniqueViolation(err)) {
          const winner = await findByUploadId(db, lead.id, input.clientUploadId);
          if (winner) return again(winner, lead, input.locale);
        }
        throw err;
      }
    },

    async list(userId, propertyUniqueId, locale) {
      const lead = await findLead(userId, propertyUniqueId);
      const photos = await db.transaction().execute(async (trx) => {
        await lockLead(trx, lead.id);
        return syncChecklist(trx, lead.id, false);
      });
      return configOf(photos, lead, locale);
    },

    async listLive(userId, propertyUniqueId, locale) {
      const lead = await findLead(userId, propertyUniqueId);
      return configOf(await photosOf(db, lead.id, true), lead, locale);
    },

    async publishPhotos(trx, leadId) {
      const unlisted = await trx
        .selectFrom('lead_images')
        .select(['id', 'lead_id'])
        .where('lead_id', '=', leadId)
        .where('is_live', '=', true)
        .where('is_active', '=', false)
        .execute();
      for (const row of unlisted)
        for (const variant of ['display', 'thumb'] as const)
          await storage.delete(storageKey(row, variant), trx);
      const listed = sql<boolean>`is_active and status = 'accepted'`;
      const changed = await trx
        .updateTable('lead_images')
        .set({ is_live: listed })
        .where('lead_id', '=', leadId)
        .where(sql<boolean>`is_live is distinct from (${listed})`)
        .executeTakeFirst();
      return Number(changed.numUpdatedRows) > 0;
    },

    async delete(userId, propertyUniqueId, imageId) {
      const lead = await findLead(userId, propertyUniqueId);
      if (lead.image_upload_disabled) throw onboardError('ONB_IMAGE_UPLOAD_DISABLED');
      const t = new Date(now());
      const { row, totals } = await db.transaction().execute(async (trx) => {
        await lockLead(trx, lead.id);
        const image = await trx
          .selectFrom('lead_images')
          .selectAll()
          .where('id', '=', imageId)
          .where('lead_id', '=', lead.id)
          .where('is_active', '=', true)
          .executeTakeFirst();
        if (!image) throw onboardError('ONB_IMAGE_NOT_FOUND');
        const age = t.getTime() - new Date(image.created_at).getTime();
        if (image.status !== 'rejected' && age > options.deleteWindowMs)
          throw onboardError('ONB_IMAGE_DELETE_NOT_RECENT');
        await trx
          .updateTable('lead_images')
          .set({ is_active: false, deleted_at: t })
          .where('id', '=', image.id)
          .execute();
        // The files go with the row's change (issue 14 item 1), unless the live listing still shows the
        // photo: then they go when the owner submits changes (publishPhotos).
        if (!image.is_live)
          for (const variant of ['display', 'thumb'] as const)
            await storage.delete(storageKey(image, variant), trx);
        return { row: image, totals: (await syncChecklist(trx, lead.id, true)).totals };
      });
      return {
        image_id: row.id,
        is_active: false,
        completed: totals.completed,
        accepted_count: totals.acceptedCount,
      };
    },

    async syncTask(trx, leadId) {
      await lockLead(trx, leadId);
      await syncChecklist(trx, leadId, false);
    },

    async file(userId, propertyUniqueId, imageId, variant) {
      const lead = await findLead(userId, propertyUniqueId);
      const row = await db
        .selectFrom('lead_images')
        .select(['id', 'lead_id'])
        .where('id', '=', imageId)
        .where('lead_id', '=', lead.id)
        .where((eb) => eb.or([eb('is_active', '=', true), eb('is_live', '=', true)]))
        .executeTakeFirst();
      const key = row ? storageKey(row, variant) : undefined;
      const info = key ? await storage.head(key) : undefined;
      if (!key || !info) throw onboardError('ONB_IMAGE_NOT_FOUND');
      return { ...info, bytes: () => storage.get(key) };
    },
  };
}
