// Menus and screens by role (issue 10, items 4 and 5): parents reach their report from the menu
// and from /du-thi; the organiser and school administrators get a menu of their own, and a
// family screen opened by them is one message on a normal page (no toast, no exam mode).
import type { Page } from '@playwright/test';
import { DEMO_ORGANISER, DEMO_PARENT, DEMO_SCHOOL_ADMIN, expect, expectAccessible, expectLoaded, logInAs, phoneViewport, test } from './fixtures';



/** The links of the off-canvas menu (phone), in order. */
async function phoneMenu(page: Page) {
  await page.getByRole('button', { name: 'Mở menu' }).click();
  const panel = page.getByRole('dialog', { name: 'Menu' });
  await expect(panel).toBeVisible();
  return panel;
}

const FAMILY_PATHS = ['/du-thi', '/bat-dau-thi/1/1/khong-co-bai-thi-nay', '/ket-qua-thi/khong-co-bai-thi-nay', '/giay-chung-nhan/1'];

/** A refused screen: a heading, one message, the site's header and footer, no toast. */
async function expectRefused(page: Page, path: string, note: RegExp) {
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1, name: 'Trang này không dành cho tài khoản của bạn' })).toBeVisible();
  await expect(page.locator('main').getByText(note)).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Mở menu' })).toBeVisible(); // the normal header, not the exam's
  await expect(page.locator('footer.site-footer')).toBeVisible();
  await expectLoaded(page); // the screen's requests are answered: a notice would show by now
  await expect(page.locator('.notice')).toHaveCount(0);
  await expect(page).toHaveURL(new RegExp(`${path}$`));
  await expect(page.getByRole('link', { name: 'Về trang chủ' })).toHaveAttribute('href', '/');
}

test.describe('on a phone', () => {
  test.use({ viewport: phoneViewport });

  test('a parent finds Báo cáo in the menu and on /du-thi', async ({ page }) => {
    await logInAs(page, DEMO_PARENT);
    await page.goto('/');
    const panel = await phoneMenu(page);
    await expect(panel.getByRole('navigation', { name: 'Menu di động' }).getByRole('link')).toHaveText(['Trang chủ', 'Thể lệ', 'Vào thi', 'Báo cáo', 'Tin tức']);
    await panel.getByRole('link', { name: 'Báo cáo', exact: true }).click();
    await expect(page).toHaveURL(/\/bao-cao$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Báo cáo' })).toBeVisible();
    await expect(panel).toBeHidden();
    await expectAccessible(page, 'parent report');

    await page.goto('/du-thi');
    const toReport = page.getByRole('link', { name: 'Xem báo cáo' });
    await expect(toReport).toBeVisible();
    await toReport.click();
    await expect(page).toHaveURL(/\/bao-cao$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Báo cáo' })).toBeVisible();
  });

  test('the organiser has the public menu and the back office, and a message on every family screen', async ({ page }) => {
    await logInAs(page, DEMO_ORGANISER);
    await page.goto('/');
    const panel = await phoneMenu(page);
    await expect(panel.getByRole('navigation', { name: 'Menu di động' }).getByRole('link')).toHaveText(['Trang chủ', 'Thể lệ', 'Tin tức', 'Quản trị']);
    await expect(panel.getByRole('button', { name: 'Ban tổ chức' })).toBeVisible();
    await panel.getByRole('button', { name: 'Đóng menu' }).click();

    for (const path of [...FAMILY_PATHS, '/bao-cao']) await expectRefused(page, path, /Đây là tài khoản ban tổ chức\./);
    await expect(page.getByText('Báo cáo dành cho tài khoản phụ huynh và tài khoản admin trường học.')).toBeVisible();
    await expectAccessible(page, 'organiser on /bao-cao');

    await page.goto('/du-thi');
    await expect(page.getByText('Vào thi, bài thi và giấy chứng nhận của thí sinh chỉ dành cho tài khoản phụ huynh.')).toBeVisible();
    await expectAccessible(page, 'organiser on /du-thi');
    await page.getByRole('link', { name: 'Về trang chủ' }).click();
    await expect(page).toHaveURL(/\/$/);
    // The home page and the rules page lead the organiser to no family screen either.
    await expect(page.getByRole('heading', { level: 1, name: /Đại sứ Văn hoá đọc \d{4}/ })).toBeVisible();
    await expect(page.getByRole('main').getByRole('link', { name: 'Vào thi' })).toHaveCount(0);
    await page.goto('/the-le');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expect(page.getByRole('main').getByRole('link', { name: 'Vào thi' })).toHaveCount(0);

    // The account page is the organiser's own: no contestant form, no way to /du-thi.
    await page.goto('/tai-khoan');
    await expect(page.getByRole('heading', { level: 1, name: 'Thông tin tài khoản' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Tài khoản' }).getByRole('link', { name: 'Vào thi' })).toHaveCount(0);
  });

  test('a school administrator opening a family screen reads one message and can go to the school report', async ({ page }) => {
    await logInAs(page, DEMO_SCHOOL_ADMIN);
    for (const path of FAMILY_PATHS) await expectRefused(page, path, /Đây là tài khoản admin trường học\./);
    await expectAccessible(page, 'school administrator on a certificate page');

    await page.goto('/bat-dau-thi/1/1/khong-co-bai-thi-nay');
    await expectAccessible(page, 'school administrator on an exam link');
    await page.getByRole('link', { name: 'Xem báo cáo của trường' }).click();
    await expect(page).toHaveURL(/\/bao-cao$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Báo cáo cho trường' })).toBeVisible();
  });
});

test('on a desktop the parent menu has Báo cáo; the organiser menu has Quản trị and no family entry', async ({ page }) => {
  await logInAs(page, DEMO_PARENT);
  await page.goto('/');
  const nav = page.getByRole('navigation', { name: 'Menu chính' });
  await expect(nav.getByRole('link')).toHaveText(['Trang chủ', 'Thể lệ', 'Vào thi', 'Báo cáo', 'Tin tức']);
  await expect(nav.getByRole('link', { name: 'Báo cáo' })).toHaveAttribute('href', '/bao-cao');

  await page.context().clearCookies();
  await logInAs(page, DEMO_ORGANISER);
  await page.goto('/the-le');
  await expect(nav.getByRole('link')).toHaveText(['Trang chủ', 'Thể lệ', 'Tin tức', 'Quản trị']);
  await expect(page.getByRole('button', { name: 'Ban tổ chức' })).toBeVisible();
  await expectAccessible(page, 'organiser header');
});
