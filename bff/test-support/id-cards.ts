/**
 * Identity-card-like JPEGs for tests (API and Playwright tests of the KYC document, the text recogniser's
 * tests and bench/ocr.ts). The cards are drawn from SVG by sharp (librsvg) in DejaVu Sans / DejaVu Sans
 * Mono (Debian's fonts-dejavu-core), so they look the same on every machine that has those fonts. They
 * imitate the layout of the real Indian documents (SPEC §3 KYC ID types) closely enough for text
 * recognition: a header, the identifier (valid under the rules of schemas/identifiers, check digits
 * included), a name, a date of birth, a photo box and a coloured background. They are not copies of real
 * documents and carry no emblem.
 */
import sharp from 'sharp';
import { verhoeffCheckDigit } from '../../schemas/identifiers';
import type { IdType } from '../services/id-documents';

/** What {@link renderIdCard} draws. */
export interface IdCardOptions {
  /** The identifier printed on the card, as printed (default: a fixed valid one per type, see {@link sampleIdNumber}). */
  number?: string;
  /** The holder's name (default 'RAVI KUMAR SHARMA'). */
  name?: string;
  /** Clockwise rotation of the whole card, in degrees, as a photo taken sideways or upside down (default 0). */
  rotate?: 0 | 90 | 180 | 270;
  /** Width of the card before rotation, in px (default 1200; the height keeps the ratio 1200 : 760). */
  width?: number;
}

/** Width and height of the drawing, in SVG units (the card is scaled to `width` px). */
const CARD_W = 1200;
const CARD_H = 760;
const SANS = "'DejaVu Sans', sans-serif";
const MONO = "'DejaVu Sans Mono', monospace";

/** An Aadhaar number with a valid Verhoeff check digit, grouped 4-4-4 as printed. */
function aadhaarNumber(body11: string): string {
  const digits = body11 + String(verhoeffCheckDigit(body11));
  return `${digits.slice(0, 4)} ${digits.slice(4, 8)} ${digits.slice(8)}`;
}

/**
 * The identifier drawn on a card of `type` when none is given, as printed: Aadhaar '4821 7365 9020' (with
 * its Verhoeff digit), PAN 'ABCPS1234K', voter ID 'XKR4729153', driving licence 'MH12 20110062831',
 * passport 'N4827163', vehicle RC 'MH 12 AB 4821'. Each passes its check in schemas/identifiers.
 */
export function sampleIdNumber(type: IdType): string {
  switch (type) {
    case 'aadhaar':
      return aadhaarNumber('48217365902');
    case 'pan':
      return 'ABCPS1234K';
    case 'voter_id':
      return 'XKR4729153';
    case 'driving_licence':
      return 'MH12 20110062831';
    case 'passport':
      return 'N4827163';
    case 'vehicle_rc':
      return 'MH 12 AB 4821';
  }
}

/**
 * A random identifier of `type` as printed, valid under its rule in schemas/identifiers (check digit
 * included for Aadhaar), from `random` (default Math.random; values in [0, 1)): Aadhaar grouped 4-4-4, PAN
 * with an individual's status letter P, EPIC, driving licence 'SSRR YYYYNNNNNNN' issued 2000–2020, passport,
 * registration mark 'SS RR LL NNNN'.
 */
export function randomIdNumber(type: IdType, random: () => number = Math.random): string {
  const pick = (alphabet: string, n = 1) =>
    Array.from({ length: n }, () => alphabet[Math.floor(random() * alphabet.length)]!).join('');
  const L = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
  const D = '0123456789';
  switch (type) {
    case 'aadhaar':
      return aadhaarNumber(pick('23456789') + pick(D, 10));
    case 'pan':
      return `${pick(L, 3)}P${pick(L)}${pick(D, 4)}${pick(L)}`;
    case 'voter_id':
      return pick(L, 3) + pick(D, 7);
    case 'driving_licence':
      return `${pick(L, 2)}${pick(D, 2)} ${2000 + Math.floor(random() * 21)}${pick(D, 7)}`;
    case 'passport':
      return pick('ABCDEFGHIJKLMNOPRSTUVWY') + pick('123456789') + pick(D, 6);
    case 'vehicle_rc':
      return `${pick(L, 2)} ${pick(D, 2)} ${pick(L, 2)} ${pick('123456789')}${pick(D, 3)}`;
  }
}

