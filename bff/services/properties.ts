import { readFileSync } from 'node:fs';
import type { Kysely } from 'kysely';
import { sharedAjv } from '../../schemas/ajv';
import type {
  PropertyList,
  PropertySummary,
  ReferralDetails,
  Referrers,
} from '../../schemas/generated/types';
import type { Database, LeadRow } from '../db/schema';
import { onboardError } from '../errors';
import defaultReferrers from '../screens/data/referrers.json' with { type: 'json' };
import { checklistOf, LEAD_STATUS_REMOVED } from './leads';

export { LEAD_STATUS_REMOVED };

/** Lead statuses of the dashboard (SPEC §4). LIVE and UNDER_REVIEW are set by publishing. */
export const LEAD_STATUS_LIVE = 'LIVE' as const;
/** A holiday home published and waiting for the expert's review (SPEC §1 'OVH'). */
export const LEAD_STATUS_UNDER_REVIEW = 'UNDER_REVIEW' as const;
/** A live listing switched off (by staff); `leads.inactive_since` says since when. */
export const LEAD_STATUS_INACTIVE = 'INACTIVE' as const;

/**
 * An inactive listing is tagged Recontract rather than Reactivate once it has been inactive this many whole
 * months (SPEC §4 lead tags): the old contract no longer applies and reactivation is refused
 * (409 ONB_RECONTRACT_REQUIRED); the owner signs the terms again through the checklist. SPEC §4 names the
 * tags but not the rule; twelve months is this product's choice.
 */
export const RECONTRACT_AFTER_MONTHS = 12;

/**
 * The provider's program whose listings the dashboard lists apart (SPEC §3 ewbProperties,
 * ewbAndRecontractProperties; §4 'Programs: EWB/OTA'). `leads.program` is set by staff (migration 0021).
 */
export const PROGRAM_EWB = 'EWB' as const;

/** Statuses listed in each dashboard section. */
const IN_PROGRESS_STATUSES = ['IN_PROGRESS', 'COLD'] as const;
const LIVE_STATUSES = [LEAD_STATUS_LIVE, LEAD_STATUS_UNDER_REVIEW] as const;

/**
 * Whole calendar months from `since` to `now` (UTC): 31 Jan → 28 Feb is 0, 15 Jan → 15 Mar is 2. Never
 * negative.
 */
export function monthsBetween(since: Date, now: Date): number {
  let months =
    (now.getUTCFullYear() - since.getUTCFullYear()) * 12 + (now.getUTCMonth() - since.getUTCMonth());
  // The same day and time of the month not reached yet: one month fewer.
  const within = (d: Date) => d.getTime() - Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
  if (within(now) < within(since)) months -= 1;
  return Math.max(0, months);
}

/** The referral rules: which codes verify and to whom. */
export interface ReferralDirectory {
  /**
   * The referrer of `code` (trimmed, compared case-insensitively), or undefined when the code is unknown or
   * its details are empty (a blank name).
   */
  lookup(code: string): ReferralDetails | undefined;
}

/** A {@link ReferralDirectory} over a {@link Referrers} document. */
export function referralDirectory(doc: Referrers): ReferralDirectory {
  const byCode = new Map(doc.referrers.map((r) => [r.code.toUpperCase(), r]));
  return {
    lookup(code) {
      const r = byCode.get(code.trim().toUpperCase());
      if (!r || r.name.trim() === '') return undefined;
      return { referral_code: r.code.toUpperCase(), name: r.name.trim(), kind: r.kind ?? null };
    },
  };
}

/**
 * Loads the referral codes from `file` (REFERRERS_FILE), or bff/screens/data/referrers.json when null,
 * checked against schemas/data/referrers.schema.json.
 * @throws Error naming the file and the first schema error when the document is not valid.
 */
export function loadReferrers(file: string | null): ReferralDirectory {
  const doc: unknown = file ? JSON.parse(readFileSync(file, 'utf8')) : defaultReferrers;
  const validate = sharedAjv().getSchema('data/referrers.schema.json');
  if (!validate) throw new Error('no schema data/referrers.schema.json');
  if (!validate(doc)) {
    const e = validate.errors?.[0];
    throw new Error(
      `${file ?? 'bff/screens/data/referrers.json'}: ${e?.instancePath || '/'} ${e?.message ?? 'is not valid'}`,
    );
  }
  return referralDirectory(doc as Referrers);
}

