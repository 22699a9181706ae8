// Issue 26, the second season: the organiser opens next year's season at /quan-tri/mua-thi
// (preview, then confirmation) and the demo parent, back for the new season, sees the grade-2
// child moved up with the class asked again (and saves it) and the grade-5 child as finished;
// the parent finds last season's results and certificates in the report's season selector, and
// the organiser browses last season's books read-only.
// Opening a season cannot be undone, so this spec runs its own server on a database of its own
// (the compiled server e2e/global-setup.ts built), never the one the other specs share.
import type { Locator, Page } from '@playwright/test';
import { toVietnamLocalInput } from '../src/shared/schemas/admin-contest';
import { DEMO_ORGANISER, DEMO_PARENT, DEMO_SCHOOL_ADMIN, expect, expectAccessible, phoneViewport, storeSession, test } from './fixtures';
import { ownServerUrl, startOwnServer } from './servers';

const OFFSET = 5;
const BASE_URL = ownServerUrl(OFFSET);
const DAY = 86_400_000;

let server: Awaited<ReturnType<typeof startOwnServer>> | undefined;

test.use({ baseURL: BASE_URL });

test.beforeAll(async () => {
  server = await startOwnServer(OFFSET, 'season', { env: { EXAM_SWEEP_SECONDS: '0' } });
});

test.afterAll(async () => {
  await server?.stop();
});

async function logIn(page: Page, account: { phone: string; password: string }) {
  const response = await page.request.post(`${BASE_URL}/api/login`, { data: account });
  expect(response.ok()).toBe(true);
  const body = await response.json();
  await storeSession(page.context(), BASE_URL, { token: body.access_token, user: body.user });
}

test('the organiser opens a new season and a returning parent gives the child’s new class', async ({ page, browser }) => {
  await logIn(page, DEMO_ORGANISER);
  const seasons = await (await page.request.get(`${BASE_URL}/api/admin/seasons`, { headers: { authorization: `Bearer ${await tokenOf(page)}` } })).json();
  const current = seasons.data[0] as { name: string; exam_ends_at: string };

  await page.goto('/quan-tri/mua-thi');
  await expect(page.getByRole('heading', { name: 'Mùa thi', exact: true })).toBeVisible();
  await expect(page.getByText('mùa thi hiện tại', { exact: true })).toBeVisible();
  await expectAccessible(page);

  // A year later: dates typed in Vietnam's time.
  const start = new Date(current.exam_ends_at).getTime() + 300 * DAY;
  const local = (days: number) => toVietnamLocalInput(new Date(start + days * DAY).toISOString());
  await page.getByLabel('Tên mùa thi mới').fill('Cuộc thi Đại sứ Văn hoá đọc mùa sau');
  await page.getByLabel('Bắt đầu đọc sách').fill(local(-30));
  await page.getByLabel('Kết thúc đọc sách').fill(local(-1));
  await page.getByLabel('Mở thi').fill(local(0));
  await page.getByLabel('Đóng thi').fill(local(12));
  await page.getByLabel('Công bố kết quả').fill(local(20));
  await page.getByLabel('Bắt đầu trao giải').fill(local(25));
  await page.getByLabel('Kết thúc trao giải').fill(local(26));
  // The current books are offered, each copying its bank; the first one is renamed, and one more
  // is added with an empty bank (its questions to be imported later).
  await page.getByLabel('Sách 1: tên').fill('Sách mới của Nhóm 1');
  const bookCount = await page.getByLabel(/^Sách \d+: tên$/).count();
  await page.getByRole('button', { name: 'Thêm sách' }).click();
  await page.getByLabel(`Sách ${bookCount + 1}: tên`).fill('Sách chưa có câu hỏi');
  await page.getByRole('button', { name: 'Xem trước thay đổi' }).click();

  const preview = page.getByRole('region', { name: 'Những gì sẽ thay đổi' });
  await expect(preview).toContainText(`${current.name} kết thúc, chỉ còn để xem`);
  await expect(preview).toContainText('thí sinh lên lớp, phụ huynh chọn lại lớp');
  await expect(preview).toContainText('đã học hết lớp 5');
  await expect(preview).toContainText('Sách mới của Nhóm 1 (Nhóm 1)');
  // The empty bank is said before the switch, in the preview and again in the confirmation.
  const shortWarning = /1 sách chưa đủ \d+ câu hỏi cho một bài thi: Sách chưa có câu hỏi \(0 câu\)\. Gia đình sẽ không thấy các sách này/;
  await expect(preview).toContainText(shortWarning);
  await preview.getByRole('button', { name: 'Mở mùa thi mới' }).click();
  const dialog = page.getByRole('alertdialog');
  await expect(dialog).toContainText('Việc này không hoàn tác được.');
  await expect(dialog).toContainText(shortWarning);
  await dialog.getByRole('button', { name: 'Mở mùa thi mới' }).click();
  await expect(page.getByText('Đã mở Cuộc thi Đại sứ Văn hoá đọc mùa sau.')).toBeVisible();
  await expect(page.getByRole('listitem').filter({ hasText: current.name })).toContainText('đã kết thúc, chỉ xem');
  await expect(page.getByRole('listitem').filter({ hasText: 'Cuộc thi Đại sứ Văn hoá đọc mùa sau' })).toContainText('mùa thi hiện tại');
  // The exam-day dashboard names the book whose bank is still empty, with a link to it.
  await page.goto('/quan-tri/theo-doi');
  const shortBooks = page.getByRole('region', { name: 'Sách chưa đủ câu hỏi để ra đề' });
  await expect(shortBooks).toContainText(/Sách chưa có câu hỏi \(Nhóm 1\): 0\/\d+ câu/);
  await expect(shortBooks.getByRole('link', { name: 'Sách chưa có câu hỏi' })).toHaveAttribute('href', /\/quan-tri\/sach\/\d+$/);

  // The demo parent comes back: Minh Anh (grade 2) is a grade up, class to choose; Đức Trường finished grade 5.
  const family = await browser.newPage({ baseURL: BASE_URL });
  await logIn(family, DEMO_PARENT);
  await family.goto('/tai-khoan');
  await expect(family.getByText('Mùa thi mới đã bắt đầu.')).toBeVisible();
  await expect(family.getByRole('region', { name: 'Đã hoàn thành bậc tiểu học' })).toContainText('Nguyễn Đức Trường');
  const card = family.getByRole('group', { name: 'Thí sinh 1' });
  await expect(card.getByLabel('Họ và tên')).toHaveValue('Nguyễn Minh Anh');
  await expect(card).toContainText('Mùa thi mới: bé đã lên lớp.');
  await expect(card.getByLabel('Nhóm lớp')).toHaveValue(/\d+/);
  await expect(card.getByLabel('Nhóm lớp').locator('option:checked')).toContainText('Lớp 3 - 4');
  await card.getByLabel('Lớp', { exact: true }).selectOption({ label: '3A2' });
  await family.getByRole('button', { name: 'Hoàn thành' }).click();
  await expect(family.getByText('Đã hoàn thành đăng ký')).toBeVisible();
  await family.reload();
  await expect(family.getByRole('group', { name: 'Thí sinh 1' }).getByLabel('Lớp', { exact: true }).locator('option:checked')).toHaveText('3A2');
  await expect(family.getByText('Mùa thi mới đã bắt đầu.')).toHaveCount(0);
  await expectAccessible(family);
  await family.close();
});

