// Be Vietnam Pro for the certificates, from @fontsource/be-vietnam-pro (WOFF). Fontsource ships
// the family split in unicode subsets (latin, latin-ext, vietnamese), so a Vietnamese name needs
// glyphs of several files: text is cut into runs, each drawn with the first subset that has its
// characters. The same runs and measures serve the PDF (pdfkit embeds the subsets) and the PNG
// preview (glyph outlines turned into SVG paths), so both show the same layout without any
// system font.
import PDFDocument from 'pdfkit';
import { readFileSync } from 'node:fs';
import { inflateSync } from 'node:zlib';
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

/**
 * The TrueType font inside a WOFF file (its tables inflated once). fontkit reads a WOFF font's
 * tables by inflating them again on each access, which made every glyph lookup cost a table.
 */
export function woffToTrueType(woff: Buffer): Buffer {
  if (woff.toString('latin1', 0, 4) !== 'wOFF') return woff;
  const count = woff.readUInt16BE(12);
  const tables: { tag: string; data: Buffer; checksum: number }[] = [];
  for (let i = 0; i < count; i++) {
    const entry = 44 + i * 20;
    const offset = woff.readUInt32BE(entry + 4);
    const compressed = woff.readUInt32BE(entry + 8);
    const original = woff.readUInt32BE(entry + 12);
    const raw = woff.subarray(offset, offset + compressed);
    tables.push({ tag: woff.toString('latin1', entry, entry + 4), data: compressed < original ? inflateSync(raw) : raw, checksum: woff.readUInt32BE(entry + 16) });
  }
  const entrySelector = Math.floor(Math.log2(count));
  const searchRange = 2 ** entrySelector * 16;
  const directory = Buffer.alloc(12 + count * 16);
  directory.writeUInt32BE(woff.readUInt32BE(4), 0);
  directory.writeUInt16BE(count, 4);
  directory.writeUInt16BE(searchRange, 6);
  directory.writeUInt16BE(entrySelector, 8);
  directory.writeUInt16BE(count * 16 - searchRange, 10);
  const bodies: Buffer[] = [];
  let offset = directory.length;
  tables.forEach((table, i) => {
    const record = 12 + i * 16;
    directory.write(table.tag, record, 4, 'latin1');
    directory.writeUInt32BE(table.checksum, record + 4);
    directory.writeUInt32BE(offset, record + 8);
    directory.writeUInt32BE(table.data.length, record + 12);
    const padding = (4 - (table.data.length % 4)) % 4;
    bodies.push(table.data, Buffer.alloc(padding));
    offset += table.data.length + padding;
  });
  return Buffer.concat([directory, ...bodies]);
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
        const buffer = woffToTrueType(readFileSync(join(dir, `be-vietnam-pro-${subset}-${weight}-normal.woff`)));
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
/**
 * Shaping is most of a certificate's drawing time, and a text is measured, then drawn; many
 * texts (the contest, a school, a date) repeat from one certificate to the next. Bounded.
 */
const shaped = new Map<string, fontkit.GlyphRun>();
const SHAPED_LIMIT = 5_000;
export function shapeRun(run: TextRun): fontkit.GlyphRun {
  const key = `${run.font.name}\u0000${run.text}`;
  let glyphRun = shaped.get(key);
  if (!glyphRun) {
    if (shaped.size >= SHAPED_LIMIT) shaped.clear();
    glyphRun = run.font.font.layout(run.text, NO_LIGATURES);
    shaped.set(key, glyphRun);
  }
  return glyphRun;
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

/** A pdfkit document with the subset fonts registered; `finish()` ends it and answers its bytes. */
export function pdfkitDocument(options: PDFKit.PDFDocumentOptions): { doc: PDFKit.PDFDocument; finish: () => Promise<Buffer> } {
  const doc = new PDFDocument({ ...options, autoFirstPage: false });
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<void>((resolve, reject) => {
    doc.on('end', () => resolve());
    doc.on('error', reject);
  });
  for (const fonts of loadFonts().values()) for (const font of fonts) doc.registerFont(font.name, font.buffer);
  return {
    doc,
    finish: async () => {
      doc.end();
      await finished;
      return Buffer.concat(chunks);
    },
  };
}
