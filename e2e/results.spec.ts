// Results in the browser: the parent report in its three states, the certificate page and its
// PDF (text extracted, page rendered), verification, the school report tabs as the demo school
// administrator, and the Excel export read back.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { APIRequestContext, Download, Page } from '@playwright/test';
import readExcelFile from 'read-excel-file/node';
import sharp from 'sharp';
import { formatDate, formatNumber } from '../src/shared/format';
import { DEMO_SCHOOL_NAME as SCHOOL, expect, ok, phoneViewport, registerFamily, storeSession, test } from './fixtures';

// These tests answer API calls with page.route: with the offline shell's service worker controlling
// the page, Chromium may send a page's request past the route, so the worker is kept out here.
test.use({ serviceWorkers: 'block' });

const DEMO_ADMIN = { phone: '0901000001', password: 'truong123' };

interface Session {
  token: string;
  user: { id: number; phone: string; name: string; is_admin_school: 0 | 1 };
}
interface Family extends Session {
  childId: number;
}



/** Starts an exam through the exam API; returns its handle. */
async function startExam(request: APIRequestContext, family: Family, bookIndex: number) {
  const headers = { authorization: `Bearer ${family.token}` };
  const books = await ok(await request.get(`/api/children/${family.childId}/books`, { headers }));
  const started = await ok(await request.post('/api/start-exam', { headers, data: { book_id: books.data[bookIndex].id, child_id: family.childId } }));
  return { slug: started.slug as string, examId: started.exam_id as number, bookId: started.book_id as number };
}

/** Answers every question (saved once, then submitted) with a prediction. */
async function submitExam(request: APIRequestContext, family: Family, exam: { slug: string; examId: number; bookId: number }, prediction: number) {
  const headers = { authorization: `Bearer ${family.token}` };
  const taking = await ok(await request.get(`/api/examing?book_id=${exam.bookId}&child_id=${family.childId}&slug_exam=${exam.slug}`, { headers }));
  const answers = taking.data.data_questions.map((q: { id: number; answers: { id: number }[] }, i: number) => ({ question_id: q.id, answer_id: q.answers[i % 2]!.id }));
  await ok(await request.post('/api/store-answers-exam', { headers, data: { exam_id: exam.examId, slug: exam.slug, answers, prediction, seq: 1 } }));
  return ok(await request.post('/api/submit-exam', { headers, data: { exam_id: exam.examId, slug: exam.slug, answers, prediction, seq: 2 } }));
}

function childBlock(page: Page, name: string) {
  return page.getByRole('region', { name });
}

async function downloaded(download: Download): Promise<string> {
  const path = join(mkdtempSync(join(tmpdir(), 'results-e2e-')), download.suggestedFilename());
  await download.saveAs(path);
  return path;
}

