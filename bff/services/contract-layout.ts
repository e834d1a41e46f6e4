import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { inflateSync } from 'node:zlib';
import bidiFactory, { type EmbeddingLevels } from 'bidi-js';

const require = createRequire(import.meta.url);

/** The scripts the contract draws with a font of their own; anything else is drawn with `latin`. */
export type ContractScript = 'latin' | 'arabic' | 'devanagari' | 'thai' | 'japanese' | 'chinese';

/**
 * The fonts of contracts, one family per script, all from npm packages (never a system font), so a contract
 * prints the same on every server:
 * - latin: DejaVu Sans (`dejavu-fonts-ttf`): Latin with Vietnamese, Greek, Cyrillic, and the fallback;
 * - arabic: DejaVu Sans too: it has a glyph of its own for each letter form, so text copied or extracted
 *   from the PDF keeps its letters (Noto Sans Arabic draws some forms from one shared glyph, e.g. medial
 *   qaf and feh, which then read back as the same letter);
 * - devanagari, thai: Noto Sans Devanagari / Thai, the script's subset of `@fontsource/*` (WOFF);
 * all shaped by pdfkit's fontkit with the fonts' OpenType features;
 * - japanese: Noto Sans JP, Japanese subset (kana and the JIS kanji) of `@openfonts/noto-sans-jp_japanese`;
 * - chinese: Noto Sans SC, simplified Chinese subset of `@openfonts/noto-sans-sc_chinese-simplified`.
 * WOFF (not WOFF2): fontkit cannot subset a WOFF2 font correctly for embedding.
 */
export const CONTRACT_FONTS: Record<ContractScript, { regular: string; bold: string }> = {
  latin: {
    regular: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
    bold: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
  },
  arabic: {
    regular: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'),
    bold: require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf'),
  },
  devanagari: {
    regular:
      require.resolve('@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-devanagari-400-normal.woff'),
    bold: require.resolve('@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-devanagari-700-normal.woff'),
  },
  thai: {
    regular: require.resolve('@fontsource/noto-sans-thai/files/noto-sans-thai-thai-400-normal.woff'),
    bold: require.resolve('@fontsource/noto-sans-thai/files/noto-sans-thai-thai-700-normal.woff'),
  },
  japanese: {
    regular: require.resolve('@openfonts/noto-sans-jp_japanese/files/noto-sans-jp-japanese-400.woff'),
    bold: require.resolve('@openfonts/noto-sans-jp_japanese/files/noto-sans-jp-japanese-700.woff'),
  },
  chinese: {
    regular:
      require.resolve('@openfonts/noto-sans-sc_chinese-simplified/files/noto-sans-sc-chinese-simplified-400.woff'),
    bold: require.resolve('@openfonts/noto-sans-sc_chinese-simplified/files/noto-sans-sc-chinese-simplified-700.woff'),
  },
};

const SCRIPTS = Object.keys(CONTRACT_FONTS) as ContractScript[];

/**
 * The plain OpenType (sfnt) bytes of a WOFF 1.0 font (W3C WOFF §4–5: tables inflated with zlib, put back
 * behind an sfnt table directory); any other font is returned as it is. fontkit reads WOFF itself but
 * inflates a table again on every access, which makes a CJK font (4 MB of glyphs) take ~0.4 s per string
 * laid out; from sfnt bytes it takes a millisecond.
 * @throws Error when a WOFF table does not inflate to its declared length.
 */
export function woffToSfnt(font: Buffer): Buffer {
  if (font.toString('latin1', 0, 4) !== 'wOFF') return font;
  const numTables = font.readUInt16BE(12);
  const tables: { tag: Buffer; checksum: number; data: Buffer }[] = [];
  for (let i = 0; i < numTables; i++) {
    const e = 44 + i * 20;
    const offset = font.readUInt32BE(e + 4);
    const compLength = font.readUInt32BE(e + 8);
    const origLength = font.readUInt32BE(e + 12);
    const raw = font.subarray(offset, offset + compLength);
    const data = compLength < origLength ? inflateSync(raw) : raw;
    if (data.length !== origLength)
      throw new Error(`WOFF table ${font.toString('latin1', e, e + 4)} is damaged`);
    tables.push({ tag: font.subarray(e, e + 4), checksum: font.readUInt32BE(e + 16), data });
  }
  const pad = (n: number) => (n + 3) & ~3;
  const head = 12 + numTables * 16;
  const out = Buffer.alloc(head + tables.reduce((a, t) => a + pad(t.data.length), 0));
  const entrySelector = Math.floor(Math.log2(numTables));
  const searchRange = 2 ** entrySelector * 16;
  font.copy(out, 0, 4, 8); // flavor: the sfnt version
  out.writeUInt16BE(numTables, 4);
  out.writeUInt16BE(searchRange, 6);
  out.writeUInt16BE(entrySelector, 8);
  out.writeUInt16BE(numTables * 16 - searchRange, 10);
  let at = head;
  tables.forEach((t, i) => {
    const r = 12 + i * 16;
    t.tag.copy(out, r);
    out.writeUInt32BE(t.checksum, r + 4);
    out.writeUInt32BE(at, r + 8);
    out.writeUInt32BE(t.data.length, r + 12);
    t.data.copy(out, at);
    at += pad(t.data.length);
  });
  return out;
}

