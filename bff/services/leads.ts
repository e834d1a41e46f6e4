import { randomBytes, randomUUID } from 'node:crypto';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { distance as editDistance } from 'fastest-levenshtein';
import { sql, type ExpressionBuilder, type Kysely, type SelectQueryBuilder, type Transaction } from 'kysely';
import { jsonArrayFrom, jsonObjectFrom } from 'kysely/helpers/postgres';
import { sharedAjv } from '../../schemas/ajv';
import { IDENTIFIER_CHECKS, type IdentifierFailure } from '../../schemas/identifiers';
import type {
  Checklist,
  CreateLeadBody,
  IdentifierKind,
  Lead,
  LeadSection,
  PropertyMatch,
  SaveLeadSectionBody,
} from '../../schemas/generated/types';
import { preparedQuery } from '../db/prepared';
import type { Database, LeadRow, LeadSectionRow, LeadsTable } from '../db/schema';
import { onboardError, type ErrorCode, type OnboardError } from '../errors';
import amenityCatalogue from '../screens/data/amenities.json' with { type: 'json' };
import propertyTypes from '../screens/data/property-types.json' with { type: 'json' };
import { normalisePhone } from './otp';
import { BRANDS } from './brands';
import { distanceMeters, normalisePlaceName, type LatLng } from './places';
import type { ServiceabilityRules } from './serviceability';

/** The checklist tasks in order (SPEC §1: basic info, address, contact info, … review). */
export const CHECKLIST_TASKS = [
  'basic_info',
  'address',
  'contact_info',
  'amenities',
  'room_categories',
  'images',
  'kyc',
  'terms_of_service',
  'review',
] as const;

/** One checklist task key. */
export type ChecklistTask = (typeof CHECKLIST_TASKS)[number];

/** Lead statuses (SPEC §4): the owner works the checklist. */
export const LEAD_STATUS_IN_PROGRESS = 'IN_PROGRESS' as const;
/** The provider cannot onboard the lead (SPEC §4 cold leads); `cold_lead_type` says why. */
export const LEAD_STATUS_COLD = 'COLD' as const;
/** The owner said the lead duplicates their other property ('Is this your property?'); it behaves as gone. */
export const LEAD_STATUS_DISCARDED = 'DISCARDED' as const;
/** The owner removed an inactive listing after confirming no association (bff/services/properties.ts); it behaves as gone. */
export const LEAD_STATUS_REMOVED = 'REMOVED' as const;

/** Why a lead is cold (SPEC §4). */
export type ColdLeadType = 'NOT_SERVICEABLE' | 'UNSUPPORTED_PROPERTY';

/** A final save refused with one of these errors still records the lead, as a cold lead of this type (SPEC §4). */
const COLD_LEAD_ERRORS: Partial<Record<ErrorCode, ColdLeadType>> = { ONB_NOT_SERVICEABLE: 'NOT_SERVICEABLE' };

/** Finds where a city typed by the owner is (the place service's `locate`). */
export interface CityLocator {
  /** The best match of `city` inside `country` (ISO2), or undefined when the gazetteer does not know it. */
  locate(city: string, country: string): Promise<LatLng | undefined>;
}

/** Words that say what kind of place it is rather than which one ('Hotel Sunrise' ≈ 'Sunrise Inn'). */
const GENERIC_NAME_WORDS = new Set(['hotel', 'hotels', 'the', 'resort', 'inn', 'and', 'by', 'oyo']);

/** A property name reduced for comparison: {@link normalisePlaceName} without generic words. */
function nameKey(title: string): string {
  return normalisePlaceName(title)
    .split(' ')
    .filter((w) => w && !GENERIC_NAME_WORDS.has(w))
    .join(' ');
}

/**
 * Whether two property names are alike (SPEC §2 OTA match): after {@link nameKey}, equal, one's words all
 * in the other (at least 4 letters), or an edit distance of at most 20 % of the longer name
 * (fastest-levenshtein). SPEC §2 names the screen but no rule: these thresholds are this product's choice,
 * tuned on the examples of bff/services/leads-matching.test.ts.
 */
export function similarNames(a: string, b: string): boolean {
  const ka = nameKey(a);
  const kb = nameKey(b);
  if (!ka || !kb) return false;
  if (ka === kb) return true;
  const wa = ka.split(' ');
  const wb = new Set(kb.split(' '));
  const [shorter, longer] = wa.length <= wb.size ? [wa, wb] : [kb.split(' '), new Set(wa)];
  if (shorter.join('').length >= 4 && shorter.every((w) => longer.has(w))) return true;
  return editDistance(ka, kb) <= 0.2 * Math.max(ka.length, kb.length);
}

/** What the rules of a section can read: other sections, the lead, the account's country and the checks of places. */
export interface SectionContext {
  /** The stored data of another section of the lead (`{}` when never saved). */
  sectionData(section: ChecklistTask): Record<string, unknown>;
  /** The account's country (ISO2), the one on record (SPEC §5 'Selected country cannot differ from the one on record'). */
  country: string;
  /** Where the provider onboards properties. */
  serviceability: ServiceabilityRules;
  /** Where a typed city is. */
  locator: CityLocator;
  /** A pin farther than this from the typed city needs confirmation, in metres (SPEC §5). */
  locationConfirmDistanceM: number;
  /** Other properties with a name like this lead's near `point` (SPEC §2 'Is this your property?'), nearest first. */
  nearbyMatches(point: LatLng): Promise<PropertyMatch[]>;
  /**
   * What the KYC task lacks beyond its form for `data` (a recognised document of the chosen type, the
   * verified contact number and e-mail), or undefined (the KYC service's `evidence`).
   */
  kycEvidence(data: Record<string, unknown>): Promise<OnboardError | undefined>;
}

/** A rule of a section: the error to answer with when `data` breaks it, else undefined. */
export type SectionRule = (
  data: Record<string, unknown>,
  context: SectionContext,
) => OnboardError | undefined | Promise<OnboardError | undefined>;

/**
 * What a section that can be saved declares; {@link normaliseSectionData} applies it in this order:
 * nulls dropped, e-mail fields, the schema, phone fields, `check`, `required`, `finalCheck`.
 */
