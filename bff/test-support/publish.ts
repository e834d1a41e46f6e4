import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Lead } from '../../schemas/generated/types';
import type { ChecklistTask } from '../services/leads';
import { TASKS_BEFORE_PUBLISH } from '../services/publish';

/** What {@link makeLeadReady} leaves out or adds. */
export interface ReadyOptions {
  /** Tasks left not completed (default none). */
  skip?: readonly ChecklistTask[];
  /** Rejected (VERTICAL) photos to add besides the accepted ones (default 0). */
  rejected?: number;
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
const READY_PHOTOS: { category: string; room_category: string | null }[] = [
  { category: 'facade', room_category: null },
  { category: 'reception', room_category: null },
  { category: 'room', room_category: 'Deluxe' },
  { category: 'room', room_category: 'Deluxe' },
  { category: 'room', room_category: 'Deluxe' },
  { category: 'bathroom', room_category: null },
];

/**
 * TEST ONLY. Makes `lead` ready to publish by writing the database directly, instead of walking every
 * task through the API (KYC needs text recognition and verified contacts; terms need the contract):
 * every task of {@link TASKS_BEFORE_PUBLISH} but images and `skip` gets a completed `lead_sections` row
 * with {@link READY_SECTION_DATA}; six accepted `lead_images` rows (facade, reception, 3 rooms of
 * 'Deluxe', bathroom; no files behind them) plus `rejected` rejected ones are inserted; then the image
 * service decides the images task as it does after an upload (so it is completed only with no rejected
 * photo, and skipping images inserts no photo). Photos are inserted oldest first, one second apart.
 */
export async function makeLeadReady(
  app: FastifyInstance,
  lead: Lead,
  options: ReadyOptions = {},
): Promise<void> {
  const skip = new Set(options.skip ?? []);
  const t = new Date();
  const hex = (n: number) => randomBytes(n).toString('hex');
  for (const task of TASKS_BEFORE_PUBLISH) {
    if (task === 'images' || skip.has(task)) continue;
    const data = JSON.stringify(READY_SECTION_DATA[task] ?? {});
    await app.db
      .insertInto('lead_sections')
      .values({ lead_id: lead.lead_id, section: task, data, version: 1, completed: true, updated_at: t })
      .onConflict((oc) =>
        oc.columns(['lead_id', 'section']).doUpdateSet({ data, completed: true, updated_at: t }),
      )
      .execute();
  }
  const photos = skip.has('images') ? [] : READY_PHOTOS.map((p) => ({ ...p, status: 'accepted' }));
  for (let i = 0; i < (options.rejected ?? 0); i += 1)
    photos.push({ category: 'other', room_category: null, status: 'rejected' });
  let at = t.getTime() - 3600_000;
  for (const p of photos) {
    at += 1000;
    await app.db
      .insertInto('lead_images')
      .values({
        id: randomUUID(),
        lead_id: lead.lead_id,
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
  await app.db.transaction().execute((trx) => app.images.syncTask(trx, lead.lead_id));
}
