// The certificate has two renderers (decision 033): the PDF assembled from the shared template
// (fast-pdf.ts) and pdfkit's, drawn for a text the shared fonts lack (render.ts). Both read the
// same layout (layout.ts); this checks that they put it on the page alike: for each kind of
// certificate, every word poppler reads (`pdftotext -bbox`) is in both files, at the same place
// within TOLERANCE points, so a layout change cannot reach one of them only.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { participationContent, prizeContent, schoolContent, top30Content, type CertificateContent, type CommonFacts } from './content';
import { fastCertificatePdf } from './fast-pdf';
import { certificateLayout } from './layout';
import { renderCertificatePng, renderPdf } from './render';
import { checkCertificateImage, decodePrintImage, type PrintImage } from './images';
import { sealPng, signaturePng } from '../../test/certificate-images';

const PDFTOTEXT = '/usr/bin/pdftotext';
/** Points (1/72 inch) on an A4 page of 841.89 x 595.28. */
const TOLERANCE = 1;

const VERIFY_URL = 'https://vanhoadoc.example.vn/xac-minh/QX7P-M2KD-9RTA';
const pupil = { fullname: 'Huỳnh Thị Quỳnh Hương', className: '5A', school: 'Trường Tiểu học Nguyễn Bỉnh Khiêm', book: 'Dế Mèn phiêu lưu ký' };
let common: CommonFacts;
const kinds: [string, () => CertificateContent][] = [
  ['participation', () => participationContent(common, pupil, '30/06/2026')],
  ['prize', () => prizeContent(common, pupil, 'Giải Nhì', '30/06/2026')],
  ['top 30', () => top30Content(common, { ...pupil, fullname: 'Đặng Ngọc Ánh', className: '3B' }, '01/07/2026')],
  ['school', () => schoolContent(common, { name: 'Trường Tiểu học Lê Quý Đôn', address: '12 Lý Thường Kiệt, phường Hàng Bài', participants: 1234 }, 'Giải Nhất', '30/06/2026')],
];
const images = new Map<string, PrintImage>();

/** The signature and seal as an upload stores them (checkCertificateImage), ready to print. */
async function uploaded(png: Buffer) {
  const checked = await checkCertificateImage(png);
  const sha256 = createHash('sha256').update(checked.png).digest('hex');
  images.set(sha256, await decodePrintImage(sha256, checked.png));
  return { sha256, width: checked.width, height: checked.height };
}

beforeAll(async () => {
  common = {
    organiser: 'Sở Giáo dục và Đào tạo',
    contest: 'Cuộc thi Đại sứ Văn hoá đọc 2026',
    year: '2026',
    code: 'QX7P-M2KD-9RTA',
    verifyUrl: VERIFY_URL,
    signature: await uploaded(await signaturePng()),
    seal: await uploaded(await sealPng()),
  };
});

interface Word {
  text: string;
  xMin: number;
  yMin: number;
  xMax: number;
  yMax: number;
}

