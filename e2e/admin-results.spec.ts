// Issue 13, results: the organiser computes the results at /quan-tri/ket-qua once the exam window
// has closed (set through the contest settings), sees publishing refused before the results date,
// publishes on it, and a parent then sees the prize on /giay-chung-nhan/:childId and downloads the
// prize certificate. Publishing cannot be undone, so this spec runs on a server of its own (its
// own data folder) and leaves the shared one as the other specs expect it.
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIRequestContext, Page } from '@playwright/test';
import { formatMoney, formatNumber } from '../src/shared/format';
import { NOTICE_MS } from '../src/shared/rules';
import { DEMO_ORGANISER, DEMO_SCHOOL_NAME, expect, expectAccessible, expectLoaded, ok, registerFamily, storeSession, test } from './fixtures';
import { ownDataDirOf, ownServerUrl, startOwnServer } from './servers';

const OFFSET = 2;
const BASE_URL = ownServerUrl(OFFSET);
const DATA_DIR = ownDataDirOf('admin-results');
const DAY = 86_400_000;

let server: Awaited<ReturnType<typeof startOwnServer>> | undefined;
/** The second child of the first test (a prize once published): the second test withdraws it. */
let secondFamily: { token: string; user: unknown; childId: number; name: string } | undefined;

test.use({ baseURL: BASE_URL });
// The second test works on the results the first one published.
test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(150_000);
  // No event-loop shedding (as in the API test harness): PGlite runs on the server's own event
  // loop, so drawing three certificates on a busy 2-core machine reads as a saturated process.
  server = await startOwnServer(OFFSET, 'admin-results', { env: { SHED_EVENT_LOOP_DELAY_MS: '0' } });
});

test.afterAll(async () => {
  await server?.stop();
});

/** A parent registered through the API, one child at the demo school (class 5A2) who finishes an exam (or only starts it: `finish` submits it later). */
async function familyWithFinishedExam(request: APIRequestContext, childName: string, options: { submit: boolean } = { submit: true }) {
  const { token, user, headers, childId } = await registerFamily(request, childName, [DATA_DIR]);
  const books = await ok(await request.get(`/api/children/${childId}/books`, { headers }));
  const started = await ok(await request.post('/api/start-exam', { headers, data: { book_id: books.data[0].id, child_id: childId } }));
  const taking = await ok(await request.get(`/api/examing?book_id=${started.book_id}&child_id=${childId}&slug_exam=${started.slug}`, { headers }));
  const answers = taking.data.data_questions.map((q: { id: number; answers: { id: number }[] }) => ({ question_id: q.id, answer_id: q.answers[0]!.id }));
  const finish = async () => {
    await ok(await request.post('/api/submit-exam', { headers, data: { exam_id: started.exam_id, slug: started.slug, answers, prediction: 5, seq: 1 } }));
  };
  if (options.submit) await finish();
  return { token, user, childId, finish };
}

/**
 * The prize table named `caption` at the page's width: no cell's content wider than its cell, the
 * page itself no wider than the screen, the `key` columns within the table's frame as it opens, and
 * every column reachable by scrolling the frame (a keyboard-reachable region when it scrolls).
 */
