import { createHash, randomUUID } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { IdType, KycDetails, KycDocument, LeadSection, Locale } from '../../schemas/generated/types';
import type { Database, LeadKycDocumentRow } from '../db/schema';
import { LEAD_STATUS_DISCARDED, LEAD_STATUS_REMOVED, leadApiPath } from './leads';
import { onboardError, type OnboardError } from '../errors';
import { IDENTIFIER_CHECKS } from '../../schemas/identifiers';
import { documentVerdict, readIdDocument, ID_TYPES } from './id-documents';
import type { IdempotencyStep } from './idempotency';
import type { ImageStorage, ServedFile } from './image-storage';
import {
  IMAGE_MIME_TYPES,
  MAX_IMAGE_BYTES,
  processImage,
  readLimited,
  type ImageVariant,
  type ProcessedImage,
  type UploadStream,
} from './images';
import type { TextRecogniser } from './ocr';
import { normalisePhone } from './otp';
import { loadFileTypeFromBuffer } from './image-codecs';

/**
 * A document photo needs at least this many px on each side after the EXIF orientation (any orientation).
 * SPEC §5 sets no minimum for documents: this is the product's choice, so that text recognition has enough
 * pixels per character (the browser checks the same through the screen's `limits`).
 */
export const KYC_DOCUMENT_MIN_SIDE_PX = 600;

/** Statuses of a document (schemas/api/kyc-document.schema.json). */
export type KycDocumentStatus = KycDocument['status'];

/** What the owner is told for a document that did not pass (SPEC §5 for the mismatch). */
const STATUS_MESSAGE_KEYS: Partial<Record<KycDocumentStatus, string>> = {
  mismatch: 'errors.kyc_id_type_mismatch',
  unreadable: 'errors.kyc_document_unreadable',
  failed: 'errors.kyc_document_failed',
};

/** Verified e-mail addresses and phone numbers of accounts (the contact verification service). */
export interface VerifiedContacts {
  /**
   * Whether `userId` verified `destination` (an e-mail trimmed and lower-cased, or an E.164 number) by code
   * without a conflict; the account's own sign-in number counts as verified.
   */
  isVerified(userId: string, channel: 'email' | 'phone', destination: string): Promise<boolean>;
  /** Whether this session's last verification found the destination on another account (SPEC §3). */
  pendingSwitch(sessionId: string): Promise<unknown>;
}

/** What an identity-document upload carries besides the owner and the property. */
export interface KycUploadInput {
  /** The type the owner chose (SPEC §3). */
  idType: string;
  /** UUID chosen by the browser; a retry with the same one answers the stored document. */
  clientUploadId: string;
  /** The file's bytes; read only after the ownership and idempotency checks. */
  file: UploadStream;
  /** The file read already (the route reads it to fingerprint an Idempotency-Key request). */
  bytes?: Buffer;
  /** The request's Idempotency-Key, claimed and answered in the transaction that stores the document. */
  idempotency?: IdempotencyStep<KycUploadOutcome> | undefined;
  locale: Locale;
}

/** What an upload answers: the document, and whether this request stored it (false: stored earlier). */
export interface KycUploadOutcome {
  document: KycDocument;
  created: boolean;
}

/** The owner and lead a check is about. */
export interface KycLeadRef {
  id: string;
  user_id: string;
}

/**
 * The kyc section's field holding the number of each ID type the form asks the number of: the number read
 * on such a document must be the typed one (only the PAN today; its check is schemas/identifiers' PAN).
 */
const TYPED_NUMBER_FIELDS: Partial<Record<IdType, 'pan_number'>> = { pan: 'pan_number' };