/** `text` with the five XML special characters escaped for SVG text content. */
function xml(text: string): string {
  return text.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c]!,
  );
}

/** One line of text: position in SVG units, size in SVG units, weight and colour. */
interface Line {
  x: number;
  y: number;
  text: string;
  size: number;
  bold?: boolean;
  mono?: boolean;
  fill?: string;
  anchor?: 'start' | 'middle';
}

/** The look and the lines of one card type. */
interface Layout {
  /** Background gradient, top-left to bottom-right. */
  background: [string, string];
  /** Colour of the header band. */
  band: string;
  lines: Line[];
  /** The photo box's left edge (it is 220 × 270 units at y 200). */
  photoX: number;
}

/** The holder's names split for the passport (surname = last word). */
function splitName(name: string): { surname: string; given: string } {
  const words = name.trim().split(/\s+/);
  const surname = words.length > 1 ? words[words.length - 1]! : (words[0] ?? '');
  return { surname, given: words.slice(0, -1).join(' ') };
}

/** The ICAO 9303 check digit of an MRZ field (weights 7, 3, 1; '<' = 0, A = 10 … Z = 35). */
function mrzCheck(field: string): string {
  let sum = 0;
  for (let i = 0; i < field.length; i++) {
    const c = field[i]!;
    const v = c === '<' ? 0 : /[0-9]/.test(c) ? Number(c) : c.charCodeAt(0) - 55;
    sum += v * [7, 3, 1][i % 3]!;
  }
  return String(sum % 10);
}

/** The two 44-character lines of a passport's machine-readable zone (ICAO 9303 TD3). */
function passportMrz(number: string, name: string): [string, string] {
  const { surname, given } = splitName(name.toUpperCase().replace(/[^A-Z ]/g, ''));
  const names = `${surname}<<${given.replace(/ /g, '<')}`;
  const line1 = `P<IND${names}`.padEnd(44, '<').slice(0, 44);
  const doc = number.replace(/\s/g, '').padEnd(9, '<');
  const dob = '850714';
  const expiry = '320310';
  const optional = ''.padEnd(14, '<');
  const body = `${doc}${mrzCheck(doc)}IND${dob}${mrzCheck(dob)}M${expiry}${mrzCheck(expiry)}${optional}${mrzCheck(optional)}`;
  const composite = `${doc}${mrzCheck(doc)}${dob}${mrzCheck(dob)}${expiry}${mrzCheck(expiry)}${optional}${mrzCheck(optional)}`;
  return [line1, `${body}${mrzCheck(composite)}`];
}

