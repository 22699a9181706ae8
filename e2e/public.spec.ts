// The public screens of spec section 2: header and off-canvas menu, home, news, rules, not-found.
import type { Page } from '@playwright/test';
import { DEMO_PARENT, DEMO_SCHOOL_ADMIN, expect, expectLoaded, logInAs, phoneViewport, test } from './fixtures';

// These tests answer API calls with page.route: with the offline shell's service worker controlling
// the page, Chromium may send a page's request past the route, so the worker is kept out here.
test.use({ serviceWorkers: 'block' });



const mainNav = (page: Page) => page.getByRole('navigation', { name: 'Menu chính' });

test.describe('header', () => {
  test('logged out: the participant menu, Đăng ký and Đăng nhập', async ({ page }) => {
    await page.goto('/');
    await expect(page.locator('html')).toHaveAttribute('lang', 'vi');
    const nav = mainNav(page);
    for (const name of ['Trang chủ', 'Thể lệ', 'Vào thi', 'Tin tức']) await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();
    await expect(nav.getByRole('link', { name: 'Trang chủ', exact: true })).toHaveAttribute('aria-current', 'page');
    const header = page.locator('header.site-header');
    await expect(header.getByRole('link', { name: 'Đăng ký', exact: true }).first()).toHaveAttribute('href', '/dang-ky');
    await expect(header.getByRole('link', { name: 'Đăng nhập', exact: true }).first()).toHaveAttribute('href', '/dang-nhap');
    await expect(header.getByRole('link', { name: /Trang chủ/ }).first()).toBeVisible(); // the logo
  });

  test('a parent sees the phone in the user dropdown; logging out goes to the login page', async ({ page }) => {
    await logInAs(page, DEMO_PARENT);
    await page.goto('/the-le');
    await expect(mainNav(page).getByRole('link', { name: 'Thể lệ', exact: true })).toHaveAttribute('aria-current', 'page');
    await expect(mainNav(page).getByRole('link', { name: 'Vào thi', exact: true })).toBeVisible();
    const trigger = page.getByRole('button', { name: DEMO_PARENT.phone });
    await expect(trigger).toHaveAttribute('aria-expanded', 'false');
    await trigger.click();
    await expect(trigger).toHaveAttribute('aria-expanded', 'true');
    await expect(page.getByRole('link', { name: 'Tài khoản', exact: true })).toHaveAttribute('href', '/tai-khoan');
    await page.keyboard.press('Escape');
    await expect(trigger).toHaveAttribute('aria-expanded', 'false');
    await expect(trigger).toBeFocused();

    await trigger.click();
    await page.getByRole('button', { name: 'Đăng xuất' }).click();
    await expect(page.getByText('Đăng xuất thành công')).toBeVisible();
    await expect(page).toHaveURL(/\/dang-nhap$/);
    await expect(page.locator('header.site-header').getByRole('link', { name: 'Đăng nhập', exact: true }).first()).toBeVisible();
    expect((await page.context().cookies()).find((cookie) => cookie.name === 'token')).toBeUndefined();
  });

  test('a school administrator sees the name and Báo cáo instead of Vào thi', async ({ page }) => {
    const user = await logInAs(page, DEMO_SCHOOL_ADMIN);
    await page.goto('/');
    const nav = mainNav(page);
    await expect(nav.getByRole('link', { name: 'Báo cáo', exact: true })).toHaveAttribute('href', '/bao-cao');
    await expect(nav.getByRole('link', { name: 'Vào thi', exact: true })).toHaveCount(0);
    await expect(page.getByRole('button', { name: user.name })).toBeVisible();
  });

  test('logout: a 401 still logs out; another failure says so and keeps the session', async ({ page }) => {
    await logInAs(page, DEMO_PARENT);
    await page.goto('/');
    await page.route('/api/logout', (route) =>
      route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ success: false, message: 'Hệ thống đang bận.' }) }),
    );
    await page.getByRole('button', { name: DEMO_PARENT.phone }).click();
    await page.getByRole('button', { name: 'Đăng xuất' }).click();
    await expect(page.getByText('Đăng xuất thất bại')).toBeVisible();
    await expect(page.getByText('Hệ thống đang bận.')).toBeVisible();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByRole('button', { name: DEMO_PARENT.phone })).toBeVisible();

    await page.unroute('/api/logout');
    await page.route('/api/logout', (route) =>
      route.fulfill({ status: 401, contentType: 'application/json', body: JSON.stringify({ success: false, message: 'Vui lòng đăng nhập.' }) }),
    );
    await page.getByRole('button', { name: DEMO_PARENT.phone }).click();
    await page.getByRole('button', { name: 'Đăng xuất' }).click();
    await expect(page.getByText('Đăng xuất thành công')).toBeVisible();
    await expect(page).toHaveURL(/\/dang-nhap$/);
  });
});