/** Font bytes by file, read and unwrapped once per process (a CJK font is ~4 MB unwrapped). */
const fontBytes = new Map<string, Buffer>();
function fontFile(file: string): Buffer {
  let bytes = fontBytes.get(file);
  if (!bytes) {
    bytes = woffToSfnt(readFileSync(file));
    fontBytes.set(file, bytes);
  }
  return bytes;
}

const ARABIC = /\p{Script=Arabic}/u;
const DEVANAGARI = /\p{Script=Devanagari}/u;
const THAI = /\p{Script=Thai}/u;
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
const HAN = /[\p{Script=Han}\p{Script=Bopomofo}]/u;
/** Scripts whose shaped glyphs are reordered or merged against the text (Devanagari, Thai). */
const REORDERED = /[\p{Script=Devanagari}\p{Script=Thai}]/u;
const BIDI_CONTROL = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/;
/** Characters of no script of their own (spaces, digits, punctuation): drawn in the font of their neighbours. */
const NEUTRAL = /[\p{Script=Common}\p{Script=Inherited}]/u;
/** Scripts whose runs fontkit lays out right to left by itself (it reverses the glyphs of such a run). */
const FONTKIT_RTL = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u;

/** The script font a character asks for; null for a neutral one (space, digit, punctuation). */
function scriptOf(ch: string, cjk: 'japanese' | 'chinese'): ContractScript | null {
  if (ARABIC.test(ch)) return 'arabic';
  if (DEVANAGARI.test(ch)) return 'devanagari';
  if (THAI.test(ch)) return 'thai';
  if (KANA.test(ch)) return 'japanese';
  if (HAN.test(ch)) return cjk;
  if (NEUTRAL.test(ch)) return null;
  return 'latin';
}

/** Whether fontkit would lay `text` out right to left: its first character of a script is of an RTL script. */
function fontkitReverses(text: string): boolean {
  for (const ch of text) {
    if (FONTKIT_RTL.test(ch)) return true;
    if (!NEUTRAL.test(ch)) return false;
  }
  return false;
}

/** The pdfkit document as the layout uses it (pdfkit's own types, plus the font it has selected). */
export type PdfDoc = PDFKit.PDFDocument;

/** What the layout needs to know of a font: whether it has a glyph, through pdfkit's selected fontkit font. */
function currentFontHas(doc: PdfDoc, codePoint: number): boolean {
  const font = (doc as unknown as { _font?: { font?: { hasGlyphForCodePoint?(cp: number): boolean } } })._font
    ?.font;
  return font?.hasGlyphForCodePoint?.(codePoint) ?? false;
}

/**
 * Features handed to pdfkit with every run: the font's defaults for the script. Given any, pdfkit lays the
 * run out whole; without, it lays out each space-separated word on its own and joins them left to right,
 * which puts the words of a right-to-left run in the wrong order and its spaces at the end.
 */
const WHOLE_RUN: PDFKit.Mixins.OpenTypeFeatures[] = [];

/** One paragraph's style: size in pt, bold or not, colour, space after in pt. */
export interface ParagraphStyle {
  size: number;
  bold?: boolean;
  color?: string;
  /** Space after the paragraph in pt (default 0.35 × size). */
  after?: number;
}

/** A piece of one line: logical [start, end) of the paragraph, its font and its bidi level. */
interface Piece {
  start: number;
  end: number;
  font: string;
  level: number;
}

/**
 * Writes paragraphs of any of the 19 languages into a pdfkit document: each character gets the font of its
 * script (neutral characters the font of their neighbours), lines are broken at word boundaries of the
 * language (Intl.Segmenter, so Thai and CJK break too), and each line is put into visual order by the
 * Unicode bidirectional algorithm (bidi-js), with right-to-left mirrored characters swapped. Runs are drawn
 * left to right at computed positions but written to the page in logical order, so text extracted from the
 * PDF reads in logical order. Paragraphs of a right-to-left language are right-aligned.
 */
export class ContractWriter {
  private readonly bidi = bidiFactory();
  private readonly segmenter: Intl.Segmenter;
  private readonly cjk: 'japanese' | 'chinese';
  private readonly registered = new Set<string>();
  private readonly coverage = new Map<string, boolean>();

