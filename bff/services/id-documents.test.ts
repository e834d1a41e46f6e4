import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  checkAadhaar,
  checkDrivingLicence,
  checkPan,
  checkPassport,
  checkVehicleRc,
  checkVoterId,
  type IdentifierResult,
} from '../../schemas/identifiers';
import {
  validAadhaar,
  validDrivingLicence,
  validPan,
  validPassport,
  validVehicleRc,
  validVoterId,
} from '../../schemas/identifiers/test-arbitraries';
import {
  documentVerdict,
  findPhrase,
  foldForPhrases,
  ID_CLUES,
  ID_TYPES,
  IDENTIFIED_MIN_SCORE,
  readIdDocument,
  type IdType,
} from './id-documents';

/** Texts as Tesseract read them from the rendered cards of bff/test-support/id-cards.ts (kept verbatim). */
const CARD_TEXTS: Record<IdType, string> = {
  aadhaar: `Government of India
Unique Identification Authority of India
Name
RAVI KUMAR SHARMA
Date of Birth / DOB
14/07/1985
Gender
MALE
4821 7365 9020
Aadhaar - Mera Aadhaar, Meri Pehchan
`,
  voter_id: `ELECTION COMMISSION OF INDIA
ELECTOR PHOTO IDENTITY CARD
XKR4729153
Elector's Name
RAVI KUMAR SHARMA
Father's Name
SURESH KUMAR SHARMA
Sex
MALE
Date of Birth
14/07/1985
`,
  driving_licence: `INDIAN UNION DRIVING LICENCE
Issued by Government of Maharashtra

DL No. MH12 20110062831
Name

RAVI KUMAR SHARMA

Date of Birth

14/07/1985

Valid Till (NT)

13/07/2035
`,
  passport: `REPUBLIC OF INDIA

PASSPORT Passport No.

Type P Country Code IND N4827163

SHARMA

Given Name(s)

RAVI KUMAR
P<INDSHARMA<<RAVI<KUMAR<<<<<<<<<<<<<<<<<<<<<
N4827163<8IND8507147M3203101<<<<<<<<<<<<<<()?2
`,
  pan: `INCOME TAX DEPARTMENT
OVT. O NDIA
Permanent Account Number Card
ABCPS1234K
Name
RAVI KUMAR SHARMA
Father's Name
SURESH KUMAR SHARMA
Date of Birth
14/07/1985
Signature
`,
  vehicle_rc: `CERTIFICATE OF REGISTRATION
Transport Department, Government of Maharashtra
Regn. No. MH 12 AB 4821
Owner Name

RAVI KUMAR SHARMA

Chassis No.

MA3EWDE1S00123456
`,
};

const NUMBERS: Record<IdType, string> = {
  aadhaar: '482173659020',
  voter_id: 'XKR4729153',
  driving_licence: 'MH1220110062831',
  passport: 'N4827163',
  pan: 'ABCPS1234K',
  vehicle_rc: 'MH12AB4821',
};

const CHECKS: Record<IdType, (value: string) => IdentifierResult> = {
  aadhaar: checkAadhaar,
  voter_id: checkVoterId,
  driving_licence: (value) => checkDrivingLicence(value),
  passport: checkPassport,
  pan: checkPan,
  vehicle_rc: checkVehicleRc,
};

