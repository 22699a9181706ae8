// The certificate has two renderers (decision 033): the PDF assembled from the shared template
// (fast-pdf.ts) and pdfkit's, drawn for a text the shared fonts lack (render.ts). Both read the
// same layout (layout.ts); this checks that they put it on the page alike: for each kind of
// certificate, every word poppler reads (`pdftotext -bbox`) is in both files, at the same place
// within TOLERANCE points, so a layout change cannot reach one of them only.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { participationContent, prizeContent, schoolContent, top30Content, type CertificateContent } from './content';
import { fastCertificatePdf } from './fast-pdf';
import { certificateLayout } from './layout';
import { renderPdf } from './render';

const PDFTOTEXT = '/usr/bin/pdftotext';
/** Points (1/72 inch) on an A4 page of 841.89 x 595.28. */
const TOLERANCE = 1;

const common = {
  organiser: 'Sở Giáo dục và Đào tạo',
  contest: 'Cuộc thi Đại sứ Văn hoá đọc 2026',
  year: '2026',
  code: 'QX7P-M2KD-9RTA',
  verifyUrl: 'https://vanhoadoc.example.vn/xac-minh/QX7P-M2KD-9RTA',
};
const pupil = { fullname: 'Huỳnh Thị Quỳnh Hương', className: '5A', school: 'Trường Tiểu học Nguyễn Bỉnh Khiêm', book: 'Dế Mèn phiêu lưu ký' };
const kinds: [string, CertificateContent][] = [
  ['participation', participationContent(common, pupil, '30/06/2026')],
  ['prize', prizeContent(common, pupil, 'Giải Nhì', '30/06/2026')],
  ['top 30', top30Content(common, { ...pupil, fullname: 'Đặng Ngọc Ánh', className: '3B' }, '01/07/2026')],
  ['school', schoolContent(common, { name: 'Trường Tiểu học Lê Quý Đôn', address: '12 Lý Thường Kiệt, phường Hàng Bài', participants: 1234 }, 'Giải Nhất', '30/06/2026')],
];

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

describe('the two certificate renderers', () => {
  it.each(kinds)('put every word of a %s certificate at the same place', async (name, content) => {
    const meta = { title: content.title, code: content.code };
    const fast = fastCertificatePdf(content, meta);
    expect(fast).toBeDefined();
    const drawn = await renderPdf(certificateLayout(content), meta);
    const fastWords = words(fast!, `${name}-fast`);
    const drawnWords = words(drawn, `${name}-pdfkit`);
    // The holder's name and the code are read at all (the comparison is not of two empty pages).
    expect(fastWords.map((w) => w.text)).toEqual(expect.arrayContaining([content.code]));
    expect(fastWords.length).toBeGreaterThan(20);
    expect(unmatched(fastWords, drawnWords)).toEqual([]);
    expect(unmatched(drawnWords, fastWords)).toEqual([]);
  });
});
