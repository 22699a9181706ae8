// The back office's catalogue in the browser: the organiser imports a schools file with one bad
// row, reads that row's message, fixes the file, stores it and finds the school in the list.
import writeExcelFile from 'write-excel-file/node';
import { test, expect, expectAccessible, logInAs, DEMO_ORGANISER } from './fixtures';

const columns = ['Quận/Huyện', 'Trường', 'Địa chỉ', 'Số học sinh'];

async function schoolsFile(rows: (string | number)[][]) {
  const data = [columns, ...rows].map((row) => row.map((value) => ({ value, type: typeof value === 'number' ? Number : String })));
  return Buffer.from(await writeExcelFile(data as never).toBuffer());
}

test('the organiser imports schools: sees the bad row, fixes the file, stores it and finds the school', async ({ page }) => {
  // Four accessibility scans of long tables: a few seconds each on a busy machine.
  test.setTimeout(150_000);
  const suffix = String(Date.now()).slice(-6);
  const school = `Trường Tiểu học Bình Minh ${suffix}`;
  // A district of its own that sorts after the demo ones: specs that pick "the first district"
  // in the profile form keep getting the same one.
  const district = `Xã Nhập Thử ${suffix}`;
  await logInAs(page, DEMO_ORGANISER);
  await page.goto('/quan-tri/danh-muc');
  await expect(page.getByRole('heading', { level: 1, name: 'Danh mục trường, lớp' })).toBeVisible();

  const panel = page.getByRole('region', { name: 'Nhập danh sách trường từ tệp' });
  const fileInput = panel.getByLabel('Chọn tệp');
  const xlsxType = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
  await fileInput.setInputFiles({
    name: 'truong.xlsx',
    mimeType: xlsxType,
    buffer: await schoolsFile([
      [district, school, 'Số 5 đường Bình Minh', 640],
      [district, `Trường Tiểu học Hoàng Hôn ${suffix}`, 'Xóm 2', 'khoảng 300'],
    ]),
  });
  await panel.getByRole('button', { name: 'Kiểm tra tệp' }).click();
  const problems = panel.getByRole('alert');
  await expect(problems).toContainText('Tệp có 1 lỗi');
  await expect(problems.getByRole('cell', { name: /^Dòng 3, cột Số học sinh: phải là số nguyên/ })).toBeVisible();
  await expectAccessible(page, 'catalogue import with a problem');

  await fileInput.setInputFiles({
    name: 'truong.xlsx',
    mimeType: xlsxType,
    buffer: await schoolsFile([
      [district, school, 'Số 5 đường Bình Minh', 640],
      [district, `Trường Tiểu học Hoàng Hôn ${suffix}`, 'Xóm 2', 300],
    ]),
  });
  await panel.getByRole('button', { name: 'Kiểm tra tệp' }).click();
  await expect(panel.getByRole('status')).toContainText('sẽ thêm mới 2');
  await expect(panel.getByRole('status')).toContainText(`Sẽ thêm mới vào danh mục:`);
  await expect(panel.getByRole('status')).toContainText(`Trường ${school} (${district})`);
  await panel.getByRole('button', { name: 'Lưu 2 dòng' }).click();
  await expect(panel.getByRole('status')).toContainText('Đã lưu: thêm mới 2');

  // A re-import that changes a pupil count says which school and what changes before it is stored.
  await fileInput.setInputFiles({ name: 'truong.xlsx', mimeType: xlsxType, buffer: await schoolsFile([[district, school, 'Số 5 đường Bình Minh', 650]]) });
  await panel.getByRole('button', { name: 'Kiểm tra tệp' }).click();
  await expect(panel.getByRole('status')).toContainText('Sẽ cập nhật:');
  await expect(panel.getByRole('status')).toContainText(`${district} / ${school}: Số học sinh 640 → 650`);
  await expectAccessible(page, 'catalogue import preview with an update');

  const schools = page.getByRole('region', { name: 'Trường', exact: true });
  await schools.getByLabel('Tìm trường (tên, địa chỉ)').fill(school);
  await schools.getByRole('button', { name: 'Tìm' }).click();
  const row = schools.getByRole('row').filter({ hasText: school });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(district);
  await expect(row).toContainText('640');
  await expectAccessible(page, 'catalogue after the import');

  // The other parts of the catalogue open and pass the scan too.
  await page.getByRole('link', { name: 'Nhóm lớp và lớp' }).click();
  await expect(page.getByRole('region', { name: 'Nhóm lớp' }).getByRole('cell', { name: 'Nhóm 1', exact: true })).toBeVisible();
  await expectAccessible(page, 'class groups and rooms');
  await page.getByRole('link', { name: 'Giáo viên các lớp' }).click();
  await expect(page.getByRole('region', { name: 'Nhập giáo viên các lớp từ tệp' })).toBeVisible();
  await expectAccessible(page, 'class teachers');
});

test('the organiser sorts the schools on the server by a column header, both ways', async ({ page }) => {
  await logInAs(page, DEMO_ORGANISER);
  await page.goto('/quan-tri/danh-muc');
  const schools = page.getByRole('region', { name: 'Trường', exact: true });
  await schools.getByLabel('Quận/Huyện').selectOption({ label: 'Thành phố An Hoà' });
  const names = schools.locator('tbody tr td:first-child');
  await expect(names.filter({ hasText: 'Trường Tiểu học Lê Lợi' })).toHaveCount(1);
  const header = schools.getByRole('columnheader', { name: 'Trường', exact: true });
  await expect(header).not.toHaveAttribute('aria-sort');

  await schools.getByRole('button', { name: 'Trường', exact: true }).click();
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  await expect(names.first()).toHaveText('Trường Tiểu học Kim Đồng');
  const ascending = await names.allTextContents();
  expect(ascending.length).toBeGreaterThan(2);

  await schools.getByRole('button', { name: 'Trường', exact: true }).click();
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  await expect(names.first()).toHaveText(ascending.at(-1)!);
  expect(await names.allTextContents()).toEqual([...ascending].reverse());
  await expect(schools.getByRole('columnheader', { name: 'Quận/Huyện' })).not.toHaveAttribute('aria-sort');
  await expectAccessible(page, 'schools sorted by name');
});