/** SHA-256 of `text` (UTF-8), hex. */
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The KYC task (SPEC §2 KYC, §3 KYC and kycDetails, §5 text recognition): documents and evidence. */
export interface KycService {
  /**
   * Stores an identity-document photo and queues its text recognition. Order: the owner's lead (else 404
   * ONB_LEAD_NOT_FOUND); a known (lead, clientUploadId) answers that document again (`created` false)
   * without reading the file; a known ID type (else 400 ONB_INVALID_INPUT field id_type); the file up to
   * 10485760 bytes (413 ONB_IMAGE_TOO_LARGE); JPEG or PNG by content (415 ONB_IMAGE_FORMAT); decodable
   * within the pixel limit (422 ONB_IMAGE_UPLOAD_FAILED); at least {@link KYC_DOCUMENT_MIN_SIDE_PX} px on
   * each side (422 ONB_KYC_DOCUMENT_TOO_SMALL). Keeps a re-encoded JPEG without metadata and a thumbnail,
   * never the original, written in the same transaction as the document's row (issue 14 item 1). The
   * document starts `processing`; the KYC task stops being completed. With `input.idempotency`, the key is
   * claimed and answered in that same transaction (issue 14 item 5).
   */
  upload(userId: string, propertyUniqueId: string, input: KycUploadInput): Promise<KycUploadOutcome>;
  /**
   * A document of the owner's lead.
   * @throws ONB_LEAD_NOT_FOUND (404); ONB_KYC_DOCUMENT_NOT_FOUND (404) not a document of that lead.
   */
  get(userId: string, propertyUniqueId: string, documentId: string, locale: Locale): Promise<KycDocument>;
  /**
   * A document's display copy or thumbnail (JPEG) with its ETag, for its owner only; bytes read on demand.
   * @throws ONB_LEAD_NOT_FOUND (404); ONB_KYC_DOCUMENT_NOT_FOUND (404).
   */
  file(
    userId: string,
    propertyUniqueId: string,
    documentId: string,
    variant: ImageVariant,
  ): Promise<ServedFile>;
  /**
   * The KYC details of the owner's lead (SPEC §3 kycDetails): section, verification flags, latest document.
   * `sessionId` tells whether a conflict waits for 'Resolve an issue'.
   * @throws ONB_LEAD_NOT_FOUND (404).
   */
  details(
    userId: string,
    propertyUniqueId: string,
    locale: Locale,
    sessionId: string | null,
  ): Promise<KycDetails>;
  /**
   * What a final save of the kyc section still lacks beyond its fields, or undefined: a recognised
   * document of the chosen type (ONB_KYC_DOCUMENT_REQUIRED, ONB_KYC_DOCUMENT_PENDING,
   * ONB_KYC_ID_TYPE_MISMATCH, ONB_KYC_DOCUMENT_UNREADABLE), then a verified contact number
   * (ONB_PHONE_NOT_VERIFIED) and e-mail (ONB_EMAIL_NOT_VERIFIED).
   */
  evidence(
    lead: KycLeadRef,
    data: Record<string, unknown>,
    country: string,
  ): Promise<OnboardError | undefined>;
  /** Queues the documents left `processing` (e.g. by a restart); answers how many. */
  resumePending(): Promise<number>;
  /** Resolves once every queued recognition has given its verdict. */
  idle(): Promise<void>;
}

/** What the KYC service needs besides the database. */
export interface KycServiceOptions {
  /** Where the document copies go (the photos' storage, under `kyc/`). */
  storage: ImageStorage;
  /** Text recognition (tesseract.js). */
  recogniser: TextRecogniser;
  /** Verified contacts of accounts. */
  contacts: VerifiedContacts;
  /** The text of a translation key in a locale. */
  translate: (locale: Locale, key: string) => string;
  /** Clock in ms since the epoch (default Date.now). */
  now?: () => number;
  /** Where failures are reported. */
  log?: { warn(obj: Record<string, unknown>, msg: string): void };
}

/** The API path of a lead's KYC. */
export const kycPath = (propertyUniqueId: string) => leadApiPath(propertyUniqueId, 'kyc');

const storageKey = (row: Pick<LeadKycDocumentRow, 'lead_id' | 'id'>, variant: ImageVariant) =>
  `kyc/${row.lead_id}/${row.id}-${variant}.jpg`;

const isIdType = (v: unknown): v is IdType =>
  typeof v === 'string' && (ID_TYPES as readonly string[]).includes(v);

const stringOf = (v: unknown) => (typeof v === 'string' && v !== '' ? v : null);

const isUniqueViolation = (err: unknown) =>
  !!err && typeof err === 'object' && (err as { code?: unknown }).code === '23505';

