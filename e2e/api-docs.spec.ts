// The API's description page (/api/docs): swagger-ui renders the generated document under the
// site's strict page headers (a blocked script or style would be a console error, which fails the
// test), with the feature tags, the bearer scheme's Authorize button and an upload's form fields.
import { test, expect } from './fixtures';

test('the organiser\'s IT staff read the API description at /api/docs', async ({ page }) => {
  await page.goto('/api/docs');
  await expect(page.getByRole('heading', { name: /API Cuộc thi Đại sứ Văn hoá đọc/ })).toBeVisible();
  await expect(page.getByRole('link', { name: '/api/docs/openapi.json' })).toBeVisible();
  for (const tag of ['Tài khoản', 'Bài thi', 'Quản trị: mẫu và nhật ký']) {
    await expect(page.getByRole('heading', { level: 3 }).getByRole('link', { name: tag, exact: true })).toBeVisible();
  }
  await expect(page.getByRole('button', { name: /Authorize/ })).toBeVisible();

  // One operation opened: its request body and the shared error answers.
  await page.getByRole('button', { name: /^POST \/api\/login / }).click();
  await expect(page.getByText('Đăng nhập bằng số điện thoại và mật khẩu').first()).toBeVisible();
  await expect(page.getByText('Máy chủ đang bận').first()).toBeVisible();
});

test('the document itself is plain JSON at /api/docs/openapi.json', async ({ request }) => {
  const response = await request.get('/api/docs/openapi.json');
  expect(response.status()).toBe(200);
  const document = await response.json();
  expect(document.openapi).toBe('3.1.0');
  expect(Object.keys(document.paths)).toContain('/api/login');
});
