// Pruning a font keeps the outlines of the glyphs asked for, empties the others, and keeps every
// glyph id and width. (Fontsource's Be Vietnam Pro has no composite glyphs: its accented letters
// are outlines of their own, so the component walk is not exercised by these files.)
import * as fontkit from 'fontkit';
import { describe, expect, it } from 'vitest';
import { loadFonts } from './fonts';
import { parseTrueType, pruneTrueType } from './truetype-prune';

describe('pruneTrueType', () => {
  const vietnamese = loadFonts().get(700)!.find((font) => font.name === 'bvp-700-vietnamese')!;
  const original = vietnamese.font;
  const parsed = parseTrueType(vietnamese.buffer);
  const kept = original.glyphForCodePoint('ễ'.codePointAt(0)!);
  const dropped = original.glyphForCodePoint('Ữ'.codePointAt(0)!);
  const pruned = fontkit.create(pruneTrueType(parsed, [kept.id]));

  it('keeps the glyph ids, their count and the widths', () => {
    expect(parsed.starts.length).toBeGreaterThan(100);
    expect(pruned.getGlyph(kept.id).advanceWidth).toBe(kept.advanceWidth);
    expect(pruned.getGlyph(dropped.id).advanceWidth).toBe(dropped.advanceWidth);
  });

  it('draws the kept glyph as before, and nothing for the others', () => {
    expect(pruned.getGlyph(kept.id).path.commands).toEqual(original.getGlyph(kept.id).path.commands);
    expect(pruned.getGlyph(dropped.id).path.commands).toEqual([]);
  });
});
