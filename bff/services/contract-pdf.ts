import type { CommercialTerms, Locale } from '../../schemas/generated/types';
import { CONTRACT_FONTS, ContractWriter } from './contract-layout';
import { formatDate, formatMoney, formatPercent } from './locale-format';

export { CONTRACT_FONTS };

/** Right-to-left languages among the 19 (SPEC §1: Arabic uses right-to-left layout). */
const RTL_LOCALES: ReadonlySet<string> = new Set(['ar']);

/** Translates `key` (`screens.contract.title`) into the contract's language, `{{name}}` filled from `values`. */
export type ContractTranslate = (key: string, values?: Record<string, unknown>) => string;

/** What a contract PDF is made from (SPEC §3 finalContractInfo): the property, its owner and the terms. */
export interface ContractContent {
  /** UUID of the contract (printed at the foot). */
  contractId: string;
  /** Version of the contract text, e.g. 'v2' (PDF metadata only: never shown to owners). */
  contractVersion: string;
  /** 1, 2, … for the lead's contracts (PDF metadata only). */
  revision: number;
  propertyUniqueId: string;
  /** When it was generated (also the PDF's creation date). */
  generatedAt: Date;
  /** The owner's language: the contract's text, dates and amounts are in it. */
  locale: Locale;
  property: {
    title: string;
    propertyType: string;
    propertySubType: string;
    /** One line: address line, locality, city, state, postal code, country; null when unknown. */
    address: string | null;
    totalRooms: number | null;
    roomCategories: { name: string; count: number | null }[];
  };
  owner: { name: string | null; pan: string | null };
  terms: CommercialTerms;
  /** First and last day of the contract (ISO dates). */
  dateRange: { start: string; end: string };
}

const dash = (v: string | number | null | undefined) =>
  v === null || v === undefined || v === '' ? '—' : String(v);

/** A catalogue label (`screens.property_types.sub.boutique_hotel`), or the code itself when there is none. */
const labelOr = (t: ContractTranslate, key: string, code: string) => {
  const text = t(key);
  return text === key ? code : text;
};

/**
 * The commercial terms as printed and as the terms screen shows them (SPEC §9 checklist widget keys), label
 * then value, in `locale`: rates with Intl percent, the one-time fee with Intl currency, the period with
 * dates as SPEC §9 (day numeric, month short, year numeric). Exported so tests can look for them.
 */
export function termLines(
  terms: CommercialTerms,
  dateRange: { start: string; end: string },
  locale: Locale,
  t: ContractTranslate,
): [string, string][] {
  const pct = (n: number) => formatPercent(n, locale);
  const label = (k: string) => t(`screens.contract.labels.${k}`);
  return [
    [label('commission'), pct(terms.commission)],
    [label('oyo_channel'), pct(terms.oyo_channel)],
    [
      label('walkin_channel'),
      terms.walk_in_waiver ? t('screens.contract.waived') : pct(terms.walkin_channel),
    ],
    [label('ota_fee'), pct(terms.ota_fee)],
    [label('service_fee'), pct(terms.service_fee)],
    [label('channel_fee'), pct(terms.channel_fee)],
    [label('total_fee'), pct(terms.total_fee)],
    [label('fee'), formatMoney(terms.fee, terms.currency, locale)],
    [
      label('date_range'),
      t('screens.contract.period', {
        start: formatDate(dateRange.start, locale),
        end: formatDate(dateRange.end, locale),
        months: terms.term_months,
      }),
    ],
  ];
}

/** The warm-up under way or done ({@link warmContractPdf}). */
let warming: Promise<void> | null = null;

/**
 * Loads the PDF engine (pdfkit, ≈0.4 s of CPU) and lays out a few words in the Latin fonts, regular and
 * bold (reading and unwrapping the font files, fontkit's first parse: ≈0.2 s), once per process, so that
 * the owner's first "Generate contract" does not pay for it (issue 13 item 5). Called in the background
 * when an owner opens the terms screen, where that button is; a server that never draws it never loads
 * the engine. Never rejects (a failure is left for the real render to report).
 */
