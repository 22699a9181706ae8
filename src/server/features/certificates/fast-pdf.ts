// The certificate PDF assembled from bytes: what every certificate shares (the frame, the fixed
// words, the fonts: subsets of Be Vietnam Pro covering Vietnamese, with their widths and character
// maps) is serialised once per process into a template; per certificate only a small content
// stream with the holder's texts, the font files cut down to the glyphs it draws (same glyph ids,
// truetype-prune.ts), the document info and the cross-reference table are written. A few ms of
// CPU instead of pdfkit's ~100 ms (which lays out, subsets and compresses the fonts for every
// file), and files of about 15 KB. Texts with a character outside the shared subsets return undefined: the caller then
// draws that certificate with pdfkit (render.ts), which embeds whatever the text needs.
import { deflateSync } from 'node:zlib';
import type * as fontkit from 'fontkit';
import { shapeRun, textRuns, textWidth, WEIGHTS, type LoadedFont, type Weight } from './fonts';
import { certificateFrame, certificateImages, certificateTexts, PAGE_HEIGHT, PAGE_WIDTH, textLeft, type Shape } from './layout';
import type { PrintImages } from './images';
import { importPdfPage } from './pdf-import';
import type { CertificateContent } from './content';
import { parseTrueType, pruneTrueType, type ParsedTrueType } from './truetype-prune';

/** The characters the shared fonts carry: Vietnamese, in both cases, digits and punctuation. */
const VIETNAMESE_LETTERS =
  'ÀÁÂÃÈÉÊÌÍÒÓÔÕÙÚÝàáâãèéêìíòóôõùúýĂăĐđĨĩŨũƠơƯư' +
  Array.from({ length: 0x1ef9 - 0x1ea0 + 1 }, (_, i) => String.fromCodePoint(0x1ea0 + i)).join('');
const REPERTOIRE = [...Array.from({ length: 0x7e - 0x20 + 1 }, (_, i) => String.fromCodePoint(0x20 + i)), ...VIETNAMESE_LETTERS, ...'«»–—…‘’“”·•₫°'];

interface EmbeddedFont {
  resource: string;
  loaded: LoadedFont;
  /** Glyph id in the font -> glyph id in its embedded subset (the CID, Identity-H). */
  cids: Map<number, number>;
  /** The embedded subset, parsed; its FontFile2 object is written per certificate. */
  file?: ParsedTrueType;
  fileObject?: number;
  /** CIDs the frame draws (in every certificate). */
  frameGlyphs: Set<number>;
}

interface Template {
  /** Header and the shared objects, byte for byte. */
  head: Buffer;
  /** Byte offsets of the shared objects, by object number (1-based; per-document ones unset). */
  offsets: number[];
  fonts: Map<LoadedFont, EmbeddedFont>;
  /** The page's /Font resources. */
  fontResources: string;
}

// Object numbers: the shared ones first (the template's: the frame and the fonts; and the
// catalogue, the page tree and the info, written per document), then each document's own (the font
// files, the images, each page and its holder's texts).
const CATALOG = 1;
const PAGES = 2;
const INFO = 3;
/** The pages' one resource dictionary (fonts, images), written last: images are added with the pages. */
const RESOURCES = 4;
const FRAME = 5;
const FIRST_FONT_OBJECT = 6;

const num = (value: number) => String(Math.round(value * 1000) / 1000);
const hex4 = (value: number) => value.toString(16).padStart(4, '0');
/** A PDF text string in UTF-16BE (the only way to carry Vietnamese in the document info). */
function textString(text: string): string {
  let out = '<FEFF';
  for (let i = 0; i < text.length; i++) out += hex4(text.charCodeAt(i));
  return `${out}>`;
}

function rgb(color: string): string {
  const value = parseInt(color.slice(1), 16);
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255].map((part) => num(part / 255)).join(' ');
}

/** Content-stream operators of one text shape, or undefined when a glyph is not in the shared fonts. */
/** CIDs drawn, per font. */
type UsedGlyphs = Map<EmbeddedFont, Set<number>>;