  /**
   * @param doc a pdfkit document (A4 or other); its margins bound the text.
   * @param locale the contract's language (e.g. 'ar', 'hi', 'ja'); it decides line breaking and the
   *   preferred CJK font.
   * @param rtl whether the base direction of paragraphs is right to left (Arabic).
   */
  constructor(
    private readonly doc: PdfDoc,
    locale: string,
    private readonly rtl: boolean,
  ) {
    this.segmenter = new Intl.Segmenter(locale, { granularity: 'word' });
    this.cjk = locale === 'ja' ? 'japanese' : 'chinese';
  }

  private fontName(script: ContractScript, bold: boolean): string {
    const name = `${script}-${bold ? 'bold' : 'regular'}`;
    if (!this.registered.has(name)) {
      this.doc.registerFont(name, fontFile(CONTRACT_FONTS[script][bold ? 'bold' : 'regular']));
      this.registered.add(name);
    }
    return name;
  }

  private has(font: string, cp: number): boolean {
    const key = `${font}:${cp}`;
    let v = this.coverage.get(key);
    if (v === undefined) {
      this.doc.font(font);
      v = currentFontHas(this.doc, cp);
      this.coverage.set(key, v);
    }
    return v;
  }

  /** The font of each code unit of `text` (a surrogate pair shares one). */
  private fontsOf(text: string, bold: boolean): string[] {
    const fonts: (string | null)[] = new Array<string | null>(text.length).fill(null);
    let i = 0;
    for (const ch of text) {
      const script = scriptOf(ch, this.cjk);
      if (script) {
        const cp = ch.codePointAt(0)!;
        const order = [script, ...SCRIPTS.filter((s) => s !== script)];
        const font =
          order.map((s) => this.fontName(s, bold)).find((f) => this.has(f, cp)) ??
          this.fontName('latin', bold);
        for (let k = 0; k < ch.length; k++) fonts[i + k] = font;
      }
      i += ch.length;
    }
    // Neutral characters take the font before them (else after them) when it has their glyph.
    const latin = this.fontName('latin', bold);
    const out: string[] = [];
    for (let k = 0; k < text.length; k++) {
      const own = fonts[k];
      if (own) {
        out.push(own);
        continue;
      }
      const cp = text.codePointAt(k)!;
      const before = out[k - 1];
      const after = fonts.slice(k + 1).find((f): f is string => f !== null);
      out.push(
        [before, after].find((f): f is string => !!f && this.has(f, cp)) ??
          (this.has(latin, cp) ? latin : (before ?? after ?? latin)),
      );
    }
    return out;
  }

  private width(text: string, font: string, size: number): number {
    return this.doc.font(font).fontSize(size).widthOfString(text, { features: WHOLE_RUN });
  }

  /** Width in pt of the logical range [start, end) drawn with its fonts. */
  private rangeWidth(text: string, fonts: string[], start: number, end: number, size: number): number {
    let w = 0;
    let s = start;
    for (let k = start + 1; k <= end; k++) {
      if (k === end || fonts[k] !== fonts[s]) {
        w += this.width(text.slice(s, k), fonts[s]!, size);
        s = k;
      }
    }
    return w;
  }

  /** The lines of a paragraph as logical [start, end) ranges, trailing spaces left out. */
  private breakLines(text: string, fonts: string[], size: number, maxWidth: number): [number, number][] {
    const lines: [number, number][] = [];
    let start = 0;
    let end = 0;
    let width = 0;
    const trimEnd = (s: number, e: number) => {
      while (e > s && /\s/.test(text[e - 1]!)) e--;
      return e;
    };
    for (const seg of this.segmenter.segment(text)) {
      const segStart = seg.index;
      const segEnd = seg.index + seg.segment.length;
      const w = this.rangeWidth(text, fonts, segStart, segEnd, size);
      const blank = /^\s+$/.test(seg.segment);
      if (width + w <= maxWidth || blank) {
        end = segEnd;
        width += w;
        continue;
      }
      if (end > start) lines.push([start, trimEnd(start, end)]);
      start = segStart;
      end = segStart;
      width = 0;
      // A word longer than the line is cut between characters.
      let k = segStart;
      for (const ch of seg.segment) {
        const cw = this.rangeWidth(text, fonts, k, k + ch.length, size);
        if (width + cw > maxWidth && end > start) {
          lines.push([start, end]);
          start = end;
          width = 0;
        }
        width += cw;
        k += ch.length;
        end = k;
      }
    }
    if (end > start) lines.push([start, trimEnd(start, end)]);
    return lines.filter(([s, e]) => e > s);
  }