async function expectPrizeTableFits(page: Page, caption: RegExp, key: string[]) {
  const table = page.getByRole('table', { name: caption });
  await expect(table.locator('tbody tr').first()).toBeVisible();
  const width = page.viewportSize()!.width;
  expect(await page.evaluate(() => document.documentElement.scrollWidth), 'the page does not scroll sideways').toBeLessThanOrEqual(width);
  const overflowing = await table.evaluate((element) =>
    [...element.querySelectorAll('th, td')].flatMap((cell) => {
      const box = cell.getBoundingClientRect();
      const inside = [...cell.querySelectorAll('*')].every((child) => {
        const r = child.getBoundingClientRect();
        return r.width === 0 || (r.left >= box.left - 0.5 && r.right <= box.right + 0.5);
      });
      return cell.scrollWidth > cell.clientWidth + 1 || !inside ? [cell.textContent ?? ''] : [];
    }),
  );
  expect(overflowing, 'cells whose content overflows them').toEqual([]);
  const frame = table.locator('xpath=..');
  const frameBox = (await frame.boundingBox())!;
  expect(frameBox.x).toBeGreaterThanOrEqual(0);
  expect(frameBox.x + frameBox.width).toBeLessThanOrEqual(width);
  for (const header of key) {
    const box = (await table.getByRole('columnheader', { name: header, exact: true }).boundingBox())!;
    expect(box.x, `${header} starts within the frame`).toBeGreaterThanOrEqual(frameBox.x - 0.5);
    expect(box.x + box.width, `${header} ends within the frame`).toBeLessThanOrEqual(frameBox.x + frameBox.width + 0.5);
  }
  const scrolls = await frame.evaluate((element) => element.scrollWidth > element.clientWidth);
  if (scrolls) {
    await expect(page.getByRole('region', { name: caption })).toHaveAttribute('tabindex', '0');
    await frame.evaluate((element) => element.scrollTo({ left: element.scrollWidth, behavior: 'instant' }));
    const last = (await table.getByRole('columnheader').last().boundingBox())!;
    expect(last.x + last.width, 'the last column reached by scrolling the frame').toBeLessThanOrEqual(frameBox.x + frameBox.width + 0.5);
    await frame.evaluate((element) => element.scrollTo({ left: 0, behavior: 'instant' }));
  }
}