/** The layout of a card of `type` holding `number` and `name`. */
function layout(type: IdType, number: string, name: string): Layout {
  const label = (y: number, caption: string, value: string, x = 320): Line[] => [
    { x, y, text: caption, size: 22, fill: '#333' },
    { x, y: y + 34, text: value, size: 30, bold: true },
  ];
  switch (type) {
    case 'aadhaar':
      return {
        background: ['#fdf6ec', '#e9f3e6'],
        band: '#f28c28',
        photoX: 50,
        lines: [
          {
            x: 600,
            y: 70,
            text: 'Government of India',
            size: 44,
            bold: true,
            anchor: 'middle',
            fill: '#fff',
          },
          { x: 600, y: 118, text: 'Unique Identification Authority of India', size: 26, anchor: 'middle' },
          ...label(240, 'Name', name),
          ...label(330, 'Date of Birth / DOB', '14/07/1985'),
          ...label(420, 'Gender', 'MALE'),
          { x: 600, y: 600, text: number, size: 64, bold: true, anchor: 'middle' },
          {
            x: 600,
            y: 690,
            text: 'Aadhaar - Mera Aadhaar, Meri Pehchan',
            size: 26,
            anchor: 'middle',
            fill: '#b03030',
          },
        ],
      };
    case 'pan':
      return {
        background: ['#d9ecf7', '#f3e7f5'],
        band: '#1d5e9c',
        photoX: 50,
        lines: [
          {
            x: 600,
            y: 62,
            text: 'INCOME TAX DEPARTMENT',
            size: 44,
            bold: true,
            anchor: 'middle',
            fill: '#fff',
          },
          { x: 600, y: 136, text: 'GOVT. OF INDIA', size: 30, bold: true, anchor: 'middle' },
          { x: 600, y: 180, text: 'Permanent Account Number Card', size: 30, anchor: 'middle' },
          { x: 320, y: 250, text: number, size: 60, bold: true, mono: true },
          ...label(320, 'Name', name),
          ...label(410, "Father's Name", 'SURESH KUMAR SHARMA'),
          ...label(500, 'Date of Birth', '14/07/1985'),
          { x: 320, y: 690, text: 'Signature', size: 22, fill: '#333' },
        ],
      };
    case 'voter_id':
      return {
        background: ['#f4f1e4', '#e4eef4'],
        band: '#6b2f8a',
        photoX: 50,
        lines: [
          {
            x: 600,
            y: 66,
            text: 'ELECTION COMMISSION OF INDIA',
            size: 42,
            bold: true,
            anchor: 'middle',
            fill: '#fff',
          },
          { x: 600, y: 150, text: 'ELECTOR PHOTO IDENTITY CARD', size: 32, bold: true, anchor: 'middle' },
          { x: 320, y: 240, text: number, size: 56, bold: true, mono: true },
          ...label(310, "Elector's Name", name),
          ...label(400, "Father's Name", 'SURESH KUMAR SHARMA'),
          ...label(490, 'Sex', 'MALE'),
          ...label(580, 'Date of Birth', '14/07/1985'),
        ],
      };
    case 'driving_licence':
      return {
        background: ['#e8f0fa', '#f8f3e2'],
        band: '#1f6f4a',
        photoX: 930,
        lines: [
          { x: 50, y: 66, text: 'INDIAN UNION DRIVING LICENCE', size: 42, bold: true, fill: '#fff' },
          { x: 50, y: 130, text: 'Issued by Government of Maharashtra', size: 28 },
          { x: 50, y: 230, text: `DL No. ${number}`, size: 48, bold: true, mono: true },
          ...label(300, 'Name', name, 50),
          ...label(390, 'Date of Birth', '14/07/1985', 50),
          ...label(480, 'Date of Issue', '21/03/2011', 50),
          ...label(570, 'Valid Till (NT)', '13/07/2035', 50),
          { x: 50, y: 700, text: 'Transport Department', size: 26, fill: '#333' },
        ],
      };
    case 'passport': {
      const [mrz1, mrz2] = passportMrz(number, name);
      const { surname, given } = splitName(name);
      return {
        background: ['#eef2f7', '#e2ebf3'],
        band: '#1b2a5c',
        photoX: 50,
        lines: [
          { x: 600, y: 66, text: 'REPUBLIC OF INDIA', size: 44, bold: true, anchor: 'middle', fill: '#fff' },
          { x: 320, y: 160, text: 'PASSPORT', size: 36, bold: true },
          { x: 320, y: 200, text: 'Type P   Country Code IND', size: 24, fill: '#333' },
          { x: 780, y: 170, text: 'Passport No.', size: 22, fill: '#333' },
          { x: 780, y: 210, text: number, size: 40, bold: true, mono: true },
          ...label(250, 'Surname', surname),
          ...label(330, 'Given Name(s)', given),
          ...label(410, 'Date of Birth', '14/07/1985'),
          ...label(490, 'Place of Issue', 'MUMBAI'),
          { x: 40, y: 640, text: mrz1, size: 40, mono: true },
          { x: 40, y: 700, text: mrz2, size: 40, mono: true },
        ],
      };
    }
    case 'vehicle_rc':
      return {
        background: ['#f6efe2', '#e6f1ee'],
        band: '#8a2a2a',
        photoX: 930,
        lines: [
          { x: 50, y: 66, text: 'CERTIFICATE OF REGISTRATION', size: 42, bold: true, fill: '#fff' },
          { x: 50, y: 130, text: 'Transport Department, Government of Maharashtra', size: 26 },
          { x: 50, y: 220, text: `Regn. No. ${number}`, size: 48, bold: true, mono: true },
          ...label(280, 'Owner Name', name, 50),
          ...label(370, 'Chassis No.', 'MA3EWDE1S00123456', 50),
          ...label(460, 'Engine No.', 'K12MN1234567', 50),
          ...label(550, 'Date of Regn.', '02/11/2019', 50),
          ...label(640, "Maker's Class", 'MARUTI SUZUKI SWIFT', 50),
        ],
      };
  }
}

