// Issue 15, the organiser's side: the record of processing activities and the retention status,
// the anonymised statistics, and a parent's deletion request made by phone, carried out from the
// account's page with a reason.
import { readFileSync } from 'node:fs';
import readExcelFile from 'read-excel-file/node';
import { test, expect, DEMO_ORGANISER, expectAccessible, expectLoaded, logInAs } from './fixtures';
import { registerFamily } from './exam-fixtures';

test('the organiser reads the record of processing and erases an account on a parent’s request', async ({ page, request }) => {
  const family = await registerFamily(request, 'Phan Gia Huy');

  await logInAs(page, DEMO_ORGANISER);
  await page.goto('/quan-tri');
  await page.getByRole('navigation', { name: 'Quản trị' }).getByRole('link', { name: 'Dữ liệu cá nhân' }).click();
  await expectLoaded(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Dữ liệu cá nhân' })).toBeVisible();
  const record = page.getByRole('article', { name: 'Hồ sơ ghi nhận hoạt động xử lý dữ liệu cá nhân' });
  await expect(record.getByRole('heading', { name: '5. Thời hạn lưu trữ' })).toBeVisible();
  await expect(record.getByText(/Dữ liệu cá nhân được lưu 12 tháng sau ngày công bố kết quả/)).toBeVisible();
  await expect(page.getByText(/tức đến \d\d\/\d\d\/\d{4} với các tài khoản tham gia cuộc thi hiện tại/)).toBeVisible();
  await expectAccessible(page);

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Tải thống kê ẩn danh (.xlsx)' }).click()]);
  expect(download.suggestedFilename()).toBe('thong-ke-an-danh.xlsx');
  const [sheet] = await readExcelFile(readFileSync((await download.path())!));
  expect(sheet!.data[0]![1]).toBe('Trường');
  expect(JSON.stringify(sheet!.data)).not.toContain('Phan Gia Huy');

  // The parent calls: the organiser finds the account by phone.
  await page.goto('/quan-tri/tai-khoan');
  await page.getByLabel('Số điện thoại hoặc họ tên').fill(family.phone);
  await page.getByRole('button', { name: 'Tìm', exact: true }).click();
  await page.getByRole('link', { name: family.phone }).click();
  await expect(page.getByRole('heading', { level: 2, name: 'Yêu cầu về dữ liệu cá nhân' })).toBeVisible();
  await expectAccessible(page);

  // Without a reason nothing happens but the explanation under the field.
  await page.getByRole('button', { name: 'Xoá tài khoản theo yêu cầu' }).click();
  await expect(page.getByText(/Hãy ghi lý do \(ít nhất 5 ký tự\)/)).toBeVisible();
  await page.getByLabel('Lý do (ghi vào nhật ký thao tác)').fill('Phụ huynh gọi điện yêu cầu xoá tài khoản');
  await page.getByRole('button', { name: 'Xoá tài khoản theo yêu cầu' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Xoá tài khoản theo yêu cầu?' });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Xoá tài khoản', exact: true }).click();
  await expect(page.getByText('Đã xoá tài khoản theo yêu cầu.')).toBeVisible();

  // The family is logged out and cannot log in again; the audit log says why.
  expect((await request.get('/api/profile', { headers: { authorization: `Bearer ${family.token}` } })).status()).toBe(401);
  expect((await request.post('/api/login', { data: { phone: family.phone, password: 'matkhau123' } })).status()).toBe(401);
  await page.goto('/quan-tri/nhat-ky');
  await expect(page.getByText(/Xoá tài khoản \d{3}\*+\d{3} theo yêu cầu/).first()).toBeVisible();
});
