// Be Vietnam Pro for the certificates, from @fontsource/be-vietnam-pro (WOFF). Fontsource ships
// the family split in unicode subsets (latin, latin-ext, vietnamese), so a Vietnamese name needs
// glyphs of several files: text is cut into runs, each drawn with the first subset that has its
// characters. The same runs and measures serve the PDF (pdfkit embeds the subsets) and the PNG
// preview (glyph outlines turned into SVG paths), so both show the same layout without any
// system font.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import * as fontkit from 'fontkit';

export type Weight = 400 | 600 | 700;
export const WEIGHTS: readonly Weight[] = [400, 600, 700];
const SUBSETS = ['latin', 'vietnamese', 'latin-ext'] as const;
type Subset = (typeof SUBSETS)[number];

export interface LoadedFont {
  /** Name registered with pdfkit. */
  name: string;
  buffer: Buffer;
  font: fontkit.Font;
}

let cache: Map<Weight, LoadedFont[]> | undefined;

function fontDir(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@fontsource/be-vietnam-pro/package.json')), 'files');
}

/** The subsets of each weight, in fallback order. Loaded once per process. */
export function loadFonts(): Map<Weight, LoadedFont[]> {
  if (cache) return cache;
  const dir = fontDir();
  const loaded = new Map<Weight, LoadedFont[]>();
  for (const weight of WEIGHTS) {
    loaded.set(
      weight,
      SUBSETS.map((subset: Subset) => {
        const buffer = readFileSync(join(dir, `be-vietnam-pro-${subset}-${weight}-normal.woff`));
        return { name: `bvp-${weight}-${subset}`, buffer, font: fontkit.create(buffer) as fontkit.Font };
      }),
    );
  }
  cache = loaded;
  return loaded;
}

export interface TextRun {
  text: string;
  font: LoadedFont;
}

/** Cuts NFC text into runs of one subset font each (unknown characters go to the first). */
export function textRuns(text: string, weight: Weight): TextRun[] {
  const fonts = loadFonts().get(weight)!;
  const runs: TextRun[] = [];
  for (const char of text.normalize('NFC')) {
    const codePoint = char.codePointAt(0)!;
    const font = fonts.find((candidate) => candidate.font.hasGlyphForCodePoint(codePoint)) ?? fonts[0]!;
    const last = runs.at(-1);
    if (last && last.font === font) last.text += char;
    else runs.push({ text: char, font });
  }
  return runs;
}

/**
 * Glyphs and positions of a run. Ligatures are off: every glyph then stands for its own
 * characters, so the fast PDF's shared character map (fast-pdf.ts) gives back the text.
 */
const NO_LIGATURES = { liga: false, clig: false, dlig: false };
export function shapeRun(run: TextRun): fontkit.GlyphRun {
  return run.font.font.layout(run.text, NO_LIGATURES);
}

/** Advance width of one run at `size` points. */
export function runWidth(run: TextRun, size: number): number {
  return (shapeRun(run).advanceWidth * size) / run.font.font.unitsPerEm;
}

export function textWidth(text: string, weight: Weight, size: number): number {
  return textRuns(text, weight).reduce((sum, run) => sum + runWidth(run, size), 0);
}

const round = (value: number) => Math.round(value * 100) / 100;

/**
 * SVG path data of `text` drawn with its baseline starting at (x, y), y growing downwards as in
 * SVG and in the layout. Font units are scaled by size / unitsPerEm and flipped vertically.
 */
export function textPath(text: string, weight: Weight, size: number, x: number, y: number): string {
  const parts: string[] = [];
  let penX = x;
  for (const run of textRuns(text, weight)) {
    const font = run.font.font;
    const scale = size / font.unitsPerEm;
    const layout = shapeRun(run);
    layout.glyphs.forEach((glyph, index) => {
      const position = layout.positions[index]!;
      const originX = penX + position.xOffset * scale;
      const originY = y - position.yOffset * scale;
      for (const command of glyph.path.commands) {
        const args: number[] = [];
        for (let i = 0; i < command.args.length; i += 2) {
          args.push(round(originX + command.args[i]! * scale), round(originY - command.args[i + 1]! * scale));
        }
        const letter = { moveTo: 'M', lineTo: 'L', quadraticCurveTo: 'Q', bezierCurveTo: 'C', closePath: 'Z' }[command.command];
        parts.push(letter + args.join(' '));
      }
      penX += position.xAdvance * scale;
    });
  }
  return parts.join('');
}