export interface SectionDefinition {
  /** `$id` of the schema of the section's data (schemas/api/sections/). */
  schemaId: string;
  /**
   * Fields a final save (draft false) needs, in form order (the first missing one is reported). An empty
   * string or an empty array counts as missing.
   */
  required: readonly string[];
  /** Fields holding a phone number: parsed with libphonenumber-js and stored in E.164. */
  phoneFields: readonly string[];
  /** Fields holding an e-mail address: trimmed, and checked with the schema's `email` format. */
  emailFields: readonly string[];
  /**
   * Fields holding an identifier (PAN, GSTIN…) checked by schemas/identifiers: a draft keeps one that is
   * not valid yet as typed (counted as missing); a final save refuses it with the rule that failed
   * ({@link IDENTIFIER_ERRORS}).
   */
  identifierFields?: Readonly<Record<string, IdentifierKind>>;
  /** Other sections whose stored data `check` and `finalCheck` read through the context. */
  reads?: readonly ChecklistTask[];
  /** Rules every save (drafts too) must pass, e.g. values from a catalogue. */
  check?: SectionRule;
  /**
   * Rules of a final save beyond the required fields (run only when none is missing), e.g. mandatory
   * amenities. A draft keeps a completed section completed only while it still passes them.
   */
  finalCheck?: SectionRule;
  /**
   * What a final save (or a final save refused as a cold lead) writes on the lead itself, e.g. the pin and
   * city of the address.
   */
  leadColumns?: (data: Record<string, unknown>) => {
    latitude: number | null;
    longitude: number | null;
    city: string | null;
    country: string | null;
  };
}

/** The error of a final save for each way an identifier fails (the form's own messages, shell.validation). */
const IDENTIFIER_ERRORS: Record<IdentifierFailure, ErrorCode> = {
  empty: 'ONB_IDENTIFIER_INCOMPLETE',
  length: 'ONB_IDENTIFIER_INCOMPLETE',
  pattern: 'ONB_IDENTIFIER_FORMAT',
  checksum: 'ONB_IDENTIFIER_CHECKSUM',
};

/** Longest identifier kept as typed in a draft, in characters (a GSTIN with separators fits). */
const IDENTIFIER_MAX_TYPED = 40;

/** The amenity catalogue's values (bff/screens/data/amenities.json, shared with the screens). */
const AMENITY_VALUES: ReadonlySet<string> = new Set(amenityCatalogue.amenities.map((a) => a.value));

/** The translation key of each amenity's label, by value. */
const AMENITY_LABEL_KEYS: ReadonlyMap<string, string> = new Map(
  amenityCatalogue.amenities.map((a) => [a.value, a.label.$t]),
);

/** The amenities a final save of the amenities section must hold (catalogue entries with mandatory true). */
export const MANDATORY_AMENITIES: readonly string[] = amenityCatalogue.amenities
  .filter((a) => 'mandatory' in a && a.mandatory === true)
  .map((a) => a.value);

const stringsOf = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x) => typeof x === 'string') : []);

/** A room category as a draft may hold it (schemas/api/sections/room-categories.schema.json). */
type DraftRoomCategory = { name?: string; count?: number };

const numberOf = (v: unknown) => (typeof v === 'number' ? v : null);
const stringOf = (v: unknown) => (typeof v === 'string' ? v : null);

/**
 * The final rules of the address (SPEC §4, §5, §2 OTA match), in order: the account's country (400
 * ONB_COUNTRY_LOCKED), a served city (422 ONB_NOT_SERVICEABLE, the lead turns cold), a pin near the typed
 * city unless location_confirmed (409 ONB_LOCATION_DIFFERS), no similar property near the pin unless
 * not_duplicate_confirmed (409 ONB_POSSIBLE_DUPLICATE_OWN when one is the owner's own, else
 * ONB_POSSIBLE_DUPLICATE, with details.matches).
 */
async function checkAddress(
  data: Record<string, unknown>,
  context: SectionContext,
): Promise<OnboardError | undefined> {
  const country = String(data.country);
  const city = String(data.city);
  if (country !== context.country)
    return onboardError('ONB_COUNTRY_LOCKED', {
      values: { country: context.country },
      regionValues: { country: context.country },
    });
  if (!context.serviceability.isServiceable(country, city)) return onboardError('ONB_NOT_SERVICEABLE');
  const pin = { lat: Number(data.latitude), lng: Number(data.longitude) };
  if (data.location_confirmed !== true) {
    const typed = await context.locator.locate(city, country);
    const far = typed ? distanceMeters(pin, typed) : 0;
    if (far > context.locationConfirmDistanceM)
      return onboardError('ONB_LOCATION_DIFFERS', {
        values: { distance_km: Math.round(far / 1000), city },
      });
  }
  if (data.not_duplicate_confirmed !== true) {
    const matches = await context.nearbyMatches(pin);
    // The owner's own property first: the dialog then offers to open it instead.
    matches.sort((a, b) => Number(b.own) - Number(a.own));
    if (matches.length > 0)
      return onboardError(matches[0]!.own ? 'ONB_POSSIBLE_DUPLICATE_OWN' : 'ONB_POSSIBLE_DUPLICATE', {
        details: { matches },
      });
  }
  return undefined;
}

