// Issue 23: the question preview of a Moodle GIFT file shows the questions read with their keys
// (text that looks like markup shown as text) and names the file kind on its button; a file with
// more problems than the page lists says how many more and gives them all as an .xlsx, each row
// beside its problems.
import { readFileSync } from 'node:fs';
import writeExcelFile from 'write-excel-file/node';
import { readFirstSheet } from '../src/server/lib/xlsx-reader';
import { DEMO_ORGANISER, expect, expectAccessible, logInAs, test } from './fixtures';

test('a GIFT file is previewed question by question with its keys, markup-looking text shown as text', async ({ page }) => {
  await logInAs(page, DEMO_ORGANISER);
  await page.goto('/quan-tri/sach');
  await page.getByRole('link', { name: 'Thánh Gióng' }).click();
  const panel = page.getByRole('region', { name: 'Nhập câu hỏi từ tệp' });
  const gift = ['::Q1:: Thẻ <b> trong câu này là chữ? {~Không =Đúng vậy ~Chưa rõ}', '', '::Q2:: Gióng cưỡi gì? {=Ngựa sắt ~Trâu}'].join('\n');
  await panel.getByLabel('Chọn tệp').setInputFiles({ name: 'gift.txt', mimeType: 'text/plain', buffer: Buffer.from(gift) });
  await panel.getByRole('button', { name: 'Kiểm tra tệp' }).click();
  const parsed = panel.locator('.parsed-questions');
  await expect(parsed).toContainText('Các câu hỏi đọc được từ tệp GIFT (2 câu)');
  await expect(parsed).toContainText('Dòng 1: Thẻ <b> trong câu này là chữ?');
  // Shown as text: no bold element came from the file.
  await expect(parsed.locator('b')).toHaveCount(0);
  await expect(parsed.getByRole('list', { name: 'Đáp án của câu ở dòng 1', exact: true }).getByRole('listitem')).toHaveText(['A. Không', 'B. Đúng vậy ✓ đáp án đúng', 'C. Chưa rõ']);
  await expect(parsed.getByRole('list', { name: 'Đáp án của câu ở dòng 3', exact: true }).getByRole('listitem')).toHaveText(['A. Ngựa sắt ✓ đáp án đúng', 'B. Trâu']);
  await expect(panel.getByRole('status')).toContainText('Tệp hợp lệ (2 câu hỏi)');
  await expect(panel.getByRole('button', { name: 'Lưu 2 câu hỏi từ tệp GIFT' })).toBeVisible();
  await expectAccessible(page, 'GIFT preview');
});

test('a file with 260 bad rows says how many problems are not listed and gives them all in an .xlsx', async ({ page }) => {
  await logInAs(page, DEMO_ORGANISER);
  await page.goto('/quan-tri/danh-muc');
  const panel = page.getByRole('region', { name: 'Nhập danh sách trường từ tệp' });
  const header = ['Quận/Huyện', 'Trường', 'Địa chỉ', 'Số học sinh'];
  const rows = Array.from({ length: 260 }, (_, i) => ['Quận Lỗi', `Trường ${i + 1}`, 'Số 1', 'nhiều']);
  const data = [header, ...rows].map((row) => row.map((value) => ({ value, type: String })));
  await panel.getByLabel('Chọn tệp').setInputFiles({ name: 'truong.xlsx', mimeType: 'application/octet-stream', buffer: Buffer.from(await writeExcelFile(data).toBuffer()) });
  await panel.getByRole('button', { name: 'Kiểm tra tệp' }).click();
  const problems = panel.getByRole('alert');
  await expect(problems).toContainText('Tệp có 260 lỗi');
  await expect(problems).toContainText('… và 60 lỗi khác.');
  await expectAccessible(page, 'import with more problems than listed');

  const [download] = await Promise.all([page.waitForEvent('download'), problems.getByRole('button', { name: /Tải toàn bộ 260 lỗi/ }).click()]);
  expect(download.suggestedFilename()).toBe('loi-truong.xlsx');
  const sheet: string[][] = [];
  for await (const { values } of readFirstSheet(readFileSync(await download.path()))) sheet.push(Array.from(values, (v) => (v == null ? '' : String(v))));
  expect(sheet).toHaveLength(261);
  expect(sheet[0]).toEqual(['Dòng', ...header, 'Lỗi']);
  expect(sheet[260]).toEqual(['261', 'Quận Lỗi', 'Trường 260', 'Số 1', 'nhiều', 'Cột Số học sinh: phải là số nguyên từ 0 đến 100.000 (đang là "nhiều")']);
});

test('classes are imported from a file under one spelling, previewed first', async ({ page }) => {
  await logInAs(page, DEMO_ORGANISER);
  await page.goto('/quan-tri/danh-muc');
  await page.getByRole('link', { name: 'Nhóm lớp và lớp' }).click();
  const panel = page.getByRole('region', { name: 'Nhập danh sách lớp từ tệp' });
  const data = [
    ['Khối', 'Tên lớp'],
    ['3', ' 3g '],
    ['Nhóm 3', 'Lớp 5g'],
  ].map((row) => row.map((value) => ({ value, type: String })));
  await panel.getByLabel('Chọn tệp').setInputFiles({ name: 'lop.xlsx', mimeType: 'application/octet-stream', buffer: Buffer.from(await writeExcelFile(data).toBuffer()) });
  await panel.getByRole('button', { name: 'Kiểm tra tệp' }).click();
  const status = panel.getByRole('status');
  await expect(status).toContainText('sẽ thêm mới 2');
  await expect(status.getByRole('listitem')).toHaveText(['Lớp 3G (Nhóm 2)', 'Lớp 5G (Nhóm 3)']);
  await expectAccessible(page, 'class import preview');
  await panel.getByRole('button', { name: 'Lưu 2 dòng' }).click();
  await expect(status).toContainText('Đã lưu: thêm mới 2');
});