/** Creates the KYC service over `db`. Recognition runs one document at a time, after the upload answered. */
export function createKycService(db: Kysely<Database>, options: KycServiceOptions): KycService {
  const now = options.now ?? Date.now;
  const { storage, recogniser, contacts } = options;
  let queue: Promise<void> = Promise.resolve();

  const findLead = async (userId: string, propertyUniqueId: string) => {
    const lead = await db
      .selectFrom('leads')
      .select(['id', 'user_id', 'property_unique_id', 'country'])
      .where('property_unique_id', '=', propertyUniqueId)
      .where('user_id', '=', userId)
      .where('status', 'not in', [LEAD_STATUS_DISCARDED, LEAD_STATUS_REMOVED])
      .executeTakeFirst();
    if (!lead) throw onboardError('ONB_LEAD_NOT_FOUND');
    return lead;
  };

  const latestDocument = (q: Kysely<Database> | Transaction<Database>, leadId: string) =>
    q
      .selectFrom('lead_kyc_documents')
      .selectAll()
      .where('lead_id', '=', leadId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();

  const toDocument = (row: LeadKycDocumentRow, propertyUniqueId: string, locale: Locale): KycDocument => {
    const status = row.status as KycDocumentStatus;
    const key = STATUS_MESSAGE_KEYS[status];
    return {
      document_id: row.id,
      id_type: row.id_type as IdType,
      status,
      ...(key ? { message: options.translate(locale, key) } : {}),
      detected_id_type: isIdType(row.detected_id_type) ? row.detected_id_type : null,
      thumbnail_url: `${kycPath(propertyUniqueId)}/documents/${row.id}/file?variant=thumb`,
      created_at: new Date(row.created_at).toISOString(),
    };
  };

  /** The evidence of a final KYC save for `data` (see {@link KycService.evidence}). */
  const evidence = async (
    lead: KycLeadRef,
    data: Record<string, unknown>,
    country: string,
  ): Promise<OnboardError | undefined> => {
    const doc = await latestDocument(db, lead.id);
    if (!doc || doc.id_type !== data.id_type) return onboardError('ONB_KYC_DOCUMENT_REQUIRED');
    if (doc.status === 'processing') return onboardError('ONB_KYC_DOCUMENT_PENDING');
    if (doc.status === 'mismatch') return onboardError('ONB_KYC_ID_TYPE_MISMATCH');
    if (doc.status !== 'recognised') return onboardError('ONB_KYC_DOCUMENT_UNREADABLE');
    // The number on the document must be the one typed (issue 12 item 9), for types the form asks the number of.
    const field = isIdType(doc.id_type) ? TYPED_NUMBER_FIELDS[doc.id_type] : undefined;
    if (field) {
      const typed = IDENTIFIER_CHECKS.pan(String(data[field] ?? ''));
      if (!doc.number_sha256) return onboardError('ONB_KYC_NUMBER_UNREADABLE');
      if (!typed.valid || sha256(typed.normalised) !== doc.number_sha256)
        return onboardError('ONB_KYC_NUMBER_MISMATCH', { field });
    }
    const phone = stringOf(data.contact_phone);
    const own = stringOf(data.contact_phone_country);
    const e164 = phone ? normalisePhone(phone, own ?? country)?.e164 : undefined;
    if (!e164 || !(await contacts.isVerified(lead.user_id, 'phone', e164)))
      return onboardError('ONB_PHONE_NOT_VERIFIED');
    const email = stringOf(data.email_address)?.trim().toLowerCase();
    if (!email || !(await contacts.isVerified(lead.user_id, 'email', email)))
      return onboardError('ONB_EMAIL_NOT_VERIFIED');
    return undefined;
  };

  /**
   * A completed KYC task whose evidence no longer holds (a new document, a verdict that is not a match)
   * stops being completed; its version stays so an open form meets no conflict.
   */
  const recheckSection = async (leadId: string): Promise<void> => {
    const row = await db
      .selectFrom('lead_sections')
      .innerJoin('leads', 'leads.id', 'lead_sections.lead_id')
      .select(['lead_sections.data', 'leads.user_id', 'leads.country'])
      .where('lead_sections.lead_id', '=', leadId)
      .where('lead_sections.section', '=', 'kyc')
      .where('lead_sections.completed', '=', true)
      .executeTakeFirst();
    if (!row) return;
    const failing = await evidence({ id: leadId, user_id: row.user_id }, row.data, row.country ?? '');
    if (!failing) return;
    await db
      .updateTable('lead_sections')
      .set({ completed: false })
      .where('lead_id', '=', leadId)
      .where('section', '=', 'kyc')
      .execute();
  };

  /** Reads the document's text and stores the verdict; a failure of recognition is stored as `failed`. */
  const recognise = async (row: Pick<LeadKycDocumentRow, 'id' | 'lead_id' | 'id_type'>): Promise<void> => {
    let status: KycDocumentStatus = 'failed';
    let detected: IdType | null = null;
    let confidence: number | null = null;
    let numberSha256: string | null = null;
    try {
      const bytes = await storage.get(storageKey(row, 'display'));
      if (!bytes) throw new Error('document file missing');
      const text = await recogniser.recognise(bytes);
      const reading = readIdDocument(text.text);
      detected = reading.detected;
      confidence = text.confidence;
      status = isIdType(row.id_type) ? documentVerdict(reading, row.id_type) : 'failed';
      const number = isIdType(row.id_type) ? reading.numbers[row.id_type] : undefined;
      numberSha256 = number ? sha256(number) : null;
    } catch (err) {
      options.log?.warn({ err, documentId: row.id }, 'text recognition failed');
    }
    await db
      .updateTable('lead_kyc_documents')
      .set({
        status,
        detected_id_type: detected,
        confidence,
        number_sha256: numberSha256,
        recognised_at: new Date(now()),
      })
      .where('id', '=', row.id)
      .where('status', '=', 'processing')
      .execute();
    await recheckSection(row.lead_id);
  };

  const enqueue = (row: Pick<LeadKycDocumentRow, 'id' | 'lead_id' | 'id_type'>) => {
    queue = queue.then(() =>
      recognise(row).catch((err: unknown) =>
        options.log?.warn({ err, documentId: row.id }, 'storing the recognition verdict failed'),
      ),
    );
  };

  const findByUploadId = (leadId: string, id: string) =>
    db
      .selectFrom('lead_kyc_documents')
      .selectAll()
      .where('lead_id', '=', leadId)
      .where('client_upload_id', '=', id)
      .executeTakeFirst();

  const findDocument = async (userId: string, propertyUniqueId: string, documentId: string) => {
    const lead = await findLead(userId, propertyUniqueId);
    const row = await db
      .selectFrom('lead_kyc_documents')
      .selectAll()
      .where('lead_id', '=', lead.id)
      .where('id', '=', documentId)
      .executeTakeFirst();
    if (!row) throw onboardError('ONB_KYC_DOCUMENT_NOT_FOUND');
    return { lead, row };
  };

  return {
    async upload(userId, propertyUniqueId, input) {
      const lead = await findLead(userId, propertyUniqueId);
      const earlier = await findByUploadId(lead.id, input.clientUploadId);
      if (earlier) return { document: toDocument(earlier, propertyUniqueId, input.locale), created: false };
      if (!isIdType(input.idType)) throw onboardError('ONB_INVALID_INPUT', { field: 'id_type' });

      const bytes = input.bytes ?? (await readLimited(input.file, MAX_IMAGE_BYTES));
      const type = await (await loadFileTypeFromBuffer())(bytes);
      if (!type || !(IMAGE_MIME_TYPES as readonly string[]).includes(type.mime))
        throw onboardError('ONB_IMAGE_FORMAT');
      let processed: ProcessedImage;
      try {
        processed = await processImage(bytes);
      } catch (err) {
        options.log?.warn({ err, mime: type.mime, bytes: bytes.length }, 'document could not be decoded');
        throw onboardError('ONB_IMAGE_UPLOAD_FAILED');
      }
      if (Math.min(processed.width, processed.height) < KYC_DOCUMENT_MIN_SIDE_PX)
        throw onboardError('ONB_KYC_DOCUMENT_TOO_SMALL', { values: { min: KYC_DOCUMENT_MIN_SIDE_PX } });

      const row = {
        id: randomUUID(),
        lead_id: lead.id,
        client_upload_id: input.clientUploadId,
        id_type: input.idType,
        status: 'processing',
        detected_id_type: null,
        confidence: null,
        width: processed.width,
        height: processed.height,
        bytes: bytes.length,
        created_at: new Date(now()),
        recognised_at: null,
        number_sha256: null,
      } satisfies LeadKycDocumentRow;
      const removeFiles = async () => {
        for (const variant of ['display', 'thumb'] as const)
          await storage.delete(storageKey(row, variant)).catch((err: unknown) => {
            options.log?.warn({ err, documentId: row.id }, 'document file could not be removed');
          });
      };
      try {
        // The files and the row commit together (issue 14 item 1): no orphan, no missing file.
        await db.transaction().execute(async (trx) => {
          // The key first: a retry of the same key waits here for the first to commit, then answers it.
          await input.idempotency?.begin(trx);
          await storage.put(storageKey(row, 'display'), processed.display, trx);
          await storage.put(storageKey(row, 'thumb'), processed.thumbnail, trx);
          await trx.insertInto('lead_kyc_documents').values(row).execute();
          await input.idempotency?.end(trx, {
            document: toDocument(row, propertyUniqueId, input.locale),
            created: true,
          });
        });
      } catch (err) {
        // A storage that could not join the rolled-back transaction (an object store) may hold the files.
        await removeFiles();
        // The same upload retried while the first was being stored: answer the first.
        const raced = isUniqueViolation(err)
          ? await findByUploadId(lead.id, input.clientUploadId)
          : undefined;
        if (!raced) throw err;
        return { document: toDocument(raced, propertyUniqueId, input.locale), created: false };
      }
      await recheckSection(lead.id);
      enqueue(row);
      return { document: toDocument(row, propertyUniqueId, input.locale), created: true };
    },

    async get(userId, propertyUniqueId, documentId, locale) {
      const { row } = await findDocument(userId, propertyUniqueId, documentId);
      return toDocument(row, propertyUniqueId, locale);
    },

    async file(userId, propertyUniqueId, documentId, variant) {
      const { row } = await findDocument(userId, propertyUniqueId, documentId);
      const key = storageKey(row, variant);
      const info = await storage.head(key);
      if (!info) throw onboardError('ONB_KYC_DOCUMENT_NOT_FOUND');
      return { ...info, bytes: () => storage.get(key) };
    },

    async details(userId, propertyUniqueId, locale, sessionId) {
      const lead = await findLead(userId, propertyUniqueId);
      const sectionRow = await db
        .selectFrom('lead_sections')
        .selectAll()
        .where('lead_id', '=', lead.id)
        .where('section', '=', 'kyc')
        .executeTakeFirst();
      const section: LeadSection = sectionRow
        ? {
            data: sectionRow.data,
            version: sectionRow.version,
            completed: sectionRow.completed,
            updated_at: new Date(sectionRow.updated_at).toISOString(),
          }
        : { data: {}, version: 0, completed: false, updated_at: null };
      const data = section.data;
      const email = stringOf(data.email_address)?.trim().toLowerCase() ?? null;
      const phone = stringOf(data.contact_phone);
      const e164 = phone
        ? (normalisePhone(phone, stringOf(data.contact_phone_country) ?? lead.country ?? undefined)?.e164 ??
          null)
        : null;
      const doc = await latestDocument(db, lead.id);
      return {
        property_unique_id: lead.property_unique_id,
        section,
        personal_details: {
          name: stringOf(data.name),
          email_address: email,
          contact_number: e164,
          is_mail_verified: email ? await contacts.isVerified(userId, 'email', email) : false,
          is_phone_verified: e164 ? await contacts.isVerified(userId, 'phone', e164) : false,
          is_another_user_present: sessionId ? !!(await contacts.pendingSwitch(sessionId)) : false,
        },
        ...(doc ? { document: toDocument(doc, lead.property_unique_id, locale) } : {}),
        completed: section.completed,
      };
    },

    evidence,

    async resumePending() {
      const rows = await db
        .selectFrom('lead_kyc_documents')
        .select(['id', 'lead_id', 'id_type'])
        .where('status', '=', 'processing')
        .orderBy('created_at', 'asc')
        .execute();
      for (const row of rows) enqueue(row);
      return rows.length;
    },

    idle: () => queue,
  };
}
