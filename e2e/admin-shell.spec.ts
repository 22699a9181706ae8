// The back office's door: only the organiser gets in (everyone else reads the not-found screen,
// and the API refuses them too); the organiser lands there after logging in.
import { DEMO_ORGANISER, DEMO_PARENT, DEMO_SCHOOL_ADMIN, expect, expectAccessible, logInAs, test } from './fixtures';

const NOT_FOUND = 'Trang không tồn tại';

test('visitors, parents and school administrators get the not-found screen at /quan-tri', async ({ page }) => {
  await page.goto('/quan-tri');
  await expect(page.getByRole('heading', { level: 1, name: NOT_FOUND })).toBeVisible();
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
    'Kết quả và giải thưởng',
    'Giấy chứng nhận',
    'Dữ liệu cá nhân',
    'Nhật ký thao tác',
  ]);
  await expectAccessible(page, 'back office home');
  await nav.getByRole('link', { name: 'Nhật ký thao tác' }).click();
  await expect(page).toHaveURL(/\/quan-tri\/nhat-ky$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Nhật ký thao tác' })).toBeVisible();
  // A tablet still has the whole menu.
  await page.setViewportSize({ width: 768, height: 1024 });
  await expect(nav.getByRole('link', { name: 'Tổng quan' })).toBeVisible();
});

async function tokenOf(page: import('@playwright/test').Page) {
  const cookie = (await page.context().cookies()).find((c) => c.name === 'token');
  return decodeURIComponent(cookie?.value ?? '');
}
