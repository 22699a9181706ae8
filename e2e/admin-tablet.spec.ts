// Issue 23.15: the back office on a 768 px tablet. The contest settings, incident support (with an
// attempt in progress, so its "Gia hạn" button shows) and the results page fit the screen's width
// (a wide table scrolls inside its own frame, never the page), and a table's frame that scrolls
// can be reached with the keyboard (axe's scrollable-region-focusable).
import type { Page } from '@playwright/test';
import { DEMO_ORGANISER, expect, expectAccessible, expectLoaded, logInAs, test } from './fixtures';
import { registerFamily, startExamByApi } from './exam-fixtures';

const tablet = { width: 768, height: 1024 };

async function expectNoSidewaysScroll(page: Page, label: string) {
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width, `page width of ${label}`).toBeLessThanOrEqual(tablet.width);
}

test.use({ viewport: tablet });

test('the settings, incident support and results pages fit a 768 px tablet and their scrolling tables take the keyboard', async ({ page, request }) => {
  const family = await registerFamily(request, 'Vũ Máy Tính Bảng');
  await startExamByApi(request, family);
  await logInAs(page, DEMO_ORGANISER);

  await page.goto('/quan-tri/cuoc-thi');
  await expectLoaded(page);
  await expectNoSidewaysScroll(page, 'the contest settings');
  await expectAccessible(page, 'contest settings at 768 px');
  // The prize tiers' tables sit in the same frame as the other tables: narrower, a table scrolls
  // in it and the frame, named by the table's heading, takes the keyboard.
  await page.setViewportSize({ width: 560, height: 1024 });
  const prizes = page.getByRole('region', { name: 'Giải cá nhân', exact: true });
  await expect(prizes).toHaveAttribute('tabindex', '0');
  await prizes.focus();
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => prizes.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);
  await expectAccessible(page, 'contest settings at 560 px');
  await page.setViewportSize(tablet);

  await page.goto('/quan-tri/ho-tro');
  await expectLoaded(page);
  await page.getByLabel('Số điện thoại phụ huynh').fill(family.phone);
  await page.getByRole('button', { name: 'Tìm', exact: true }).click();
  const card = page.getByRole('article', { name: 'Vũ Máy Tính Bảng' });
  const extend = card.getByRole('button', { name: 'Gia hạn lượt thi 1' });
  await expect(extend).toBeVisible();
  await expectNoSidewaysScroll(page, 'incident support');
  await extend.scrollIntoViewIfNeeded();
  await expect(extend).toBeInViewport({ ratio: 1 });
  await expectAccessible(page, 'incident support at 768 px');
  // The table fits: its frame is no extra tab stop. Narrower, it scrolls in its frame, which
  // becomes a region named by the table's caption that the keyboard reaches.
  const frame = card.locator('.admin-table-wrap');
  await expect(frame).not.toHaveAttribute('tabindex');
  await page.setViewportSize({ width: 560, height: 1024 });
  const region = card.getByRole('region', { name: 'Các lượt thi của Vũ Máy Tính Bảng' });
  await expect(region).toHaveAttribute('tabindex', '0');
  await region.focus();
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => region.evaluate((element) => element.scrollLeft)).toBeGreaterThan(0);
  await expectAccessible(page, 'incident support at 560 px');
  await page.setViewportSize(tablet);
  await expect(frame).not.toHaveAttribute('tabindex');

  await page.goto('/quan-tri/ket-qua');
  await expectLoaded(page);
  await expectNoSidewaysScroll(page, 'the results page');
  await expectAccessible(page, 'results at 768 px');
});
