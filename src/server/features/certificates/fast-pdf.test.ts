// The PDF assembled from the shared template: a valid document whose text (pdftotext, poppler)
// reads back the holder's Vietnamese name and the code; and the pdfkit fallback for text the
// shared fonts do not carry; several certificates in one file (a school's bundle), a page pdfkit
// drew among them.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { prizeContent } from './content';
import { CertificatesPdfWriter, fastCertificatePdf } from './fast-pdf';
import { renderCertificatePdf } from './render';
import { checkCertificateImage, decodePrintImage } from './images';
import { signaturePng } from '../../test/certificate-images';

const PDFTOTEXT = '/usr/bin/pdftotext';

const content = (fullname: string) =>
  prizeContent(
    { organiser: 'Sở Giáo dục và Đào tạo', contest: 'Cuộc thi Đại sứ Văn hoá đọc 2026', year: '2026', code: 'QX7P-M2KD-9RTA', verifyUrl: 'https://vanhoadoc.example.vn/xac-minh/QX7P-M2KD-9RTA', signature: null, seal: null },
    { fullname, className: '5A', school: 'Trường Tiểu học Nguyễn Bỉnh Khiêm', book: 'Dế Mèn phiêu lưu ký' },
    'Giải Nhì',
    '30/06/2026',
  );

function pdfText(pdf: Buffer): string {
  const dir = mkdtempSync(join(tmpdir(), 'certificate-'));
  writeFileSync(join(dir, 'c.pdf'), pdf);
  return execFileSync(PDFTOTEXT, ['-layout', join(dir, 'c.pdf'), '-'], { encoding: 'utf8' });
}

describe('the fast certificate PDF', () => {
  it('reads back the holder, the lines and the code', () => {
    const pdf = fastCertificatePdf(content('Huỳnh Thị Quỳnh Hương'), { title: 'Giấy chứng nhận đạt Giải Nhì', code: 'QX7P-M2KD-9RTA' });
    expect(pdf).toBeDefined();
    const text = pdfText(pdf!);
    expect(text).toContain('Huỳnh Thị Quỳnh Hương');
    expect(text).toContain('Mã chứng nhận: QX7P-M2KD-9RTA');
    expect(text).toContain('GIẤY CHỨNG NHẬN');
    expect(text).toContain('ĐẠT GIẢI NHÌ');
    expect(text).toContain('“Dế Mèn phiêu lưu ký”');
    expect(text).toContain('Ngày 30/06/2026');
  });

  it('keeps the document info in Vietnamese', () => {
    const pdf = fastCertificatePdf(content('Ngô Bảo Châu'), { title: 'Giấy chứng nhận đạt Giải Nhì', code: 'QX7P-M2KD-9RTA' })!;
    const info = execFileSync('/usr/bin/pdfinfo', ['-'], { input: pdf, encoding: 'utf8' });
    expect(info).toMatch(/Title:\s+Giấy chứng nhận đạt Giải Nhì/);
    expect(info).toMatch(/Pages:\s+1/);
    expect(info).toMatch(/Page size:\s+841\.89 x 595\.28 pts/);
  });

  it('leaves a name the shared fonts lack to pdfkit, which still draws it', async () => {
    const foreign = content('Zoë Łukasz');
    expect(fastCertificatePdf(foreign, { title: foreign.title, code: foreign.code })).toBeUndefined();
    const pdf = await renderCertificatePdf(foreign);
    expect(pdfText(pdf)).toContain('Zoë Łukasz');
  });

  it("writes several certificates in one file, one A4 page each, with a page pdfkit drew among them", async () => {
    const names = ['Huỳnh Thị Quỳnh Hương', 'Zoë Łukasz', 'Ngô Bảo Châu'];
    const checked = await checkCertificateImage(await signaturePng());
    const signature = { sha256: 'a'.repeat(64), width: checked.width, height: checked.height };
    const images = new Map([[signature.sha256, await decodePrintImage(signature.sha256, checked.png)]]);
    const signed = (name: string) => ({ ...content(name), signature });
    const writer = new CertificatesPdfWriter({ title: 'Giấy chứng nhận lớp 5A', code: '3 giấy chứng nhận' }, images);
    for (const name of names) if (!writer.add(signed(name))) writer.addPdfPage(await renderCertificatePdf(signed(name), images));
    const pdf = writer.finish();
    const info = execFileSync('/usr/bin/pdfinfo', ['-'], { input: pdf, encoding: 'utf8' });
    expect(info).toMatch(/Pages:\s+3\n/);
    expect(info).toMatch(/Page size:\s+841\.89 x 595\.28 pts/);
    // Each page reads back its own holder, in order.
    const dir = mkdtempSync(join(tmpdir(), 'certificates-'));
    writeFileSync(join(dir, 'all.pdf'), pdf);
    names.forEach((name, index) => {
      const page = execFileSync(PDFTOTEXT, ['-f', String(index + 1), '-l', String(index + 1), join(dir, 'all.pdf'), '-'], { encoding: 'utf8' });
      expect(page).toContain(name);
      expect(page).toContain('GIẤY CHỨNG NHẬN');
    });
    // The signature on every page, with its mask: one object for the template's two pages, pdfkit's own on its page.
    const list = execFileSync('/usr/bin/pdfimages', ['-list', join(dir, 'all.pdf')], { encoding: 'utf8' });
    const uses = [...list.matchAll(/^\s*(\d+)\s+\d+\s+image\s+600\s+200\s+rgb\s.*?\s(\d+)\s+0\s/gm)].map((m) => ({ page: Number(m[1]), object: Number(m[2]) }));
    expect(uses.map((use) => use.page)).toEqual([1, 2, 3]);
    expect(uses[0]!.object).toBe(uses[2]!.object);
    expect(uses[1]!.object).not.toBe(uses[0]!.object);
    expect(list.match(/\ssmask\s/g)).toHaveLength(3);
    // poppler finds nothing broken (a syntax error is reported on stderr).
    const drawn = spawnSync('/usr/bin/pdftoppm', ['-r', '10', '-png', join(dir, 'all.pdf'), join(dir, 'page')], { encoding: 'utf8' });
    expect(drawn.status).toBe(0);
    expect(drawn.stderr).toBe('');
  });
});