describe('readIdDocument on text read from cards', () => {
  it.each(ID_TYPES)('identifies a %s card and reads its number', (type) => {
    const reading = readIdDocument(CARD_TEXTS[type]);
    expect(reading.detected).toBe(type);
    expect(reading.numbers[type]).toBe(NUMBERS[type]);
    expect(documentVerdict(reading, type)).toBe('recognised');
    // No other type reaches the threshold on these cards.
    for (const other of ID_TYPES) {
      if (other !== type) expect(reading.scores[other], other).toBeLessThan(IDENTIFIED_MIN_SCORE);
    }
  });

  it('answers mismatch for a card of another type than the one chosen', () => {
    const pan = readIdDocument(CARD_TEXTS.pan);
    expect(documentVerdict(pan, 'aadhaar')).toBe('mismatch');
    expect(documentVerdict(pan, 'passport')).toBe('mismatch');
    const dl = readIdDocument(CARD_TEXTS.driving_licence);
    // The licence number's 'MH12' is also a registration mark, which alone does not identify an RC.
    expect(dl.numbers.vehicle_rc).toBe('MH12');
    expect(documentVerdict(dl, 'vehicle_rc')).toBe('mismatch');
    for (const type of ID_TYPES) {
      const reading = readIdDocument(CARD_TEXTS[type]);
      for (const chosen of ID_TYPES) {
        expect(documentVerdict(reading, chosen)).toBe(chosen === type ? 'recognised' : 'mismatch');
      }
    }
  });

  it('answers unreadable for empty text and text of no ID document', () => {
    const empty = readIdDocument('');
    expect(empty).toEqual({
      detected: null,
      scores: { aadhaar: 0, voter_id: 0, driving_licence: 0, passport: 0, pan: 0, vehicle_rc: 0 },
      numbers: {},
    });
    expect(documentVerdict(empty, 'pan')).toBe('unreadable');
    const receipt = readIdDocument(
      'GRAND HOTEL MUMBAI\nRoom 204  2 nights\nTotal INR 8,400.00\nThank you for staying with us!\n' +
        'GSTIN 27ABCDE1234F1Z5  Invoice 2024/118',
    );
    expect(receipt.detected).toBeNull();
    for (const type of ID_TYPES) expect(documentVerdict(receipt, type)).toBe('unreadable');
    // Recognition noise of a photo without text.
    const noise = readIdDocument('~ ~ - = _ . , ; :\n\ni | ! ) ( .. ee\n');
    expect(noise.detected).toBeNull();
  });
});

