// The back office's accounts (issue 12): the organiser creates a school administrator by import,
// sees and copies the set-password link (also sent by SMS); that person sets a password through
// the link, logs in and sees the school report. Then the organiser finds the account and locks it.
import type { Page } from '@playwright/test';
import writeExcelFile from 'write-excel-file/node';
import { test, expect, DEMO_ORGANISER, DEMO_PARENT, DEMO_SCHOOL_ADMIN, expectAccessible, expectLoaded, logInAs, readOutbox, uniquePhone } from './fixtures';

const popup = (page: Page, title: string) => page.getByRole('alertdialog', { name: title });

async function schoolAdminsXlsx(rows: string[][]): Promise<Buffer> {
  const header = ['Số điện thoại', 'Họ và tên', 'Quận/Huyện', 'Trường'];
  const data = [header, ...rows].map((row) => row.map((value) => ({ value, type: String })));
  return Buffer.from(await writeExcelFile(data).toBuffer());
}

async function logInWithForm(page: Page, phone: string, password: string) {
  await page.goto('/dang-nhap');
  await page.getByLabel('Số điện thoại').fill(phone);
  await page.getByLabel('Mật khẩu').fill(password);
  await page.getByRole('button', { name: 'Đăng nhập' }).click();
}

async function forgetSession(page: Page) {
  await page.context().clearCookies();
  await page.evaluate(() => window.localStorage.clear());
}