/** The sections that exist; any other section answers 404. */
export const SECTION_DEFINITIONS: Readonly<Partial<Record<ChecklistTask, SectionDefinition>>> = {
  basic_info: {
    schemaId: 'api/sections/basic-info.schema.json',
    required: ['title', 'total_rooms', 'available_floors', 'frontdesk_phone'],
    phoneFields: ['frontdesk_phone'],
    emailFields: [],
  },
  address: {
    schemaId: 'api/sections/address.schema.json',
    required: ['latitude', 'longitude', 'address_line', 'city', 'country'],
    phoneFields: [],
    emailFields: [],
    finalCheck: checkAddress,
    leadColumns: (data) => ({
      latitude: numberOf(data.latitude),
      longitude: numberOf(data.longitude),
      city: stringOf(data.city),
      country: stringOf(data.country),
    }),
  },
  contact_info: {
    schemaId: 'api/sections/contact-info.schema.json',
    required: ['contact_name', 'contact_email', 'contact_phone'],
    phoneFields: ['contact_phone'],
    emailFields: ['contact_email'],
  },
  amenities: {
    schemaId: 'api/sections/amenities.schema.json',
    required: ['amenities'],
    phoneFields: [],
    emailFields: [],
    check: (data) =>
      stringsOf(data.amenities).every((a) => AMENITY_VALUES.has(a))
        ? undefined
        : onboardError('ONB_INVALID_INPUT', { field: 'amenities' }),
    // The error names the amenities still missing, by their labels in the owner's language.
    finalCheck: (data) => {
      const chosen = new Set(stringsOf(data.amenities));
      const missing = MANDATORY_AMENITIES.filter((a) => !chosen.has(a));
      return missing.length === 0
        ? undefined
        : onboardError('ONB_MANDATORY_AMENITIES', {
            valueKeys: { missing: missing.map((a) => AMENITY_LABEL_KEYS.get(a)!) },
            details: { missing_amenities: missing },
          });
    },
  },
  room_categories: {
    schemaId: 'api/sections/room-categories.schema.json',
    required: ['room_categories'],
    phoneFields: [],
    emailFields: [],
    reads: ['basic_info'],
    // The counts must add up to basic info's total_rooms (the item_list widget checks the same on submit).
    finalCheck: (data, context) => {
      const categories = data.room_categories as DraftRoomCategory[];
      if (categories.some((c) => !c.name?.trim() || c.count === undefined))
        return onboardError('ONB_FIELD_REQUIRED', { field: 'room_categories' });
      const total = context.sectionData('basic_info').total_rooms;
      if (typeof total !== 'number') return onboardError('ONB_BASIC_INFO_FIRST');
      const sum = categories.reduce((s, c) => s + (c.count ?? 0), 0);
      return sum === total ? undefined : onboardError('ONB_ROOM_COUNT_MISMATCH', { values: { sum, total } });
    },
  },
  kyc: {
    schemaId: 'api/sections/kyc.schema.json',
    required: [
      'name',
      'contact_phone',
      'email_address',
      'number_of_rooms',
      'pan_number',
      'gstin_available',
      'id_type',
    ],
    phoneFields: ['contact_phone'],
    emailFields: ['email_address'],
    identifierFields: { pan_number: 'pan', gstin: 'gstin' },
    // The GSTIN is required only for a business that has one; then the document and both verifications.
    finalCheck: (data, context) =>
      data.gstin_available === 'yes' && isMissing(data.gstin)
        ? onboardError('ONB_FIELD_REQUIRED', { field: 'gstin' })
        : context.kycEvidence(data),
  },
};

/** The definition of `section`, or undefined when no such section exists (also for `__proto__`). */
function definitionOf(section: string): SectionDefinition | undefined {
  return Object.hasOwn(SECTION_DEFINITIONS, section)
    ? SECTION_DEFINITIONS[section as ChecklistTask]
    : undefined;
}

/** The API path of one area of a lead's routes, e.g. `leadApiPath('PO…', 'images')` → `/hms_ms/api/v1/onboard/leads/PO…/images`. */
export const leadApiPath = (propertyUniqueId: string, area: string) =>
  `/hms_ms/api/v1/onboard/leads/${encodeURIComponent(propertyUniqueId)}/${area}`;

/** Upper-case base32 without the ambiguous I, L, O and U (Crockford's alphabet): 32 characters. */
export const PROPERTY_ID_ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * A new property_unique_id: 'PO' + 10 characters of {@link PROPERTY_ID_ALPHABET} from crypto random bytes
 * (50 bits; 256 is a multiple of 32, so taking 5 bits of each byte is unbiased).
 */
export function newPropertyUniqueId(): string {
  const bytes = randomBytes(10);
  let id = 'PO';
  for (const b of bytes) id += PROPERTY_ID_ALPHABET[b & 31];
  return id;
}

const ajv = sharedAjv();
const isEmail = ajv.compile({ type: 'string', format: 'email' });
const validators = new Map<string, ValidateFunction>();
function sectionValidator(def: SectionDefinition): ValidateFunction {
  let v = validators.get(def.schemaId);
  if (!v) {
    v = ajv.getSchema(def.schemaId) as ValidateFunction | undefined;
    if (!v) throw new Error(`no schema ${def.schemaId}`);
    validators.set(def.schemaId, v);
  }
  return v;
}

/** The property the first ajv error is about (`/title` → title; an unknown property → its name). */
function fieldOf(errors: ErrorObject[] | null | undefined): string | undefined {
  const e = errors?.[0];
  if (!e) return undefined;
  const fromPath = e.instancePath.split('/').filter(Boolean)[0];
  if (fromPath) return fromPath;
  const p = e.params as { additionalProperty?: string; missingProperty?: string };
  return p.additionalProperty ?? p.missingProperty;
}

/**
 * The top-level field of the first ajv error when it is an integer field outside its `minimum` /
 * `maximum`, with both bounds of that field in the section's `schema`; else undefined.
 */
function rangeError(
  errors: ErrorObject[] | null | undefined,
  data: Record<string, unknown>,
  schema: unknown,
): { field: string; min?: number; max?: number } | undefined {
  const e = errors?.[0];
  if (!e || (e.keyword !== 'minimum' && e.keyword !== 'maximum')) return undefined;
  const path = e.instancePath.split('/').filter(Boolean);
  const field = path[0];
  if (path.length !== 1 || !field || typeof data[field] !== 'number') return undefined;
  const props = (
    schema as { properties?: Record<string, { type?: unknown; minimum?: number; maximum?: number }> }
  ).properties;
  const bounds = props && Object.hasOwn(props, field) ? props[field] : undefined;
  // Only counts the owner types (rooms, floors); a pin out of range is not something being typed.
  if (bounds?.type !== 'integer') return undefined;
  return { field, min: bounds.minimum, max: bounds.maximum };
}

const emptySection = (): LeadSection => ({ data: {}, version: 0, completed: false, updated_at: null });

const iso = (t: Date | string) => new Date(t).toISOString();

