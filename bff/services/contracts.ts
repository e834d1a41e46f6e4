import { createHash, randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { sharedAjv } from '../../schemas/ajv';
import type {
  CommercialTerms,
  Locale,
  CommercialTermsFile,
  FinalContractInfo,
  TermsOfService,
  TermsOfServiceInfo,
} from '../../schemas/generated/types';
import type { Database, LeadContractRow } from '../db/schema';
import { LEAD_STATUS_DISCARDED, LEAD_STATUS_REMOVED, leadApiPath } from './leads';
import { onboardError } from '../errors';
import commercialTermsFile from '../screens/data/commercial-terms.json' with { type: 'json' };
import { renderContractPdf, type ContractContent } from './contract-pdf';
import type { ImageStorage } from './image-storage';
import { createTranslations, fallbackLocale, locales, type Translations } from './translations';

/** Longest User-Agent kept with an acceptance, in characters. */
export const MAX_USER_AGENT_LENGTH = 500;

/** The commercial terms of contracts (bff/screens/data/commercial-terms.json), checked against its schema. */
export interface CommercialTermsConfig {
  /** Version of the contract text, e.g. 'v2' (SPEC §9). */
  contractVersion: string;
  /** The terms for a lead: `default`, then every matching override in order; total_fee computed. */
  termsFor(country: string | null, propertyType: string): CommercialTerms;
}

/**
 * Reads the commercial terms from `file` (default bff/screens/data/commercial-terms.json), checked
 * against schemas/data/commercial-terms.schema.json. total_fee = commission + service_fee + channel_fee.
 * @throws Error naming the first schema error.
 */
export function loadCommercialTerms(file: unknown = commercialTermsFile): CommercialTermsConfig {
  const validate = sharedAjv().getSchema('data/commercial-terms.schema.json');
  if (!validate) throw new Error('no schema data/commercial-terms.schema.json');
  if (!validate(file)) {
    const e = validate.errors?.[0];
    throw new Error(`commercial terms: ${e?.instancePath || '/'} ${e?.message ?? 'invalid'}`);
  }
  const data = file as CommercialTermsFile;
  return {
    contractVersion: data.contract_version,
    termsFor(country, propertyType) {
      let t = { ...data.default } as Omit<CommercialTerms, 'total_fee'>;
      for (const o of data.overrides) {
        if (o.country !== undefined && o.country !== country) continue;
        if (o.property_type !== undefined && o.property_type !== propertyType) continue;
        t = { ...t, ...o.terms };
      }
      const total = Math.round((t.commission + t.service_fee + t.channel_fee) * 100) / 100;
      return { ...t, total_fee: total };
    },
  };
}

/** Who accepts a contract and from where (SPEC §3 finalContractInfo). */
export interface AcceptContractInput {
  contractId: string;
  /** The consent checkbox (SPEC §5); anything but true is refused. */
  consent: unknown;
  /** Client address of the request. */
  ip: string;
  /** User-Agent header (cut to {@link MAX_USER_AGENT_LENGTH}); null when absent. */
  userAgent: string | null;
}

/** The terms-of-service task: commercial terms, the contract PDF and its acceptance. */
export interface ContractService {
  /**
   * The terms offered, the latest contract and whether the task is completed (getTermsOfService).
   * @throws ONB_LEAD_NOT_FOUND (404) for a lead that is not the user's.
   */
  info(userId: string, propertyUniqueId: string): Promise<TermsOfService>;
  /**
   * Generates the contract PDF from the property's details (basic info, address, room categories, the
   * owner's name and PAN of the kyc section) and the commercial terms, and stores it with its SHA-256.
   * When the latest contract was made from the same details and terms it is answered again (`created`
   * false); otherwise a new revision is made and a completed terms-of-service task stops being completed.
   * The PDF is in `locale` (the owner's language, default en-GB); a contract in another language counts as
   * different, so asking in a new language makes a new revision.
   * @throws ONB_LEAD_NOT_FOUND (404); ONB_CONTRACT_DETAILS_MISSING (400) until basic info and the address
   * are completed.
   */
  generate(
    userId: string,
    propertyUniqueId: string,
    locale?: Locale,
  ): Promise<{ result: TermsOfService; created: boolean }>;
  /**
   * The PDF bytes of a contract of the user's lead and a file name for it.
   * @throws ONB_LEAD_NOT_FOUND (404); ONB_CONTRACT_NOT_FOUND (404).
   */
  file(
    userId: string,
    propertyUniqueId: string,
    contractId: string,
  ): Promise<{ bytes: Buffer; filename: string }>;
  /**
   * Accepts a contract (SPEC §5 consent required): records who, when, from where, and completes the
   * terms_of_service task with the acceptance summary as its data. Accepting an accepted contract again
   * answers the first acceptance unchanged.
   * @throws ONB_LEAD_NOT_FOUND (404); ONB_CONTRACT_CONSENT_REQUIRED (400) unless consent is true;
   * ONB_CONTRACT_NOT_FOUND (404); ONB_CONTRACT_OUTDATED (409) when it is not the latest contract or the
   * details or terms changed since it was generated.
   */
  accept(userId: string, propertyUniqueId: string, input: AcceptContractInput): Promise<TermsOfService>;
}

/** What the contract service needs besides the database. */
export interface ContractServiceOptions {
  /** Where the PDFs go (the photos' storage, under `contracts/`). */
  storage: ImageStorage;
  /** Commercial terms (default {@link loadCommercialTerms}). */
  terms?: CommercialTermsConfig;
  /** Clock in ms since the epoch (default Date.now). */
  now?: () => number;
  /** The texts of the contract (default {@link createTranslations} over renderer/i18n/locales). */
  translations?: Translations;
}

/** The API path of a lead's contract. */
export const contractPath = (propertyUniqueId: string) => leadApiPath(propertyUniqueId, 'contract');

const storageKey = (row: Pick<LeadContractRow, 'lead_id' | 'id'>) => `contracts/${row.lead_id}/${row.id}.pdf`;

const str = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : null);
const num = (v: unknown) => (typeof v === 'number' ? v : null);
const isoDate = (d: Date) => d.toISOString().slice(0, 10);