/**
 * The owner's properties on the dashboard, their listings and referral codes (SPEC §2 propertyDashboardScreen,
 * §3 lists and referralDetails, §4 property statuses and lead tags). Every call takes the signed-in user's
 * id: another user's property_unique_id behaves as an unknown one (404 ONB_LEAD_NOT_FOUND).
 */
export interface PropertyService {
  /**
   * The user's properties by dashboard section, newest first in each: `in_progress` (IN_PROGRESS, and COLD
   * NOT_SERVICEABLE, which the owner may still correct), `live` (LIVE, UNDER_REVIEW) and `inactive`
   * (INACTIVE, with months_inactive). Discarded, removed and UNSUPPORTED_PROPERTY leads are left out. Each
   * carries its program and type (SPEC §4, null when none); `ewb` repeats the live listings on the EWB
   * program and `ewb_and_recontract` the inactive EWB listings tagged RECONTRACT (SPEC §3 lists).
   */
  list(userId: string): Promise<PropertyList>;
  /** The user's property as the dashboard shows it, or undefined (another user's, discarded or removed). */
  get(userId: string, propertyUniqueId: string): Promise<PropertySummary | undefined>;
  /**
   * Verifies a referral code (SPEC §3 referral, §5 'A referral verification returning empty details
   * counts as an error').
   * @throws ONB_REFERRAL_INVALID (422, field referral_code) unknown code or empty details.
   */
  verifyReferral(code: string): ReferralDetails;
  /**
   * Verifies `code` and stores it on the user's property (adding or updating it; SPEC §4 'update').
   * Answers the property's summary.
   * @throws ONB_LEAD_NOT_FOUND (404); ONB_REFERRAL_INVALID (422) as {@link verifyReferral} (the stored code stays).
   */
  saveReferral(userId: string, propertyUniqueId: string, code: string): Promise<PropertySummary>;
  /**
   * Reactivates an inactive listing (INACTIVE → LIVE, inactive_since cleared).
   * @throws ONB_LEAD_NOT_FOUND (404); ONB_LISTING_NOT_INACTIVE (409) any other status;
   *   ONB_RECONTRACT_REQUIRED (409) inactive {@link RECONTRACT_AFTER_MONTHS} months or more.
   */
  reactivate(userId: string, propertyUniqueId: string): Promise<PropertySummary>;
  /**
   * Removes an inactive listing once the owner confirms they have no association with the property
   * (INACTIVE → REMOVED; it then appears nowhere).
   * @throws ONB_LEAD_NOT_FOUND (404); ONB_ASSOCIATION_NOT_CONFIRMED (400) `noAssociation` not true;
   *   ONB_LISTING_NOT_INACTIVE (409) any other status.
   */
  remove(userId: string, propertyUniqueId: string, noAssociation: boolean): Promise<void>;
}

/** Options of {@link createPropertyService}: the referral codes and the clock (ms since the epoch). */
export interface PropertyServiceOptions {
  referrers: ReferralDirectory;
  now?: () => number;
}

const iso = (t: Date | string | null) => (t === null ? null : new Date(t).toISOString());