  /** The pieces of line [start, end) in visual order, left to right. */
  private visualPieces(
    text: string,
    fonts: string[],
    levels: EmbeddingLevels,
    start: number,
    end: number,
  ): Piece[] {
    const order: number[] = [];
    for (let k = start; k < end; k++) order.push(k);
    for (const [a, b] of this.bidi.getReorderSegments(text, levels, start, end - 1)) {
      const part = order.slice(a - start, b - start + 1).reverse();
      order.splice(a - start, part.length, ...part);
    }
    const pieces: Piece[] = [];
    for (const k of order) {
      // Marks that only steer the algorithm (LRM, RLM, ALM, embeddings, isolates) have no glyph to draw.
      if (BIDI_CONTROL.test(text[k]!)) continue;
      const level = levels.levels[k]!;
      const last = pieces[pieces.length - 1];
      const adjacent = last && (level % 2 ? k === last.start - 1 : k === last.end);
      if (last && adjacent && last.font === fonts[k] && last.level === level) {
        if (level % 2) last.start = k;
        else last.end = k + 1;
      } else pieces.push({ start: k, end: k + 1, font: fonts[k]!, level });
    }
    return pieces;
  }

  /**
   * The string to hand pdfkit for a piece so that it shows in visual order: fontkit itself reverses a run
   * of a right-to-left script (and must get it in logical order to join Arabic letters), anything else it
   * draws as given.
   */
  private pieceText(text: string, piece: Piece, mirrored: Map<number, string>): string {
    const chars: string[] = [];
    for (let k = piece.start; k < piece.end; k++) chars.push(mirrored.get(k) ?? text[k]!);
    const logical = chars.join('');
    const rtlPiece = piece.level % 2 === 1;
    const reversed = () => [...logical].reverse().join('');
    return rtlPiece === fontkitReverses(logical) ? logical : reversed();
  }

  /**
   * Writes one paragraph at the current position (doc.y), breaking lines and pages as needed, and moves
   * doc.y below it.
   */
  /**
   * Gives every glyph that shaping made without a character of its own (a part of a conjunct) an invisible
   * one (U+200B) in the fonts' ToUnicode maps: pdfkit writes an empty entry for it, which readers replace
   * with the glyph's code ('(' for glyph 0x28). Call before `doc.end()`.
   */
  finish(): void {
    const families = (this.doc as unknown as { _fontFamilies?: Record<string, { unicode?: number[][] }> })
      ._fontFamilies;
    for (const font of Object.values(families ?? {})) {
      font.unicode?.forEach((cps, gid) => {
        if (cps && cps.length === 0 && gid > 0) font.unicode![gid] = [0x200b];
      });
    }
  }

  paragraph(text: string, style: ParagraphStyle): void {
    const doc = this.doc;
    const clean = text.replace(/\s+/g, ' ').trim();
    const { size } = style;
    const lineHeight = size * 1.5;
    const left = doc.page.margins.left;
    const maxWidth = doc.page.width - doc.page.margins.left - doc.page.margins.right;
    const bottom = doc.page.height - doc.page.margins.bottom;
    if (clean) {
      const fonts = this.fontsOf(clean, !!style.bold);
      const levels = this.bidi.getEmbeddingLevels(clean, this.rtl ? 'rtl' : 'ltr');
      doc.fillColor(style.color ?? '#000000');
      for (const [start, end] of this.breakLines(clean, fonts, size, maxWidth)) {
        if (doc.y + lineHeight > bottom) doc.addPage();
        const baseline = doc.y + size * 1.1;
        const pieces = this.visualPieces(clean, fonts, levels, start, end);
        const mirrored = this.bidi.getMirroredCharactersMap(clean, levels.levels, start, end - 1);
        const drawn = pieces.map((p) => {
          const s = this.pieceText(clean, p, mirrored);
          return { piece: p, text: s, width: this.width(s, p.font, size) };
        });
        const lineWidth = drawn.reduce((a, d) => a + d.width, 0);
        let x = this.rtl ? left + maxWidth - lineWidth : left;
        const placed = drawn.map((d) => {
          const at = x;
          x += d.width;
          return { ...d, x: at };
        });
        // Written in logical order (positions stay visual), so text extracted in content order (PDFium,
        // poppler, pdf.js) reads logically, digits included.
        placed.sort((a, b) => a.piece.start - b.piece.start);
        for (const p of placed) {
          // Shaped Indic and Thai glyphs do not map back to the text one to one (a vowel sign drawn before
          // its consonant, conjuncts): ActualText gives readers that honour it the logical text.
          const actual = REORDERED.test(clean.slice(p.piece.start, p.piece.end));
          if (actual) doc.markContent('Span', { actual: clean.slice(p.piece.start, p.piece.end) });
          doc
            .font(p.piece.font)
            .fontSize(size)
            .text(p.text, p.x, baseline, { lineBreak: false, baseline: 'alphabetic', features: WHOLE_RUN });
          if (actual) doc.endMarkedContent();
        }
        doc.y = baseline - size * 1.1 + lineHeight;
      }
    }
    doc.x = left;
    doc.y += style.after ?? size * 0.35;
  }
}
