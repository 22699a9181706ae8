// The public pages come drawn in their HTML (docs/decisions/034): a phone shows them before the
// JavaScript has come, the app takes them over without redrawing (a mismatch is a console error,
// which the fixture fails on), and a form sent before the app has started sends nothing.
import { DEMO_PARENT, expect, phoneViewport, test } from './fixtures';

test.use({ viewport: phoneViewport });

const DRAWN: { path: string; heading: string }[] = [
  { path: '/', heading: 'Đại sứ Văn hoá đọc' },
  { path: '/the-le', heading: 'Thể lệ cuộc thi' },
  { path: '/danh-sach-doat-giai', heading: 'Danh sách đoạt giải' },
  { path: '/chinh-sach-bao-mat', heading: 'Chính sách bảo mật' },
  { path: '/tin-tuc', heading: 'Tin tức' },
  { path: '/dang-nhap', heading: 'Đăng nhập' },
  { path: '/dang-ky', heading: 'Đăng ký tài khoản' },
  { path: '/quen-mat-khau', heading: 'Quên mật khẩu' },
];

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('every public page shows its heading, its menu and its footer from the HTML alone', async ({ page }) => {
    for (const { path, heading } of DRAWN) {
      // Loaded, not started: without JavaScript the app never starts.
      await page.goto(path, { waitUntil: 'domcontentloaded' });
      await expect(page.getByRole('heading', { level: 1, name: heading }), path).toBeVisible();
      await expect(page.locator('header.site-header a[href="/the-le"]').first(), path).toBeAttached();
      await expect(page.locator('footer.site-footer'), path).toBeVisible();
    }
    // The news list and an article come drawn with their posts (decision 035).
    await page.goto('/tin-tuc', { waitUntil: 'domcontentloaded' });
    const first = page.locator('.news-summary-title a').first();
    await expect(first).toBeVisible();
    const title = (await first.textContent())!;
    await first.click();
    await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
    await expect(page.locator('.article-body')).not.toBeEmpty();
    // An unknown article: its shell, the way back; the app would say it does not exist.
    await page.goto('/tin-tuc/mot-bai-viet', { waitUntil: 'domcontentloaded' });
    await expect(page.getByRole('link', { name: 'Tất cả tin tức' })).toBeVisible();
    // A page behind the login is not drawn: the app draws it.
    await page.goto('/tai-khoan', { waitUntil: 'domcontentloaded' });
    await expect(page.locator('#root')).toBeEmpty();
  });
});

test('the login form drawn in the HTML keeps what was typed before the app started, sends nothing early, then logs in', async ({ page }) => {
  // The app's entry held back for 2 s: a slow phone's first seconds on the page.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  const guard = page.waitForResponse(/\/form-guard\.js$/);
  await page.goto('/dang-nhap', { waitUntil: 'commit' });
  await guard;
  const sent: string[] = [];
  page.on('request', (request) => {
    if (request.isNavigationRequest()) sent.push(`${request.method()} ${request.url()}`);
  });
  await page.getByLabel('Số điện thoại').fill(DEMO_PARENT.phone);
  await page.getByLabel('Mật khẩu').fill(DEMO_PARENT.password);
  await page.getByLabel('Mật khẩu').press('Enter');
  await page.getByRole('button', { name: 'Đăng nhập', exact: true }).click();
  // Nothing left the page: no navigation, no password in an address.
  await page.waitForTimeout(500);
  expect(sent).toEqual([]);
  expect(page.url()).not.toContain('password');
  await expect(page.locator('html')).not.toHaveAttribute('data-app-started', '');

  release();
  await expect(page.locator('html')).toHaveAttribute('data-app-started', '');
  await expect(page.getByLabel('Số điện thoại')).toHaveValue(DEMO_PARENT.phone);
  await expect(page.getByLabel('Mật khẩu')).toHaveValue(DEMO_PARENT.password);
  await page.getByRole('button', { name: 'Đăng nhập', exact: true }).click();
  await expect(page).toHaveURL(/\/tai-khoan$/);
  await expect(page.locator('header.site-header a[href="/bao-cao"]').first()).toBeAttached();
});

test('a logged-in parent opening a drawn page gets their own header once the app has taken it over', async ({ page }) => {
  await page.goto('/dang-nhap');
  await expect(page.locator('html')).toHaveAttribute('data-app-started', '');
  await page.getByLabel('Số điện thoại').fill(DEMO_PARENT.phone);
  await page.getByLabel('Mật khẩu').fill(DEMO_PARENT.password);
  await page.getByRole('button', { name: 'Đăng nhập', exact: true }).click();
  await expect(page).toHaveURL(/\/tai-khoan$/);
  for (const { path } of DRAWN.filter(({ path }) => !['/dang-nhap', '/dang-ky', '/quen-mat-khau'].includes(path))) {
    await page.goto(path);
    await expect(page.locator('html'), path).toHaveAttribute('data-app-started', '');
    // The parent's menu (with Báo cáo), which the HTML drawn for visitors does not have.
    await expect(page.locator('header.site-header a[href="/bao-cao"]').first(), path).toBeAttached();
  }
});

test('the news pages drawn with their posts are taken over without asking for them again; the next page asks', async ({ page }) => {
  const asked: string[] = [];
  page.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith('/api/blog')) asked.push(path);
  });
  await page.goto('/tin-tuc');
  const titles = await page.locator('.news-summary-title').allTextContents();
  expect(titles.length).toBeGreaterThan(0);
  await page.locator('.news-summary-title a').nth(1).click();
  await expect(page.getByRole('heading', { level: 1, name: titles[1] })).toBeVisible();
  await page.goBack();
  await expect(page.locator('.news-summary-title')).toHaveText(titles);
  // Drawn in the HTML: not asked on the first page; the article and the list again are.
  expect(asked.filter((path) => path === '/api/blogs')).toHaveLength(1);
  expect(asked.filter((path) => path.startsWith('/api/blog/'))).toHaveLength(1);

  // An article opened directly comes with its text: the app does not ask for it.
  const { data: posts } = (await (await page.request.get('/api/blogs')).json()) as { data: { slug: string; name: string }[] };
  asked.length = 0;
  await page.goto(`/tin-tuc/${posts[0]!.slug}`);
  await expect(page.getByRole('heading', { level: 1, name: posts[0]!.name })).toBeVisible();
  await expect(page.locator('.article-body')).not.toBeEmpty();
  expect(asked).toEqual([]);
});
