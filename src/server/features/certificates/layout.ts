// The certificate's page, A4 landscape in points, as a list of shapes and texts. Both renderers
// (PDF and PNG) draw exactly this list, so the preview is the document.
import QRCode from 'qrcode';
import type { CertificateContent, CertificateImageRef } from './content';
import { textWidth, type Weight } from './fonts';

export const PAGE_WIDTH = 841.89;
export const PAGE_HEIGHT = 595.28;

export type Align = 'left' | 'center' | 'right';

export type Shape =
  | { type: 'rect'; x: number; y: number; w: number; h: number; fill?: string; stroke?: string; lineWidth?: number }
  | { type: 'line'; x1: number; y1: number; x2: number; y2: number; stroke: string; lineWidth: number }
  | { type: 'circle'; cx: number; cy: number; r: number; fill?: string; stroke?: string; lineWidth?: number }
  /** y is the baseline; x the left edge, centre or right edge by `align`. */
  | { type: 'text'; text: string; x: number; y: number; size: number; weight: Weight; color: string; align: Align }
  /** Dark squares of `cell` points, one rectangle per horizontal run: a QR code drawn as vectors. */
  | { type: 'cells'; runs: { x: number; y: number; w: number }[]; cell: number; fill: string }
  /** An uploaded image (the organiser's signature or seal, by its SHA-256), drawn in its box. */
  | { type: 'image'; sha256: string; x: number; y: number; w: number; h: number };

const COLOR = {
  paper: '#fffaf0',
  primary: '#0d5c63',
  primarySoft: '#e3f1f2',
  accent: '#e0662b',
  accentDark: '#b94b16',
  text: '#1d2b2f',
  muted: '#56656a',
};

/** The left x of a text of `width` anchored at x by align. */
export function textLeft(x: number, width: number, align: Align): number {
  return align === 'left' ? x : align === 'center' ? x - width / 2 : x - width;
}

/** A text shape whose size shrinks (never grows) so that it fits `maxWidth`. */
function fitted(text: string, x: number, y: number, size: number, weight: Weight, color: string, align: Align, maxWidth: number): Shape {
  const width = textWidth(text, weight, size);
  const fittedSize = width > maxWidth ? Math.floor((size * maxWidth * 10) / width) / 10 : size;
  return { type: 'text', text, x, y, size: fittedSize, weight, color, align };
}

const upper = (text: string) => text.toLocaleUpperCase('vi');

const SEAL_Y = 468;
const SIGNATURE_X = PAGE_WIDTH - 190;

/**
 * What every certificate shares: the frame, its ornaments, the seal and the fixed words. Drawn
 * first, under the holder's texts (nothing of it lies over a text), and the same for all.
 */
export function certificateFrame(): Shape[] {
  const W = PAGE_WIDTH;
  const H = PAGE_HEIGHT;
  const mid = W / 2;
  const shapes: Shape[] = [
    { type: 'rect', x: 0, y: 0, w: W, h: H, fill: COLOR.paper },
    { type: 'rect', x: 18, y: 18, w: W - 36, h: H - 36, stroke: COLOR.primary, lineWidth: 5 },
    { type: 'rect', x: 30, y: 30, w: W - 60, h: H - 60, stroke: COLOR.accent, lineWidth: 1.2 },
  ];
  for (const [cx, cy] of [
    [30, 30],
    [W - 30, 30],
    [30, H - 30],
    [W - 30, H - 30],
  ] as const) {
    shapes.push({ type: 'circle', cx, cy, r: 7, fill: COLOR.accent });
    shapes.push({ type: 'circle', cx, cy, r: 3, fill: COLOR.paper });
  }
  shapes.push({ type: 'text', text: 'GIẤY CHỨNG NHẬN', x: mid, y: 160, size: 44, weight: 700, color: COLOR.primary, align: 'center' });
  shapes.push({ type: 'line', x1: mid - 70, y1: 212, x2: mid + 70, y2: 212, stroke: COLOR.accent, lineWidth: 1.5 });
  shapes.push({ type: 'circle', cx: mid, cy: SEAL_Y, r: 40, fill: COLOR.primarySoft, stroke: COLOR.accent, lineWidth: 2 });
  shapes.push({ type: 'circle', cx: mid, cy: SEAL_Y, r: 33, stroke: COLOR.primary, lineWidth: 0.8 });
  shapes.push({ type: 'text', text: 'BAN TỔ CHỨC', x: SIGNATURE_X, y: 462, size: 13, weight: 700, color: COLOR.primary, align: 'center' });
  return shapes;
}