describe('readIdDocument tolerates recognition noise', () => {
  it('finds headers in any case and spacing, with O/0 and I/1/l confusions and a few wrong letters', () => {
    const samples: [string, IdType][] = [
      ['inc0me tax depar tment', 'pan'],
      ['P E R M A N E N T  ACC0UNT NUMBER', 'pan'],
      ['ELECTI0N C0MMISSI0N 0F lNDIA', 'voter_id'],
      ['Elect0rs Ph0to ldentity Card', 'voter_id'],
      ['DRlVING LlCENSE', 'driving_licence'],
      ['Indian Union Driving Licence', 'driving_licence'],
      ['REPUBL1C OF lNDIA\nPASSP0RT', 'passport'],
      ['P<INDSHARMA<<RAVI<<<<<<<<', 'passport'],
      ['P « IND SHARMA', 'passport'],
      ['Unique ldentificati0n Auth0rity 0f India', 'aadhaar'],
      ['REGISTRATION CERTIFICATE', 'vehicle_rc'],
      ['Certificate 0f Regisfration', 'vehicle_rc'],
    ];
    for (const [text, type] of samples) {
      const reading = readIdDocument(text);
      expect(reading.detected, text).toBe(type);
      expect(documentVerdict(reading, type), text).toBe('recognised');
    }
  });

  it('reads identifiers with letters and digits confused where the rule expects the other kind', () => {
    // O for 0 and I for 1 in the digits; 0 for O and 5 for S in the letters.
    expect(readIdDocument('4821 7365 9O20').numbers.aadhaar).toBe('482173659020');
    expect(readIdDocument('Name\nAB0PS1234K').numbers.pan).toBe('ABOPS1234K');
    expect(readIdDocument('ABCP51234K').numbers.pan).toBe('ABCPS1234K');
    expect(readIdDocument('XKR47Z9153').numbers.voter_id).toBe('XKR4729153');
    expect(readIdDocument('N48Z7I63').numbers.passport).toBe('N4827163');
    expect(readIdDocument('DL No. MH-12 2011 OO62831').numbers.driving_licence).toBe('MH1220110062831');
  });

  it('reads no identifier out of a date, and repairs no registration mark', () => {
    // 14071985 would be a passport number with the first 1 read as I.
    expect(readIdDocument('Date of Birth\n14/07/1985\n14.07.1985').numbers).toEqual({});
    expect(readIdDocument('Regn. No. MH 12 AB 4821').numbers.vehicle_rc).toBe('MH12AB4821');
    // '4H' is not repaired to 'AH': the first mark that passes as read is 'AB 4821'.
    expect(readIdDocument('4H 12 AB 4821').numbers.vehicle_rc).toBe('AB4821');
  });

  it('does not repair more than a quarter of an identifier, nor read a number across lines', () => {
    // 482173659020 with three of twelve characters misread is repaired; with four it is not.
    expect(readIdDocument('482I 7365 9O2O').numbers.aadhaar).toBe('482173659020');
    expect(readIdDocument('482I 7S65 9O2O').numbers.aadhaar).toBeUndefined();
    expect(readIdDocument('4821 7365\n9020').numbers.aadhaar).toBeUndefined();
  });

  it('counts a number of a strong format alone and a weak one only with company', () => {
    // A valid Aadhaar number (Verhoeff digit) or PAN identifies its document by itself.
    expect(readIdDocument('4821 7365 9020').detected).toBe('aadhaar');
    expect(readIdDocument('ABCPS1234K').detected).toBe('pan');
    expect(readIdDocument('MH12 20110062831').detected).toBe('driving_licence');
    // One Verhoeff digit off: no number; the 4-4-4 group under 'Government of India' still counts.
    expect(readIdDocument('4821 7365 9021').numbers.aadhaar).toBeUndefined();
    expect(readIdDocument('4821 7365 9021').detected).toBeNull();
    expect(readIdDocument('Government of India\n4821 7365 9021').detected).toBe('aadhaar');
    expect(readIdDocument('Government of India').detected).toBeNull();
    // EPIC, passport and registration numbers: evidence, but not enough alone.
    for (const [text, type] of [
      ['XKR4729153', 'voter_id'],
      ['N4827163', 'passport'],
      ['MH 12 AB 4821', 'vehicle_rc'],
    ] as const) {
      const reading = readIdDocument(text);
      expect(reading.scores[type], text).toBeGreaterThan(0);
      expect(reading.detected, text).toBeNull();
      expect(documentVerdict(reading, type), text).toBe('unreadable');
    }
    expect(readIdDocument("Elector's Name\nXKR4729153").detected).toBe('voter_id');
    expect(readIdDocument('Passport No.\nN4827163').detected).toBe('passport');
    expect(readIdDocument('Chassis No.\nMH 12 AB 4821').detected).toBe('vehicle_rc');
  });

  it('answers the surest type when the text shows two, and recognised for either', () => {
    const both = readIdDocument(`${CARD_TEXTS.pan}\n${CARD_TEXTS.voter_id}\nXYZ9876543`);
    expect(both.scores.voter_id).toBeGreaterThan(both.scores.pan);
    expect(both.detected).toBe('voter_id');
    expect(documentVerdict(both, 'pan')).toBe('recognised');
    expect(documentVerdict(both, 'voter_id')).toBe('recognised');
    expect(documentVerdict(both, 'passport')).toBe('mismatch');
  });
});

