// The organiser writes a news post in the back office (picture, rich text), publishes it, finds it
// on the home page and its article page, sees the entries in the audit log, then deletes it (so
// the other specs see the demo news only).
import sharp from 'sharp';
import { DEMO_ORGANISER, expect, expectAccessible, logInAs, test } from './fixtures';

test('the organiser publishes a news post that appears on the home page, and the audit log shows it', async ({ page }) => {
  test.setTimeout(180_000);
  const title = `Ngày hội đọc sách mùa hè ${Date.now() % 100_000}`;
  await logInAs(page, DEMO_ORGANISER);

  await page.goto('/quan-tri/tin-tuc');
  await expect(page.getByRole('heading', { level: 1, name: 'Tin tức' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Danh sách bài viết' }).getByRole('row')).not.toHaveCount(1);
  await expectAccessible(page, 'news list');

  await page.getByRole('link', { name: 'Viết tin mới' }).click();
  await expect(page).toHaveURL(/\/quan-tri\/tin-tuc\/moi$/);
  // An empty form is refused with the shared schema's messages, before any request.
  await page.getByRole('button', { name: 'Lưu bài viết' }).click();
  await expect(page.getByText('Vui lòng nhập tiêu đề.')).toBeVisible();
  await expect(page.getByText('Vui lòng nhập nội dung bài viết.')).toBeVisible();

  await page.getByRole('textbox', { name: 'Tiêu đề' }).fill(title);
  const picture = await sharp({ create: { width: 960, height: 540, channels: 3, background: { r: 13, g: 92, b: 99 } } }).png().toBuffer();
  await page.getByLabel('Ảnh đại diện', { exact: true }).setInputFiles({ name: 'ngay-hoi.png', mimeType: 'image/png', buffer: picture });
  const preview = page.getByRole('img', { name: 'Ảnh đại diện hiện tại' });
  await expect(preview).toHaveAttribute('src', /^\/api\/media\/[0-9a-f]{64}\.webp$/);

  const editor = page.getByRole('textbox', { name: 'Nội dung' });
  await editor.click();
  await page.getByRole('button', { name: 'Tiêu đề lớn' }).click();
  await page.keyboard.insertText('Lịch hoạt động');
  await page.keyboard.press('Enter');
  await page.keyboard.insertText('Mời các em đến thư viện ');
  await page.getByRole('button', { name: 'Đậm' }).click();
  await expect(page.getByRole('button', { name: 'Đậm' })).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.insertText('sáng thứ Bảy');
  await page.getByRole('button', { name: 'Đậm' }).click();
  await page.keyboard.insertText(' để đọc sách cùng nhau.');
  await page.getByLabel(/^Đăng ngay/).check();
  await expectAccessible(page, 'news form');
  await page.getByRole('button', { name: 'Lưu bài viết' }).click();

  await expect(page).toHaveURL(/\/quan-tri\/tin-tuc$/);
  const row = page.getByRole('row').filter({ hasText: title });
  await expect(row.getByText('Đã đăng')).toBeVisible();

  // On the home page, first in the news, and its article with the formatted body.
  await page.goto('/');
  const news = page.getByRole('region', { name: 'Tin tức' });
  const first = news.getByRole('listitem').first();
  await expect(first.getByRole('heading', { name: title })).toBeVisible();
  await expect(first.locator('img')).toHaveAttribute('src', /^\/api\/media\/[0-9a-f]{64}\.webp$/);
  await first.getByRole('heading').getByRole('link').click();
  await expect(page).toHaveURL(/\/tin-tuc\/ngay-hoi-doc-sach-mua-he-\d+$/);
  await expect(page.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(page.locator('.article-body h2')).toHaveText('Lịch hoạt động');
  await expect(page.locator('.article-body strong')).toHaveText('sáng thứ Bảy');
  const articleUrl = page.url();

  // The audit log: the creation and the picture upload, by the demo organiser.
  await page.goto('/quan-tri/nhat-ky');
  await expect(page.getByRole('heading', { level: 1, name: 'Nhật ký thao tác' })).toBeVisible();
  await page.getByLabel('Loại thao tác').selectOption({ label: 'Tin tức' });
  await page.getByLabel('Người thực hiện (tên hoặc số điện thoại)').fill(DEMO_ORGANISER.phone);
  await page.getByRole('button', { name: 'Lọc', exact: true }).click();
  const entry = page.getByRole('row').filter({ hasText: `Thêm tin "${title}" (đã đăng)` });
  await expect(entry).toBeVisible();
  await expect(entry.getByRole('cell').first()).toHaveText(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}$/);
  await expect(entry.getByRole('cell', { name: 'Tin tức: thêm' })).toBeVisible();
  await expect(entry.getByRole('cell', { name: DEMO_ORGANISER.phone })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: 'Tải ảnh lên cho tin tức: ngay-hoi.png' })).toBeVisible();
  await entry.getByText('Chi tiết').click();
  await expect(entry.getByRole('table', { name: 'Trước và sau' }).getByRole('row', { name: /Tên/ })).toContainText(title);
  await expectAccessible(page, 'audit log');

  // Unpublished: gone from the site; then deleted after a confirmation.
  await page.goto('/quan-tri/tin-tuc');
  await page.getByRole('button', { name: `Gỡ: ${title}` }).click();
  await expect(page.getByRole('row').filter({ hasText: title }).getByText('Bản nháp')).toBeVisible();
  await page.getByRole('button', { name: `Xoá: ${title}` }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Xoá bài viết?' });
  await expectAccessible(page, 'delete confirmation');
  await confirm.getByRole('button', { name: 'Xoá' }).click();
  await expect(confirm).toBeHidden();
  await expect(page.getByRole('row').filter({ hasText: title })).toHaveCount(0);
  // (The browser may keep the article for the minute /api/blog allows caching; the server has forgotten it.)
  expect((await page.request.get(`/api/blog/${articleUrl.split('/').pop()}`)).status()).toBe(404);
});
