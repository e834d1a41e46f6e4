import { createRequire } from 'node:module';
import type { CommercialTerms } from '../../schemas/generated/types';

const require = createRequire(import.meta.url);

/**
 * The fonts of contracts: DejaVu Sans from the `dejavu-fonts-ttf` npm package, never a system font, so a
 * property named in another script renders the same on every server. It covers Latin (with Vietnamese),
 * Greek, Cyrillic, Arabic (shaped and laid out right to left by pdfkit's fontkit) and Hebrew; it has no
 * glyphs for Devanagari, Thai, Chinese or Japanese, which print as empty boxes.
 */
export const CONTRACT_FONTS = {
  regular: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
  bold: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
} as const;

/** What a contract PDF is made from (SPEC §3 finalContractInfo): the property, its owner and the terms. */
export interface ContractContent {
  /** UUID of the contract (printed at the foot of each page). */
  contractId: string;
  /** Version of the contract text, e.g. 'v2'. */
  contractVersion: string;
  /** 1, 2, … for the lead's contracts. */
  revision: number;
  propertyUniqueId: string;
  /** When it was generated (also the PDF's creation date). */
  generatedAt: Date;
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

const percent = (n: number) => `${Number.isInteger(n) ? n : n.toFixed(2)}%`;
const dash = (v: string | number | null | undefined) =>
  v === null || v === undefined || v === '' ? '—' : String(v);

/**
 * The lines of the commercial terms as printed (SPEC §9 checklist widget keys), label then value.
 * Exported so tests can look for them in the PDF's text.
 */
export function termLines(
  terms: CommercialTerms,
  dateRange: { start: string; end: string },
): [string, string][] {
  return [
    ['Commission charges', percent(terms.commission)],
    ['Bookings through the provider (oyo_channel)', percent(terms.oyo_channel)],
    [
      'Walk-in guests (walkin_channel)',
      terms.walk_in_waiver ? `${percent(0)} (waived)` : percent(terms.walkin_channel),
    ],
    ['Online travel agencies (ota_fee)', percent(terms.ota_fee)],
    ['Service fee', percent(terms.service_fee)],
    ['Channel fee', percent(terms.channel_fee)],
    ['Total fee', percent(terms.total_fee)],
    ['Walk-in waiver', terms.walk_in_waiver ? 'Yes' : 'No'],
    ['One-time fee', `${terms.fee} ${terms.currency}`],
    ['Date range', `${dateRange.start} to ${dateRange.end} (${terms.term_months} months)`],
  ];
}

/**
 * Renders the contract as a PDF (A4, pdfkit, DejaVu fonts) and resolves its bytes. The text is English
 * (the contract's language of record); names and addresses are printed as the owner typed them.
 * pdfkit is loaded on the first contract, not at start (issue 13 item 5: ~0.3 s of start-up otherwise).
 * @throws when a font cannot be read.
 */
export async function renderContractPdf(content: ContractContent): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    info: {
      Title: `Property listing agreement ${content.contractVersion} — ${content.property.title}`,
      Author: 'Property onboarding',
      Subject: `Contract ${content.contractId}`,
      CreationDate: content.generatedAt,
    },
  });
  doc.registerFont('regular', CONTRACT_FONTS.regular);
  doc.registerFont('bold', CONTRACT_FONTS.bold);
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  const heading = (text: string) => {
    doc.moveDown(0.8).font('bold').fontSize(13).text(text).moveDown(0.3).font('regular').fontSize(10.5);
  };
  const row = (label: string, value: string) => {
    doc.font('bold').text(`${label}: `, { continued: true }).font('regular').text(value);
  };

  const { property, owner, terms } = content;
  doc.font('bold').fontSize(18).text('Property Listing Agreement');
  doc
    .font('regular')
    .fontSize(9.5)
    .fillColor('#555555')
    .text(
      `Contract version ${content.contractVersion} · Revision ${content.revision} · Generated ${content.generatedAt.toISOString().slice(0, 10)} · Lead ${content.propertyUniqueId}`,
    )
    .fillColor('#000000')
    .fontSize(10.5);

  heading('1. The property');
  row('Property name', property.title);
  row('Type', `${property.propertyType} / ${property.propertySubType}`);
  row('Address', dash(property.address));
  row('Total rooms', dash(property.totalRooms));
  for (const c of property.roomCategories) row(`Rooms — ${c.name}`, dash(c.count));

  heading('2. The owner');
  row('Owner name', dash(owner.name));
  row('PAN', dash(owner.pan));

  heading('3. Commercial terms');
  for (const [label, value] of termLines(terms, content.dateRange)) row(label, value);

  heading('4. Agreement');
  doc.text(
    'The owner lists the property above with the provider for the date range above. The provider markets the ' +
      'property on its own channels and on online travel agencies and charges the commission and fees above on ' +
      'the value of each stay before taxes. The owner confirms that the details above are true and that they may ' +
      'list the property. Either party may end the listing with 30 days notice in writing.',
    { align: 'justify' },
  );
  doc.moveDown(1);
  doc
    .fontSize(9)
    .fillColor('#555555')
    .text(
      `Contract ID ${content.contractId}. Accepted electronically in the app; the acceptance records who, when and from where.`,
    );
  doc.end();
  return done;
}
