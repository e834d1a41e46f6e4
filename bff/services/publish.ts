import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import type {
  ImagesConfig,
  Locale,
  PropertyImage,
  PropertyReview,
  PublishChangesResult,
  PublishResult,
  ReviewBucket,
} from '../../schemas/generated/types';
import type { Database, LeadRow, LeadSectionRow } from '../db/schema';
import { onboardError } from '../errors';
import amenityCatalogue from '../screens/data/amenities.json' with { type: 'json' };
import propertyTypes from '../screens/data/property-types.json' with { type: 'json' };
import { BRANDS, type BrandRules } from './brands';
import type { IdempotencyStep } from './idempotency';
import type { ImageService } from './images';
import {
  CHECKLIST_TASKS,
  LEAD_STATUS_DISCARDED,
  LEAD_STATUS_IN_PROGRESS,
  LEAD_STATUS_REMOVED,
  pendingTasksOf,
  SECTION_DEFINITIONS,
  type ChecklistTask,
} from './leads';

/** A published hotel (SPEC §1 'Property is live'). */
export const LEAD_STATUS_LIVE = 'LIVE' as const;
/** A published holiday home (SPEC §1 'Under review': an expert reaches out). */
export const LEAD_STATUS_UNDER_REVIEW = 'UNDER_REVIEW' as const;

/** The tasks publishing needs completed: every checklist task but review itself (issue 6 contract). */
export const TASKS_BEFORE_PUBLISH: readonly ChecklistTask[] = CHECKLIST_TASKS.filter((t) => t !== 'review');

/** Where the owner edits each task (the checklist's own actions, bff/screens/task/checklist/). */
function editOf(task: ChecklistTask, propertyUniqueId: string): ReviewBucket['edit'] {
  const query = { property_unique_id: propertyUniqueId };
  switch (task) {
    case 'images':
      return { to: '/images', query };
    case 'kyc':
      return { to: '/kyc', query };
    case 'terms_of_service':
      return { to: '/terms', query };
    case 'review':
      return { to: '/review', query };
    default:
      return { to: '/task/details', query: { ...query, task } };
  }
}

/** What the publish service needs besides the database. */
export interface PublishServiceOptions {
  /** The photos (their listing, and the images task brought up to date under the lead's lock). */
  images: Pick<ImageService, 'list' | 'listLive' | 'syncTask' | 'publishPhotos'>;
  /** The brands (default {@link BRANDS}). */
  brands?: BrandRules;
  /** The text of a translation key in a locale, with `{{name}}` values. */
  translate: (locale: Locale, key: string, values?: Record<string, unknown>) => string;
  /** Clock in ms since the epoch (default Date.now). */
  now?: () => number;
}

/** Review and publishing of a property (SPEC §2 review, §3 propertyReviewDetails, §4 publish). */
export interface PublishService {
  /**
   * The property as a guest would see it, with one bucket per task (title, summary lines in `locale`,
   * completed, where to edit it), the accepted photos and cover, and what still stops publishing. Brings
   * the images task up to date first.
   * @throws ONB_LEAD_NOT_FOUND (404) not the user's lead.
   */
  review(userId: string, propertyUniqueId: string, locale: Locale): Promise<PropertyReview>;
  /**
   * Publishes the lead once: under the lead's lock (the one photo uploads take), with every task but
   * review completed and no rejected photo, sets status LIVE (hotel brand) or UNDER_REVIEW (holiday-home
   * brand), published_at and a new listing_id, and completes the review task. A lead published before
   * answers its listing again with `already_published` true; of two concurrent calls one publishes and the
   * other answers that listing.
   * @throws ONB_LEAD_NOT_FOUND (404) not the user's lead; ONB_PUBLISH_NOT_READY (422, details
   *   `missing_tasks`, `rejected_image_count`) tasks missing, rejected photos left, or a cold lead.
   * `idempotency` (an Idempotency-Key, issue 14 item 5) is claimed first in the publishing transaction and
   * answered in it.
   */
  publish(
    userId: string,
    propertyUniqueId: string,
    idempotency?: IdempotencyStep<PublishResult>,
  ): Promise<PublishResult>;
  /**
   * Puts a published lead's saved changes on its live listing (issue 12 item 2): until then the listing
   * (the review's `property_details`, the dashboard's title and city) shows the sections as last published
   * (`lead_sections.live_data`) while the owner's saves and drafts change `data` only. The same checks as
   * the first publish, under the same lock: every task but review completed and no rejected photo. Then
   * every changed section's data becomes its live data, the lead's title, pin and city follow basic
   * info and the address, and photo uploads and deletions made since go live (`images` among the tasks:
   * the listing's photos are `lead_images.is_live`, see ImageService.publishPhotos). Answers the tasks that went live (empty when nothing was pending).
   * @throws ONB_LEAD_NOT_FOUND (404) not the user's lead; ONB_LISTING_NOT_PUBLISHED (409) never published;
   *   ONB_PUBLISH_NOT_READY (422, details `missing_tasks`, `rejected_image_count`) as {@link publish}.
   * `idempotency` as for {@link publish}.
   */
  publishChanges(
    userId: string,
    propertyUniqueId: string,
    idempotency?: IdempotencyStep<PublishChangesResult>,
  ): Promise<PublishChangesResult>;
}