test('the organiser computes and publishes the results; the parent sees the prize and downloads its certificate', async ({ page, request }) => {
  test.setTimeout(180_000);
  const name = 'Phạm Minh Khôi';
  const family = await familyWithFinishedExam(request, name);
  // Another child still taking an exam when the window closes: the first computation is refused.
  const late = await familyWithFinishedExam(request, 'Đỗ Gia Bảo', { submit: false });
  secondFamily = { ...late, name: 'Đỗ Gia Bảo' };

  // The exam window closes; the results date is tomorrow.
  const login = await ok(await request.post('/api/login', { data: DEMO_ORGANISER }));
  const headers = { authorization: `Bearer ${login.access_token}` };
  const now = Date.now();
  const at = (ms: number) => new Date(now + ms).toISOString();
  await ok(
    await request.put('/api/admin/contest', {
      headers,
      data: {
        reading_starts_at: at(-30 * DAY),
        reading_ends_at: at(-3 * DAY),
        exam_starts_at: at(-2 * DAY),
        exam_ends_at: at(-60_000),
        results_at: at(DAY),
        ceremony_starts_at: at(2 * DAY),
        ceremony_ends_at: at(5 * DAY),
      },
    }),
  );

  await storeSession(page.context(), BASE_URL, { token: login.access_token, user: login.user });
  // The page's clock is the test's: the time a toast would stay is run through, not waited for.
  await page.clock.install();
  await page.goto('/quan-tri/ket-qua');
  await expectLoaded(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Kết quả và giải thưởng' })).toBeVisible();
  await expect(page.getByText('Chưa tính kết quả.')).toBeVisible();
  // Refused while an exam runs: the reason stays on the page until read (not a toast that goes).
  await page.getByRole('button', { name: 'Tính kết quả' }).click();
  const refusal = page.getByRole('alert').filter({ hasText: 'Chưa tính được kết quả:' });
  await expect(refusal).toContainText('Còn 1 bài thi chưa kết thúc.');
  // Longer than any toast stays (NOTICE_MS, 12 s for a failed confirmation): the refusal is still there.
  await page.clock.fastForward(Math.max(NOTICE_MS, 12_000) + 1_000);
  await expect(refusal).toBeVisible();
  await expect(page.getByText(/^Đã tính xong lúc/)).toHaveCount(0);
  await refusal.getByRole('button', { name: 'Đã hiểu' }).click();
  await expect(refusal).toBeHidden();
  await late.finish();
  await page.getByRole('button', { name: 'Tính kết quả' }).click();
  await expect(page.getByText(/^Đã tính xong lúc/)).toBeVisible({ timeout: 30_000 });
  await expect(page.getByText(/Lần tính gần nhất: .* thí sinh/)).toBeVisible();

  // Issue 42.1: a school's size changed in Danh mục after the computation (the school prizes weigh
  // it): the results page lists the change and asks to compute again.
  await page.goto('/quan-tri/danh-muc');
  const schools = page.getByRole('region', { name: 'Trường', exact: true });
  await schools.getByLabel('Quận/Huyện').selectOption({ label: 'Thành phố An Hoà' });
  await schools.getByRole('button', { name: `Sửa ${DEMO_SCHOOL_NAME}` }).click();
  const schoolForm = page.getByRole('dialog', { name: `Sửa trường ${DEMO_SCHOOL_NAME}` });
  const size = schoolForm.getByLabel('Số học sinh');
  await size.fill(String(Number(await size.inputValue()) + 300));
  await schoolForm.getByRole('button', { name: 'Lưu' }).click();
  await expect(schoolForm).toBeHidden();
  await page.goto('/quan-tri/ket-qua');
  const outOfDate = page.getByRole('note', { name: 'Kết quả đã cũ' });
  await expect(outOfDate).toContainText('Kết quả đã cũ: có 1 thay đổi có thể làm đổi giải sau lần tính lúc');
  await expect(outOfDate.getByRole('list', { name: 'Thay đổi sau lần tính' })).toContainText(`Sửa trường ${DEMO_SCHOOL_NAME}`);
  await expectAccessible(page, 'quan-tri/ket-qua, kết quả đã cũ');

  // Before the results date: refused, and the page says why.
  const publish = page.getByRole('button', { name: 'Công bố kết quả' });
  await expect(publish).toBeDisabled();
  await expect(page.getByRole('list', { name: 'Chưa công bố được vì' })).toContainText('Chưa đến ngày công bố kết quả');

  // The child's prize in the review list.
  const prizes = await ok(await request.get('/api/admin/results/prizes?kind=individual&per_page=200', { headers }));
  const prize = prizes.data.items.find((row: { name: string }) => row.name === name);
  expect(prize, 'the only pupils with exams are within the 75 prizes').toBeTruthy();
  await expect(page.getByRole('table', { name: /Giải cá nhân/ }).getByRole('row').filter({ hasText: name })).toContainText(prize.prize);
  await expectAccessible(page, 'quan-tri/ket-qua');

  // Issue 42: at a tablet's 768 px the prize lists overflow nothing, and the prize and its money
  // are in sight beside the name; what is wider than the frame scrolls inside it.
  await page.setViewportSize({ width: 768, height: 1024 });
  await expectPrizeTableFits(page, /Giải cá nhân/, ['Hạng', 'Họ và tên', 'Giải', 'Tiền thưởng']);
  if (process.env.E2E_SCREENSHOTS) await page.getByRole('table', { name: /Giải cá nhân/ }).screenshot({ path: join(process.env.E2E_SCREENSHOTS, 'ket-qua-giai-768.png') });
  await page.getByLabel('Loại giải').selectOption({ label: 'Giải tập thể trường' });
  await expectPrizeTableFits(page, /Giải tập thể trường/, ['Hạng', 'Trường', 'Giải', 'Tiền thưởng']);
  await expectAccessible(page, 'quan-tri/ket-qua at 768 px');
  await page.getByLabel('Loại giải').selectOption({ label: 'Giải cá nhân' });
  await page.setViewportSize({ width: 1280, height: 720 });

  // On the results date: publishing the out-of-date results asks for a reason (audited); the
  // organiser computes again instead, and the note goes.
  await ok(await request.put('/api/admin/contest', { headers, data: { results_at: at(-30_000) } }));
  await page.reload();
  await expect(publish).toBeEnabled();
  await publish.click();
  const staleDialog = page.getByRole('alertdialog', { name: 'Công bố kết quả đã cũ? Không thể huỷ công bố.' });
  await expect(staleDialog.getByRole('list', { name: 'Thay đổi sau lần tính' })).toContainText(`Sửa trường ${DEMO_SCHOOL_NAME}`);
  await staleDialog.getByRole('button', { name: 'Vẫn công bố' }).click();
  await expect(staleDialog.getByText('Vui lòng nhập lý do (ít nhất 3 ký tự).')).toBeVisible();
  await expectAccessible(page, 'quan-tri/ket-qua, công bố kết quả đã cũ');
  await staleDialog.getByRole('button', { name: 'Huỷ' }).click();
  await expect(staleDialog).toBeHidden();
  expect((await ok(await request.get('/api/admin/results', { headers }))).data.run.published_at).toBeNull();
  await page.getByRole('button', { name: 'Tính lại kết quả' }).click();
  await expect(outOfDate).toBeHidden({ timeout: 30_000 });
  await expect(page.getByText(/^Đã tính xong lúc/)).toBeVisible();
  // Publishing cannot be undone: one click only asks, stating what becomes public and how
  // families will see it; "Chưa công bố" leaves everything as it was.
  const { ceremony } = (await ok(await request.get('/api/admin/results', { headers }))).data;
  const awarded = ceremony.tiers.filter((tier: { winners: number }) => tier.winners > 0);
  expect(awarded.length).toBeGreaterThan(0);
  await publish.click();
  const dialog = page.getByRole('alertdialog', { name: 'Công bố kết quả? Không thể huỷ công bố.' });
  await expect(dialog).toBeVisible();
  const tiers = dialog.getByRole('list', { name: 'Các giải sẽ công bố' }).getByRole('listitem');
  await expect(tiers).toHaveCount(awarded.length);
  await expect(tiers.first()).toContainText(`${awarded[0].name} (`);
  await expect(tiers.first()).toContainText(`${formatNumber(awarded[0].winners)} giải × ${formatMoney(awarded[0].amount)}`);
  await expect(dialog).toContainText(`Tổng tiền thưởng: ${formatMoney(ceremony.total)}.`);
  await expect(dialog).toContainText('trên trang Giấy chứng nhận của từng thí sinh');
  await expectAccessible(page, 'quan-tri/ket-qua, hỏi trước khi công bố');
  await dialog.getByRole('button', { name: 'Chưa công bố' }).click();
  await expect(dialog).toBeHidden();
  expect((await ok(await request.get('/api/admin/results', { headers }))).data.run.published_at).toBeNull();
  await publish.click();
  await dialog.getByRole('button', { name: 'Công bố kết quả' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(/^Đã công bố lúc/)).toBeVisible();
  await expect(page.getByText(/Kết quả đã công bố lúc/)).toBeVisible();
  // At a phone's width nothing runs off the page (wide tables scroll inside their frame).
  await page.setViewportSize({ width: 360, height: 740 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
  if (process.env.E2E_SCREENSHOTS) await page.screenshot({ path: join(process.env.E2E_SCREENSHOTS, 'ket-qua-360.png'), fullPage: true });

  // The parent sees the prize and downloads the prize certificate (at a phone's width).
  await page.context().clearCookies();
  await storeSession(page.context(), BASE_URL, family);
  await page.setViewportSize({ width: 360, height: 740 });
  await page.goto(`/giay-chung-nhan/${family.childId}`);
  await expect(page.getByRole('status').filter({ hasText: 'Chúc mừng em đạt' })).toContainText(prize.prize);
  const card = page.getByRole('article', { name: `Giấy chứng nhận đạt ${prize.prize}` });
  await expect(card).toBeVisible();
  const [download] = await Promise.all([page.waitForEvent('download', { timeout: 60_000 }), card.getByRole('button', { name: 'Tải giấy chứng nhận (PDF)' }).click()]);
  const path = join(mkdtempSync(join(tmpdir(), 'admin-results-e2e-')), download.suggestedFilename());
  await download.saveAs(path);
  const text = execFileSync('/usr/bin/pdftotext', ['-layout', path, '-'], { encoding: 'utf8' });
  expect(text).toContain(name);
  expect(text).toContain(prize.prize);
});

test('the organiser withdraws a prize with a reason; the results page and the family page say a prize was withdrawn, not a certificate revoked', async ({ page, request }) => {
  test.setTimeout(120_000);
  const family = secondFamily!;
  const login = await ok(await request.post('/api/login', { data: DEMO_ORGANISER }));
  const headers = { authorization: `Bearer ${login.access_token}` };
  const before = (await ok(await request.get('/api/admin/results', { headers }))).data;
  const prizes = await ok(await request.get('/api/admin/results/prizes?kind=individual&per_page=200', { headers }));
  const prize = prizes.data.items.find((row: { name: string }) => row.name === family.name);
  expect(prize, 'the second child has an individual prize').toBeTruthy();

  // The family saw the prize once the results were published.
  await storeSession(page.context(), BASE_URL, family);
  await page.goto(`/giay-chung-nhan/${family.childId}`);
  await expect(page.getByRole('status').filter({ hasText: 'Chúc mừng em đạt' })).toContainText(prize.prize);

  await page.context().clearCookies();
  await storeSession(page.context(), BASE_URL, { token: login.access_token, user: login.user });
  await page.goto('/quan-tri/ket-qua');
  await expectLoaded(page);
  const table = page.getByRole('table', { name: /Giải cá nhân/ });
  const row = table.getByRole('row').filter({ hasText: family.name });
  await expect(row).toContainText(prize.prize);
  await row.getByRole('button', { name: `Rút giải của ${family.name}` }).click();
  const dialog = page.getByRole('dialog', { name: `Rút giải của ${family.name}?` });
  await expect(dialog).toContainText(`${prize.prize} – ${formatMoney(prize.amount)}`);
  // The dialog tells the two acts apart: this one takes the prize away, revoking only voids a paper.
  await expect(dialog).toContainText('giấy chứng nhận của giải bị thu hồi');
  await expect(dialog).toContainText('Dùng “Thu hồi” ở trang Giấy chứng nhận: giải được giữ nguyên.');
  // No reason, no withdrawal.
  await dialog.getByRole('button', { name: 'Rút giải' }).click();
  await expect(dialog.getByText('Vui lòng nhập lý do (ít nhất 3 ký tự).')).toBeVisible();
  const reason = 'Thí sinh nhờ người khác làm bài (biên bản ngày 14/04)';
  await dialog.getByLabel('Lý do rút giải (ghi vào nhật ký)').fill(reason);
  await expectAccessible(page, 'quan-tri/ket-qua, rút giải');
  await dialog.getByRole('button', { name: 'Rút giải' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`Đã rút giải của ${family.name}`)).toBeVisible();

  // The prize leaves the list; the results page says it was withdrawn, with the reason and by whom.
  await expect(table.getByRole('row').filter({ hasText: family.name })).toHaveCount(0);
  const withdrawn = page.getByRole('table', { name: 'Không còn trong danh sách giải, kinh phí, tệp xuất và trang của gia đình.' });
  const withdrawnRow = withdrawn.getByRole('row').filter({ hasText: family.name });
  await expect(withdrawnRow).toContainText(prize.prize);
  await expect(withdrawnRow).toContainText(formatMoney(prize.amount));
  await expect(withdrawnRow).toContainText(reason);
  // The money follows: the ceremony total is the prize's amount lower.
  const after = (await ok(await request.get('/api/admin/results', { headers }))).data;
  expect(after.ceremony.total).toBe(before.ceremony.total - prize.amount);

  // The family's page says the prize was withdrawn by the organisers: not "no prize this time",
  // not a congratulation, and no prize certificate to download.
  await page.context().clearCookies();
  await storeSession(page.context(), BASE_URL, family);
  await page.goto(`/giay-chung-nhan/${family.childId}`);
  await expect(page.getByText(`Ban tổ chức đã rút lại ${prize.prize} của em.`)).toBeVisible();
  await expect(page.getByText(/Chúc mừng em đạt/)).toHaveCount(0);
  await expect(page.getByText(/Em chưa đạt giải lần này/)).toHaveCount(0);
  await expect(page.getByRole('article', { name: `Giấy chứng nhận đạt ${prize.prize}` })).toHaveCount(0);
  await expectAccessible(page, 'giay-chung-nhan, giải đã bị rút');
});