export function warmContractPdf(): Promise<void> {
  warming ??= (async () => {
    const { default: PDFDocument } = await import('pdfkit');
    const doc = new PDFDocument({ size: 'A4', margin: 56 });
    const done = new Promise<void>((resolve, reject) => {
      doc.on('data', () => undefined);
      doc.on('end', resolve);
      doc.on('error', reject);
    });
    const w = new ContractWriter(doc, 'en-GB', false);
    w.paragraph('Contract', { size: 13, bold: true });
    w.paragraph('Property 12', { size: 10.5 });
    doc.end();
    await done;
  })().catch(() => {
    warming = null;
  });
  return warming;
}

/**
 * Renders the contract as a PDF (A4, pdfkit) in the owner's language and resolves its bytes. The text comes
 * from `screens.contract.*` of the locale files; a translation says that the English version governs.
 * Property types print as the labels the screens show; names and addresses as the owner typed them. Every
 * paragraph goes through {@link ContractWriter} (a font per script, Unicode bidi, right-aligned in Arabic).
 * pdfkit is loaded on the first contract, not at start (issue 13 item 5: ~0.3 s of start-up otherwise).
 * @throws when a font cannot be read.
 */
export async function renderContractPdf(content: ContractContent, t: ContractTranslate): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const title = t('screens.contract.title');
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    lang: content.locale,
    info: {
      Title: `${title} — ${content.property.title}`,
      Author: 'Property onboarding',
      Subject: `Contract ${content.contractId} (${content.contractVersion}, revision ${content.revision})`,
      CreationDate: content.generatedAt,
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const { locale, property, owner, terms } = content;
  const w = new ContractWriter(doc, locale, RTL_LOCALES.has(locale));
  const body = 10.5;
  const heading = (text: string) => {
    doc.y += body * 0.6;
    w.paragraph(text, { size: 13, bold: true, after: 4 });
  };
  const sep = locale === 'ja' || locale === 'zh' ? '：' : locale.startsWith('fr') ? ' : ' : ': ';
  const row = (label: string, value: string) =>
    w.paragraph(`${label}${sep}${value}`, { size: body, after: 2 });

  w.paragraph(title, { size: 18, bold: true, after: 4 });
  w.paragraph(
    t('screens.contract.generated', {
      date: formatDate(content.generatedAt, locale),
      lead: content.propertyUniqueId,
    }),
    { size: 9.5, color: '#555555', after: 2 },
  );
  if (locale !== 'en-GB') w.paragraph(t('screens.contract.governing'), { size: 9.5, color: '#555555' });

  heading(t('screens.contract.property'));
  row(t('screens.contract.property_name'), property.title);
  row(
    t('screens.contract.type'),
    `${labelOr(t, `screens.property_types.${property.propertyType}`, property.propertyType)} / ${labelOr(
      t,
      `screens.property_types.sub.${property.propertySubType}`,
      property.propertySubType,
    )}`,
  );
  row(t('screens.contract.address'), dash(property.address));
  row(t('screens.contract.total_rooms'), dash(property.totalRooms));
  for (const c of property.roomCategories)
    row(t('screens.contract.room_category', { name: c.name }), dash(c.count));

  heading(t('screens.contract.owner'));
  row(t('screens.contract.owner_name'), dash(owner.name));
  row(t('screens.kyc.pan_number'), dash(owner.pan));

  heading(t('screens.contract.terms'));
  for (const [label, value] of termLines(terms, content.dateRange, locale, t)) row(label, value);

  heading(t('screens.contract.agreement'));
  w.paragraph(t('screens.contract.agreement_text'), { size: body });
  doc.y += body;
  w.paragraph(t('screens.contract.footer', { id: content.contractId }), { size: 9, color: '#555555' });
  w.finish();
  doc.end();
  return done;
}