test('a school administrator created by import sets a password through the link and sees the school report', async ({ page }) => {
  // A long story (two people, six accessibility scans): more than the default minute.
  test.setTimeout(180_000);
  // The school of the file: the demo school administrator's, found through the public catalogue.
  const districts = (await (await page.request.get('/api/districts')).json()).data as { id: number; name: string }[];
  let district = districts[0]!;
  let school: { id: number; name: string } | undefined;
  for (const candidate of districts) {
    const schools = (await (await page.request.get(`/api/schools?district_id=${candidate.id}`)).json()).data as { id: number; name: string }[];
    school = schools.find((s) => s.name === 'Trường Tiểu học Lê Lợi');
    if (school) {
      district = candidate;
      break;
    }
  }
  expect(school).toBeDefined();
  const phone = uniquePhone();
  const name = 'Hoàng Thị Thu Trang';

  await logInAs(page, DEMO_ORGANISER);
  await page.goto('/quan-tri/tai-khoan');
  await expectLoaded(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Tài khoản' })).toBeVisible();
  await expectAccessible(page);

  await page.getByRole('link', { name: 'Tạo tài khoản quản trị trường' }).click();
  await expect(page).toHaveURL(/\/quan-tri\/tai-khoan\/quan-tri-truong-moi$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Tạo tài khoản quản trị trường' })).toBeVisible();
  await expectAccessible(page);

  // A file with a bad district first: its row's message, nothing stored.
  const importPanel = page.locator('.import-panel');
  await importPanel.getByLabel('Chọn tệp').setInputFiles({
    name: 'quan-tri-truong.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: await schoolAdminsXlsx([[phone, name, 'Huyện Không Có', school!.name]]),
  });
  await importPanel.getByRole('button', { name: 'Kiểm tra tệp' }).click();
  await expect(importPanel.getByRole('alert')).toContainText('Dòng 2, cột Quận/Huyện: không có quận/huyện "Huyện Không Có" trong danh mục');
  await expectAccessible(page);

  await importPanel.getByLabel('Chọn tệp').setInputFiles({
    name: 'quan-tri-truong.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: await schoolAdminsXlsx([[phone, name, district.name, school!.name]]),
  });
  await importPanel.getByRole('button', { name: 'Kiểm tra tệp' }).click();
  await expect(importPanel.getByText(/Tệp hợp lệ \(1 dòng\): sẽ thêm mới 1/)).toBeVisible();
  expect(readOutbox().filter((m) => m.phone === phone)).toEqual([]);
  await importPanel.getByRole('button', { name: 'Lưu 1 dòng' }).click();
  await expect(importPanel.getByText('Đã lưu: thêm mới 1, cập nhật 0, giữ nguyên 0.')).toBeVisible();
  const linkCell = importPanel.getByRole('row', { name: new RegExp(phone) }).locator('code');
  const url = (await linkCell.textContent())!;
  expect(url).toMatch(/\/doi-mat-khau\/[A-Za-z0-9_-]{30,}$/);
  await expect(importPanel.getByRole('button', { name: `Sao chép liên kết của ${phone}` })).toBeVisible();
  await expectAccessible(page);
  // The same link went out by SMS.
  await expect.poll(() => readOutbox().filter((m) => m.phone === phone).map((m) => m.message.includes(url))).toEqual([true]);

  // The new school administrator opens the link, sets a password, logs in and sees the report.
  await forgetSession(page);
  await page.goto(new URL(url).pathname);
  await page.getByLabel('Mật khẩu mới').fill('truong-moi-789');
  await page.getByRole('button', { name: 'Cập nhật' }).click();
  await expect(popup(page, 'Thành công')).toContainText('Đổi mật khẩu thành công.');
  await forgetSession(page);
  await logInWithForm(page, phone, 'truong-moi-789');
  await expect(page).toHaveURL(/\/tai-khoan$/);
  await page.goto('/bao-cao');
  await expectLoaded(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Báo cáo cho trường' })).toBeVisible();
  await expect(page.locator('#main').getByText(school!.name).first()).toBeVisible();

  // The organiser finds the account by part of its phone and locks it: its session ends at once.
  // Its session token, from the cookie the app keeps (localStorage is rewritten by logInAs's init script).
  const tokenCookie = (await page.context().cookies()).find((cookie) => cookie.name === 'token');
  const schoolAdminToken = decodeURIComponent(tokenCookie!.value);
  await forgetSession(page);
  await logInAs(page, DEMO_ORGANISER);
  await page.goto('/quan-tri/tai-khoan');
  await page.getByLabel('Số điện thoại hoặc họ tên').fill(phone.slice(-6));
  await page.getByRole('button', { name: 'Tìm', exact: true }).click();
  await page.getByRole('link', { name: phone }).click();
  await expect(page.getByRole('heading', { level: 1, name: `Tài khoản ${phone}` })).toBeVisible();
  await expect(page.getByText(name)).toBeVisible();
  await expect(page.getByText('Quản trị trường', { exact: true })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Khoá tài khoản' }).click();
  await expect(popup(page, 'Khoá tài khoản?')).toBeVisible();
  await expectAccessible(page);
  await popup(page, 'Khoá tài khoản?').getByRole('button', { name: 'Khoá', exact: true }).click();
  await expect(page.getByText(/^Đã khoá từ/)).toBeVisible();
  const profile = await page.request.get('/api/profile', { headers: { authorization: `Bearer ${schoolAdminToken}` } });
  expect(profile.status()).toBe(401);
  const login = await page.request.post('/api/login', { data: { phone, password: 'truong-moi-789' } });
  expect(login.status()).toBe(403);
  expect((await login.json()).message).toBe('Tài khoản này đã bị khoá. Vui lòng liên hệ ban tổ chức cuộc thi.');

  await page.getByRole('button', { name: 'Mở khoá tài khoản' }).click();
  await popup(page, 'Mở khoá tài khoản?').getByRole('button', { name: 'Mở khoá', exact: true }).click();
  await expect(page.getByText(/^Hoạt động/)).toBeVisible();
});

test('the organiser sorts the accounts by phone on the server, both ways', async ({ page }) => {
  await logInAs(page, DEMO_ORGANISER);
  await page.goto('/quan-tri/tai-khoan');
  const table = page.getByRole('table', { name: 'Danh sách tài khoản' });
  const header = table.getByRole('columnheader', { name: 'Số điện thoại' });
  const firstPhone = table.locator('tbody tr td:first-child').first();
  await expect(firstPhone).toBeVisible();
  await table.getByRole('button', { name: 'Số điện thoại' }).click();
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  // The seeded school administrator's phone is at most the smallest, so the first row is at most it.
  await expect.poll(async () => (await firstPhone.textContent())! <= DEMO_SCHOOL_ADMIN.phone).toBe(true);
  const lowest = (await firstPhone.textContent())!;
  await table.getByRole('button', { name: 'Số điện thoại' }).click();
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  await expect.poll(async () => (await firstPhone.textContent())! >= DEMO_PARENT.phone).toBe(true);
  expect((await firstPhone.textContent())! > lowest).toBe(true);
  await expectAccessible(page, 'accounts sorted by phone');
});