/** The checklist of a lead from its section rows (SPEC §3 completionPercentage, §4 section status). */
export function checklistOf(sections: readonly Pick<LeadSectionRow, 'section' | 'completed'>[]): Checklist {
  const done = new Set(sections.filter((s) => s.completed).map((s) => s.section));
  const tasks = Object.fromEntries(
    CHECKLIST_TASKS.map((t) => [t, { completed: done.has(t) }]),
  ) as Checklist['tasks'];
  const completed = CHECKLIST_TASKS.filter((t) => done.has(t)).length;
  return {
    completionPercentage: Math.floor((completed * 100) / CHECKLIST_TASKS.length),
    section_status: completed === CHECKLIST_TASKS.length ? 'COMPLETED' : 'IN_PROGRESS',
    tasks,
  };
}

/** `value` as JSON with object keys sorted at every level, so equal data compares equal as text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/**
 * The tasks whose saved data a live listing can hold apart from what the owner is editing: every task but
 * review; the images task's data lists the active photo ids, so uploads and deletions count too.
 */
const LISTED_TASKS: readonly ChecklistTask[] = CHECKLIST_TASKS.filter((t) => t !== 'review');

/**
 * The tasks of a published lead whose saved data differs from what its live listing shows
 * (`lead_sections.live_data`), in checklist order: the owner's changes not submitted yet (issue 12 item 2).
 * Empty for a lead never published (`publishedAt` null). Photo uploads and deletions count as a change of
 * the images task (its data lists the active photo ids; `lead_images.is_live` the listed ones).
 */
export function pendingTasksOf(
  publishedAt: Date | string | null,
  sections: readonly Pick<LeadSectionRow, 'section' | 'data' | 'live_data'>[],
): ChecklistTask[] {
  if (publishedAt === null) return [];
  return LISTED_TASKS.filter((task) => {
    const row = sections.find((s) => s.section === task);
    return row !== undefined && canonicalJson(row.data) !== canonicalJson(row.live_data ?? {});
  });
}

function toSection(row: LeadSectionRow): LeadSection {
  return { data: row.data, version: row.version, completed: row.completed, updated_at: iso(row.updated_at) };
}

/** The wire Lead (schemas/api/lead.schema.json) of a row and its section rows. */
export function toLead(row: LeadRow, sectionRows: readonly LeadSectionRow[]): Lead {
  const sections: Lead['sections'] = {};
  for (const name of Object.keys(SECTION_DEFINITIONS)) {
    const found = sectionRows.find((s) => s.section === name);
    (sections as Record<string, LeadSection>)[name] = found ? toSection(found) : emptySection();
  }
  return {
    lead_id: row.id,
    property_unique_id: row.property_unique_id,
    title: row.title,
    property_type: row.property_type,
    property_sub_type: row.property_sub_type,
    status: row.status as Lead['status'],
    cold_lead_type: (row.cold_lead_type as Lead['cold_lead_type']) ?? null,
    location:
      row.latitude !== null && row.longitude !== null && row.city !== null && row.country !== null
        ? { lat: row.latitude, lng: row.longitude, city: row.city, country: row.country }
        : null,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    brand: row.brand,
    published_at: row.published_at ? iso(row.published_at) : null,
    sections,
    checklist: checklistOf(sectionRows),
    pending_tasks: pendingTasksOf(row.published_at, sectionRows),
  };
}

/**
 * Told of a saved section inside the save's transaction (`trx`), with the lead's `leads.id`: e.g. the
 * images task follows the room categories. What it writes is part of the save; what it throws aborts it.
 */
export type SectionSavedListener = (trx: Transaction<Database>, leadId: string) => Promise<void>;

/** What {@link LeadService.saveSection} answers: the section as saved and the lead's checklist. */
export interface SavedSection {
  section: LeadSection;
  checklist: Checklist;
}

/**
 * Leads of one user (SPEC §3 property / lead, §4 checklist). Every read and write takes the signed-in
 * user's id: another user's property_unique_id behaves as an unknown one.
 */
export interface LeadService {
  /**
   * Creates a lead for `userId` with basic_info.data.title = the trimmed title (basic_info version 1,
   * not completed). `country` is the account's country (ISO2).
   * @throws ONB_INVALID_INPUT (field title, property_type or property_sub_type) for a blank title, an
   *   unknown type, or a sub type outside the type's group; ONB_UNSUPPORTED_PROPERTY (422) for a sub type
   *   not onboarded in `country` (the lead is still recorded, as a cold lead UNSUPPORTED_PROPERTY, SPEC §4).
   */
  create(userId: string, body: CreateLeadBody, country: string): Promise<Lead>;
  /**
   * Whether `subType` is onboarded in `country` (ISO2; serviceability configuration, SPEC §4): the add
   * property screen offers only these (issue 12 item 19), so the owner is not refused after Continue.
   */
  isOnboarded(country: string, subType: string): boolean;
  /** The user's leads that are not discarded, newest first (cold leads included). */
  list(userId: string): Promise<Lead[]>;
  /** The user's lead with this property_unique_id, or undefined (also for another user's or a discarded lead). */
  find(userId: string, propertyUniqueId: string): Promise<Lead | undefined>;
  /**
   * Discards the user's lead after the owner said it duplicates their other property ('Is this your
   * property?', SPEC §2): it no longer appears anywhere. Only a lead with no completed task but the address.
   * @throws ONB_LEAD_NOT_FOUND (404) not the user's lead; ONB_LEAD_LOCKED (409) another task is completed.
   */
  discard(userId: string, propertyUniqueId: string): Promise<void>;
  /**
   * The user's most recently created lead they can still work on, or undefined: IN_PROGRESS, or COLD for
   * NOT_SERVICEABLE (the owner may correct the location; SPEC §4).
   */
  newestOpen(userId: string): Promise<Lead | undefined>;
  /**
   * Saves one section (the shared context "saveLeadSection"): `body.data` replaces the section's data,
   * version + 1 (a basic_info title also becomes the lead's title), in one conditional statement so two concurrent saves of one version cannot both win.
   * Phone fields are stored in E.164, read as national numbers of `country` (ISO2) when not international.
   * A final save (draft false) completes the section; a draft keeps it completed only while the data
   * still passes the final rules. A completed section whose final rules read the saved one (room_categories
   * reads basic_info's total_rooms) stops being completed when it no longer passes them (its version stays).
   * @throws ONB_LEAD_NOT_FOUND (404) not the user's lead; ONB_SECTION_NOT_FOUND (404) unknown section;
   *   ONB_INVALID_INPUT (400, field) data breaking the section's schema; ONB_INVALID_PHONE (400, field
   *   = the phone field) and ONB_INVALID_EMAIL (400, field) on a final save; ONB_FIELD_REQUIRED (400,
   *   field) a final save missing a required field; the section's `finalCheck` error on a final save
   *   (ONB_MANDATORY_AMENITIES, ONB_ROOM_COUNT_MISMATCH, ONB_BASIC_INFO_FIRST); ONB_VERSION_CONFLICT (409) `body.version` is not the stored version (nothing is saved).
   */
  saveSection(
    userId: string,
    propertyUniqueId: string,
    section: string,
    body: SaveLeadSectionBody,
    country: string,
  ): Promise<SavedSection>;
  /**
   * Calls `listener` in the transaction of every save of `section` (draft or final), right after the
   * section's new data is written and before the checklist of the answer is read, so a task it updates is
   * answered as updated. Listeners run in the order they were added.
   */
  onSectionSaved(section: ChecklistTask, listener: SectionSavedListener): void;
}