/** Creates the property service over `db`. */
export function createPropertyService(
  db: Kysely<Database>,
  options: PropertyServiceOptions,
): PropertyService {
  const now = options.now ?? Date.now;

  const summaryOf = async (rows: LeadRow[]): Promise<PropertySummary[]> => {
    const ids = rows.map((r) => r.id);
    const sections =
      ids.length === 0
        ? []
        : await db
            .selectFrom('lead_sections')
            .select(['lead_id', 'section', 'completed'])
            .where('lead_id', 'in', ids)
            .execute();
    const t = new Date(now());
    return rows.map((row) => {
      const months =
        row.status === LEAD_STATUS_INACTIVE && row.inactive_since
          ? monthsBetween(new Date(row.inactive_since), t)
          : null;
      const tag: PropertySummary['tag'] =
        row.status === LEAD_STATUS_INACTIVE
          ? months !== null && months >= RECONTRACT_AFTER_MONTHS
            ? 'RECONTRACT'
            : 'REACTIVATE'
          : row.status === 'IN_PROGRESS'
            ? 'IN_PROGRESS'
            : null;
      return {
        lead_id: row.id,
        property_unique_id: row.property_unique_id,
        title: row.title,
        property_type: row.property_type,
        status: row.status,
        cold_lead_type: row.cold_lead_type ?? null,
        city: row.city ?? null,
        completion_percentage: checklistOf(sections.filter((s) => s.lead_id === row.id)).completionPercentage,
        tag,
        inactive_since: iso(row.inactive_since),
        months_inactive: months,
        program: (row.program as PropertySummary['program']) ?? null,
        program_type: (row.program_type as PropertySummary['program_type']) ?? null,
        referral:
          row.referral_code && row.referral_name
            ? { referral_code: row.referral_code, name: row.referral_name, kind: null }
            : null,
      };
    });
  };

  const findRow = (userId: string, propertyUniqueId: string) =>
    db
      .selectFrom('leads')
      .selectAll()
      .where('property_unique_id', '=', propertyUniqueId)
      .where('user_id', '=', userId)
      .where('status', 'not in', ['DISCARDED', LEAD_STATUS_REMOVED])
      .executeTakeFirst();

  const one = async (userId: string, propertyUniqueId: string) => {
    const row = await findRow(userId, propertyUniqueId);
    if (!row) throw onboardError('ONB_LEAD_NOT_FOUND');
    return row;
  };

  const verify = (code: string): ReferralDetails => {
    const details = options.referrers.lookup(code);
    if (!details) throw onboardError('ONB_REFERRAL_INVALID');
    return details;
  };

  return {
    async list(userId) {
      const rows = await db
        .selectFrom('leads')
        .selectAll()
        .where('user_id', '=', userId)
        .where('status', 'in', [...IN_PROGRESS_STATUSES, ...LIVE_STATUSES, LEAD_STATUS_INACTIVE])
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      const visible = rows.filter((r) => r.status !== 'COLD' || r.cold_lead_type === 'NOT_SERVICEABLE');
      const all = await summaryOf(visible);
      const live = all.filter((p) => (LIVE_STATUSES as readonly string[]).includes(p.status));
      const inactive = all.filter((p) => p.status === LEAD_STATUS_INACTIVE);
      return {
        in_progress: all.filter((p) => (IN_PROGRESS_STATUSES as readonly string[]).includes(p.status)),
        live,
        inactive,
        ewb: live.filter((p) => p.program === PROGRAM_EWB),
        ewb_and_recontract: inactive.filter((p) => p.program === PROGRAM_EWB && p.tag === 'RECONTRACT'),
      };
    },

    async get(userId, propertyUniqueId) {
      const row = await findRow(userId, propertyUniqueId);
      return row ? (await summaryOf([row]))[0] : undefined;
    },

    verifyReferral: verify,

    async saveReferral(userId, propertyUniqueId, code) {
      const row = await one(userId, propertyUniqueId);
      const details = verify(code);
      const updated = await db
        .updateTable('leads')
        .set({
          referral_code: details.referral_code,
          referral_name: details.name,
          referral_updated_at: new Date(now()),
        })
        .where('id', '=', row.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      const [summary] = await summaryOf([updated]);
      return { ...summary!, referral: details };
    },

    async reactivate(userId, propertyUniqueId) {
      const row = await one(userId, propertyUniqueId);
      if (row.status !== LEAD_STATUS_INACTIVE) throw onboardError('ONB_LISTING_NOT_INACTIVE');
      const since = row.inactive_since ? new Date(row.inactive_since) : null;
      if (since && monthsBetween(since, new Date(now())) >= RECONTRACT_AFTER_MONTHS)
        throw onboardError('ONB_RECONTRACT_REQUIRED');
      // Conditional on the status, so two concurrent calls reactivate once and the other is refused.
      const updated = await db
        .updateTable('leads')
        .set({ status: LEAD_STATUS_LIVE, inactive_since: null, updated_at: new Date(now()) })
        .where('id', '=', row.id)
        .where('status', '=', LEAD_STATUS_INACTIVE)
        .returningAll()
        .executeTakeFirst();
      if (!updated) throw onboardError('ONB_LISTING_NOT_INACTIVE');
      return (await summaryOf([updated]))[0]!;
    },

    async remove(userId, propertyUniqueId, noAssociation) {
      const row = await one(userId, propertyUniqueId);
      if (!noAssociation) throw onboardError('ONB_ASSOCIATION_NOT_CONFIRMED');
      if (row.status !== LEAD_STATUS_INACTIVE) throw onboardError('ONB_LISTING_NOT_INACTIVE');
      const t = new Date(now());
      const updated = await db
        .updateTable('leads')
        .set({ status: LEAD_STATUS_REMOVED, removed_at: t, updated_at: t })
        .where('id', '=', row.id)
        .where('status', '=', LEAD_STATUS_INACTIVE)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) throw onboardError('ONB_LISTING_NOT_INACTIVE');
    },
  };
}