test('the school report of an earlier season, chosen in its season selector, is last year’s', async ({ page }) => {
  await logIn(page, DEMO_SCHOOL_ADMIN);
  await page.goto('/bao-cao');
  const selector = page.getByLabel('Mùa thi');
  await expect(selector).toBeVisible();
  expect(await chooseOldestSeason(selector)).toContain('(đã kết thúc)');
  await page.getByRole('tab', { name: 'Điểm thi - TOP 30' }).click();
  const panel = page.getByRole('tabpanel');
  await expect(panel.getByRole('row').filter({ hasText: 'Nguyễn Minh Anh' })).toContainText('1A1');
  await expect(panel.getByRole('row').filter({ hasText: 'Nguyễn Đức Trường' })).toContainText('4A3');
  await expectAccessible(page);
});

test('the organiser reads an earlier season’s prize list, without withdrawals', async ({ page }) => {
  await logIn(page, DEMO_ORGANISER);
  await page.goto('/quan-tri/ket-qua');
  const card = page.locator('.admin-card').filter({ has: page.getByRole('heading', { name: 'Kết quả các mùa thi trước (chỉ xem)' }) });
  const selector = card.getByLabel('Mùa thi');
  await expect(selector).toBeVisible();
  await chooseOldestSeason(selector);
  await expect(card.getByRole('table')).toContainText('Nguyễn Đức Trường');
  await expect(card.getByRole('button', { name: /^Rút giải/ })).toHaveCount(0);
  await expectAccessible(page);
});