function textOperators(shape: Extract<Shape, { type: 'text' }>, fonts: Map<LoadedFont, EmbeddedFont>, used: UsedGlyphs): string | undefined {
  let penX = textLeft(shape.x, textWidth(shape.text, shape.weight, shape.size), shape.align);
  const y = PAGE_HEIGHT - shape.y;
  let out = `${rgb(shape.color)} rg\n`;
  for (const run of textRuns(shape.text, shape.weight)) {
    const embedded = fonts.get(run.font);
    if (!embedded) return undefined;
    const font = run.font.font;
    const glyphRun = shapeRun(run);
    const toThousandths = 1000 / font.unitsPerEm;
    let array = '';
    let codes = '';
    let drawn = used.get(embedded);
    if (!drawn) used.set(embedded, (drawn = new Set()));
    for (let i = 0; i < glyphRun.glyphs.length; i++) {
      const glyph = glyphRun.glyphs[i]!;
      const position = glyphRun.positions[i]!;
      const cid = embedded.cids.get(glyph.id);
      if (cid === undefined || glyph.id === 0 || position.xOffset !== 0 || position.yOffset !== 0) return undefined;
      codes += hex4(cid);
      drawn.add(cid);
      // Kerning: TJ moves left by a positive number (thousandths of the font size).
      const adjust = Math.round((glyph.advanceWidth - position.xAdvance) * toThousandths);
      if (adjust !== 0) {
        array += `<${codes}> ${adjust} `;
        codes = '';
      }
    }
    if (codes) array += `<${codes}>`;
    out += `BT /${embedded.resource} ${num(shape.size)} Tf 1 0 0 1 ${num(penX)} ${num(y)} Tm [${array}] TJ ET\n`;
    penX += (glyphRun.advanceWidth * shape.size) / font.unitsPerEm;
  }
  return out;
}

const KAPPA = 0.5522847498;

/** An image's XObject name, by SHA-256, in one document. */
type ImageNames = Map<string, string>;

function shapeOperators(shape: Exclude<Shape, { type: 'text' }>, images: ImageNames): string {
  const paint = (fill?: string, stroke?: string, lineWidth?: number) => {
    let out = `${num(lineWidth ?? 1)} w `;
    if (fill) out += `${rgb(fill)} rg `;
    if (stroke) out += `${rgb(stroke)} RG `;
    return out;
  };
  const finish = (fill?: string, stroke?: string) => (fill && stroke ? 'B' : fill ? 'f' : 'S');
  switch (shape.type) {
    case 'rect':
      return `q ${paint(shape.fill, shape.stroke, shape.lineWidth)}${num(shape.x)} ${num(PAGE_HEIGHT - shape.y - shape.h)} ${num(shape.w)} ${num(shape.h)} re ${finish(shape.fill, shape.stroke)} Q\n`;
    case 'line':
      return `q ${paint(undefined, shape.stroke, shape.lineWidth)}${num(shape.x1)} ${num(PAGE_HEIGHT - shape.y1)} m ${num(shape.x2)} ${num(PAGE_HEIGHT - shape.y2)} l S Q\n`;
    case 'circle': {
      const { r } = shape;
      const cx = shape.cx;
      const cy = PAGE_HEIGHT - shape.cy;
      const k = r * KAPPA;
      const path =
        `${num(cx + r)} ${num(cy)} m ` +
        `${num(cx + r)} ${num(cy + k)} ${num(cx + k)} ${num(cy + r)} ${num(cx)} ${num(cy + r)} c ` +
        `${num(cx - k)} ${num(cy + r)} ${num(cx - r)} ${num(cy + k)} ${num(cx - r)} ${num(cy)} c ` +
        `${num(cx - r)} ${num(cy - k)} ${num(cx - k)} ${num(cy - r)} ${num(cx)} ${num(cy - r)} c ` +
        `${num(cx + k)} ${num(cy - r)} ${num(cx + r)} ${num(cy - k)} ${num(cx + r)} ${num(cy)} c h `;
      return `q ${paint(shape.fill, shape.stroke, shape.lineWidth)}${path}${finish(shape.fill, shape.stroke)} Q\n`;
    }
    case 'cells': {
      let out = `q ${rgb(shape.fill)} rg\n`;
      for (const run of shape.runs) out += `${num(run.x)} ${num(PAGE_HEIGHT - run.y - shape.cell)} ${num(run.w)} ${num(shape.cell)} re\n`;
      return `${out}f Q\n`;
    }
    case 'image': {
      const name = images.get(shape.sha256);
      // An image no longer in the media store is left out, as pdfkit's renderer does.
      return name ? `q ${num(shape.w)} 0 0 ${num(shape.h)} ${num(shape.x)} ${num(PAGE_HEIGHT - shape.y - shape.h)} cm /${name} Do Q\n` : '';
    }
  }
}

