// The part of fontkit (a dependency of pdfkit, which ships no types) that the certificates use.
declare module 'fontkit' {
  export interface PathCommand {
    command: 'moveTo' | 'lineTo' | 'quadraticCurveTo' | 'bezierCurveTo' | 'closePath';
    args: number[];
  }
  export interface Glyph {
    id: number;
    advanceWidth: number;
    codePoints: number[];
    path: { commands: PathCommand[] };
  }
  export interface GlyphPosition {
    xAdvance: number;
    yAdvance: number;
    xOffset: number;
    yOffset: number;
  }
  export interface GlyphRun {
    glyphs: Glyph[];
    positions: GlyphPosition[];
    advanceWidth: number;
  }
  export interface Font {
    unitsPerEm: number;
    ascent: number;
    descent: number;
    hasGlyphForCodePoint(codePoint: number): boolean;
    postscriptName: string;
    capHeight: number;
    bbox: { minX: number; minY: number; maxX: number; maxY: number };
    glyphForCodePoint(codePoint: number): Glyph;
    getGlyph(id: number): Glyph;
    layout(text: string, features?: Record<string, boolean>): GlyphRun;
    createSubset(): Subset;
  }
  export interface Subset {
    /** The glyph's id in the subset. */
    includeGlyph(glyph: Glyph | number): number;
    encode(): Uint8Array;
    /** Original ids of the glyphs in the subset, by subset id. */
    glyphs: number[];
  }
  export function create(buffer: Buffer | Uint8Array, postscriptName?: string): Font;
}
