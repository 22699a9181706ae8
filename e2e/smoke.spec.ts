import { test, expect } from './fixtures';

test('the home page loads in Vietnamese', async ({ page }) => {
  await page.goto('/');
  await expect(page.locator('html')).toHaveAttribute('lang', 'vi');
  await expect(page.getByRole('link', { name: 'Trang chủ' }).first()).toBeVisible();
});

test('an unknown path shows the not-found screen', async ({ page }) => {
  await page.goto('/khong-co-trang-nay');
  await expect(page.getByRole('heading', { name: 'Trang không tồn tại' })).toBeVisible();
});