const isUniqueViolation = (err: unknown) =>
  !!err && typeof err === 'object' && (err as { code?: unknown }).code === '23505';

/** Checks a create body against the property-type catalogue; returns the trimmed title. */
function checkCreateBody(body: CreateLeadBody): string {
  const title = body.title.trim();
  if (title.length === 0) throw onboardError('ONB_INVALID_INPUT', { field: 'title' });
  if (!propertyTypes.property_types.some((t) => t.value === body.property_type))
    throw onboardError('ONB_INVALID_INPUT', { field: 'property_type' });
  const sub = propertyTypes.property_sub_types.find((s) => s.value === body.property_sub_type);
  if (!sub || sub.group !== body.property_type)
    throw onboardError('ONB_INVALID_INPUT', { field: 'property_sub_type' });
  return title;
}

/** `value` without null values: at the top (null = cleared) and in objects inside arrays (null = not given). */
function withoutNulls(input: Record<string, unknown>): Record<string, unknown> {
  const drop = (o: Record<string, unknown>) =>
    Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null));
  const isObject = (v: unknown): v is Record<string, unknown> =>
    !!v && typeof v === 'object' && !Array.isArray(v);
  return Object.fromEntries(
    Object.entries(drop(input)).map(([k, v]) => [
      k,
      Array.isArray(v) ? v.map((item: unknown) => (isObject(item) ? drop(item) : item)) : v,
    ]),
  );
}

const isMissing = (v: unknown) =>
  v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/** What {@link normaliseSectionData} makes of a save's data. */
interface NormalisedSection {
  /** The data to store. */
  data: Record<string, unknown>;
  /** Whether the data passes every rule of a final save. */
  complete: boolean;
  /** Why it does not (the first missing required field, else the finalCheck's error). */
  finalError?: OnboardError;
}

/**
 * Checks and normalises section data by the section's definition: `null` values mean "cleared" and are
 * dropped; e-mail fields trimmed; the section's schema; phone fields to E.164, read in the country of
 * `<field>_country` when given, else `country`; the definition's `check`; then the final rules
 * (`required`, `finalCheck`) decide `complete`.
 * A phone, e-mail or identifier (PAN, GSTIN) that is not valid yet is kept as typed in a draft (so the
 * rest of the draft is saved and the owner loses nothing) but counts as missing; a final save refuses it.
 * @throws ONB_INVALID_INPUT (field) when the data breaks the schema; ONB_INVALID_PHONE / ONB_INVALID_EMAIL
 *   (field) on a final save; whatever `check` answers.
 */
async function normaliseSectionData(
  def: SectionDefinition,
  input: Record<string, unknown>,
  country: string,
  draft: boolean,
  context: SectionContext,
): Promise<NormalisedSection> {
  const data = withoutNulls(input);
  const unfinished = new Set<string>();
  // An e-mail still being typed is set aside while the schema (format email) checks the rest.
  const asTyped: Record<string, unknown> = {};
  for (const f of def.emailFields) {
    const v = data[f];
    if (typeof v !== 'string') continue;
    const trimmed = v.trim();
    if (trimmed === '') {
      delete data[f];
      continue;
    }
    data[f] = trimmed;
    if (trimmed.length > 254 || isEmail(trimmed)) continue;
    if (!draft) throw onboardError('ONB_INVALID_EMAIL', { field: f });
    asTyped[f] = trimmed;
    unfinished.add(f);
    delete data[f];
  }
  // An identifier still being typed is set aside the same way; a final save names the rule it breaks.
  for (const [f, kind] of Object.entries(def.identifierFields ?? {})) {
    const v = data[f];
    if (typeof v !== 'string') continue;
    if (v.trim() === '') {
      delete data[f];
      continue;
    }
    const verdict = IDENTIFIER_CHECKS[kind](v);
    if (verdict.valid) continue;
    if (!draft) throw onboardError(IDENTIFIER_ERRORS[verdict.reason], { field: f });
    if (v.length > IDENTIFIER_MAX_TYPED) throw onboardError('ONB_INVALID_INPUT', { field: f });
    asTyped[f] = v;
    unfinished.add(f);
    delete data[f];
  }
  const validate = sectionValidator(def);
  // A number out of its range (0 rooms, 500 floors) is kept as typed in a draft; a final save says the range.
  while (!validate(data)) {
    const range = rangeError(validate.errors, data, validate.schema);
    if (!range) throw onboardError('ONB_INVALID_INPUT', { field: fieldOf(validate.errors) });
    if (!draft)
      throw onboardError('ONB_NUMBER_RANGE', {
        field: range.field,
        values: { min: range.min ?? '', max: range.max ?? '' },
      });
    asTyped[range.field] = data[range.field];
    unfinished.add(range.field);
    delete data[range.field];
  }
  const out: Record<string, unknown> = { ...data, ...asTyped };
  for (const f of def.phoneFields) {
    const v = out[f];
    if (typeof v !== 'string') continue;
    if (v.trim() === '') {
      delete out[f];
      continue;
    }
    const own = out[`${f}_country`];
    const n = normalisePhone(v, typeof own === 'string' ? own : country);
    if (n) out[f] = n.e164;
    else if (draft) unfinished.add(f);
    else throw onboardError('ONB_INVALID_PHONE', { field: f });
  }
  const invalid = await def.check?.(out, context);
  if (invalid) throw invalid;
  // A field kept as typed but not valid yet leaves the section unfinished, required or not.
  const missing = def.required.find((f) => isMissing(out[f]) || unfinished.has(f)) ?? [...unfinished][0];
  const finalError = missing
    ? onboardError('ONB_FIELD_REQUIRED', { field: missing })
    : await def.finalCheck?.(out, context);
  return { data: out, complete: finalError === undefined, ...(finalError ? { finalError } : {}) };
}

