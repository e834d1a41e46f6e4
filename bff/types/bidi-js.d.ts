/** The part of bidi-js (Unicode Bidirectional Algorithm, UAX #9) the contract PDF uses; indices are UTF-16 code units. */
declare module 'bidi-js' {
  export interface EmbeddingLevels {
    /** The resolved embedding level of each code unit: odd is right to left. */
    levels: Uint8Array;
    paragraphs: { start: number; end: number; level: number }[];
  }
  export interface Bidi {
    getEmbeddingLevels(text: string, explicitDirection?: 'ltr' | 'rtl'): EmbeddingLevels;
    /** Ranges (inclusive) to reverse, in order, to turn [start, end] into visual order. */
    getReorderSegments(
      text: string,
      levels: EmbeddingLevels,
      start?: number,
      end?: number,
    ): [number, number][];
    /**
     * Code unit index → mirrored character, for the right-to-left ones among [start, end]. Takes the
     * `levels` array itself (bidi-js 1.1 indexes its argument directly, whatever its README says).
     */
    getMirroredCharactersMap(
      text: string,
      levels: Uint8Array,
      start?: number,
      end?: number,
    ): Map<number, string>;
  }
  export default function bidiFactory(): Bidi;
}
