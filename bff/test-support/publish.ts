import { randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema';
import type { ImageService } from '../services/images';
import type { ChecklistTask } from '../services/leads';
import { TASKS_BEFORE_PUBLISH } from '../services/publish';

/** What {@link makeLeadReady} leaves out or adds. */
export interface ReadyOptions {
  /** Tasks left not completed (default none). */
  skip?: readonly ChecklistTask[];
  /** Rejected (VERTICAL) photos to add besides the accepted ones (default 0). */
  rejected?: number;
  /** Photo categories of {@link READY_PHOTOS} left out, e.g. one uploaded through the API (default none). */
  omitPhotos?: readonly string[];
  /**
   * The image service, to decide the images task as it does after an upload; without it the task is decided
   * by the next listing of the photos, review or publish (each brings it up to date first).
   */
  images?: Pick<ImageService, 'syncTask'>;
}

/** The section data {@link makeLeadReady} writes, by task. */
export const READY_SECTION_DATA: Partial<Record<ChecklistTask, Record<string, unknown>>> = {
  basic_info: {
    title: 'Sea View Residency',
    description: 'Rooms facing the sea, five minutes from the beach.',
    total_rooms: 10,
    available_floors: 3,
    frontdesk_phone: '+919876543210',
  },
  address: {
    latitude: 15.5527,
    longitude: 73.7517,
    address_line: '12 Beach Road',
    locality: 'Calangute',
    city: 'Goa',
    country: 'IN',
  },
  contact_info: {
    contact_name: 'Asha Rao',
    contact_email: 'asha@example.com',
    contact_phone: '+919876543211',
  },
  amenities: { amenities: ['wifi', 'hot_water', 'clean_linen', 'fire_extinguisher', 'first_aid', 'parking'] },
  room_categories: { room_categories: [{ name: 'Deluxe', count: 10 }] },
  kyc: { name: 'Asha Rao', email_address: 'asha@example.com' },
  terms_of_service: { accepted: true },
};

/** Accepted photos that meet bff/screens/data/image-requirements.json for one room category 'Deluxe'. */
export const READY_PHOTOS: { category: string; room_category: string | null }[] = [
  { category: 'facade', room_category: null },
  { category: 'reception', room_category: null },
  { category: 'room', room_category: 'Deluxe' },
  { category: 'room', room_category: 'Deluxe' },
  { category: 'room', room_category: 'Deluxe' },
  { category: 'bathroom', room_category: null },
];

/**
 * TEST ONLY. Makes lead `leadId` (`leads.id`) ready to publish by writing the database `db` directly,
 * instead of walking every task through the API (KYC needs text recognition and verified contacts; terms
 * need the contract); used by the API tests and by the cluster test against its PostgreSQL. Every task of
 * {@link TASKS_BEFORE_PUBLISH} but images and `skip` gets a completed `lead_sections` row with
 * {@link READY_SECTION_DATA}; the accepted `lead_images` rows of {@link READY_PHOTOS} (facade, reception,
 * 3 rooms of 'Deluxe', bathroom; no files behind them) but `omitPhotos`, plus `rejected` rejected ones, are
 * inserted; then, given `images`, the image service decides the images task as it does after an upload (so
 * it is completed only with no rejected photo, and skipping images inserts no photo). Photos are inserted
 * oldest first, one second apart.
 */
export async function makeLeadReady(
  db: Kysely<Database>,
  leadId: string,
  options: ReadyOptions = {},
): Promise<void> {
  const skip = new Set(options.skip ?? []);
  const omit = new Set(options.omitPhotos ?? []);
  const t = new Date();
  const hex = (n: number) => randomBytes(n).toString('hex');
  for (const task of TASKS_BEFORE_PUBLISH) {
    if (task === 'images' || skip.has(task)) continue;
    const data = JSON.stringify(READY_SECTION_DATA[task] ?? {});
    await db
      .insertInto('lead_sections')
      .values({ lead_id: leadId, section: task, data, version: 1, completed: true, updated_at: t })
      .onConflict((oc) =>
        oc.columns(['lead_id', 'section']).doUpdateSet({ data, completed: true, updated_at: t }),
      )
      .execute();
  }
  const photos = skip.has('images')
    ? []
    : READY_PHOTOS.filter((p) => !omit.has(p.category)).map((p) => ({ ...p, status: 'accepted' }));
  for (let i = 0; i < (options.rejected ?? 0); i += 1)
    photos.push({ category: 'other', room_category: null, status: 'rejected' });
  let at = t.getTime() - 3600_000;
  for (const p of photos) {
    at += 1000;
    await db
      .insertInto('lead_images')
      .values({
        id: randomUUID(),
        lead_id: leadId,
        client_upload_id: randomUUID(),
        category: p.category,
        room_category: p.room_category,
        status: p.status,
        error_type: p.status === 'rejected' ? 'VERTICAL' : null,
        is_active: true,
        width: p.status === 'rejected' ? 1200 : 1600,
        height: p.status === 'rejected' ? 1600 : 1200,
        bytes: 200_000,
        sha256: hex(32),
        phash: hex(8),
        created_at: new Date(at),
        deleted_at: null,
      })
      .execute();
  }
  const { images } = options;
  if (images) await db.transaction().execute((trx) => images.syncTask(trx, leadId));
}
