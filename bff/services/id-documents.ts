/**
 * Which identity document a recognised text is (SPEC §3 KYC ID types; SPEC §5 'Uploaded Image is of
 * different IdType'). The evidence is of two kinds, both tolerant of text-recognition noise:
 * - clues: phrases printed on the document ('INCOME TAX DEPARTMENT', 'ELECTION COMMISSION OF INDIA' …),
 *   found with a few wrong, missing or extra characters allowed, in any case and spacing;
 * - identifier numbers that pass their published rule (schemas/identifiers), read with the usual
 *   confusions of letters and digits (O/0, I/1, S/5, B/8 …) repaired where the rule expects the other kind.
 * The phrases, their weights and the threshold are this product's choice (tables {@link ID_CLUES},
 * {@link NUMBER_WEIGHTS}, {@link IDENTIFIED_MIN_SCORE}); they are not published by any authority.
 */
import {
  checkAadhaar,
  checkDrivingLicence,
  checkPan,
  checkPassport,
  checkVehicleRc,
  checkVoterId,
  type IdentifierResult,
} from '../../schemas/identifiers';

/** The ID types an owner may choose for the KYC document (SPEC §3 KYC), in the order of the form. */
export const ID_TYPES = ['aadhaar', 'voter_id', 'driving_licence', 'passport', 'pan', 'vehicle_rc'] as const;
/** One of {@link ID_TYPES}. */
export type IdType = (typeof ID_TYPES)[number];

/** What a recognised text says about the document it was read from. */
export interface IdDocumentReading {
  /** The type the text most looks like, or null when nothing identifies one. */
  detected: IdType | null;
  /** Evidence per type (higher = surer; 0 = none). */
  scores: Record<IdType, number>;
  /** Identifier numbers found in the text that pass their rule, per type (normalised). */
  numbers: Partial<Record<IdType, string>>;
}

/**
 * One piece of evidence printed on a document: every phrase of `all` is present (each matched loosely,
 * see {@link findPhrase}) and, when given, `pattern` matches the text (upper-cased, runs of white space
 * made one space). Counted once however often it appears.
 */
export interface IdClue {
  /** Phrases that must all be present (letters and digits only count; case, spaces and punctuation do not). */
  all: readonly string[];
  /** A further condition on the text, e.g. an Aadhaar-like 4-4-4 group of digits. */
  pattern?: RegExp;
  /** Added to the type's score when the clue is present. */
  weight: number;
}

/**
 * Score from which a type counts as identified by the text. A header phrase (weight 3) or a strong
 * identifier number alone reaches it; weak evidence (a phrase of weight 1–2, a number of a loose format)
 * needs company. The product's choice.
 */
export const IDENTIFIED_MIN_SCORE = 3;

/**
 * The phrases that identify each document, with their weights (the product's choice, from the layouts of
 * the cards in circulation): 3 for a header only that document carries, 2 for a phrase typical of it but
 * short or shared with other papers, 1 for supporting words.
 */