/** The texts that come from the certificate's content, drawn over the frame. */
export function certificateTexts(content: CertificateContent): Shape[] {
  const mid = PAGE_WIDTH / 2;
  const shapes: Shape[] = [];
  // Head: organiser, contest, kind.
  shapes.push(fitted(upper(content.organiser), mid, 74, 11, 600, COLOR.primary, 'center', 700));
  shapes.push(fitted(content.contest, mid, 94, 12, 400, COLOR.muted, 'center', 700));
  shapes.push(fitted(upper(content.subtitle), mid, 194, 17, 600, COLOR.accentDark, 'center', 700));

  // The holder.
  shapes.push({ type: 'text', text: content.intro, x: mid, y: 250, size: 14, weight: 400, color: COLOR.text, align: 'center' });
  shapes.push(fitted(content.name, mid, 298, 36, 700, COLOR.accentDark, 'center', 660));
  content.lines.forEach((line, index) => {
    shapes.push(fitted(line, mid, 336 + index * 26, 15, 400, COLOR.text, 'center', 700));
  });

  // The seal's year; date and organiser (right), code and verification (left).
  shapes.push({ type: 'text', text: content.year, x: mid, y: SEAL_Y + 7, size: 20, weight: 700, color: COLOR.primary, align: 'center' });
  shapes.push({ type: 'text', text: `Ngày ${content.date}`, x: SIGNATURE_X, y: 440, size: 12, weight: 400, color: COLOR.text, align: 'center' });
  shapes.push(fitted(content.organiser, SIGNATURE_X, 530, 9, 400, COLOR.muted, 'center', 250));
  shapes.push({ type: 'text', text: `Mã chứng nhận: ${content.code}`, x: 62, y: 506, size: 10, weight: 600, color: COLOR.text, align: 'left' });
  shapes.push(fitted(`Xác minh tại: ${content.verifyUrl}`, 62, 522, 9, 400, COLOR.muted, 'left', 300));
  shapes.push(qrShape(content.verifyUrl));
  return shapes;
}

/** The QR code of the verification address: its symbol's side in points (2.68 cm) and top-left corner. */
export const QR_SIZE = 76;
const QR_X = 62;
const QR_Y = 410;

/**
 * The verification address as a QR code (error correction M: a 50-character address is a 33 x 33
 * symbol, modules of 0.8 mm at A4). Nothing is drawn within four modules of it (the quiet zone).
 */
export function qrShape(text: string, x = QR_X, y = QR_Y, size = QR_SIZE): Shape {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const cell = size / modules.size;
  const runs: { x: number; y: number; w: number }[] = [];
  for (let row = 0; row < modules.size; row++) {
    for (let col = 0; col < modules.size; ) {
      if (!modules.get(row, col)) {
        col++;
        continue;
      }
      const start = col;
      while (col < modules.size && modules.get(row, col)) col++;
      runs.push({ x: x + start * cell, y: y + row * cell, w: (col - start) * cell });
    }
  }
  return { type: 'cells', runs, cell, fill: '#000000' };
}

/** An image of `ref`'s proportions, as large as fits the box centred on (cx, cy). */
function fittedImage(ref: CertificateImageRef, cx: number, cy: number, boxW: number, boxH: number): Shape {
  const scale = Math.min(boxW / ref.width, boxH / ref.height);
  const w = ref.width * scale;
  const h = ref.height * scale;
  return { type: 'image', sha256: ref.sha256, x: cx - w / 2, y: cy - h / 2, w, h };
}

/**
 * The organiser's seal and signature (settings), over the texts as a stamp is: the signature
 * between "BAN TỔ CHỨC" and the organiser's name, the seal over its left part.
 */
export function certificateImages(content: Pick<CertificateContent, 'signature' | 'seal'>): Shape[] {
  const shapes: Shape[] = [];
  if (content.signature) shapes.push(fittedImage(content.signature, SIGNATURE_X, 494, 170, 50));
  if (content.seal) shapes.push(fittedImage(content.seal, SIGNATURE_X - 52, 492, 66, 66));
  return shapes;
}

/** The whole page: the frame, then the holder's texts. */
export function certificateLayout(content: CertificateContent): Shape[] {
  return [...certificateFrame(), ...certificateTexts(content), ...certificateImages(content)];
}
