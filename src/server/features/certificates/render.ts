// Draws a certificate layout as an A4 landscape PDF (pdfkit, Be Vietnam Pro embedded) and as a
// PNG preview (SVG of shapes and glyph outlines, rasterised by sharp: no system font involved).
import sharp from 'sharp';
import { pdfkitDocument, runWidth, textPath, textRuns, textWidth } from './fonts';
import { certificateLayout, PAGE_HEIGHT, PAGE_WIDTH, textLeft, type Shape } from './layout';
import type { CertificateContent } from './content';
import { fastCertificatePdf } from './fast-pdf';
import type { PrintImages } from './images';

/** The certificate's PDF: assembled from the shared template, or drawn by pdfkit when its text needs other glyphs. */
export async function renderCertificatePdf(content: CertificateContent, images: PrintImages = new Map()): Promise<Buffer> {
  const meta = { title: content.title, code: content.code };
  return fastCertificatePdf(content, meta, images) ?? renderPdf(certificateLayout(content), meta, images);
}

export const renderCertificatePng = (content: CertificateContent, images: PrintImages = new Map()) => renderPng(certificateLayout(content), 1400, images);

export const renderPdf = (shapes: readonly Shape[], meta: { title: string; code: string }, images: PrintImages = new Map()) => renderPdfPages([shapes], meta, images);

/** Draws pages with pdfkit, one A4 landscape page each. */
export async function renderPdfPages(pages: readonly (readonly Shape[])[], meta: { title: string; code: string }, images: PrintImages = new Map()): Promise<Buffer> {
  const { doc, finish } = pdfkitDocument({
    size: 'A4',
    layout: 'landscape',
    margin: 0,
    info: { Title: meta.title, Subject: meta.code, Creator: 'Cuộc thi Đại sứ Văn hoá đọc' },
  });

  for (const shapes of pages) {
  doc.addPage();
  for (const shape of shapes) {
    switch (shape.type) {
      case 'rect':
        doc.save().lineWidth(shape.lineWidth ?? 1).rect(shape.x, shape.y, shape.w, shape.h);
        if (shape.fill && shape.stroke) doc.fillAndStroke(shape.fill, shape.stroke);
        else if (shape.fill) doc.fill(shape.fill);
        else if (shape.stroke) doc.stroke(shape.stroke);
        doc.restore();
        break;
      case 'line':
        doc.save().lineWidth(shape.lineWidth).moveTo(shape.x1, shape.y1).lineTo(shape.x2, shape.y2).stroke(shape.stroke).restore();
        break;
      case 'circle':
        doc.save().lineWidth(shape.lineWidth ?? 1).circle(shape.cx, shape.cy, shape.r);
        if (shape.fill && shape.stroke) doc.fillAndStroke(shape.fill, shape.stroke);
        else if (shape.fill) doc.fill(shape.fill);
        else if (shape.stroke) doc.stroke(shape.stroke);
        doc.restore();
        break;
      case 'text': {
        let penX = textLeft(shape.x, textWidth(shape.text, shape.weight, shape.size), shape.align);
        for (const run of textRuns(shape.text, shape.weight)) {
          doc.font(run.font.name).fontSize(shape.size).fillColor(shape.color);
          doc.text(run.text, penX, shape.y, { lineBreak: false, baseline: 'alphabetic' });
          penX += runWidth(run, shape.size);
        }
        break;
      }
      case 'cells':
        doc.save();
        for (const run of shape.runs) doc.rect(run.x, run.y, run.w, shape.cell);
        doc.fill(shape.fill).restore();
        break;
      case 'image': {
        const image = images.get(shape.sha256);
        if (image) doc.image(image.png, shape.x, shape.y, { width: shape.w, height: shape.h });
        break;
      }
    }
  }
  }
  return finish();
}

const escapeAttribute = (value: string) => value.replace(/[&"<>]/g, (c) => ({ '&': '&amp;', '"': '&quot;', '<': '&lt;', '>': '&gt;' })[c]!);

export function renderSvg(shapes: readonly Shape[], images: PrintImages = new Map()): string {
  const body = shapes.map((shape) => {
    const paint = (fill?: string, stroke?: string, lineWidth?: number) =>
      `fill="${fill ? escapeAttribute(fill) : 'none'}"${stroke ? ` stroke="${escapeAttribute(stroke)}" stroke-width="${lineWidth ?? 1}"` : ''}`;
    switch (shape.type) {
      case 'rect':
        return `<rect x="${shape.x}" y="${shape.y}" width="${shape.w}" height="${shape.h}" ${paint(shape.fill, shape.stroke, shape.lineWidth)}/>`;
      case 'line':
        return `<line x1="${shape.x1}" y1="${shape.y1}" x2="${shape.x2}" y2="${shape.y2}" stroke="${escapeAttribute(shape.stroke)}" stroke-width="${shape.lineWidth}"/>`;
      case 'circle':
        return `<circle cx="${shape.cx}" cy="${shape.cy}" r="${shape.r}" ${paint(shape.fill, shape.stroke, shape.lineWidth)}/>`;
      case 'text': {
        const left = textLeft(shape.x, textWidth(shape.text, shape.weight, shape.size), shape.align);
        return `<path fill="${escapeAttribute(shape.color)}" d="${textPath(shape.text, shape.weight, shape.size, left, shape.y)}"/>`;
      }
      case 'cells':
        return `<path fill="${escapeAttribute(shape.fill)}" d="${shape.runs.map((run) => `M${run.x} ${run.y}h${run.w}v${shape.cell}h${-run.w}z`).join('')}"/>`;
      case 'image': {
        const image = images.get(shape.sha256);
        return image ? `<image x="${shape.x}" y="${shape.y}" width="${shape.w}" height="${shape.h}" preserveAspectRatio="none" href="data:image/png;base64,${image.png.toString('base64')}"/>` : '';
      }
    }
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}" width="${PAGE_WIDTH}" height="${PAGE_HEIGHT}">${body.join('')}</svg>`;
}

/** PNG preview, `widthPx` wide (A4 proportions). */
export async function renderPng(shapes: readonly Shape[], widthPx = 1400, images: PrintImages = new Map()): Promise<Buffer> {
  const density = (72 * widthPx) / PAGE_WIDTH;
  return sharp(Buffer.from(renderSvg(shapes, images)), { density }).png({ compressionLevel: 9, palette: true, quality: 90 }).toBuffer();
}