export const ID_CLUES: Readonly<Record<IdType, readonly IdClue[]>> = {
  aadhaar: [
    { all: ['Unique Identification Authority'], weight: 3 },
    // The front of the card: 'Government of India' above the number printed in three groups of four.
    {
      all: ['Government of India'],
      pattern: /(?:^|[^0-9])[2-9][0-9]{3} [0-9]{4} [0-9]{4}(?![0-9])/,
      weight: 3,
    },
    { all: ['Aadhaar'], weight: 2 },
    { all: ['Enrolment No'], weight: 1 },
  ],
  voter_id: [
    { all: ['Election Commission of India'], weight: 3 },
    { all: ['Elector Photo Identity Card'], weight: 3 },
    { all: ['Electors Photo Identity Card'], weight: 3 },
    { all: ["Elector's Name"], weight: 2 },
  ],
  driving_licence: [
    { all: ['Driving Licence'], weight: 3 },
    { all: ['Licence to Drive'], weight: 3 },
    { all: ['DL No'], weight: 1 },
    { all: ['Valid Till'], weight: 1 },
  ],
  passport: [
    { all: ['Republic of India', 'Passport'], weight: 3 },
    // The machine-readable zone's first line: document type P, filler, issuing state IND.
    { all: [], pattern: /P ?[<«‹(KX] ?IND/, weight: 3 },
    { all: ['Passport No'], weight: 2 },
    { all: ['Passport'], weight: 1 },
    { all: ['Republic of India'], weight: 1 },
  ],
  pan: [
    { all: ['Income Tax Department'], weight: 3 },
    { all: ['Permanent Account Number'], weight: 3 },
  ],
  vehicle_rc: [
    { all: ['Registration Certificate'], weight: 3 },
    { all: ['Certificate of Registration'], weight: 3 },
    { all: ['Chassis'], weight: 2 },
    { all: ['Regn No'], weight: 1 },
    { all: ['Engine No'], weight: 1 },
  ],
};

/**
 * Weight of an identifier number that passes its rule, per type (the product's choice): an Aadhaar number
 * (12 digits ending with a Verhoeff check digit, about one chance in ten for a random number), a PAN (five
 * letters with a holder status, four digits, a letter) and a driving licence (15 characters with a
 * plausible year) identify their document alone; an EPIC (3 letters, 7 digits) or a passport number (a
 * letter, 7 digits) nearly; a registration mark has so loose a format ('AB12' passes) that it only supports
 * other evidence.
 */
export const NUMBER_WEIGHTS: Readonly<Record<IdType, number>> = {
  aadhaar: 4,
  voter_id: 2,
  driving_licence: 3,
  passport: 2,
  pan: 3,
  vehicle_rc: 1,
};

/**
 * The layout of an identifier read from text, one symbol per character: 'L' a letter, 'D' a digit, '*'
 * either. Characters read as the other kind are repaired (see {@link AS_DIGIT}, {@link AS_LETTER}) before the
 * rule is applied. Lengths are without separators.
 */
interface NumberShape {
  /** The layouts the identifier may have (one per length). */
  layouts: readonly string[];
  /** The rule of schemas/identifiers. */
  check: (value: string) => IdentifierResult;
}

const NUMBER_SHAPES: Readonly<Record<IdType, NumberShape>> = {
  aadhaar: { layouts: ['DDDDDDDDDDDD'], check: checkAadhaar },
  voter_id: { layouts: ['LLLDDDDDDD'], check: checkVoterId },
  driving_licence: { layouts: ['LLDDDDDDDDDDDDD'], check: (value) => checkDrivingLicence(value) },
  passport: { layouts: ['LDDDDDDD'], check: checkPassport },
  pan: { layouts: ['LLLLLDDDDL'], check: checkPan },
  // Registration marks mix letters and digits too freely ('MH12AB1234', '22BH1234AA') to repair any.
  vehicle_rc: {
    layouts: ['****', '*****', '******', '*******', '********', '*********', '**********', '***********'],
    check: checkVehicleRc,
  },
};

/** Letters that text recognition reads in place of a digit, and the digit meant. */
const AS_DIGIT: Readonly<Record<string, string>> = {
  O: '0',
  Q: '0',
  D: '0',
  U: '0',
  I: '1',
  L: '1',
  T: '7',
  Z: '2',
  S: '5',
  G: '6',
  B: '8',
};

/** Digits that text recognition reads in place of a letter, and the letter meant. */
const AS_LETTER: Readonly<Record<string, string>> = {
  '0': 'O',
  '1': 'I',
  '2': 'Z',
  '4': 'A',
  '5': 'S',
  '6': 'G',
  '7': 'T',
  '8': 'B',
};

/** At most this share of an identifier's characters may be repaired (a quarter, rounded down). */
const MAX_REPAIRED_SHARE = 0.25;
/** Consecutive words of a line joined to read a grouped identifier ('4821 7365 9020', 'MH 12 AB 4821'). */
const MAX_JOINED_WORDS = 4;

/**
 * Folds a text for loose phrase matching: upper-case ASCII, every character other than a letter or a digit
 * dropped, and the characters text recognition confuses made one (0 → O, 1 and L → I, 5 → S, 8 → B), so
 * that 'INC0ME  TAX DEPARTMENT' and 'Income Tax Department' fold alike.
 */
export function foldForPhrases(text: string): string {
  return text
    .toUpperCase()
    .replace(/[^A-Z0-9|]/g, '')
    .replace(/[0Q]/g, 'O')
    .replace(/[1L|]/g, 'I')
    .replace(/5/g, 'S')
    .replace(/8/g, 'B');
}

/** Edits allowed when matching a folded phrase of `length` characters: one per 6 characters after the first. */
const allowedEdits = (length: number) => Math.floor((length - 1) / 6);

/**
 * Whether `phrase` occurs in `folded` (a text folded by {@link foldForPhrases}) with at most
 * {@link allowedEdits} characters wrong, missing or extra (approximate substring matching: edit distance of
 * the phrase to the closest part of the text, Sellers' algorithm, O(text × phrase)).
 */
export function findPhrase(folded: string, phrase: string): boolean {
  const p = foldForPhrases(phrase);
  if (p === '') return true;
  const k = allowedEdits(p.length);
  if (k === 0) return folded.includes(p);
  // column[i] = least edits turning p[0..i) into a substring of the text ending at the current position.
  let column = Array.from({ length: p.length + 1 }, (_, i) => i);
  let next = new Array<number>(p.length + 1);
  for (let j = 0; j < folded.length; j++) {
    next[0] = 0;
    const c = folded.charCodeAt(j);
    for (let i = 1; i <= p.length; i++) {
      const substitute = column[i - 1]! + (p.charCodeAt(i - 1) === c ? 0 : 1);
      next[i] = Math.min(substitute, column[i]! + 1, next[i - 1]! + 1);
    }
    if (next[p.length]! <= k) return true;
    [column, next] = [next, column];
  }
  return false;
}

/**
 * `word` repaired to `layout` ('L' letter, 'D' digit, '*' either): characters of the wrong kind replaced by
 * their look-alike ({@link AS_DIGIT}, {@link AS_LETTER}). Null when a character has no look-alike or more
 * than {@link MAX_REPAIRED_SHARE} of them needed one.
 */
function repair(word: string, layout: string): string | null {
  let repaired = 0;
  let out = '';
  let at = 0;
  for (const c of word) {
    if (c === '-') {
      // A separator some rules allow: kept for the rule to judge, not part of the layout.
      out += c;
      continue;
    }
    const want = layout[at++];
    const isDigit = c >= '0' && c <= '9';
    if (want === 'D' && !isDigit) {
      const d = AS_DIGIT[c];
      if (!d) return null;
      out += d;
      repaired++;
    } else if (want === 'L' && isDigit) {
      const l = AS_LETTER[c];
      if (!l) return null;
      out += l;
      repaired++;
    } else out += c;
  }
  return repaired <= Math.floor(layout.length * MAX_REPAIRED_SHARE) ? out : null;
}

/**
 * The first identifier of `type` in `lines` (each a list of words of ASCII capitals and digits) that
 * passes its rule, as is or repaired; read from single words and from up to {@link MAX_JOINED_WORDS}
 * consecutive words of one line (identifiers are printed in groups), the longest that passes from the
 * first word where one starts ('MH 12 AB 4821' rather than 'MH 12'). An identifier read as is wins over a
 * repaired one. Null when none.
 */
function findNumber(type: IdType, lines: readonly (readonly string[])[]): string | null {
  const { layouts, check } = NUMBER_SHAPES[type];
  let repairedFind: string | null = null;
  for (const words of lines) {
    for (let start = 0; start < words.length; start++) {
      let joined = '';
      let exactFind: string | null = null;
      for (let end = start; end < words.length && end < start + MAX_JOINED_WORDS; end++) {
        joined += words[end];
        const length = joined.replace(/-/g, '').length;
        const layout = layouts.find((l) => l.length === length);
        if (!layout) continue;
        const exact = check(joined);
        if (exact.valid) exactFind = exact.normalised;
        else if (repairedFind === null) {
          const fixed = repair(joined, layout);
          const result = fixed === null ? null : check(fixed);
          if (result?.valid) repairedFind = result.normalised;
        }
      }
      if (exactFind !== null) return exactFind;
    }
  }
  return repairedFind;
}

/**
 * The words of each line of `text`, upper-cased ('|' read as 'I'): split at white space and at the '<'
 * fillers of a machine-readable zone, with punctuation around a word dropped ('No.' → 'NO', '(NT)' → 'NT').
 * Punctuation inside a word stays, so that '14/07/1985' is never read as the number 14071985; a hyphen
 * stays for the rules that allow it.
 */
function wordsByLine(text: string): string[][] {
  return text
    .toUpperCase()
    .replace(/\|/g, 'I')
    .split(/\r?\n/)
    .map((line) =>
      line
        .split(/[\s<]+/)
        .map((w) => w.replace(/^[^A-Z0-9]+|[^A-Z0-9]+$/g, ''))
        .filter((w) => w !== ''),
    )
    .filter((words) => words.length > 0);
}

/** The score of a type with no evidence, per type. */
function zeroScores(): Record<IdType, number> {
  return Object.fromEntries(ID_TYPES.map((t) => [t, 0])) as Record<IdType, number>;
}

/**
 * Reads `text` (recognised from a photo of an identity document; any length, any characters) for the
 * evidence of each ID type (SPEC §3 KYC ID types): the sum of the weights of the clues present
 * ({@link ID_CLUES}) and of {@link NUMBER_WEIGHTS} when an identifier passing its rule is found. `detected` is
 * the type with the highest score if that reaches {@link IDENTIFIED_MIN_SCORE} (ties go to the earlier type
 * of {@link ID_TYPES}), else null. Never throws; empty text gives all scores 0.
 */
export function readIdDocument(text: string): IdDocumentReading {
  const scores = zeroScores();
  const numbers: Partial<Record<IdType, string>> = {};
  const folded = foldForPhrases(text);
  const spaced = text.toUpperCase().replace(/\s+/g, ' ');
  const lines = wordsByLine(text);
  for (const type of ID_TYPES) {
    for (const clue of ID_CLUES[type]) {
      if ((!clue.pattern || clue.pattern.test(spaced)) && clue.all.every((p) => findPhrase(folded, p)))
        scores[type] += clue.weight;
    }
    const number = findNumber(type, lines);
    if (number !== null) {
      numbers[type] = number;
      scores[type] += NUMBER_WEIGHTS[type];
    }
  }
  let detected: IdType | null = null;
  for (const type of ID_TYPES) {
    if (scores[type] >= IDENTIFIED_MIN_SCORE && (detected === null || scores[type] > scores[detected]))
      detected = type;
  }
  return { detected, scores, numbers };
}

/**
 * The verdict on a document the owner said is of type `chosen` (SPEC §5 'Uploaded Image is of different
 * IdType'): `recognised` when the text identifies `chosen` (its score reaches {@link IDENTIFIED_MIN_SCORE},
 * whatever else it also looks like), `mismatch` when it identifies another type and not `chosen`,
 * `unreadable` when it identifies none.
 */
export function documentVerdict(
  reading: IdDocumentReading,
  chosen: IdType,
): 'recognised' | 'mismatch' | 'unreadable' {
  if (reading.scores[chosen] >= IDENTIFIED_MIN_SCORE) return 'recognised';
  return ID_TYPES.some((t) => reading.scores[t] >= IDENTIFIED_MIN_SCORE) ? 'mismatch' : 'unreadable';
}
