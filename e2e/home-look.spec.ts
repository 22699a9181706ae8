// The home page's look on a phone (issue 10, items 19, 24, 25): the hero text's contrast can be
// decided and passes, the fonts are the latin and vietnamese subsets of two weights, preloaded,
// and the book modal names no genre as an author.
import { test, expect, expectAccessible, axeScan, expectLoaded, phoneViewport } from './fixtures';

test.use({ viewport: phoneViewport });

test('the hero text passes the contrast check (axe decides every node) and the page has no violation', async ({ page }) => {
  await page.goto('/');
  await expectLoaded(page); // the timeline, the books and the news are on screen
  await expectAccessible(page, 'home at 360 px');
  const { results, nodes } = await axeScan(page, { type: 'rule', values: ['color-contrast'] });
  const undecided = nodes(results.incomplete);
  expect(undecided, 'nodes whose contrast axe could not decide').toEqual([]);
});

test('the home page loads only the latin and vietnamese subsets of Be Vietnam Pro 400 and 700, preloaded', async ({ page }) => {
  const fonts: string[] = [];
  page.on('requestfinished', (request) => {
    if (request.resourceType() === 'font') fonts.push(new URL(request.url()).pathname);
  });
  await page.goto('/');
  await expectLoaded(page);
  await expect.poll(() => page.evaluate(() => document.fonts.check('700 16px "Be Vietnam Pro"', 'Đại sứ'))).toBe(true);
  await page.evaluate(() => document.fonts.ready.then(() => undefined)); // every font the page shows has loaded
  const preloadedFonts = await page.locator('link[rel="preload"][as="font"]').count();
  await expect.poll(() => fonts.length).toBeGreaterThanOrEqual(preloadedFonts);
  expect(fonts.length).toBeGreaterThan(0);
  expect(fonts.length).toBeLessThanOrEqual(4);
  for (const font of fonts) expect(font).toMatch(/be-vietnam-pro-(latin|vietnamese)-(400|700)-normal-[\w-]+\.woff2$/);
  const preloaded = await page.locator('link[rel="preload"][as="font"]').evaluateAll((links) => links.map((link) => new URL((link as HTMLLinkElement).href).pathname));
  expect(preloaded.sort()).toEqual([...new Set(fonts)].sort());
});

test('the book modal shows the cover and no genre as an author; it is an accessible dialog', async ({ page }) => {
  await page.goto('/');
  const cover = page.getByRole('button', { name: /^Xem bìa sách / }).first();
  await cover.click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('img', { name: /ảnh lớn/ })).toBeVisible();
  await expect(dialog).not.toContainText('Truyện cổ tích');
  await expect(dialog).not.toContainText('Truyền thuyết');
  await expect(dialog).toHaveAttribute('aria-modal', 'true');
  await expectAccessible(page, 'book modal');
  // Tab stays inside the dialog.
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Đóng' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Đóng' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(cover).toBeFocused();
});