describe('findPhrase', () => {
  it('allows one wrong, missing or extra character per six after the first', () => {
    const text = foldForPhrases('xx INCOMETAXDEPARTMENT yy');
    expect(findPhrase(text, 'Income Tax Department')).toBe(true);
    // 19 characters: 3 edits allowed.
    expect(findPhrase(foldForPhrases('INCOMXTAXDEPRTMNT'), 'Income Tax Department')).toBe(true);
    expect(findPhrase(foldForPhrases('INXOMXTAXDEPRTMNT'), 'Income Tax Department')).toBe(false);
    // 7 characters: 1 edit.
    expect(findPhrase(foldForPhrases('CHASIS'), 'Chassis')).toBe(true);
    expect(findPhrase(foldForPhrases('CLASSES'), 'Chassis')).toBe(false);
    // 4 characters: exact.
    expect(findPhrase(foldForPhrases('D L  N o.'), 'DL No')).toBe(true);
    expect(findPhrase(foldForPhrases('DLN'), 'DL No')).toBe(false);
  });

  it('folds case, punctuation and look-alike characters', () => {
    expect(foldForPhrases("Elector's Name")).toBe('EIECTORSNAME');
    expect(foldForPhrases('0O Q 1Il| 5S 8B')).toBe('OOOIIIISSBB');
    expect(findPhrase(foldForPhrases('g0vernment 0f lndia'), 'Government of India')).toBe(true);
  });
});

describe('readIdDocument properties', () => {
  const anyText = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 300 }),
    fc.string({ unit: fc.constantFrom(...'AEIOULN0123456789 <\n-.'), maxLength: 300 }),
  );

  it('never throws, scores are whole and non-negative, numbers pass their rule, detected follows the scores', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const reading = readIdDocument(text);
        const best = Math.max(...ID_TYPES.map((t) => reading.scores[t]));
        for (const type of ID_TYPES) {
          expect(Number.isInteger(reading.scores[type])).toBe(true);
          expect(reading.scores[type]).toBeGreaterThanOrEqual(0);
          const number = reading.numbers[type];
          if (number !== undefined) expect(CHECKS[type](number)).toEqual({ valid: true, normalised: number });
        }
        if (best < IDENTIFIED_MIN_SCORE) expect(reading.detected).toBeNull();
        else expect(reading.scores[reading.detected!]).toBe(best);
        for (const chosen of ID_TYPES) {
          const verdict = documentVerdict(reading, chosen);
          if (reading.scores[chosen] >= IDENTIFIED_MIN_SCORE) expect(verdict).toBe('recognised');
          else expect(verdict).toBe(reading.detected === null ? 'unreadable' : 'mismatch');
        }
      }),
      { numRuns: 300 },
    );
  });

  const planted: Record<IdType, fc.Arbitrary<string>> = {
    aadhaar: validAadhaar,
    voter_id: validVoterId,
    driving_licence: validDrivingLicence(new Date().getFullYear()),
    passport: validPassport,
    pan: validPan,
    vehicle_rc: validVehicleRc,
  };

  it.each(ID_TYPES)('a valid %s number planted in random text gives that type a score', (type) => {
    fc.assert(
      fc.property(
        anyText,
        planted[type],
        anyText,
        fc.constantFrom(' ', '\n', '\t'),
        (before, number, after, gap) => {
          const reading = readIdDocument(`${before}${gap}${number}${gap}${after}`);
          expect(reading.scores[type]).toBeGreaterThan(0);
          expect(reading.numbers[type]).toBeDefined();
        },
      ),
      { numRuns: 150 },
    );
  });

  it.each(ID_TYPES)('a header of a %s in any case and spacing identifies it', (type) => {
    const headers = ID_CLUES[type].filter((c) => c.weight >= IDENTIFIED_MIN_SCORE && !c.pattern);
    expect(headers.length).toBeGreaterThan(0);
    fc.assert(
      fc.property(
        fc.constantFrom(...headers),
        fc.array(fc.boolean(), { minLength: 80, maxLength: 80 }),
        fc.array(fc.constantFrom('', '', ' ', '  '), { minLength: 80, maxLength: 80 }),
        (clue, lower, gaps) => {
          const text = clue.all
            .join('\n')
            .split('')
            .map((c, i) => (lower[i % 80] ? c.toLowerCase() : c.toUpperCase()) + gaps[i % 80])
            .join('');
          expect(documentVerdict(readIdDocument(text), type)).toBe('recognised');
        },
      ),
      { numRuns: 50 },
    );
  });
});
