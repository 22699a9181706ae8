// Issue 36, decision 038: after opening the new season, the organiser imports the new map at
// /quan-tri/danh-muc/ban-do-moi: the preview shows the moves, the renames and the closures, the
// school matched by a name typed without accents is confirmed, the commit stores it; last season's
// school report and prize list still show the old school name and district.
// A season switch and a move cannot be undone: the spec has a server of its own.
import type { APIRequestContext, Page } from '@playwright/test';
import { DEMO_ORGANISER, DEMO_SCHOOL_ADMIN, DEMO_SCHOOL_NAME, expect, expectAccessible, ok, storeSession, test } from './fixtures';
import { startOwnServer } from './servers';
import { nextSeasonBody } from '../src/server/test/next-season';

let server: Awaited<ReturnType<typeof startOwnServer>> | undefined;

test.beforeAll(async () => {
  server = await startOwnServer(6, 'catalog-move');
});
test.afterAll(async () => {
  await server?.stop();
});

/** Logs the page in; answers the session's header for the API calls of the test (one session: a second login may end the first). */
async function logIn(page: Page, account: { phone: string; password: string }) {
  const body = await ok(await page.request.post(`${server!.url}/api/login`, { data: account }));
  await storeSession(page.context(), server!.url, { token: body.access_token, user: body.user });
  return { authorization: `Bearer ${body.access_token}` };
}

/** Opens the next season through the API (the season's own journey is season.spec.ts). */
async function openNextSeason(request: APIRequestContext, headers: Record<string, string>) {
  const seasons = await ok(await request.get('/api/admin/seasons', { headers }));
  const current = seasons.data[0] as { exam_ends_at: string };
  const groups = await ok(await request.get('/api/admin/class-groups', { headers }));
  await ok(await request.post('/api/admin/seasons', { headers, data: nextSeasonBody(current.exam_ends_at, groups.data.items[0].id) }));
}

test('the organiser moves the catalogue to the new map; last season still shows the old school and district', async ({ page, playwright }) => {
  test.setTimeout(180_000);
  const request = await playwright.request.newContext({ baseURL: server!.url });
  const headers = await logIn(page, DEMO_ORGANISER);
  await openNextSeason(request, headers);

  // The new list: every school by its code, the demo school typed without accents (to confirm),
  // moved to a ward and renamed; Hương Sơn left out (closed).
  const schools = (await ok(await request.get('/api/admin/schools?per_page=200', { headers }))).data.items as { id: number; name: string; district_name: string }[];
  const demoSchool = schools.find((s) => s.name === DEMO_SCHOOL_NAME)!;
  const rows = schools
    .filter((s) => s.name !== 'Trường Tiểu học Hương Sơn')
    .map((s) =>
      s.id === demoSchool.id ? ',Truong Tieu hoc Le Loi,Thanh pho An Hoa,Phường Minh Khai,Trường Tiểu học Lê Lợi Minh Khai,Tỉnh An Hoà' : `${s.id},,,${s.district_name},${s.name},`,
    );
  const csv = ['Mã trường,Tên trường cũ,Quận/Huyện cũ,Quận/Huyện,Trường,Tỉnh cũ', ...rows].join('\n');

  await page.goto(`${server!.url}/quan-tri/danh-muc/ban-do-moi`);
  await expect(page.getByRole('heading', { name: 'Chuyển danh mục sang bản đồ mới' })).toBeVisible();
  await page.getByLabel('Chọn tệp').setInputFiles({ name: 'ban-do-moi.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByRole('button', { name: 'Kiểm tra tệp' }).click();
  const preview = page.locator('.catalog-move');
  await expect(preview).toContainText('Đơn vị mới: 1 · Chuyển đơn vị: 1 · Đổi tên: 1 · Sáp nhập: 0 · Đóng: 1');
  await expect(preview).toContainText(`Trường Tiểu học Lê Lợi Minh Khai: Thành phố An Hoà → Phường Minh Khai`);
  await expect(preview).toContainText('Trường Tiểu học Lê Lợi → Trường Tiểu học Lê Lợi Minh Khai (Phường Minh Khai)');
  await expect(preview).toContainText('Trường Tiểu học Hương Sơn (Huyện Đồng Xanh)');
  await expectAccessible(page);

  // Unconfirmed, the server refuses; confirmed, it stores.
  await page.getByRole('button', { name: 'Lưu danh mục mới' }).click();
  await expect(page.getByText(/chưa được xác nhận/).first()).toBeVisible();
  await page.getByRole('button', { name: 'Kiểm tra tệp' }).click();
  await page.getByRole('checkbox', { name: /“Truong Tieu hoc Le Loi \(Thanh pho An Hoa\)” là Trường Tiểu học Lê Lợi/ }).check();
  await page.getByRole('button', { name: 'Lưu danh mục mới' }).click();
  await expect(page.getByText(/^Đã lưu:/)).toBeVisible();
  const catalogue = (await ok(await request.get('/api/admin/schools?per_page=200', { headers }))).data.items as { id: number; name: string; district_name: string }[];
  expect(catalogue.find((s) => s.id === demoSchool.id)).toMatchObject({ name: 'Trường Tiểu học Lê Lợi Minh Khai', district_name: 'Phường Minh Khai' });

  // Last season's prize list: the old district and school name.
  await page.goto(`${server!.url}/quan-tri/ket-qua`);
  const card = page.locator('.admin-card').filter({ has: page.getByRole('heading', { name: 'Kết quả các mùa thi trước (chỉ xem)' }) });
  const selector = card.getByLabel('Mùa thi');
  await expect(selector.locator('option').nth(1)).toBeAttached();
  await selector.selectOption({ label: (await selector.locator('option').allTextContents()).at(-1)! });
  const row = card.getByRole('row').filter({ hasText: 'Nguyễn Đức Trường' }).first();
  await expect(row).toContainText('Thành phố An Hoà');
  await expect(row).toContainText(DEMO_SCHOOL_NAME);
  await expect(row).not.toContainText('Minh Khai');

  // Last season's school report, by the school's administrator: the school as it was named then.
  await page.context().clearCookies();
  await logIn(page, DEMO_SCHOOL_ADMIN);
  await page.goto(`${server!.url}/bao-cao`);
  const seasons = page.getByLabel('Mùa thi');
  await expect(seasons.locator('option').nth(1)).toBeAttached();
  await seasons.selectOption({ label: (await seasons.locator('option').allTextContents()).at(-1)! });
  await expect(page.getByRole('main')).toContainText(DEMO_SCHOOL_NAME);
  await expect(page.getByRole('main')).not.toContainText('Lê Lợi Minh Khai');
  await request.dispose();
});