/** What the lead service needs besides the database. */
export interface LeadServiceOptions {
  /** Where the provider onboards properties (SERVICEABILITY_FILE). */
  serviceability: ServiceabilityRules;
  /** Where a typed city is (the place service). */
  locator: CityLocator;
  /** LOCATION_CONFIRM_DISTANCE_M: a pin farther from the typed city needs confirmation, in metres. */
  locationConfirmDistanceM: number;
  /** OTA_MATCH_RADIUS_M: similar names within this many metres of the pin are offered, in metres. */
  otaMatchRadiusM: number;
  /** What a final save of the kyc section needs beyond its fields (the KYC service's `evidence`). */
  kycEvidence: (
    lead: { id: string; user_id: string },
    data: Record<string, unknown>,
    country: string,
  ) => Promise<OnboardError | undefined>;
  /** Stamps created_at / updated_at, in ms since the epoch (default Date.now). */
  now?: () => number;
}

/** At most this many matches are offered by 'Is this your property?'. */
const MAX_MATCHES = 5;

/** Every column of `leads`, named (a prepared statement must not say `*`: db/prepared.ts). */
const LEAD_COLUMNS = Object.keys({
  id: true,
  property_unique_id: true,
  user_id: true,
  title: true,
  property_type: true,
  property_sub_type: true,
  status: true,
  created_at: true,
  updated_at: true,
  latitude: true,
  longitude: true,
  city: true,
  country: true,
  cold_lead_type: true,
  image_upload_disabled: true,
  brand: true,
  published_at: true,
  listing_id: true,
  inactive_since: true,
  removed_at: true,
  utm: true,
  referral_code: true,
  referral_name: true,
  referral_updated_at: true,
  program: true,
  program_type: true,
} satisfies Record<keyof LeadsTable, true>) as (keyof LeadsTable)[];

/**
 * The newest open lead (in progress, or cold for being outside the served area) of the user `users.id` of the
 * enclosing query, with its sections, as one JSON value (null without one): the session query of a screen
 * reads it in the same statement as the session (issue 13 item 6). {@link leadFromJson} makes it a Lead.
 */
export function newestOpenLeadJson(eb: ExpressionBuilder<Database, 'users'>) {
  return jsonObjectFrom(
    eb
      .selectFrom('leads')
      .select(LEAD_COLUMNS.map((c) => `leads.${c}` as const))
      .select((inner) =>
        jsonArrayFrom(
          inner
            .selectFrom('lead_sections')
            .selectAll('lead_sections')
            .whereRef('lead_sections.lead_id', '=', 'leads.id'),
        ).as('section_rows'),
      )
      .whereRef('leads.user_id', '=', 'users.id')
      .where('leads.status', 'not in', [LEAD_STATUS_DISCARDED, LEAD_STATUS_REMOVED])
      .where((w) =>
        w.or([
          w('leads.status', '=', LEAD_STATUS_IN_PROGRESS),
          w.and([
            w('leads.status', '=', LEAD_STATUS_COLD),
            w('leads.cold_lead_type', '=', 'NOT_SERVICEABLE'),
          ]),
        ]),
      )
      .orderBy('leads.created_at', 'desc')
      .orderBy('leads.id', 'desc')
      .limit(1),
  );
}

/** The timestamp columns of `leads`: text inside JSON. */
const LEAD_TIMESTAMPS = [
  'created_at',
  'updated_at',
  'published_at',
  'inactive_since',
  'removed_at',
  'referral_updated_at',
] as const satisfies readonly (keyof LeadsTable)[];

/** The lead of {@link newestOpenLeadJson}'s value (its timestamps read back from text), or null. */
export function leadFromJson(value: unknown): Lead | null {
  if (value === null || typeof value !== 'object') return null;
  const { section_rows: sectionRows, ...row } = value as Record<string, unknown> & {
    section_rows: (Omit<LeadSectionRow, 'updated_at'> & { updated_at: string })[];
  };
  for (const c of LEAD_TIMESTAMPS) if (typeof row[c] === 'string') row[c] = new Date(row[c]);
  return toLead(
    row as unknown as LeadRow,
    sectionRows.map((s) => ({ ...s, updated_at: new Date(s.updated_at) })),
  );
}

/** Placeholders of the prepared lead queries (db/prepared.ts). */
const USER_ID = '\u0000user_id';
const PROPERTY_UNIQUE_ID = '\u0000property_unique_id';