const dir = mkdtempSync(join(tmpdir(), 'certificate-bbox-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const entity = (text: string) => text.replace(/&(amp|lt|gt|quot|apos);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" })[e]!);

/** The words poppler reads on the page, with their boxes (points, y down from the top). */
function words(pdf: Buffer, name: string): Word[] {
  const file = join(dir, `${name}.pdf`);
  writeFileSync(file, pdf);
  const html = execFileSync(PDFTOTEXT, ['-bbox', file, '-'], { encoding: 'utf8' });
  return [...html.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)].map((m) => ({
    text: entity(m[5]!),
    xMin: Number(m[1]),
    yMin: Number(m[2]),
    xMax: Number(m[3]),
    yMax: Number(m[4]),
  }));
}

const near = (a: Word, b: Word) =>
  a.text === b.text && [a.xMin - b.xMin, a.yMin - b.yMin, a.xMax - b.xMax, a.yMax - b.yMax].every((d) => Math.abs(d) <= TOLERANCE);

/** The words of `a` that `b` has nowhere near the same place (each word of `b` used once). */
function unmatched(a: Word[], b: Word[]): string[] {
  const left = [...b];
  return a.flatMap((word) => {
    const at = left.findIndex((other) => near(word, other));
    if (at >= 0) {
      left.splice(at, 1);
      return [];
    }
    const same = b.filter((other) => other.text === word.text);
    const where = (w: Word) => `${w.xMin.toFixed(1)},${w.yMin.toFixed(1)}-${w.xMax.toFixed(1)},${w.yMax.toFixed(1)}`;
    return [`"${word.text}" at ${where(word)}; other: ${same.map(where).join(' ') || 'none'}`];
  });
}

/** The images poppler finds on the page (`pdftohtml -xml`): their boxes, in points. */
function imageBoxes(pdf: Buffer, name: string) {
  const file = join(dir, `${name}-images.pdf`);
  writeFileSync(file, pdf);
  // -zoom 1: one point a pixel; top and left from the page's top-left corner.
  const xml = execFileSync('/usr/bin/pdftohtml', ['-xml', '-stdout', '-zoom', '1', file, join(dir, `${name}-images`)], { encoding: 'utf8' });
  return [...xml.matchAll(/<image top="(\d+)" left="(\d+)" width="(\d+)" height="(\d+)"/g)].map((m) => m.slice(1, 5).map(Number));
}

/** What a phone reads from the page's QR code: the page rasterised at 150 dpi, read by zbar. */
function scanned(pdf: Buffer, name: string): string {
  const file = join(dir, `${name}-qr.pdf`);
  writeFileSync(file, pdf);
  execFileSync('/usr/bin/pdftoppm', ['-r', '150', '-png', '-singlefile', file, join(dir, `${name}-qr`)]);
  return execFileSync('/usr/bin/zbarimg', ['-q', '--raw', join(dir, `${name}-qr.png`)], { encoding: 'utf8' }).trim();
}

describe('the two certificate renderers', () => {
  const both = async (content: CertificateContent) => {
    const meta = { title: content.title, code: content.code };
    const fast = fastCertificatePdf(content, meta, images);
    expect(fast).toBeDefined();
    return { fast: fast!, drawn: await renderPdf(certificateLayout(content), meta, images) };
  };

  it('print a QR code that a phone reads as the verification address, as the preview does', async () => {
    const { fast, drawn } = await both(kinds[0]![1]());
    expect(scanned(fast, 'fast')).toBe(VERIFY_URL);
    expect(scanned(drawn, 'pdfkit')).toBe(VERIFY_URL);
    // And the PNG preview's (the same layout as an SVG, rasterised by sharp).
    writeFileSync(join(dir, 'preview.png'), await renderCertificatePng(kinds[0]![1](), images));
    expect(execFileSync('/usr/bin/zbarimg', ['-q', '--raw', join(dir, 'preview.png')], { encoding: 'utf8' }).trim()).toBe(VERIFY_URL);
  });

  it('embed the signature and the seal with their transparency, at the same places', async () => {
    const { fast, drawn } = await both(kinds[1]![1]());
    for (const [name, pdf] of [['fast', fast], ['pdfkit', drawn]] as const) {
      const file = join(dir, `${name}-list.pdf`);
      writeFileSync(file, pdf);
      const list = execFileSync('/usr/bin/pdfimages', ['-list', file], { encoding: 'utf8' });
      // The signature (600 x 200 px) and the seal (400 x 400 px), each with its soft mask (the alpha).
      expect(list).toMatch(/\s600\s+200\s+rgb\s/);
      expect(list).toMatch(/\s600\s+200\s+gray\s.*/);
      expect(list).toMatch(/\s400\s+400\s+rgb\s/);
      expect(list.match(/smask/g)?.length).toBe(2);
    }
    const fastBoxes = imageBoxes(fast, 'fast');
    expect(fastBoxes).toHaveLength(2);
    const drawnBoxes = imageBoxes(drawn, 'pdfkit');
    expect(drawnBoxes).toHaveLength(2);
    for (const [i, box] of drawnBoxes.entries()) box.forEach((value, j) => expect(Math.abs(value - fastBoxes[i]![j]!)).toBeLessThanOrEqual(TOLERANCE));
  });

  it.each(kinds)('put every word of a %s certificate at the same place', async (name, make) => {
    const content = make();
    const { fast, drawn } = await both(content);
    const fastWords = words(fast!, `${name}-fast`);
    const drawnWords = words(drawn, `${name}-pdfkit`);
    // The holder's name and the code are read at all (the comparison is not of two empty pages).
    expect(fastWords.map((w) => w.text)).toEqual(expect.arrayContaining([content.code]));
    expect(fastWords.length).toBeGreaterThan(20);
    expect(unmatched(fastWords, drawnWords)).toEqual([]);
    expect(unmatched(drawnWords, fastWords)).toEqual([]);
  });
});