function contentOperators(shapes: readonly Shape[], fonts: Map<LoadedFont, EmbeddedFont>, used: UsedGlyphs, images: ImageNames = new Map()): string | undefined {
  let out = '';
  for (const shape of shapes) {
    const operators = shape.type === 'text' ? textOperators(shape, fonts, used) : shapeOperators(shape, images);
    if (operators === undefined) return undefined;
    out += operators;
  }
  return out;
}

function stream(dictionary: string, data: Buffer): Buffer {
  return Buffer.concat([Buffer.from(`<< ${dictionary} /Length ${data.length} >>\nstream\n`, 'latin1'), data, Buffer.from('\nendstream', 'latin1')]);
}

/** The ToUnicode map of a subset: each CID back to the characters it draws (copy, search). */
function toUnicode(entries: [number, number[]][]): string {
  const lines: string[] = [];
  for (let i = 0; i < entries.length; i += 100) {
    const block = entries.slice(i, i + 100);
    lines.push(`${block.length} beginbfchar`);
    for (const [cid, codePoints] of block) lines.push(`<${hex4(cid)}> <${codePoints.map((cp) => String.fromCodePoint(cp)).join('').split('').map((c) => hex4(c.charCodeAt(0))).join('')}>`);
    lines.push('endbfchar');
  }
  return [
    '/CIDInit /ProcSet findresource begin',
    '12 dict begin',
    'begincmap',
    '/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def',
    '/CMapName /Adobe-Identity-UCS def',
    '/CMapType 2 def',
    '1 begincodespacerange',
    '<0000> <FFFF>',
    'endcodespacerange',
    ...lines,
    'endcmap',
    'CMapName currentdict /CMapResource defineresource pop',
    'end',
    'end',
  ].join('\n');
}

/**
 * The shared objects of one embedded subset (Type0 font, CID font, descriptor, ToUnicode; the
 * font file, object firstObject + 3, is written per certificate).
 */
function fontObjects(embedded: EmbeddedFont, subset: fontkit.Subset, firstObject: number, tag: string): Map<number, Buffer> {
  const font = embedded.loaded.font;
  const file = Buffer.from(subset.encode());
  embedded.file = parseTrueType(file);
  embedded.fileObject = firstObject + 3;
  const scale = 1000 / font.unitsPerEm;
  const widths = subset.glyphs.map((id) => Math.round(font.getGlyph(id).advanceWidth * scale));
  const unicode = [...embedded.cids.entries()]
    .map(([glyphId, cid]): [number, number[]] => [cid, font.getGlyph(glyphId).codePoints])
    .filter(([cid, codePoints]) => cid !== 0 && codePoints.length > 0)
    .sort((a, b) => a[0] - b[0]);
  const name = `${tag}+${font.postscriptName}`;
  const [cidFont, descriptor, fontFile, cmap] = [1, 2, 3, 4].map((i) => firstObject + i);
  const box = font.bbox;
  const objects = [
    Buffer.from(`<< /Type /Font /Subtype /Type0 /BaseFont /${name} /Encoding /Identity-H /DescendantFonts [${cidFont} 0 R] /ToUnicode ${cmap} 0 R >>`, 'latin1'),
    Buffer.from(
      `<< /Type /Font /Subtype /CIDFontType2 /BaseFont /${name} /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> ` +
        `/FontDescriptor ${descriptor} 0 R /CIDToGIDMap /Identity /W [0 [${widths.join(' ')}]] >>`,
      'latin1',
    ),
    Buffer.from(
      `<< /Type /FontDescriptor /FontName /${name} /Flags 32 /FontBBox [${[box.minX, box.minY, box.maxX, box.maxY].map((v) => Math.round(v * scale)).join(' ')}] ` +
        `/ItalicAngle 0 /Ascent ${Math.round(font.ascent * scale)} /Descent ${Math.round(font.descent * scale)} /CapHeight ${Math.round(font.capHeight * scale)} /StemV 80 /FontFile2 ${fontFile} 0 R >>`,
      'latin1',
    ),
    undefined,
    stream('/Filter /FlateDecode', deflateSync(Buffer.from(toUnicode(unicode), 'latin1'))),
  ];
  const out = new Map<number, Buffer>();
  objects.forEach((object, i) => object && out.set(firstObject + i, object));
  return out;
}

/** The font (of `weight`'s subsets) a character is drawn with: the same choice as textRuns. */
function fontFor(char: string, weight: Weight): LoadedFont {
  return textRuns(char, weight)[0]!.font;
}