/** Creates the lead service over `db`. */
export function createLeadService(db: Kysely<Database>, options: LeadServiceOptions): LeadService {
  const now = options.now ?? Date.now;
  const listeners = new Map<string, SectionSavedListener[]>();
  const sectionsOf = async (leadIds: string[]) =>
    leadIds.length === 0
      ? []
      : db.selectFrom('lead_sections').selectAll().where('lead_id', 'in', leadIds).execute();

  const withSections = async (rows: LeadRow[]): Promise<Lead[]> => {
    const sections = await sectionsOf(rows.map((r) => r.id));
    return rows.map((r) =>
      toLead(
        r,
        sections.filter((s) => s.lead_id === r.id),
      ),
    );
  };

  /**
   * The first lead of `query` with its sections, read in ONE statement (the sections as a JSON array), as
   * a signed-in screen reads it on every request (issue 13 item 6).
   */
  const firstWithSections = (query: SelectQueryBuilder<Database, 'leads', LeadRow>) =>
    query
      .select((eb) =>
        jsonArrayFrom(
          eb
            .selectFrom('lead_sections')
            .selectAll('lead_sections')
            .whereRef('lead_sections.lead_id', '=', 'leads.id'),
        ).as('section_rows'),
      )
      .limit(1)
      .compile();
  /** Every signed-in screen reads one of these on every request: compiled once, prepared on PostgreSQL. */
  const leadById = preparedQuery(
    firstWithSections(
      db
        .selectFrom('leads')
        .select(LEAD_COLUMNS)
        .where('property_unique_id', '=', PROPERTY_UNIQUE_ID)
        .where('user_id', '=', USER_ID)
        .where('status', 'not in', [LEAD_STATUS_DISCARDED, LEAD_STATUS_REMOVED]),
    ),
    [USER_ID, PROPERTY_UNIQUE_ID],
  );
  const newestOpenLead = preparedQuery(
    firstWithSections(
      db
        .selectFrom('leads')
        .select(LEAD_COLUMNS)
        .where('user_id', '=', USER_ID)
        .where('status', 'not in', [LEAD_STATUS_DISCARDED, LEAD_STATUS_REMOVED])
        .where((eb) =>
          eb.or([
            eb('status', '=', LEAD_STATUS_IN_PROGRESS),
            eb.and([eb('status', '=', LEAD_STATUS_COLD), eb('cold_lead_type', '=', 'NOT_SERVICEABLE')]),
          ]),
        )
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc'),
    ),
    [USER_ID],
  );
  const readWithSections = async (query: ReturnType<typeof leadById>) => {
    const [row] = (await db.executeQuery(query)).rows;
    if (!row) return undefined;
    const { section_rows: sectionRows, ...lead } = row;
    // Inside JSON, timestamps arrive as text.
    return toLead(
      lead,
      sectionRows.map((s) => ({ ...s, updated_at: new Date(s.updated_at) })),
    );
  };

  const findRow = (userId: string, propertyUniqueId: string) =>
    db
      .selectFrom('leads')
      .selectAll()
      .where('property_unique_id', '=', propertyUniqueId)
      .where('user_id', '=', userId)
      .where('status', 'not in', [LEAD_STATUS_DISCARDED, LEAD_STATUS_REMOVED])
      .executeTakeFirst();

  const newestFirst = (userId: string) =>
    db
      .selectFrom('leads')
      .selectAll()
      .where('user_id', '=', userId)
      .where('status', 'not in', [LEAD_STATUS_DISCARDED, LEAD_STATUS_REMOVED])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc');

  /**
   * Leads other than `lead` that are not cold or discarded, within otaMatchRadiusM of `point`, whose
   * names are like `lead`'s: found by a bounding box on the (latitude, longitude) index, then the exact
   * distance. Another owner's lead is described by title and city only.
   */
  const nearbyMatches = async (lead: LeadRow, point: LatLng): Promise<PropertyMatch[]> => {
    const r = options.otaMatchRadiusM;
    const dLat = r / 111_320;
    const dLng = r / (111_320 * Math.max(0.01, Math.cos((point.lat * Math.PI) / 180)));
    const rows = await db
      .selectFrom('leads')
      .select(['property_unique_id', 'user_id', 'title', 'city', 'latitude', 'longitude'])
      .where('id', '!=', lead.id)
      .where('status', '=', LEAD_STATUS_IN_PROGRESS)
      .where('latitude', '>=', point.lat - dLat)
      .where('latitude', '<=', point.lat + dLat)
      .where('longitude', '>=', point.lng - dLng)
      .where('longitude', '<=', point.lng + dLng)
      .limit(200)
      .execute();
    return rows
      .map((row) => ({ row, d: distanceMeters(point, { lat: row.latitude!, lng: row.longitude! }) }))
      .filter(({ row, d }) => d <= r && similarNames(lead.title, row.title))
      .sort((a, b) => a.d - b.d)
      .slice(0, MAX_MATCHES)
      .map(({ row, d }) => {
        const own = row.user_id === lead.user_id;
        return {
          title: row.title,
          city: row.city,
          distance_m: Math.round(d),
          own,
          ...(own ? { property_unique_id: row.property_unique_id } : {}),
          label: row.city ? `${row.title}, ${row.city}` : row.title,
        };
      });
  };

  return {
    isOnboarded: (country, subType) => options.serviceability.isSupported(country, subType),
    async create(userId, body, country) {
      const title = checkCreateBody(body);
      const supported = options.serviceability.isSupported(country, body.property_sub_type);
      const t = new Date(now());
      // A clash of 50 random bits is unlikely; retry a few times rather than fail.
      for (let attempt = 0; ; attempt += 1) {
        try {
          const row = await db.transaction().execute(async (trx) => {
            const lead = await trx
              .insertInto('leads')
              .values({
                id: randomUUID(),
                property_unique_id: newPropertyUniqueId(),
                user_id: userId,
                title,
                property_type: body.property_type,
                property_sub_type: body.property_sub_type,
                status: supported ? LEAD_STATUS_IN_PROGRESS : LEAD_STATUS_COLD,
                brand: BRANDS.brandOf(body.property_type).brand,
                cold_lead_type: supported ? null : 'UNSUPPORTED_PROPERTY',
                created_at: t,
                updated_at: t,
              })
              .returningAll()
              .executeTakeFirstOrThrow();
            await trx
              .insertInto('lead_sections')
              .values({
                lead_id: lead.id,
                section: 'basic_info',
                data: JSON.stringify({ title }),
                version: 1,
                completed: false,
                updated_at: t,
              })
              .execute();
            return lead;
          });
          if (!supported) throw onboardError('ONB_UNSUPPORTED_PROPERTY');
          const [lead] = await withSections([row]);
          return lead!;
        } catch (err) {
          if (!isUniqueViolation(err) || attempt >= 4) throw err;
        }
      }
    },

    async list(userId) {
      return withSections(await newestFirst(userId).execute());
    },

    async find(userId, propertyUniqueId) {
      return readWithSections(leadById(userId, propertyUniqueId));
    },

    async discard(userId, propertyUniqueId) {
      const lead = await findRow(userId, propertyUniqueId);
      if (!lead) throw onboardError('ONB_LEAD_NOT_FOUND');
      const done = await db
        .selectFrom('lead_sections')
        .select('section')
        .where('lead_id', '=', lead.id)
        .where('completed', '=', true)
        .where('section', '!=', 'address')
        .executeTakeFirst();
      if (done) throw onboardError('ONB_LEAD_LOCKED');
      await db
        .updateTable('leads')
        .set({ status: LEAD_STATUS_DISCARDED, updated_at: new Date(now()) })
        .where('id', '=', lead.id)
        .execute();
    },

    async newestOpen(userId) {
      return readWithSections(newestOpenLead(userId));
    },

    async saveSection(userId, propertyUniqueId, section, body, country) {
      const lead = await findRow(userId, propertyUniqueId);
      if (!lead) throw onboardError('ONB_LEAD_NOT_FOUND');
      const def = definitionOf(section);
      if (!def) throw onboardError('ONB_SECTION_NOT_FOUND');
      const others = def.reads?.length
        ? await db
            .selectFrom('lead_sections')
            .select(['section', 'data'])
            .where('lead_id', '=', lead.id)
            .where('section', 'in', [...def.reads])
            .execute()
        : [];
      const checks = {
        country,
        serviceability: options.serviceability,
        locator: options.locator,
        locationConfirmDistanceM: options.locationConfirmDistanceM,
        nearbyMatches: (point: LatLng) => nearbyMatches(lead, point),
        kycEvidence: (data: Record<string, unknown>) => options.kycEvidence(lead, data, country),
      };
      const context: SectionContext = {
        ...checks,
        sectionData: (name) => others.find((o) => o.section === name)?.data ?? {},
      };
      const { data, complete, finalError } = await normaliseSectionData(
        def,
        body.data,
        country,
        body.draft,
        context,
      );
      const t = new Date(now());
      if (!body.draft && finalError) {
        // Outside the served area the lead is still recorded where it is, as a cold lead (SPEC §4).
        const cold = COLD_LEAD_ERRORS[finalError.code];
        if (cold) {
          await db
            .updateTable('leads')
            .set({
              status: LEAD_STATUS_COLD,
              cold_lead_type: cold,
              updated_at: t,
              ...def.leadColumns?.(data),
            })
            .where('id', '=', lead.id)
            .where('status', 'not in', [LEAD_STATUS_DISCARDED, LEAD_STATUS_REMOVED])
            .execute();
        }
        throw finalError;
      }

      const json = JSON.stringify(data);
      return db.transaction().execute(async (trx) => {
        // The version check and the write are one statement: of two saves of the same version, the
        // second finds no row to update (or a row already inserted) and gets the conflict.
        const saved =
          body.version === 0
            ? await trx
                .insertInto('lead_sections')
                .values({
                  lead_id: lead.id,
                  section,
                  data: json,
                  version: 1,
                  completed: complete && !body.draft,
                  updated_at: t,
                })
                .onConflict((oc) => oc.columns(['lead_id', 'section']).doNothing())
                .returningAll()
                .executeTakeFirst()
            : await trx
                .updateTable('lead_sections')
                .set({
                  data: json,
                  version: sql<number>`version + 1`,
                  // Final: completed. Draft: stays as it was, unless the data lost a required field.
                  completed: sql<boolean>`${sql.lit(complete)} and (${sql.lit(!body.draft)} or completed)`,
                  updated_at: t,
                })
                .where('lead_id', '=', lead.id)
                .where('section', '=', section)
                .where('version', '=', body.version)
                .returningAll()
                .executeTakeFirst();
        if (!saved) throw onboardError('ONB_VERSION_CONFLICT');
        for (const listener of listeners.get(section) ?? []) await listener(trx, lead.id);
        // The property's name lives in basic_info too; the lead's title follows its last saved value.
        // A published lead's title, pin and city are the live listing's: they change only when the owner
        // submits the changes (publishChanges, bff/services/publish.ts).
        const live = lead.published_at !== null;
        const title =
          !live && section === 'basic_info' && typeof data.title === 'string' ? data.title : undefined;
        // A final save writes what the section puts on the lead (the pin), and a lead that was cold for
        // being outside the served area is in progress again.
        const final = !live && !body.draft && def.leadColumns ? def.leadColumns(data) : undefined;
        const revived = final && lead.cold_lead_type === 'NOT_SERVICEABLE';
        await trx
          .updateTable('leads')
          .set({
            updated_at: t,
            ...(title ? { title } : {}),
            ...(final ?? {}),
            ...(revived ? { status: LEAD_STATUS_IN_PROGRESS, cold_lead_type: null } : {}),
          })
          .where('id', '=', lead.id)
          .execute();
        const all = await trx
          .selectFrom('lead_sections')
          .select(['section', 'data', 'completed'])
          .where('lead_id', '=', lead.id)
          .execute();
        // A completed section whose final rules read this one (room counts ↔ total_rooms) is re-checked
        // against the data just saved; it stops being completed when it no longer passes. Its version
        // stays, so a form open on it does not meet a conflict.
        const stored: SectionContext = {
          ...checks,
          sectionData: (name) => all.find((s) => s.section === name)?.data ?? {},
        };
        for (const row of all) {
          const dependent = definitionOf(row.section);
          if (
            !row.completed ||
            !dependent?.finalCheck ||
            !dependent.reads?.includes(section as ChecklistTask)
          )
            continue;
          if (!(await dependent.finalCheck(row.data, stored))) continue;
          await trx
            .updateTable('lead_sections')
            .set({ completed: false })
            .where('lead_id', '=', lead.id)
            .where('section', '=', row.section)
            .execute();
          row.completed = false;
        }
        return { section: toSection(saved), checklist: checklistOf(all) };
      });
    },

    onSectionSaved(section, listener) {
      listeners.set(section, [...(listeners.get(section) ?? []), listener]);
    },
  };
}