test('a returning parent finds last season’s result and certificate of a child in the report’s season selector, on a phone', async ({ page }) => {
  await page.setViewportSize(phoneViewport);
  await logIn(page, DEMO_PARENT);
  await page.goto('/bao-cao');
  const selector = page.getByLabel('Mùa thi');
  await expect(selector).toBeVisible();
  const oldest = await chooseOldestSeason(selector);
  expect(oldest).toContain('(đã kết thúc)');
  await expect(page.getByRole('note')).toContainText('đã kết thúc: kết quả và giấy chứng nhận của mùa này chỉ để xem.');
  const child = page.getByRole('region', { name: 'Nguyễn Minh Anh' });
  await expect(child).toContainText('Lớp: 1A1');
  await expect(child).toContainText(/Kết quả: 85\/100 điểm, .*xếp hạng \d+\./);
  await expect(child.getByRole('list', { name: 'Các lần thi của Nguyễn Minh Anh' }).getByRole('listitem')).toHaveCount(2);
  const certificates = child.getByRole('list', { name: 'Giấy chứng nhận của Nguyễn Minh Anh' });
  await expect(certificates.getByRole('button', { name: /^Tải PDF: / }).first()).toBeVisible();
  await expectAccessible(page);
  // Nothing wider than the phone's screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(phoneViewport.width);

  // The certificate's PDF downloads, and its verification page names last season.
  const download = page.waitForEvent('download');
  await certificates.getByRole('button', { name: /^Tải PDF: / }).first().click();
  expect((await download).suggestedFilename()).toMatch(/^giay-chung-nhan-[A-Z0-9-]+\.pdf$/);
  await certificates.getByRole('link', { name: 'Trang xác minh' }).first().click();
  await expect(page).toHaveURL(/\/xac-minh\/[A-Z0-9-]+$/);
  await expect(page.getByText(oldest)).toBeVisible();
  await expect(page.getByText('Nguyễn Minh Anh')).toBeVisible();

  // Last season's certificate page of the child (an address kept from last year) names that season.
  const headers = { authorization: `Bearer ${await tokenOf(page)}` };
  const seasons = (await (await page.request.get(`${BASE_URL}/api/report-parent/seasons`, { headers })).json()).data as { id: number; name: string; is_current: boolean }[];
  const previous = seasons.find((season) => !season.is_current)!;
  const report = await (await page.request.get(`${BASE_URL}/api/report-parent?season=${previous.id}`, { headers })).json();
  const lastYear = (report.data.childrens as { id: number; fullname: string }[]).find((c) => c.fullname === 'Nguyễn Minh Anh')!;
  await page.goto(`/giay-chung-nhan/${lastYear.id}`);
  await expect(page.getByText(`${previous.name} (đã kết thúc)`)).toBeVisible();
});

test('the organiser browses last season’s books and question bank, read-only', async ({ page }) => {
  await logIn(page, DEMO_ORGANISER);
  await page.goto('/quan-tri/sach');
  await expect(page.getByRole('button', { name: 'Thêm sách' })).toBeVisible();
  const selector = page.getByLabel('Mùa thi');
  await chooseOldestSeason(selector);
  await expect(page.getByRole('status').filter({ hasText: 'đã kết thúc: chỉ xem, không sửa được.' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Thêm sách' })).toHaveCount(0);
  await expectAccessible(page);

  // A book of last season: its bank is listed, with no editing control.
  await page.getByRole('table', { name: 'Danh sách sách' }).getByRole('link').first().click();
  await expect(page.getByRole('status').filter({ hasText: 'đã kết thúc: chỉ xem, không sửa được.' })).toBeVisible();
  await expect(page.getByRole('table', { name: /Câu hỏi của sách/ }).getByRole('row').nth(1)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Thêm câu hỏi' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /^(Sửa|Xoá|Chấm lại) câu/ })).toHaveCount(0);
  await expect(page.getByText('Nhập câu hỏi từ tệp')).toHaveCount(0);
  await expect(page.getByLabel(/Đổi ảnh bìa/)).toHaveCount(0);
  await expectAccessible(page);
  // Its question quality over last season's exams, without a regrade.
  await page.getByRole('link', { name: /Chất lượng câu hỏi/ }).click();
  await expect(page.getByRole('status').filter({ hasText: 'đã kết thúc: chỉ xem, không sửa được.' })).toBeVisible();
  await expect(page.getByTestId('quality-summary')).toBeVisible();
  await expect(page.getByRole('button', { name: /^Chấm lại thử/ })).toHaveCount(0);
  await page.getByRole('link', { name: '← Về sách' }).click();
  // Back to the list of that season.
  await page.getByRole('link', { name: '← Danh sách sách' }).click();
  await expect(page.getByLabel('Mùa thi')).toHaveValue(/\d+/);
  await expect(page.getByRole('button', { name: 'Thêm sách' })).toHaveCount(0);
});

/** Chooses the demo's finished season in a "Mùa thi" selector: the oldest, the last of the list. */
async function chooseOldestSeason(selector: Locator): Promise<string> {
  // The options come with the seasons' list, after the page: read them once they are there
  // (allTextContents does not wait; read too early, it gave no label, and the current season stayed).
  await expect(selector.locator('option').nth(1)).toBeAttached();
  const oldest = (await selector.locator('option').allTextContents()).at(-1)!;
  await selector.selectOption({ label: oldest });
  return oldest;
}

async function tokenOf(page: Page): Promise<string> {
  const cookies = await page.context().cookies(BASE_URL);
  return decodeURIComponent(cookies.find((cookie) => cookie.name === 'token')!.value);
}