test.describe('off-canvas menu on a phone', () => {
  test.use({ viewport: phoneViewport });

  test('the hamburger opens the menu; a link navigates and closes it', async ({ page }) => {
    await page.goto('/');
    await expect(mainNav(page)).toBeHidden();
    const burger = page.getByRole('button', { name: 'Mở menu' });
    await expect(burger).toHaveAttribute('aria-expanded', 'false');
    const panel = page.getByRole('dialog', { name: 'Menu' });
    await expect(panel).toBeHidden();

    await burger.click();
    await expect(burger).toHaveAttribute('aria-expanded', 'true');
    await expect(panel).toBeVisible();
    await expect(panel.getByRole('button', { name: 'Đóng menu' })).toBeFocused();
    await expect(panel.getByRole('link', { name: 'Đăng ký', exact: true })).toBeVisible();
    await panel.getByRole('link', { name: 'Tin tức', exact: true }).click();
    await expect(page).toHaveURL(/\/tin-tuc$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Tin tức' })).toBeVisible();
    await expect(panel).toBeHidden();
    await expect(burger).toHaveAttribute('aria-expanded', 'false');

    // The link of the page already shown closes the menu too.
    await burger.click();
    await panel.getByRole('link', { name: 'Tin tức', exact: true }).click();
    await expect(panel).toBeHidden();
  });

  test('Escape and the backdrop close the menu and give the focus back', async ({ page }) => {
    await page.goto('/the-le');
    const burger = page.getByRole('button', { name: 'Mở menu' });
    const panel = page.getByRole('dialog', { name: 'Menu' });
    await burger.click();
    await expect(panel).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(panel).toBeHidden();
    await expect(burger).toBeFocused();

    await burger.click();
    await expect(panel).toBeVisible();
    await page.mouse.click(20, 400); // the backdrop, left of the panel
    await expect(panel).toBeHidden();
    await expect(page).toHaveURL(/\/the-le$/);
  });

  test('a logged-in parent has the same dropdown in the menu', async ({ page }) => {
    await logInAs(page, DEMO_PARENT);
    await page.goto('/');
    await page.getByRole('button', { name: 'Mở menu' }).click();
    const panel = page.getByRole('dialog', { name: 'Menu' });
    await panel.getByRole('button', { name: DEMO_PARENT.phone }).click();
    await panel.getByRole('link', { name: 'Tài khoản', exact: true }).click();
    await expect(page).toHaveURL(/\/tai-khoan$/);
    await expect(panel).toBeHidden();
  });

  test('no horizontal scroll at 360 px on home, rules, the winners and news', async ({ page }) => {
    for (const path of ['/', '/the-le', '/danh-sach-doat-giai', '/tin-tuc', '/tin-tuc/tuan-thi-truc-tuyen-nhung-dieu-can-biet', '/404']) {
      await page.goto(path);
      await expectLoaded(page);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width, `scroll width of ${path}`).toBeLessThanOrEqual(360);
    }
  });
});

test.describe('home', () => {
  test('shows the banner, the timeline, the nine books in three groups and the news', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByRole('heading', { level: 1, name: /Đại sứ Văn hoá đọc/ })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Lịch trình cuộc thi' }).getByRole('listitem')).toHaveCount(4);

    const books = page.getByRole('region', { name: 'Sách gợi ý cho cuộc thi' });
    const groups = books.getByRole('region');
    await expect(groups).toHaveCount(3);
    await expect(groups.nth(0).getByRole('heading', { level: 3 })).toContainText('Lớp 1 - 2');
    await expect(groups.nth(1).getByRole('heading', { level: 3 })).toContainText('Lớp 3 - 4');
    await expect(groups.nth(2).getByRole('heading', { level: 3 })).toContainText('Lớp 5');
    // The demo's three books per group (a back-office test on this server may have added one).
    for (let i = 0; i < 3; i += 1) await expect.poll(() => groups.nth(i).getByRole('button', { name: /^Xem bìa sách / }).count()).toBeGreaterThanOrEqual(3);
    await expect.poll(() => books.getByRole('img', { name: /^Bìa sách / }).count()).toBeGreaterThanOrEqual(9);

    const news = page.getByRole('region', { name: 'Tin tức' });
    const items = news.getByRole('listitem');
    await expect(items.first()).toBeVisible();
    await expect.poll(() => items.count()).toBeGreaterThanOrEqual(3);
    await expect(items.first().locator('time')).toHaveText(/^\d{2}\/\d{2}\/\d{4}$/);
    await expect(items.first().getByRole('heading').getByRole('link')).toHaveAttribute('href', /^\/tin-tuc\/[a-z0-9-]+$/);
    await expect(items.first().locator('img')).toHaveAttribute('loading', 'lazy');
  });

  test('a book cover opens a modal with the large image; Đóng closes it', async ({ page }) => {
    await page.goto('/');
    const cover = page.getByRole('button', { name: /^Xem bìa sách / }).first();
    const bookName = ((await cover.getAttribute('aria-label')) ?? '').replace('Xem bìa sách ', '');
    await cover.click();
    const dialog = page.getByRole('dialog', { name: bookName });
    await expect(dialog).toBeVisible();
    const large = dialog.getByRole('img', { name: /ảnh lớn/ });
    await expect(large).toBeVisible();
    await expect.poll(() => large.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true);
    await dialog.getByRole('button', { name: 'Đóng' }).click();
    await expect(dialog).toBeHidden();
    await expect(cover).toBeFocused();

    await cover.click();
    await expect(dialog).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  });
});