test.describe('parent', () => {
  test.use({ viewport: phoneViewport });

  test('the report in its three states, the certificate page, its PDF and the verification', async ({ page, context, request, baseURL }) => {
    test.setTimeout(120_000);
    const name = 'Nguyễn Đức Trường';
    const family = await registerFamily(request, name);
    await storeSession(context, baseURL!, family);

    // No exam yet.
    await page.goto('/bao-cao');
    await expect(page.getByRole('heading', { level: 1, name: 'Báo cáo' })).toBeVisible();
    const block = childBlock(page, name);
    await expect(block.getByText('Lớp: 5A2')).toBeVisible();
    await expect(block.getByText(`Trường: ${SCHOOL}`)).toBeVisible();
    await expect(block.getByText('Thí sinh chưa thi nên số lần còn được tham gia thi: 03 lần')).toBeVisible();
    await expect(block.getByRole('link', { name: 'Chứng nhận' })).toHaveAttribute('href', `/giay-chung-nhan/${family.childId}`);
    await block.getByRole('link', { name: 'Chứng nhận' }).click();
    await expect(page.getByText('Chưa có giấy chứng nhận')).toBeVisible();
    await expect(page.getByText(/Kết quả và giải thưởng của cuộc thi sẽ được công bố ngày \d\d\/\d\d\/\d{4}\./)).toBeVisible();

    // One exam finished, one in progress.
    const first = await startExam(request, family, 0);
    const submitted = await submitExam(request, family, first, 321);
    const second = await startExam(request, family, 1);
    await page.goto('/bao-cao');
    await expect(block.getByText('Số lần còn được tham gia thi: 1')).toBeVisible();
    const attempt1 = block.getByRole('listitem').filter({ hasText: 'Lần thi 1' });
    await expect(attempt1).toContainText(`${submitted.data.points}/100`);
    await expect(attempt1).toContainText(`${submitted.data.time_complete_minutes} phút`);
    await expect(attempt1).toContainText('321');
    await expect(attempt1.getByRole('link', { name: 'Kết quả thi' })).toHaveAttribute('href', `/ket-qua-thi/${first.slug}`);
    const attempt2 = block.getByRole('listitem').filter({ hasText: 'Lần thi 2' });
    await expect(attempt2).toContainText('đang thi');
    await expect(attempt2.getByRole('link', { name: 'Tiếp tục thi' })).toHaveAttribute('href', `/bat-dau-thi/${second.bookId}/${family.childId}/${second.slug}`);

    // Three exams: no attempt left.
    await submitExam(request, family, second, 400);
    await submitExam(request, family, await startExam(request, family, 2), 500);
    await page.goto('/bao-cao');
    await expect(block.getByText('Thí sinh đã hết lượt thi')).toBeVisible();
    await expect(block.getByRole('link', { name: 'Kết quả thi' })).toHaveCount(3);
    await attempt1.getByRole('link', { name: 'Kết quả thi' }).click();
    await expect(page).toHaveURL(new RegExp(`/ket-qua-thi/${first.slug}$`));

    // The certificate page: preview, download, results date.
    await page.goto(`/giay-chung-nhan/${family.childId}`);
    const card = page.getByRole('article', { name: 'Giấy chứng nhận tham gia cuộc thi' });
    const preview = card.getByRole('img', { name: `Giấy chứng nhận tham gia cuộc thi của ${name}` });
    await expect(preview).toBeVisible();
    await expect.poll(() => preview.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1400);
    await expect(page.getByText(/Kết quả và giải thưởng của cuộc thi sẽ được công bố ngày \d\d\/\d\d\/\d{4}\./)).toBeVisible();
    const [download] = await Promise.all([page.waitForEvent('download'), card.getByRole('button', { name: 'Tải giấy chứng nhận (PDF)' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^giay-chung-nhan-[A-Z0-9-]+\.pdf$/);
    const pdfPath = await downloaded(download);

    const text = execFileSync('/usr/bin/pdftotext', ['-layout', pdfPath, '-'], { encoding: 'utf8' });
    expect(text).toContain(name);
    expect(text).toContain('GIẤY CHỨNG NHẬN');
    expect(text).toContain(`Học sinh lớp 5A2 – ${SCHOOL}`);
    expect(text).toMatch(/Ngày \d\d\/\d\d\/\d{4}/);
    const code = /Mã chứng nhận: ([A-Z0-9-]+)/.exec(text)![1]!;
    expect(text).toContain(`/xac-minh/${code}`);
    // Issue 10: the verification link follows PORT when PUBLIC_URL is not set (not :3000).
    expect(text.replace(/\s+/g, '')).toContain(`http://localhost:${new URL(baseURL!).port}/xac-minh/${code}`);
    // Issue 10: the contest's name and seal carry the contest's year, and no other year appears.
    const contest = (await ok(await request.get('/api/site'))).data.contest;
    const year = formatDate(contest.exam_starts_at).slice(-4);
    expect(text).toContain(contest.name);
    expect(new Set(text.replaceAll(code, '').match(/\b20\d\d\b/g))).toEqual(new Set([year]));
    const info = execFileSync('/usr/bin/pdfinfo', [pdfPath], { encoding: 'utf8' });
    expect(info).toMatch(/Pages:\s+1/);
    expect(info).toContain('841.89 x 595.28 pts (A4)');

    // Rendered, the page is not blank: many distinct tones and ink across the page.
    execFileSync('/usr/bin/pdftoppm', ['-png', '-r', '40', '-singlefile', pdfPath, pdfPath.replace(/\.pdf$/, '')]);
    const image = sharp(readFileSync(pdfPath.replace(/\.pdf$/, '.png')));
    const stats = await image.stats();
    expect(stats.channels[0]!.stdev).toBeGreaterThan(15);
    expect(stats.isOpaque).toBe(true);

    // The public verification page (as anybody).
    await page.getByRole('link', { name: 'Trang xác minh' }).click();
    await expect(page).toHaveURL(new RegExp(`/xac-minh/${code}$`));
    await expect(page.getByText('Giấy chứng nhận hợp lệ')).toBeVisible();
    await expect(page.getByText(name)).toBeVisible();
    // The demo's season bears its contest's name: said once, on the 'Cuộc thi' line (no 'Mùa thi' line repeating it).
    const verified = (await (await request.get(`/api/certificates/verify/${code}`)).json()).data;
    expect(verified.season.name).toBe(verified.contest);
    const facts = page.locator('.verify-facts');
    await expect(facts.getByRole('term')).toHaveText(['Loại giấy chứng nhận', 'Cấp cho', 'Cuộc thi', 'Ngày cấp', 'Mã chứng nhận']);
    await expect(facts.getByText(verified.contest, { exact: true })).toHaveCount(1);
    await page.getByLabel('Kiểm tra mã khác').fill(' abcd efgh jklm ');
    await page.getByRole('button', { name: 'Kiểm tra' }).click();
    await expect(page).toHaveURL(/\/xac-minh\/ABCD-EFGH-JKLM$/);
    await expect(page.getByRole('alert').filter({ hasText: 'Không tìm thấy giấy chứng nhận với mã này' })).toBeVisible();
  });

  test("another family's certificate page says not found", async ({ page, context, request, baseURL }) => {
    const owner = await registerFamily(request, 'Lê Thị Ánh');
    const other = await registerFamily(request, 'Trần Văn Bình');
    await storeSession(context, baseURL!, other);
    await page.goto(`/giay-chung-nhan/${owner.childId}`);
    await expect(page.getByRole('alert').filter({ hasText: 'Không tìm thấy thí sinh.' })).toBeVisible();
  });
});

test.describe('school administrator', () => {
  async function adminSession(request: APIRequestContext): Promise<Session> {
    const body = await ok(await request.post('/api/login', { data: DEMO_ADMIN }));
    return { token: body.access_token, user: body.user };
  }

  test('the school report: totals, the three tabs, TOP 30 and the Excel export read back', async ({ page, context, request, baseURL }) => {
    test.setTimeout(120_000);
    // A pupil of the school with a finished exam.
    const family = await registerFamily(request, 'Đặng Thị Thu Hà');
    await submitExam(request, family, await startExam(request, family, 0), 777);

    const admin = await adminSession(request);
    await storeSession(context, baseURL!, admin);
    const report = await ok(await request.get('/api/report-school', { headers: { authorization: `Bearer ${admin.token}` } }));

    await page.goto('/bao-cao');
    await expect(page.getByRole('heading', { level: 1, name: 'Báo cáo cho trường' })).toBeVisible();
    await expect(page.getByTestId('total-register')).toHaveText(formatNumber(report.data.total_register));
    await expect(page.getByTestId('total-done')).toHaveText(formatNumber(report.data.total_done));
    expect(report.data.total_done).toBeGreaterThanOrEqual(1);

    const tabs = page.getByRole('tablist', { name: 'Báo cáo của trường' });
    await expect(tabs.getByRole('tab')).toHaveText(['Tổng số học sinh', 'Điểm thi - TOP 30', 'Lớp - Giáo viên truyền lửa']);
    await expect(tabs.getByRole('tab', { name: 'Tổng số học sinh' })).toHaveAttribute('aria-selected', 'true');
    const panel = page.getByRole('tabpanel');
    await expect(panel.locator('tbody tr')).toHaveCount(report.data.quantity_students.length);
    const row5A2 = report.data.quantity_students.find((r: { class: string }) => r.class === '5A2');
    await expect(panel.getByRole('row').filter({ hasText: '5A2' })).toContainText(`${row5A2.total_register}`);

    // Keyboard: the arrow key moves to the next tab.
    await tabs.getByRole('tab', { name: 'Tổng số học sinh' }).focus();
    await page.keyboard.press('ArrowRight');
    await expect(tabs.getByRole('tab', { name: 'Điểm thi - TOP 30' })).toHaveAttribute('aria-selected', 'true');
    await expect(tabs.getByRole('tab', { name: 'Điểm thi - TOP 30' })).toBeFocused();
    await expect(panel.locator('tbody tr')).toHaveCount(Math.min(30, report.data.score.length));
    const ours = panel.getByRole('row').filter({ hasText: 'Đặng Thị Thu Hà' });
    const ourScore = report.data.score.find((r: { fullname: string }) => r.fullname === 'Đặng Thị Thu Hà');
    if (ourScore.rank <= 30) await expect(ours).toContainText(`${ourScore.points}`);

    await tabs.getByRole('tab', { name: 'Lớp - Giáo viên truyền lửa' }).click();
    await expect(panel.locator('tbody tr')).toHaveCount(report.data.class.length);
    const class5A2 = report.data.class.find((r: { class: string }) => r.class === '5A2');
    await expect(panel.getByRole('row').filter({ hasText: '5A2' })).toContainText(class5A2.avg_duration_format);
    // No prize before the results date: the date is said instead.
    await expect(page.getByText(/Kết quả và giải thưởng sẽ được công bố ngày \d\d\/\d\d\/\d{4}\./)).toBeVisible();

    // Excel: the file, then the spec's popup; every sheet and row read back.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Xuất excel' }).click()]);
    expect(download.suggestedFilename()).toBe('bao_cao_truong.xlsx');
    await expect(page.getByText('Thành công', { exact: true })).toBeVisible();
    await expect(page.getByText('Xuất excel thành công.')).toBeVisible();
    const sheets = await readExcelFile(await downloaded(download));
    expect(sheets.map((s) => s.sheet)).toEqual(['Số lượng thí sinh', 'Điểm thi', 'Lớp']);
    expect(sheets[0]!.data).toEqual([
      ['Lớp', 'Số học sinh đăng ký', 'Số học sinh đã thi'],
      ...report.data.quantity_students.map((r: any) => [r.class, r.total_register, r.total_done]),
    ]);
    expect(sheets[1]!.data).toEqual([
      ['Họ và tên', 'Sách thi', 'Lớp', 'Số lần thi', 'Điểm', 'Thời gian làm bài (giây)', 'Dự đoán'],
      ...report.data.score.map((r: any) => [r.fullname, r.book, r.class, r.count_exam, r.points, r.duration_seconds, r.prediction]),
    ]);
    expect(sheets[2]!.data).toEqual([
      ['Lớp', 'Số học sinh dự thi', 'Điểm trung bình', 'Thời gian trung bình (giây)'],
      ...report.data.class.map((r: any) => [r.class, r.total_done, r.avg_score, r.avg_duration_seconds]),
    ]);
  });

  test('a 3,000-pupil export works under the site security policy', async ({ page, context, request, baseURL }) => {
    const admin = await adminSession(request);
    await storeSession(context, baseURL!, admin);
    const classes = ['1A1', '2A1', '3A1', '4A1', '5A1'];
    const score = Array.from({ length: 3000 }, (_, i) => ({
      rank: i + 1,
      tied: false,
      fullname: `Học Sinh Thứ ${i + 1}`,
      class: classes[i % 5]!,
      count_exam: 1 + (i % 3),
      points: 100 - (i % 21) * 5,
      duration: '10 phút 00 giây',
      duration_seconds: 600 + (i % 300),
      book: 'Sự tích Hồ Gươm',
      prediction: i % 7 === 0 ? null : 1000 + i,
    }));
    // A big school answered by the test: the sheets exceed the size fflate compresses in a worker.
    await page.route('**/api/report-school', (route) =>
      route.fulfill({
        json: {
          success: true,
          data: {
            school: { name: SCHOOL, address: '' },
            contest: { name: 'Cuộc thi' },
            total_register: 3000,
            total_done: 3000,
            quantity_students: classes.map((c) => ({ class: c, total_register: 600, total_done: 600 })),
            score,
            class: classes.map((c) => ({ class: c, total_register: 600, total_done: 600, avg_score: 50, avg_duration_format: '12 phút 00 giây', avg_duration_seconds: 720 })),
          },
          prize: { image_cer: null, pdf_cer: null, prize_name: null, desc: null },
          prizes_class: [],
          results_published: false,
          results_at: new Date().toISOString(),
        },
      }),
    );
    await page.goto('/bao-cao');
    await expect(page.getByTestId('total-done')).toHaveText('3.000');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Xuất excel' }).click()]);
    await expect(page.getByText('Xuất excel thành công.')).toBeVisible();
    const sheets = await readExcelFile(await downloaded(download));
    expect(sheets[1]!.data).toHaveLength(3001);
    expect(sheets[1]!.data[3000]).toEqual(['Học Sinh Thứ 3000', 'Sự tích Hồ Gươm', '5A1', 3, 100 - (2999 % 21) * 5, 600 + (2999 % 300), 1000 + 2999]);
  });
});
