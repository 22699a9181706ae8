// Issue 37, part 3: certificates ready to print. The organiser uploads the signature and the seal
// in the contest settings (a wrong file is refused with its reason); the school administrator
// builds the PDF of one class on the report page, watches its progress and downloads it: one A4
// page a certificate, each with the QR code, the signature and the seal. Publishing results
// cannot be undone, so the spec has a server of its own, prepared with the demo results published.
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { DEMO_ORGANISER, DEMO_SCHOOL_ADMIN, expect, expectAccessible, ok, phoneViewport, storeSession, test } from './fixtures';
import { startOwnServer } from './servers';
import { opaquePng, sealPng, signaturePng } from '../src/server/test/certificate-images';

let server: Awaited<ReturnType<typeof startOwnServer>> | undefined;
const dir = mkdtempSync(join(tmpdir(), 'certificate-printing-e2e-'));

test.beforeAll(async () => {
  test.setTimeout(240_000);
  server = await startOwnServer(7, 'certificate-printing', { prepare: ['demo-results', '--publish'] });
});
test.afterAll(async () => {
  await server?.stop();
});

async function login(request: APIRequestContext, account: { phone: string; password: string }) {
  const body = await ok(await request.post('/api/login', { data: account }));
  return { token: body.access_token as string, user: body.user, headers: { authorization: `Bearer ${body.access_token}` } };
}

test('the organiser uploads the signature and the seal; a school administrator prints a class in one PDF', async ({ page, playwright }) => {
  test.setTimeout(240_000);
  const request = await playwright.request.newContext({ baseURL: server!.url });

  // The organiser: the settings' card of the signature and the seal.
  const organiser = await login(request, DEMO_ORGANISER);
  await storeSession(page.context(), server!.url, organiser);
  await page.goto(`${server!.url}/quan-tri/cuoc-thi`);
  const card = page.getByRole('region', { name: 'Chữ ký và con dấu trên giấy chứng nhận' });
  await expect(card.getByText('Chưa có ảnh')).toHaveCount(2);
  await card.getByLabel('Chữ ký của ban tổ chức (PNG nền trong suốt)').setInputFiles({ name: 'chu-ky.png', mimeType: 'image/png', buffer: await opaquePng() });
  await expect(card.getByRole('alert')).toHaveText('Ảnh cần có nền trong suốt (PNG có kênh alpha), để in chồng lên giấy chứng nhận.');
  await card.getByLabel('Chữ ký của ban tổ chức (PNG nền trong suốt)').setInputFiles({ name: 'chu-ky.png', mimeType: 'image/png', buffer: await signaturePng() });
  await expect(card.getByRole('img', { name: 'Chữ ký của ban tổ chức' })).toBeVisible();
  await expect(card.getByText(/chu-ky\.png · 600 × 200 điểm ảnh · tải lên \d\d:\d\d \d\d\/\d\d\/\d{4}/)).toBeVisible();
  await card.getByLabel('Con dấu của ban tổ chức (PNG nền trong suốt)').setInputFiles({ name: 'con-dau.png', mimeType: 'image/png', buffer: await sealPng() });
  await expect(card.getByRole('img', { name: 'Con dấu của ban tổ chức' })).toBeVisible();
  await expect(card.getByRole('alert')).toHaveCount(0);
  await expectAccessible(page, 'quan-tri/cuoc-thi, chữ ký và con dấu');

  // The school administrator, on a phone: the report's print card.
  const admin = await login(request, DEMO_SCHOOL_ADMIN);
  await page.setViewportSize(phoneViewport);
  await storeSession(page.context(), server!.url, admin);
  await page.goto(`${server!.url}/bao-cao`);
  const print = page.getByRole('region', { name: 'In giấy chứng nhận' });
  await expect(print).toBeVisible({ timeout: 30_000 });
  await expectAccessible(page, 'bao-cao, in giấy chứng nhận');
  await print.getByLabel('Giấy chứng nhận của').selectOption({ label: 'Lớp 2A1' });
  // Right after the results are published the background job is still issuing the certificates:
  // the page says so, and a moment later the build starts.
  await expect(async () => {
    await print.getByRole('button', { name: 'Tạo tệp PDF' }).click();
    await expect(print.getByRole('progressbar')).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 90_000, intervals: [3000] });
  await expect(print.getByText(/Đang tạo tệp của lớp 2A1: [\d.]+\/[\d.]+ giấy chứng nhận/)).toBeVisible();
  await expect(print.getByText(/Tệp của lớp 2A1 đã sẵn sàng: [\d.]+ giấy chứng nhận/)).toBeVisible({ timeout: 60_000 });
  const pages = Number(/sẵn sàng: ([\d.]+)/.exec((await print.getByText(/đã sẵn sàng/).textContent())!)![1]!.replace(/\./g, ''));
  expect(pages).toBeGreaterThan(1);

  const [download] = await Promise.all([page.waitForEvent('download'), print.getByRole('button', { name: 'Tải tệp PDF' }).click()]);
  expect(download.suggestedFilename()).toBe('giay-chung-nhan-lop-2A1.pdf');
  const file = join(dir, download.suggestedFilename());
  await download.saveAs(file);
  const info = execFileSync('/usr/bin/pdfinfo', [file], { encoding: 'utf8' });
  expect(info).toMatch(new RegExp(`Pages:\\s+${pages}\\n`));
  expect(info).toMatch(/Page size:\s+841\.89 x 595\.28 pts/);
  // Every page's signature and seal are the same two images, written once with their masks.
  const images = execFileSync('/usr/bin/pdfimages', ['-list', file], { encoding: 'utf8' });
  expect(images).toMatch(/\s600\s+200\s+rgb\s/);
  // The first page's QR code reads as its certificate's verification address.
  execFileSync('/usr/bin/pdftoppm', ['-r', '150', '-png', '-f', '1', '-l', '1', '-singlefile', file, join(dir, 'first')]);
  const address = execFileSync('/usr/bin/zbarimg', ['-q', '--raw', join(dir, 'first.png')], { encoding: 'utf8' }).trim();
  expect(address).toMatch(/\/xac-minh\/[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/);
  const code = address.split('/').at(-1)!;
  const verified = (await ok(await request.get(`/api/certificates/verify/${code}`))).data;
  expect(verified.code).toBe(code);
  expect(verified.revoked).toBeUndefined();
  await request.dispose();
});
