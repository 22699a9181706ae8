// Issue 37.2, the winners published: on a phone (360 px) a visitor opens the list from the home
// page (before publication it says so), searches their school without accents and reads a child
// without the parent's consent as "Học sinh lớp 5A2, Trường …"; the parent gives the consent on
// /tai-khoan and the name appears; the organiser downloads the ceremony's PDF from the results
// page. Publishing cannot be undone, so the spec has a server of its own.
import { execFileSync } from 'node:child_process';
import type { APIRequestContext } from '@playwright/test';
import { DEMO_ORGANISER, DEMO_SCHOOL_NAME, expect, expectAccessible, expectLoaded, ok, phoneViewport, registerFamily, storeSession, test } from './fixtures';
import { startOwnServer } from './servers';

let server: Awaited<ReturnType<typeof startOwnServer>> | undefined;
let request: APIRequestContext;
let family: Awaited<ReturnType<typeof registerFamily>>;
let organiser: { token: string; user: unknown };
const DAY = 86_400_000;
const CHILD = 'Trịnh Ngọc Ánh';
const HIDDEN = `Học sinh lớp 5A2, ${DEMO_SCHOOL_NAME}`;

test.use({ viewport: phoneViewport });
test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ playwright }) => {
  test.setTimeout(180_000);
  server = await startOwnServer(8, 'winners');
  request = await playwright.request.newContext({ baseURL: server.url });
  const login = await ok(await request.post('/api/login', { data: DEMO_ORGANISER }));
  organiser = { token: login.access_token, user: login.user };
  // A child who finishes an exam while the window is open.
  family = await registerFamily(request, CHILD, [server.dataDir]);
  const books = await ok(await request.get(`/api/children/${family.childId}/books`, { headers: family.headers }));
  const started = await ok(await request.post('/api/start-exam', { headers: family.headers, data: { book_id: books.data[0].id, child_id: family.childId } }));
  const taking = await ok(await request.get(`/api/examing?book_id=${started.book_id}&child_id=${family.childId}&slug_exam=${started.slug}`, { headers: family.headers }));
  const answers = taking.data.data_questions.map((q: { id: number; answers: { id: number }[] }) => ({ question_id: q.id, answer_id: q.answers[0]!.id }));
  await ok(await request.post('/api/submit-exam', { headers: family.headers, data: { exam_id: started.exam_id, slug: started.slug, answers, prediction: 5, seq: 1 } }));
});
test.afterAll(async () => {
  await request?.dispose();
  await server?.stop();
});