test.describe('news', () => {
  test('the list leads to an article with its title, date, image and body', async ({ page }) => {
    await page.goto('/tin-tuc');
    await expect(page.getByRole('heading', { level: 1, name: 'Tin tức' })).toBeVisible();
    const items = page.locator('.news-list > li');
    await expect.poll(() => items.count()).toBeGreaterThanOrEqual(6);
    await expect(items.first().locator('time')).toHaveText(/^\d{2}\/\d{2}\/\d{4}$/);

    const titleLink = items.first().getByRole('heading', { level: 2 }).getByRole('link');
    const title = (await titleLink.textContent()) ?? '';
    await titleLink.click();
    await expect(page).toHaveURL(/\/tin-tuc\/[a-z0-9-]+$/);
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(page.locator('article time')).toHaveText(/^\d{2}\/\d{2}\/\d{4}$/);
    await expect(page.locator('.article-body p').first()).toBeVisible();
    await expect(page).toHaveTitle(new RegExp(title.slice(0, 20)));
  });

  test('a link inside an article opens our page within the app', async ({ page }) => {
    await page.goto('/tin-tuc/phat-dong-cuoc-thi-dai-su-van-hoa-doc');
    await expect(page.locator('.article-body h2').first()).toBeVisible();
    await expect(page.locator('.article-body figure img')).toBeVisible();
    await page.locator('.article-body').getByRole('link', { name: 'Thể lệ cuộc thi' }).click();
    await expect(page).toHaveURL(/\/the-le$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Thể lệ cuộc thi' })).toBeVisible();
  });

  test('an unknown article shows the not-found screen', async ({ page }) => {
    await page.goto('/tin-tuc/bai-viet-khong-ton-tai');
    await expect(page.getByRole('heading', { level: 1, name: 'Trang không tồn tại' })).toBeVisible();
  });
});

test('the rules page shows the books, the dates, the ranking order and the prizes', async ({ page }) => {
  await page.goto('/the-le');
  await expect(page.getByRole('heading', { level: 1, name: 'Thể lệ cuộc thi' })).toBeVisible();
  await expect(page.getByRole('heading', { name: /Nhóm 1: lớp 1 và 2/ })).toBeVisible();
  // The dates come from the contest settings (e2e/dates-reports.spec.ts checks them one by one).
  await expect(page.getByRole('row', { name: /Đọc sách và phát động cuộc thi/ })).toContainText(/Từ \d{2}\/\d{2}\/\d{4} đến \d{2}\/\d{2}\/\d{4}/);
  await expect(page.getByText(/^Từ \d{2}:\d{2} ngày \d{2}\/\d{2}\/\d{4} đến \d{2}:\d{2} ngày \d{2}\/\d{2}\/\d{4}$/)).toBeVisible();
  await expect(page.getByRole('row', { name: /Lễ trao giải/ })).toContainText(/Từ \d{2}\/\d{2}\/\d{4} đến \d{2}\/\d{2}\/\d{4}/);

  const ranking = page.locator('#xep-hang ol > li');
  await expect(ranking).toHaveText([/điểm thi từ cao xuống thấp/, /thời gian làm bài ngắn hơn/, /nộp bài sớm hơn/, /dự đoán gần với số bài thi thực tế/]);

  const individual = page.getByRole('table', { name: 'Giải cá nhân' });
  await expect(individual.getByRole('row', { name: /Giải Đặc biệt/ })).toContainText('10.000.000 đ');
  await expect(individual.getByRole('row', { name: /Giải Ba/ })).toContainText('500.000 đ');
  await expect(individual.getByRole('row', { name: /Giải Khuyến khích/ })).toContainText('200.000 đ');
  await expect(individual.getByRole('row', { name: /Tổng cộng/ })).toContainText('41.000.000 đ');
  const school = page.getByRole('table', { name: 'Giải tập thể trường' });
  await expect(school.getByRole('row', { name: /Giải Nhất/ })).toContainText('10.000.000 đ');
  await expect(page.getByText(/30 học sinh có kết quả tốt nhất/)).toContainText('70.000 đ');
  await expect(page.getByText(/30 học sinh có kết quả tốt nhất/)).toContainText('2.100.000 đ');
  const teacher = page.getByRole('table', { name: 'Giải Giáo viên truyền lửa' });
  await expect(teacher.getByRole('row', { name: /Tổng cộng/ })).toContainText('6.000.000 đ');
});

test.describe('not found', () => {
  for (const path of ['/404', '/khong-co-trang-nay']) {
    test(`${path} shows 'Trang không tồn tại'`, async ({ page }) => {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: 'Trang không tồn tại' })).toBeVisible();
      await expect(page).toHaveTitle(/Trang không tồn tại/);
      await page.getByRole('link', { name: 'Về trang chủ' }).click();
      await expect(page).toHaveURL(/\/$/);
    });
  }
});
