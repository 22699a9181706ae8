// The back office's door: only the organiser gets in (a visitor is asked to log in in place,
// parents and school administrators read the not-found screen, and the API refuses them too); the
// organiser lands there after logging in. A session that ends while a page is open asks for the
// login again over the page, and the organiser can see and end the account's sessions.
import { DEMO_ORGANISER, DEMO_PARENT, DEMO_SCHOOL_ADMIN, expect, expectAccessible, logInAs, test } from './fixtures';

const NOT_FOUND = 'Trang không tồn tại';

test('a visitor at a back-office address is asked to log in there and lands on that section', async ({ page }) => {
  await page.goto('/quan-tri/nhat-ky');
  await expect(page.getByRole('heading', { level: 1, name: 'Đăng nhập quản trị' })).toBeVisible();
  await expectAccessible(page, 'back office login');
  await page.getByLabel('Số điện thoại').fill(DEMO_ORGANISER.phone);
  await page.getByLabel('Mật khẩu').fill('sai-mat-khau');
  await page.getByRole('button', { name: 'Đăng nhập' }).click();
  await expect(page.getByRole('alert')).toContainText('Số điện thoại hoặc mật khẩu không đúng.');
  await page.getByLabel('Mật khẩu').fill(DEMO_ORGANISER.password);
  await page.getByRole('button', { name: 'Đăng nhập' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Nhật ký thao tác' })).toBeVisible();
  await expect(page).toHaveURL(/\/quan-tri\/nhat-ky$/);
});

test('parents and school administrators get the not-found screen at /quan-tri', async ({ page }) => {
  for (const account of [DEMO_PARENT, DEMO_SCHOOL_ADMIN]) {
    await page.context().clearCookies();
    await logInAs(page, account);
    await page.goto('/quan-tri/sach');
    await expect(page.getByRole('heading', { level: 1, name: NOT_FOUND })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Quản trị' })).toHaveCount(0);
    const refused = await page.request.get('/api/admin/audit', { headers: { authorization: `Bearer ${await tokenOf(page)}` } });
    expect(refused.status()).toBe(403);
  }
});

test('the organiser logs in, lands in the back office and finds every section', async ({ page }) => {
  await page.goto('/dang-nhap');
  await page.getByLabel('Số điện thoại').fill(DEMO_ORGANISER.phone);
  await page.getByLabel('Mật khẩu').fill(DEMO_ORGANISER.password);
  await page.getByRole('button', { name: 'Đăng nhập' }).click();
  await expect(page).toHaveURL(/\/quan-tri$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Quản trị cuộc thi' })).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Quản trị' });
  await expect(nav.getByRole('link')).toHaveText([
    'Tổng quan',
    'Danh mục trường, lớp',
    'Sách và câu hỏi',
    'Tài khoản',
    'Cài đặt cuộc thi',
    'Tin tức',
    'Theo dõi kỳ thi',
    'Hỗ trợ thí sinh',
    'Chấm lại câu hỏi',
    'Kiểm tra kết quả',
    'Kết quả và giải thưởng',
    'Giấy chứng nhận',
    'Tin nhắn cho phụ huynh',
    'Dữ liệu cá nhân',
    'Nhật ký thao tác',
    'Phiên đăng nhập',
    'Mùa thi',
  ]);
  await expectAccessible(page, 'back office home');
  await nav.getByRole('link', { name: 'Nhật ký thao tác' }).click();
  await expect(page).toHaveURL(/\/quan-tri\/nhat-ky$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Nhật ký thao tác' })).toBeVisible();
  // A tablet still has the whole menu.
  await page.setViewportSize({ width: 768, height: 1024 });
  await expect(nav.getByRole('link', { name: 'Tổng quan' })).toBeVisible();
});

test('a session ended elsewhere asks for the login over the page, keeps what was typed, and sessions can be ended from the list', async ({ page }) => {
  await logInAs(page, DEMO_ORGANISER);
  await page.goto('/quan-tri/tin-tuc/moi');
  const title = page.getByRole('textbox', { name: 'Tiêu đề' });
  await title.fill('Thông báo lịch thi vòng hai');
  const editor = page.getByRole('textbox', { name: 'Nội dung' });
  await editor.click();
  await page.keyboard.insertText('Các em thi từ 8 giờ sáng.');

  // Another browser of the shared account ends this page's session from its list.
  const other = await (await page.request.post('/api/login', { data: DEMO_ORGANISER, headers: { 'user-agent': 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) Firefox/133.0' } })).json();
  const auth = { authorization: `Bearer ${other.access_token}` };
  const listed = (await (await page.request.get('/api/sessions', { headers: auth })).json()).data as { id: number; current: boolean }[];
  const pageToken = await tokenOf(page);
  for (const session of listed.filter((s) => !s.current)) await page.request.post(`/api/sessions/${session.id}/end`, { headers: auth });
  expect((await page.request.get('/api/profile', { headers: { authorization: `Bearer ${pageToken}` } })).status()).toBe(401);

  await page.getByRole('button', { name: 'Lưu bài viết' }).click();
  const dialog = page.getByRole('dialog', { name: 'Phiên đăng nhập đã kết thúc' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel('Số điện thoại')).toHaveValue(DEMO_ORGANISER.phone);
  await expectAccessible(page, 'session ended dialog');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Mật khẩu').fill(DEMO_ORGANISER.password);
  await dialog.getByRole('button', { name: 'Đăng nhập và làm tiếp' }).click();
  await expect(dialog).toHaveCount(0);
  // Still the same page, with what was typed.
  await expect(page).toHaveURL(/\/quan-tri\/tin-tuc\/moi$/);
  await expect(title).toHaveValue('Thông báo lịch thi vòng hai');
  await expect(editor).toContainText('Các em thi từ 8 giờ sáng.');

  // The list of sessions: this one marked, the other browser named; ending it asks first.
  await page.getByRole('navigation', { name: 'Quản trị' }).getByRole('link', { name: 'Phiên đăng nhập' }).click();
  const table = page.getByRole('table', { name: 'Các phiên đăng nhập, mới nhất trước' });
  await expect(table.getByRole('row').nth(1)).toContainText('(phiên này)');
  const firefox = table.getByRole('row').filter({ hasText: 'Firefox trên Windows' });
  await expect(firefox).toHaveCount(1);
  await expectAccessible(page, 'sessions');
  await firefox.getByRole('button', { name: /^Kết thúc phiên Firefox trên Windows/ }).click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Kết thúc phiên' }).click();
  await expect(firefox).toHaveCount(0);
  expect((await page.request.get('/api/profile', { headers: auth })).status()).toBe(401);
});

async function tokenOf(page: import('@playwright/test').Page) {
  const cookie = (await page.context().cookies()).find((c) => c.name === 'token');
  return decodeURIComponent(cookie?.value ?? '');
}