/** Summary lines of one review bucket at most (the property_card widget's `details` maxItems). */
const SUMMARY_MAX_LINES = 6;

const str = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
const int = (v: unknown) => (typeof v === 'number' && Number.isInteger(v) ? v : null);
const iso = (t: Date | string) => new Date(t).toISOString();

/** Creates the publish service over `db`. */
export function createPublishService(db: Kysely<Database>, options: PublishServiceOptions): PublishService {
  const now = options.now ?? Date.now;
  const brands = options.brands ?? BRANDS;
  const t = options.translate;

  const findRow = (userId: string, propertyUniqueId: string) =>
    db
      .selectFrom('leads')
      .selectAll()
      .where('property_unique_id', '=', propertyUniqueId)
      .where('user_id', '=', userId)
      .where('status', 'not in', [LEAD_STATUS_DISCARDED, LEAD_STATUS_REMOVED])
      .executeTakeFirst();

  const resultOf = (lead: LeadRow, alreadyPublished: boolean): PublishResult => {
    const brand = brands.byKey(lead.brand);
    return {
      property_unique_id: lead.property_unique_id,
      listing_id: lead.listing_id!,
      status: lead.status as PublishResult['status'],
      brand: brand.brand,
      brand_code: brand.code,
      published_at: iso(lead.published_at!),
      already_published: alreadyPublished,
      next: { to: '/welcome', query: { property_unique_id: lead.property_unique_id } },
    };
  };

  const missingOf = (sections: readonly Pick<LeadSectionRow, 'section' | 'completed'>[]) => {
    const done = new Set(sections.filter((s) => s.completed).map((s) => s.section));
    return TASKS_BEFORE_PUBLISH.filter((task) => !done.has(task));
  };

  /**
   * The checks of the first publish and of submitting changes, inside `trx` (SPEC §4 publish, §5 'rejected
   * images must be deleted before publishing'): brings the images task up to date under the lead's upload
   * lock, held to the end of `trx` (no photo can be uploaded or deleted between the check and the write),
   * then reads the lead's sections. `missing` are the tasks of {@link TASKS_BEFORE_PUBLISH} not completed,
   * `rejectedCount` the active rejected photos; ready when both are empty.
   */
  const readinessOf = async (trx: Transaction<Database>, leadId: string) => {
    await options.images.syncTask(trx, leadId);
    const sections = await trx
      .selectFrom('lead_sections')
      .select(['section', 'data', 'live_data', 'completed'])
      .where('lead_id', '=', leadId)
      .execute();
    const rejected = await trx
      .selectFrom('lead_images')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .where('lead_id', '=', leadId)
      .where('is_active', '=', true)
      .where('status', '=', 'rejected')
      .executeTakeFirstOrThrow();
    const missing = missingOf(sections);
    const rejectedCount = Number(rejected.n);
    return { sections, missing, rejectedCount, ready: missing.length === 0 && rejectedCount === 0 };
  };

  /** ONB_PUBLISH_NOT_READY with what {@link readinessOf} found. */
  const notReady = (r: { missing: ChecklistTask[]; rejectedCount: number }) =>
    onboardError('ONB_PUBLISH_NOT_READY', {
      details: { missing_tasks: r.missing, rejected_image_count: r.rejectedCount },
    });

  /** The summary lines of one task, in `locale`. */
  const summaryOf = (
    task: ChecklistTask,
    data: Record<string, unknown>,
    completed: boolean,
    images: ImagesConfig,
    locale: Locale,
  ): string[] => {
    const lines: (string | null)[] = [];
    switch (task) {
      case 'basic_info': {
        lines.push(str(data.title));
        const rooms = int(data.total_rooms);
        const floors = int(data.available_floors);
        if (rooms !== null) lines.push(t(locale, 'screens.review.summary.rooms', { count: rooms }));
        if (floors !== null) lines.push(t(locale, 'screens.review.summary.floors', { count: floors }));
        lines.push(str(data.frontdesk_phone));
        break;
      }
      case 'address':
        lines.push(addressOf(data));
        break;
      case 'contact_info':
        lines.push(str(data.contact_name), str(data.contact_email), str(data.contact_phone));
        break;
      case 'amenities': {
        const labels = amenityLabels(data, locale);
        if (labels.length > 0) lines.push(labels.join(', '));
        break;
      }
      case 'room_categories':
        for (const c of roomCategories(data))
          lines.push(t(locale, 'screens.review.summary.room_category', { name: c.name, count: c.count }));
        break;
      case 'images':
        if (images.accepted_count > 0)
          lines.push(t(locale, 'screens.review.summary.photos', { count: images.accepted_count }));
        if (images.rejected_count > 0)
          lines.push(t(locale, 'screens.review.summary.rejected_photos', { count: images.rejected_count }));
        break;
      case 'kyc':
        lines.push(str(data.name), str(data.email_address));
        if (completed) lines.push(t(locale, 'screens.review.summary.kyc_done'));
        break;
      case 'terms_of_service':
        if (completed) lines.push(t(locale, 'screens.review.summary.terms_accepted'));
        break;
      case 'review':
        break;
    }
    const out = lines.filter((l): l is string => l !== null);
    if (out.length === 0) return [t(locale, 'screens.review.summary.empty')];
    // The review's card shows at most SUMMARY_MAX_LINES lines (widgets/property_card details).
    return out.length > SUMMARY_MAX_LINES
      ? [
          ...out.slice(0, SUMMARY_MAX_LINES - 1),
          t(locale, 'screens.review.summary.more', { count: out.length - SUMMARY_MAX_LINES + 1 }),
        ]
      : out;
  };

  const amenityLabels = (data: Record<string, unknown>, locale: Locale) => {
    const chosen = new Set(Array.isArray(data.amenities) ? data.amenities : []);
    return amenityCatalogue.amenities.filter((a) => chosen.has(a.value)).map((a) => t(locale, a.label.$t));
  };

  const labelOf = (locale: Locale, list: { value: string; label: { $t: string } }[], value: string) => {
    const found = list.find((x) => x.value === value);
    return found ? t(locale, found.label.$t) : value;
  };

  return {
    async review(userId, propertyUniqueId, locale) {
      const lead = await findRow(userId, propertyUniqueId);
      if (!lead) throw onboardError('ONB_LEAD_NOT_FOUND');
      // Brings the images task up to date (the answer's checklist and readiness follow the photos).
      const images = await options.images.list(userId, propertyUniqueId, locale);
      const sections = await db
        .selectFrom('lead_sections')
        .selectAll()
        .where('lead_id', '=', lead.id)
        .execute();
      const dataOf = (task: ChecklistTask) => sections.find((s) => s.section === task)?.data ?? {};
      const completedOf = (task: ChecklistTask) => sections.some((s) => s.section === task && s.completed);
      const missing = missingOf(sections);
      const brand = brands.byKey(lead.brand);
      const published = lead.published_at !== null;
      // A published lead's listing shows what was last published; the buckets show what the owner saved.
      const listedOf = (task: ChecklistTask) =>
        published ? (sections.find((s) => s.section === task)?.live_data ?? {}) : dataOf(task);
      const pending = pendingTasksOf(lead.published_at, sections);
      const basic = listedOf('basic_info');
      const address = listedOf('address');

      // A published lead's listing shows the photos as last published; the images bucket the owner's.
      const listedImages = published
        ? await options.images.listLive(userId, propertyUniqueId, locale)
        : images;
      const accepted = (list: PropertyImage[]) => list.filter((i) => i.status === 'accepted');
      // Requirements come by category priority (facade first), their images oldest first.
      const propertyImages = listedImages.requirements.flatMap((r) => accepted(r.images));
      const cover = listedImages.requirements
        .filter((r) => r.category === 'facade')
        .flatMap((r) => accepted(r.images))[0];
      const roomsImages = listedImages.requirements
        .filter((r) => typeof r.room_category === 'string')
        .map((r) => ({ room_category: r.room_category as string, images: accepted(r.images) }));

      return {
        property_unique_id: lead.property_unique_id,
        brand: brand.brand,
        brand_code: brand.code,
        status: lead.status,
        published_at: lead.published_at ? iso(lead.published_at) : null,
        // Published: whether publishChanges would put the saved changes live.
        ready:
          (published || lead.status === LEAD_STATUS_IN_PROGRESS) &&
          missing.length === 0 &&
          images.rejected_count === 0,
        missing_tasks: missing,
        pending_tasks: pending,
        rejected_image_count: images.rejected_count,
        cover_url: cover?.url ?? null,
        property_review_details: {
          property_details: {
            title: str(basic.title) ?? lead.title,
            property_type: labelOf(locale, propertyTypes.property_types, lead.property_type),
            property_sub_type: labelOf(locale, propertyTypes.property_sub_types, lead.property_sub_type),
            description: str(basic.description),
            address: addressOf(address),
            city: str(address.city) ?? lead.city,
            country: str(address.country) ?? lead.country,
            total_rooms: int(basic.total_rooms),
            available_floors: int(basic.available_floors),
            amenities: amenityLabels(listedOf('amenities'), locale),
            room_categories: roomCategories(listedOf('room_categories')),
          },
          buckets: TASKS_BEFORE_PUBLISH.map((task) => ({
            key: task,
            title: t(locale, `screens.task.tasks.${task}.title`),
            completed: completedOf(task),
            pending: pending.includes(task),
            summary: summaryOf(task, dataOf(task), completedOf(task), images, locale),
            edit: editOf(task, lead.property_unique_id),
          })),
        },
        property_review_images: {
          property_images: propertyImages,
          property_requirement: Object.entries(listedImages.category_totals).map(([category, c]) => ({
            category,
            min_count: c.min_count,
            accepted_count: c.accepted_count,
          })),
          rooms_images: roomsImages,
        },
      };
    },

    async publish(userId, propertyUniqueId, idempotency) {
      const lead = await findRow(userId, propertyUniqueId);
      if (!lead) throw onboardError('ONB_LEAD_NOT_FOUND');
      if (lead.published_at) return resultOf(lead, true);
      const outcome = await db.transaction().execute(async (trx) => {
        // The key first: a retry of the same key waits here for the first to commit, then answers it.
        await idempotency?.begin(trx);
        // Under the lead's upload lock (a second publish waits here).
        const readiness = await readinessOf(trx, lead.id);
        const fresh = await trx
          .selectFrom('leads')
          .selectAll()
          .where('id', '=', lead.id)
          .executeTakeFirstOrThrow();
        if (fresh.published_at) {
          await idempotency?.end(trx, resultOf(fresh, true));
          return { lead: fresh, already: true };
        }
        if (!readiness.ready || fresh.status !== LEAD_STATUS_IN_PROGRESS) return { notReady: readiness };
        const brand = brands.byKey(fresh.brand);
        const at = new Date(now());
        const published = await trx
          .updateTable('leads')
          .set({
            status: brand.publishedStatus,
            published_at: at,
            listing_id: randomUUID(),
            updated_at: at,
          })
          .where('id', '=', lead.id)
          .where('published_at', 'is', null)
          .returningAll()
          .executeTakeFirst();
        if (!published) {
          const again = await trx
            .selectFrom('leads')
            .selectAll()
            .where('id', '=', lead.id)
            .executeTakeFirstOrThrow();
          await idempotency?.end(trx, resultOf(again, true));
          return { lead: again, already: true };
        }
        // What the listing shows from now on; later saves, uploads and deletions change `data` and the
        // active photos only, until publishChanges.
        await trx
          .updateTable('lead_sections')
          .set({ live_data: sql`data` })
          .where('lead_id', '=', lead.id)
          .execute();
        await options.images.publishPhotos(trx, lead.id);
        const data = JSON.stringify({ listing_id: published.listing_id, published_at: at.toISOString() });
        await trx
          .insertInto('lead_sections')
          .values({ lead_id: lead.id, section: 'review', data, version: 1, completed: true, updated_at: at })
          .onConflict((oc) =>
            oc.columns(['lead_id', 'section']).doUpdateSet({
              data,
              completed: true,
              version: sql<number>`lead_sections.version + 1`,
              updated_at: at,
            }),
          )
          .execute();
        await idempotency?.end(trx, resultOf(published, false));
        return { lead: published, already: false };
      });
      if (outcome.notReady) throw notReady(outcome.notReady);
      return resultOf(outcome.lead, outcome.already);
    },

    async publishChanges(userId, propertyUniqueId, idempotency) {
      const lead = await findRow(userId, propertyUniqueId);
      if (!lead) throw onboardError('ONB_LEAD_NOT_FOUND');
      const listingId = lead.listing_id;
      if (!lead.published_at || !listingId) throw onboardError('ONB_LISTING_NOT_PUBLISHED');
      const resultOfChanges = (changed: ChecklistTask[]): PublishChangesResult => ({
        property_unique_id: lead.property_unique_id,
        listing_id: listingId,
        status: lead.status,
        published_tasks: changed,
      });
      const outcome = await db.transaction().execute(async (trx) => {
        // The key first: a retry of the same key waits here for the first to commit, then answers it.
        await idempotency?.begin(trx);
        // The same lock and checks as the first publish: no photo changes between the check and the write.
        const readiness = await readinessOf(trx, lead.id);
        if (!readiness.ready) return { notReady: readiness };
        const { sections } = readiness;
        const changed = pendingTasksOf(lead.published_at, sections);
        if (changed.length === 0) {
          await idempotency?.end(trx, resultOfChanges(changed));
          return { changed };
        }
        await trx
          .updateTable('lead_sections')
          .set({ live_data: sql`data` })
          .where('lead_id', '=', lead.id)
          .where('section', 'in', changed)
          .execute();
        // The photos uploaded since go live, and those deleted since leave the listing.
        if (changed.includes('images')) await options.images.publishPhotos(trx, lead.id);
        const dataOf = (task: ChecklistTask) => sections.find((s) => s.section === task)?.data ?? {};
        const title = str(dataOf('basic_info').title);
        const place = SECTION_DEFINITIONS.address?.leadColumns?.(dataOf('address'));
        await trx
          .updateTable('leads')
          .set({
            updated_at: new Date(now()),
            ...(title ? { title } : {}),
            ...(place && place.latitude !== null ? place : {}),
          })
          .where('id', '=', lead.id)
          .execute();
        await idempotency?.end(trx, resultOfChanges(changed));
        return { changed };
      });
      if (outcome.notReady) throw notReady(outcome.notReady);
      return resultOfChanges(outcome.changed);
    },
  };
}

/** The address line, locality, city, state and postal code of the address section, joined; null when none. */
function addressOf(data: Record<string, unknown>): string | null {
  const parts = [data.address_line, data.locality, data.city, data.state, data.postal_code]
    .map(str)
    .filter((p): p is string => p !== null);
  return parts.length > 0 ? parts.join(', ') : null;
}

/** The room categories section's categories with a name and a count. */
function roomCategories(data: Record<string, unknown>): { name: string; count: number }[] {
  const list = Array.isArray(data.room_categories) ? (data.room_categories as unknown[]) : [];
  return list.flatMap((c) => {
    const name = str((c as { name?: unknown } | null)?.name);
    const count = int((c as { count?: unknown } | null)?.count);
    return name !== null && count !== null ? [{ name, count }] : [];
  });
}