/** First and last day of a contract of `months` starting on `start` (UTC dates). */
export function contractDateRange(start: Date, months: number): { start: string; end: string } {
  const end = new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + months, start.getUTCDate()));
  end.setUTCDate(end.getUTCDate() - 1);
  return { start: isoDate(start), end: isoDate(end) };
}

const isUniqueViolation = (err: unknown) =>
  !!err && typeof err === 'object' && (err as { code?: unknown }).code === '23505';

/** Creates the contract service over `db`. */
export function createContractService(
  db: Kysely<Database>,
  options: ContractServiceOptions,
): ContractService {
  const now = options.now ?? Date.now;
  const config = options.terms ?? loadCommercialTerms();
  const { storage } = options;
  const translations = options.translations ?? createTranslations();

  const findLead = async (userId: string, propertyUniqueId: string) => {
    const lead = await db
      .selectFrom('leads')
      .select(['id', 'property_unique_id', 'title', 'property_type', 'property_sub_type', 'country'])
      .where('property_unique_id', '=', propertyUniqueId)
      .where('user_id', '=', userId)
      .where('status', 'not in', [LEAD_STATUS_DISCARDED, LEAD_STATUS_REMOVED])
      .executeTakeFirst();
    if (!lead) throw onboardError('ONB_LEAD_NOT_FOUND');
    return lead;
  };
  type LeadRef = Awaited<ReturnType<typeof findLead>>;

  /** The details a contract is made from, and the SHA-256 of them with the terms. */
  const inputsOf = async (lead: LeadRef) => {
    const rows = await db
      .selectFrom('lead_sections')
      .select(['section', 'data', 'completed'])
      .where('lead_id', '=', lead.id)
      .where('section', 'in', ['basic_info', 'address', 'room_categories', 'kyc', 'terms_of_service'])
      .execute();
    const section = (s: string) => rows.find((r) => r.section === s);
    const basic = section('basic_info')?.data ?? {};
    const address = section('address')?.data ?? {};
    const kyc = section('kyc')?.data ?? {};
    const categories = Array.isArray(section('room_categories')?.data.room_categories)
      ? (section('room_categories')!.data.room_categories as Record<string, unknown>[])
      : [];
    const addressParts = ['address_line', 'locality', 'city', 'state', 'postal_code', 'country'].map((k) =>
      str(address[k]),
    );
    const joinAddress = (parts: (string | null)[]) => parts.filter((v): v is string => v !== null).join(', ');
    const addressLine = joinAddress(addressParts);
    /** The address as printed: the country by its name in `locale` (e.g. 'الهند'), not its code. */
    const addressIn = (locale: Locale) => {
      const country = str(address.country);
      let name = country;
      try {
        if (country)
          name = new Intl.DisplayNames([locale], { type: 'region' }).of(country.toUpperCase()) ?? country;
      } catch {
        name = country;
      }
      return joinAddress([...addressParts.slice(0, -1), name]) || null;
    };
    const terms = config.termsFor(str(address.country) ?? lead.country, lead.property_type);
    const property: ContractContent['property'] = {
      title: str(basic.title) ?? lead.title,
      propertyType: lead.property_type,
      propertySubType: lead.property_sub_type,
      address: addressLine || null,
      totalRooms: num(basic.total_rooms),
      roomCategories: categories
        .filter((c) => str(c.name))
        .map((c) => ({ name: str(c.name)!, count: num(c.count) })),
    };
    const owner = { name: str(kyc.name), pan: str(kyc.pan_number) };
    // en-GB keeps the digest of contracts made before they were translated, so those stay current.
    const shaFor = (locale: Locale) =>
      createHash('sha256')
        .update(
          JSON.stringify({
            version: config.contractVersion,
            property,
            owner,
            terms,
            ...(locale === fallbackLocale ? {} : { locale }),
          }),
        )
        .digest('hex');
    return {
      property,
      owner,
      terms,
      shaFor,
      addressIn,
      /** Whether a contract made from these details and terms, in any language, has digest `sha`. */
      current: (sha: string) => locales.some((l) => shaFor(l) === sha),
      ready: !!section('basic_info')?.completed && !!section('address')?.completed,
      taskCompleted: !!section('terms_of_service')?.completed,
    };
  };

  const latestContract = (leadId: string) =>
    db
      .selectFrom('lead_contracts')
      .selectAll()
      .where('lead_id', '=', leadId)
      .orderBy('revision', 'desc')
      .limit(1)
      .executeTakeFirst();

  const toInfo = (row: LeadContractRow, propertyUniqueId: string, outdated: boolean): FinalContractInfo => ({
    contract_id: row.id,
    contract_version: row.contract_version,
    revision: row.revision,
    sha256: row.sha256,
    bytes: row.bytes,
    generated_at: new Date(row.created_at).toISOString(),
    file_url: `${contractPath(propertyUniqueId)}/${row.id}/file`,
    outdated,
    accepted: row.accepted_at !== null,
    accepted_at: row.accepted_at ? new Date(row.accepted_at).toISOString() : null,
    accepted_by: row.accepted_by,
    accepted_ip: row.accepted_ip,
    accepted_user_agent: row.accepted_user_agent,
  });

  const infoOf = async (lead: LeadRef): Promise<TermsOfService> => {
    const inputs = await inputsOf(lead);
    const latest = await latestContract(lead.id);
    const termsInfo: TermsOfServiceInfo = latest
      ? {
          contract_version: latest.contract_version,
          terms: latest.terms as unknown as CommercialTerms,
          date_range: contractDateRange(
            new Date(latest.created_at),
            (latest.terms as { term_months: number }).term_months,
          ),
        }
      : {
          contract_version: config.contractVersion,
          terms: inputs.terms,
          date_range: contractDateRange(new Date(now()), inputs.terms.term_months),
        };
    return {
      property_unique_id: lead.property_unique_id,
      terms_of_service_info: termsInfo,
      ...(latest
        ? {
            final_contract_info: toInfo(
              latest,
              lead.property_unique_id,
              !inputs.current(latest.inputs_sha256),
            ),
          }
        : {}),
      completed: inputs.taskCompleted,
    };
  };

  return {
    async info(userId, propertyUniqueId) {
      return infoOf(await findLead(userId, propertyUniqueId));
    },

    async generate(userId, propertyUniqueId, locale = fallbackLocale) {
      const lead = await findLead(userId, propertyUniqueId);
      const inputs = await inputsOf(lead);
      if (!inputs.ready) throw onboardError('ONB_CONTRACT_DETAILS_MISSING');
      const latest = await latestContract(lead.id);
      const inputsSha256 = inputs.shaFor(locale);
      if (latest && latest.inputs_sha256 === inputsSha256)
        return { result: await infoOf(lead), created: false };

      const generatedAt = new Date(now());
      const id = randomUUID();
      const revision = (latest?.revision ?? 0) + 1;
      const bytes = await renderContractPdf(
        {
          contractId: id,
          contractVersion: config.contractVersion,
          revision,
          propertyUniqueId: lead.property_unique_id,
          generatedAt,
          locale,
          property: { ...inputs.property, address: inputs.addressIn(locale) },
          owner: inputs.owner,
          terms: inputs.terms,
          dateRange: contractDateRange(generatedAt, inputs.terms.term_months),
        },
        (key, values) => translations.translate(locale, key, values),
      );
      const row = {
        id,
        lead_id: lead.id,
        revision,
        contract_version: config.contractVersion,
        inputs_sha256: inputsSha256,
        terms: JSON.stringify(inputs.terms),
        sha256: createHash('sha256').update(bytes).digest('hex'),
        bytes: bytes.length,
        created_at: generatedAt,
        accepted_at: null,
        accepted_by: null,
        accepted_ip: null,
        accepted_user_agent: null,
      };
      try {
        await db.transaction().execute(async (trx) => {
          // The PDF and its row commit together (issue 14 item 1).
          await storage.put(storageKey(row), bytes, trx);
          await trx.insertInto('lead_contracts').values(row).execute();
          // An acceptance of an earlier contract no longer holds: the owner accepts the new one.
          await trx
            .updateTable('lead_sections')
            .set({ completed: false, version: sql`version + 1`, updated_at: generatedAt })
            .where('lead_id', '=', lead.id)
            .where('section', '=', 'terms_of_service')
            .where('completed', '=', true)
            .execute();
        });
      } catch (err) {
        // A storage that could not join the rolled-back transaction (an object store) may hold the PDF.
        await storage.delete(storageKey(row));
        // Another request generated the same revision at the same moment: answer it.
        if (isUniqueViolation(err)) return { result: await infoOf(lead), created: false };
        throw err;
      }
      return { result: await infoOf(lead), created: true };
    },

    async file(userId, propertyUniqueId, contractId) {
      const lead = await findLead(userId, propertyUniqueId);
      const row = await db
        .selectFrom('lead_contracts')
        .selectAll()
        .where('lead_id', '=', lead.id)
        .where('id', '=', contractId)
        .executeTakeFirst();
      const bytes = row ? await storage.get(storageKey(row)) : undefined;
      if (!row || !bytes) throw onboardError('ONB_CONTRACT_NOT_FOUND');
      return {
        bytes,
        filename: `contract-${lead.property_unique_id}-${row.contract_version}-r${row.revision}.pdf`,
      };
    },

    async accept(userId, propertyUniqueId, input) {
      const lead = await findLead(userId, propertyUniqueId);
      if (input.consent !== true) throw onboardError('ONB_CONTRACT_CONSENT_REQUIRED');
      const row = await db
        .selectFrom('lead_contracts')
        .selectAll()
        .where('lead_id', '=', lead.id)
        .where('id', '=', input.contractId)
        .executeTakeFirst();
      if (!row) throw onboardError('ONB_CONTRACT_NOT_FOUND');
      const latest = await latestContract(lead.id);
      const inputs = await inputsOf(lead);
      if (latest?.id !== row.id || !inputs.current(row.inputs_sha256)) {
        throw onboardError('ONB_CONTRACT_OUTDATED');
      }
      if (row.accepted_at !== null && inputs.taskCompleted) return infoOf(lead);

      const t = new Date(now());
      await db.transaction().execute(async (trx) => {
        const accepted = await trx
          .updateTable('lead_contracts')
          .set({
            accepted_at: t,
            accepted_by: userId,
            accepted_ip: input.ip,
            accepted_user_agent: input.userAgent?.slice(0, MAX_USER_AGENT_LENGTH) ?? null,
          })
          .where('id', '=', row.id)
          .where('accepted_at', 'is', null)
          .returningAll()
          .executeTakeFirst();
        const record =
          accepted ??
          (await trx
            .selectFrom('lead_contracts')
            .selectAll()
            .where('id', '=', row.id)
            .executeTakeFirstOrThrow());
        const summary = {
          contract_id: record.id,
          contract_version: record.contract_version,
          revision: record.revision,
          sha256: record.sha256,
          accepted_at: new Date(record.accepted_at!).toISOString(),
          accepted_by: record.accepted_by,
          accepted_ip: record.accepted_ip,
          accepted_user_agent: record.accepted_user_agent,
        };
        await trx
          .insertInto('lead_sections')
          .values({
            lead_id: lead.id,
            section: 'terms_of_service',
            data: JSON.stringify(summary),
            version: 1,
            completed: true,
            updated_at: t,
          })
          .onConflict((oc) =>
            oc.columns(['lead_id', 'section']).doUpdateSet({
              data: sql`excluded.data`,
              completed: true,
              version: sql`lead_sections.version + 1`,
              updated_at: sql`excluded.updated_at`,
            }),
          )
          .execute();
        await trx.updateTable('leads').set({ updated_at: t }).where('id', '=', lead.id).execute();
      });
      return infoOf(lead);
    },
  };
}