function buildTemplate(): Template {
  // Each subset font gets the glyphs of the repertoire's characters it is chosen for.
  const fonts = new Map<LoadedFont, EmbeddedFont>();
  const subsets = new Map<LoadedFont, fontkit.Subset>();
  for (const weight of WEIGHTS) {
    for (const char of REPERTOIRE) {
      const loaded = fontFor(char, weight);
      let embedded = fonts.get(loaded);
      if (!embedded) {
        embedded = { resource: `F${fonts.size}`, loaded, cids: new Map(), frameGlyphs: new Set() };
        fonts.set(loaded, embedded);
        subsets.set(loaded, loaded.font.createSubset());
      }
      for (const glyph of shapeRun({ text: char, font: loaded }).glyphs) {
        if (glyph.id !== 0 && !embedded.cids.has(glyph.id)) embedded.cids.set(glyph.id, subsets.get(loaded)!.includeGlyph(glyph));
      }
    }
  }

  const objects = new Map<number, Buffer>();
  let next = FIRST_FONT_OBJECT;
  const fontResources: string[] = [];
  let tagIndex = 0;
  for (const embedded of fonts.values()) {
    const tag = `BVP${String.fromCharCode(65 + Math.floor(tagIndex / 26 / 26) % 26, 65 + (Math.floor(tagIndex / 26) % 26), 65 + (tagIndex % 26))}`;
    tagIndex++;
    for (const [number, object] of fontObjects(embedded, subsets.get(embedded.loaded)!, next, tag)) objects.set(number, object);
    fontResources.push(`/${embedded.resource} ${next} 0 R`);
    next += 5;
  }
  const frameUsed: UsedGlyphs = new Map();
  const frame = contentOperators(certificateFrame(), fonts, frameUsed);
  for (const [embedded, cids] of frameUsed) embedded.frameGlyphs = cids;
  if (frame === undefined) throw new Error('the certificate frame uses a character outside the shared fonts');
  objects.set(FRAME, stream('/Filter /FlateDecode', deflateSync(Buffer.from(frame, 'latin1'))));

  const parts: Buffer[] = [Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
  let length = parts[0]!.length;
  const offsets: number[] = [];
  for (const [number, body] of [...objects.entries()].sort((a, b) => a[0] - b[0])) {
    offsets[number] = length;
    const object = Buffer.concat([Buffer.from(`${number} 0 obj\n`, 'latin1'), body, Buffer.from('\nendobj\n', 'latin1')]);
    parts.push(object);
    length += object.length;
  }
  offsets.length = next;
  return { head: Buffer.concat(parts), offsets, fonts, fontResources: fontResources.join(' ') };
}

let template: Template | undefined;
const sharedTemplate = () => (template ??= buildTemplate());

/** The certificate's PDF, or undefined when its texts need a character the shared fonts lack. */
export function fastCertificatePdf(content: CertificateContent, meta: { title: string; code: string }, images: PrintImages = new Map()): Buffer | undefined {
  return fastCertificatesPdf([content], meta, images);
}

/**
 * Several certificates in one PDF, one A4 page each (a school's bundle): the fonts, the frame and
 * each image written once, each font file with the glyphs of all the pages. Undefined when a text
 * needs a character the shared fonts lack.
 */
export function fastCertificatesPdf(contents: readonly CertificateContent[], meta: { title: string; code: string }, images: PrintImages = new Map()): Buffer | undefined {
  const writer = new CertificatesPdfWriter(meta, images);
  for (const content of contents) if (!writer.add(content)) return undefined;
  return writer.finish();
}

/** The pages of a PDF of certificates, added one by one (the caller may yield in between), then written whole. */
export class CertificatesPdfWriter {
  private readonly template = sharedTemplate();
  private readonly used: UsedGlyphs = new Map();
  private readonly objects: [number, Buffer][] = [];
  private readonly names: ImageNames = new Map();
  private readonly xObjects: string[] = [];
  private readonly kids: number[] = [];
  private next = this.template.offsets.length;

  constructor(
    private readonly meta: { title: string; code: string },
    private readonly images: PrintImages,
  ) {}

  get pages(): number {
    return this.kids.length;
  }

  /** Adds a certificate's page; false (nothing added) when a text needs a character the shared fonts lack. */
  add(content: CertificateContent): boolean {
    const used: UsedGlyphs = new Map();
    const operators = contentOperators([...certificateTexts(content), ...certificateImages(content)], this.template.fonts, used, this.imageNames(content));
    if (operators === undefined) return false;
    for (const [font, cids] of used) {
      const all = this.used.get(font);
      if (all) for (const cid of cids) all.add(cid);
      else this.used.set(font, cids);
    }
    const [page, holder] = [this.next++, this.next++];
    this.kids.push(page);
    this.objects.push([page, Buffer.from(`<< /Type /Page /Parent ${PAGES} 0 R /MediaBox [0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}] /Resources ${RESOURCES} 0 R /Contents [${FRAME} 0 R ${holder} 0 R] >>`, 'latin1')]);
    this.objects.push([holder, stream('/Filter /FlateDecode', deflateSync(Buffer.from(operators, 'latin1')))]);
    return true;
  }

  /** Adds the page of a one-page PDF drawn by pdfkit (a certificate whose text the shared fonts lack). */
  addPdfPage(pdf: Buffer): void {
    const imported = importPdfPage(pdf, this.next, PAGES);
    this.objects.push(...imported.objects);
    this.kids.push(imported.page);
    this.next = imported.next;
  }

  /** The XObject names of the images a content prints, each image written once (its colours, its alpha as a soft mask). */
  private imageNames(content: CertificateContent): ImageNames {
    for (const ref of [content.signature, content.seal]) {
      const image = ref && this.images.get(ref.sha256);
      if (!image || this.names.has(image.sha256)) continue;
      const name = `Im${this.names.size}`;
      this.names.set(image.sha256, name);
      const [imageObject, maskObject] = [this.next++, this.next++];
      const size = `/Width ${image.width} /Height ${image.height} /BitsPerComponent 8`;
      this.objects.push([imageObject, stream(`/Type /XObject /Subtype /Image ${size} /ColorSpace /DeviceRGB /SMask ${maskObject} 0 R /Filter /FlateDecode`, image.rgb)]);
      this.objects.push([maskObject, stream(`/Type /XObject /Subtype /Image ${size} /ColorSpace /DeviceGray /Filter /FlateDecode`, image.alpha)]);
      this.xObjects.push(`/${name} ${imageObject} 0 R`);
    }
    return this.names;
  }

  /** The whole file: the shared objects, the pages, one resource dictionary, the font files, the cross-reference table. */
  finish(): Buffer {
    const { head, offsets, fonts, fontResources } = this.template;
    const xObjects = this.xObjects.length ? ` /XObject << ${this.xObjects.join(' ')} >>` : '';
    const objects: [number, Buffer][] = [
      ...this.objects,
      [RESOURCES, Buffer.from(`<< /ProcSet [/PDF /Text /ImageC] /Font << ${fontResources} >>${xObjects} >>`, 'latin1')],
      [CATALOG, Buffer.from(`<< /Type /Catalog /Pages ${PAGES} 0 R >>`, 'latin1')],
      [PAGES, Buffer.from(`<< /Type /Pages /Kids [${this.kids.map((kid) => `${kid} 0 R`).join(' ')}] /Count ${this.kids.length} >>`, 'latin1')],
      [INFO, Buffer.from(`<< /Title ${textString(this.meta.title)} /Subject ${textString(this.meta.code)} /Creator ${textString('Cuộc thi Đại sứ Văn hoá đọc')} /Producer (certificates) >>`, 'latin1')],
    ];
    // Each font file with the glyphs of the frame and of the pages' texts.
    for (const embedded of fonts.values()) {
      const file = pruneTrueType(embedded.file!, [...embedded.frameGlyphs, ...(this.used.get(embedded) ?? [])]);
      objects.push([embedded.fileObject!, stream(`/Filter /FlateDecode /Length1 ${file.length}`, deflateSync(file))]);
    }
    const all = [...offsets];
    all.length = this.next;
    const parts: Buffer[] = [head];
    let length = head.length;
    for (const [number, body] of objects) {
      all[number] = length;
      const object = Buffer.concat([Buffer.from(`${number} 0 obj\n`, 'latin1'), body, Buffer.from('\nendobj\n', 'latin1')]);
      parts.push(object);
      length += object.length;
    }
    let xref = `xref\n0 ${all.length}\n0000000000 65535 f \n`;
    for (let number = 1; number < all.length; number++) xref += `${String(all[number]).padStart(10, '0')} 00000 n \n`;
    xref += `trailer\n<< /Size ${all.length} /Root ${CATALOG} 0 R /Info ${INFO} 0 R >>\nstartxref\n${length}\n%%EOF\n`;
    parts.push(Buffer.from(xref, 'latin1'));
    return Buffer.concat(parts);
  }
}