test('before publication the list, opened from the home page or the rules, says the results are not published yet', async ({ page }) => {
  await page.goto(`${server!.url}/`);
  await page.getByRole('link', { name: 'Xem danh sách đoạt giải' }).click();
  await expect(page).toHaveURL(/\/danh-sach-doat-giai$/);
  await expectLoaded(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Danh sách đoạt giải' })).toBeVisible();
  await expect(page.getByRole('status')).toContainText('Kết quả chưa được công bố');
  await expectAccessible(page, 'danh-sach-doat-giai, chưa công bố');
  // The rules lead there too, from their prizes.
  await page.goto(`${server!.url}/the-le`);
  await page.getByRole('main').getByRole('link', { name: 'danh sách đoạt giải', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Danh sách đoạt giải' })).toBeVisible();
});

test('a visitor opens the published list from the home page and searches their school; a child without consent is named by class and school', async ({ page }) => {
  test.setTimeout(120_000);
  // The window closes, the results date has come; the organiser computes and publishes (the back
  // office's own flow is admin-results.spec.ts).
  const headers = { authorization: `Bearer ${organiser.token}` };
  const now = Date.now();
  const at = (ms: number) => new Date(now + ms).toISOString();
  await ok(
    await request.put('/api/admin/contest', {
      headers,
      data: { reading_starts_at: at(-30 * DAY), reading_ends_at: at(-3 * DAY), exam_starts_at: at(-2 * DAY), exam_ends_at: at(-120_000), results_at: at(-60_000), ceremony_starts_at: at(2 * DAY), ceremony_ends_at: at(5 * DAY) },
    }),
  );
  expect((await request.post('/api/admin/results/compute', { headers, data: { force: false } })).status()).toBe(202);
  await expect.poll(async () => (await ok(await request.get('/api/admin/results/task', { headers }))).data.status, { timeout: 60_000 }).toBe('done');
  await ok(await request.post('/api/admin/results/publish', { headers, data: {} }));

  await page.goto(`${server!.url}/`);
  await page.getByRole('link', { name: 'Xem danh sách đoạt giải' }).click();
  await expectLoaded(page);
  await expect(page.getByText(/kết quả công bố ngày \d{2}\/\d{2}\/\d{4}/)).toBeVisible();
  await expect(page.getByRole('heading', { level: 2 }).first()).toBeVisible();
  await expectAccessible(page, 'danh-sach-doat-giai');

  await page.getByLabel('Tìm theo tên trường').fill('tieu hoc le loi');
  await page.getByRole('button', { name: 'Tìm' }).click();
  await expect(page.getByText(/^\d+ giải$/)).toBeVisible();
  const winners = page.locator('.winner');
  await expect(winners.first()).toBeVisible();
  // Every row found is of the school searched for.
  for (const school of await page.locator('.winner-facts div:has(> dt:text-is("Trường")) > dd').allTextContents()) expect(school).toBe(DEMO_SCHOOL_NAME);
  await expect(winners.filter({ hasText: HIDDEN }).first()).toBeVisible();
  await expect(page.getByText(CHILD)).toHaveCount(0);
  expect(await page.evaluate(() => document.documentElement.scrollWidth), 'the page does not scroll sideways').toBeLessThanOrEqual(phoneViewport.width);
  await expectAccessible(page, 'danh-sach-doat-giai, tìm theo trường');

  await page.getByLabel('Tìm theo tên trường').fill('Trường không có');
  await page.getByRole('button', { name: 'Tìm' }).click();
  await expect(page.getByText('Không có học sinh, trường hay giáo viên đoạt giải nào của trường khớp với "Trường không có".')).toBeVisible();
  await expect(winners).toHaveCount(0);
});

test('the parent gives the consent on the profile page and the child’s name appears in the list', async ({ page }) => {
  await storeSession(page.context(), server!.url, { token: family.token, user: family.user });
  await page.goto(`${server!.url}/tai-khoan`);
  await expectLoaded(page);
  const consent = page.getByRole('checkbox', { name: /Tôi đồng ý công bố họ tên của con trong danh sách đoạt giải/ });
  await expect(consent).not.toBeChecked();
  await expectAccessible(page, 'tai-khoan, đồng ý công bố họ tên');
  await consent.check();
  await page.getByRole('button', { name: 'Hoàn thành' }).click();
  await expect(page.getByText('Đã hoàn thành đăng ký')).toBeVisible();

  await page.goto(`${server!.url}/danh-sach-doat-giai`);
  await expectLoaded(page);
  await page.getByLabel('Tìm theo tên trường').fill('Lê Lợi');
  await page.getByRole('button', { name: 'Tìm' }).click();
  await expect(page.locator('.winner').filter({ hasText: CHILD }).first()).toBeVisible();
  await expect(page.locator('.winner-name').filter({ hasText: HIDDEN })).toHaveCount(0);

  // Back on the profile the box stays ticked: the consent is stored.
  await page.goto(`${server!.url}/tai-khoan`);
  await expect(page.getByRole('checkbox', { name: /Tôi đồng ý công bố họ tên/ })).toBeChecked();
});

test('the organiser downloads the ceremony’s PDF of the winners from the results page', async ({ page }) => {
  await storeSession(page.context(), server!.url, organiser);
  await page.goto(`${server!.url}/quan-tri/ket-qua`);
  await expectLoaded(page);
  const button = page.getByRole('button', { name: 'Tải danh sách đoạt giải (PDF, in trao giải)' });
  await expect(button).toBeVisible();
  await expectAccessible(page, 'quan-tri/ket-qua, danh sách đoạt giải để in');
  const [download] = await Promise.all([page.waitForEvent('download'), button.click()]);
  expect(download.suggestedFilename()).toBe('danh-sach-doat-giai.pdf');
  const text = execFileSync('/usr/bin/pdftotext', [(await download.path())!, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
  expect(text).toContain('DANH SÁCH ĐOẠT GIẢI');
  expect(text).toContain(CHILD);
  expect(text).toMatch(/Giải Đặc biệt \(\d+ giải\)/);
});