/** The SVG of a card (1200 × 760 units drawn at `width` px). */
function cardSvg(type: IdType, number: string, name: string, width: number): string {
  const { background, band, lines, photoX } = layout(type, number, name);
  const height = Math.round((width * CARD_H) / CARD_W);
  const text = lines
    .map((l) => {
      const attrs = [
        `x="${l.x}"`,
        `y="${l.y}"`,
        `font-family="${l.mono ? MONO : SANS}"`,
        `font-size="${l.size}"`,
        `fill="${l.fill ?? '#111'}"`,
        l.bold ? 'font-weight="bold"' : '',
        l.anchor === 'middle' ? 'text-anchor="middle"' : '',
        'xml:space="preserve"',
      ];
      return `<text ${attrs.filter(Boolean).join(' ')}>${xml(l.text)}</text>`;
    })
    .join('\n');
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${CARD_W} ${CARD_H}">
<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
<stop offset="0" stop-color="${background[0]}"/><stop offset="1" stop-color="${background[1]}"/>
</linearGradient>
<clipPath id="photo"><rect x="${photoX}" y="200" width="220" height="270"/></clipPath></defs>
<rect width="${CARD_W}" height="${CARD_H}" rx="36" fill="url(#bg)"/>
<rect width="${CARD_W}" height="96" fill="${band}"/>
<rect x="${photoX}" y="200" width="220" height="270" fill="#c9ced6" stroke="#555" stroke-width="3"/>
<g clip-path="url(#photo)" fill="#8d96a3">
<circle cx="${photoX + 110}" cy="300" r="55"/><ellipse cx="${photoX + 110}" cy="455" rx="95" ry="85"/>
</g>
${text}
</svg>`;
}

/**
 * A JPEG (quality 90) of an identity-card-like image of `type` (SPEC §3 ID types): landscape, `width` px
 * wide (default 1200) by width × 760 / 1200 px, then turned by `rotate` degrees clockwise (90 and 270 give a
 * portrait image). The identifier is `number` as given (not checked), or {@link sampleIdNumber}(type).
 * Needs the DejaVu fonts (fonts-dejavu-core) for the text to be drawn as expected.
 * @throws Error from sharp when the SVG cannot be rendered (e.g. a `width` under 1 px).
 */
export async function renderIdCard(type: IdType, options: IdCardOptions = {}): Promise<Buffer> {
  const number = options.number ?? sampleIdNumber(type);
  const name = options.name ?? 'RAVI KUMAR SHARMA';
  const width = options.width ?? CARD_W;
  const svg = cardSvg(type, number, name, width);
  return sharp(Buffer.from(svg))
    .rotate(options.rotate ?? 0)
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 90 })
    .toBuffer();
}
