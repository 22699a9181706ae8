// Issue 10, dates and numbers: every date and year shown comes from the contest's settings
// (home timeline, rules page, news), the school report at 360 px (all three tabs in view, '—'
// for a class where nobody finished, the 'Thành công' popup after the export), and the result
// page's permanent errors (one message and a way forward, no 'Thử lại').
import type { APIRequestContext, Page } from '@playwright/test';
import { formatDate, formatTime } from '../src/shared/format';
import type { SiteContest } from '../src/shared/schemas/site';
import { expect, expectAccessible, ok, otpFor, phoneViewport, storeSession, test, uniquePhone } from './fixtures';

// These tests answer API calls with page.route: with the offline shell's service worker controlling
// the page, Chromium may send a page's request past the route, so the worker is kept out here.
test.use({ serviceWorkers: 'block' });

test.use({ viewport: phoneViewport });

const SCHOOL = 'Trường Tiểu học Lê Lợi';
const DEMO_ADMIN = { phone: '0901000001', password: 'truong123' };


async function contestOf(request: APIRequestContext): Promise<SiteContest> {
  return (await ok(await request.get('/api/site'))).data.contest;
}


/** The years a page's visible text mentions. */
async function yearsShown(page: Page): Promise<string[]> {
  const text = await page.locator('main').innerText();
  return [...new Set(text.match(/\b20\d\d\b/g) ?? [])];
}

test('the home timeline and the rules page show the contest settings, in one year', async ({ page, request }) => {
  const contest = await contestOf(request);
  const year = formatDate(contest.exam_starts_at).slice(-4);
  expect(contest.name).toContain(year);

  await page.goto('/');
  const timeline = page.getByRole('region', { name: 'Lịch trình cuộc thi' });
  const steps = timeline.getByRole('listitem');
  await steps.first().scrollIntoViewIfNeeded();
  await expect(steps).toHaveText([
    `1Đọc sách và phát động cuộc thi${formatDate(contest.reading_starts_at)} – ${formatDate(contest.reading_ends_at)}`,
    `2Thi trực tuyến${formatDate(contest.exam_starts_at)} – ${formatDate(contest.exam_ends_at)}`,
    `3Công bố kết quả${formatDate(contest.results_at)}`,
    `4Lễ trao giải${formatDate(contest.ceremony_starts_at)} – ${formatDate(contest.ceremony_ends_at)}`,
  ]);
  await expectAccessible(page, 'home timeline');

  await page.goto('/the-le');
  await expect(page.getByText(contest.name, { exact: true })).toBeVisible();
  const at = (iso: string) => `${formatTime(iso)} ngày ${formatDate(iso)}`;
  const table = page.locator('#thoi-gian table');
  await expect(table.getByRole('row', { name: /Đọc sách/ })).toContainText(`Từ ${formatDate(contest.reading_starts_at)} đến ${formatDate(contest.reading_ends_at)}`);
  await expect(table.getByRole('row', { name: /Thi trực tuyến/ })).toContainText(`Từ ${at(contest.exam_starts_at)} đến ${at(contest.exam_ends_at)}`);
  await expect(table.getByRole('row', { name: /Công bố kết quả/ })).toContainText(`Ngày ${formatDate(contest.results_at)}`);
  await expect(table.getByRole('row', { name: /Lễ trao giải/ })).toContainText(`Từ ${formatDate(contest.ceremony_starts_at)} đến ${formatDate(contest.ceremony_ends_at)}`);
  // The rules mention only the contest's years (a demo window may run into the next year).
  const allowed = new Set([contest.reading_starts_at, contest.exam_starts_at, contest.ceremony_ends_at].map((d) => formatDate(d).slice(-4)));
  for (const shown of await yearsShown(page)) expect(allowed, `year ${shown} on the rules page`).toContain(shown);
  await expectAccessible(page, 'rules page');
});

test('the demo news agree with the contest dates', async ({ page, request }) => {
  const contest = await contestOf(request);
  const year = formatDate(contest.exam_starts_at).slice(-4);
  await page.goto('/tin-tuc/phat-dong-cuoc-thi-dai-su-van-hoa-doc');
  await expect(page.getByRole('heading', { level: 1, name: `Phát động Cuộc thi Đại sứ Văn hoá đọc tỉnh An Hoà năm ${year}` })).toBeVisible();
  await expect(page.locator('article time')).toHaveText(formatDate(contest.reading_starts_at));
  await expect(page.locator('.article-body')).toContainText(`Lễ trao giải: từ ngày ${formatDate(contest.ceremony_starts_at)} đến ngày ${formatDate(contest.ceremony_ends_at)}.`);
  const allowed = new Set([contest.reading_starts_at, contest.exam_starts_at, contest.ceremony_ends_at].map((d) => formatDate(d).slice(-4)));
  for (const shown of await yearsShown(page)) expect(allowed, `year ${shown} in the article`).toContain(shown);

  await page.goto('/tin-tuc/thong-bao-le-cong-bo-ket-qua-va-trao-giai');
  await expect(page.locator('.article-body')).toContainText(`ngày ${formatDate(contest.results_at)}`);
  await expectAccessible(page, 'results announcement');
});

test('the school report at 360 px: three tabs in view, "—" for a class where nobody finished, the export popup', async ({ page, context, request, baseURL }) => {
  test.setTimeout(150_000);
  // A pupil registered, without an exam, in a class of the demo school: a class with nobody finished.
  const phone = uniquePhone();
  await ok(await request.post('/api/send-otp', { data: { phone, password: 'matkhau123', is_register: 1 } }));
  const registered = await ok(await request.post('/api/register', { data: { phone, password: 'matkhau123', otp: await otpFor(phone), consent: true } }));
  let school: { districtId: number; schoolId: number } | undefined;
  for (const district of (await ok(await request.get('/api/districts'))).data) {
    const found = (await ok(await request.get(`/api/schools?district_id=${district.id}`))).data.find((s: { name: string }) => s.name === SCHOOL);
    if (found) school = { districtId: district.id, schoolId: found.id };
  }
  const group = (await ok(await request.get('/api/class-groups'))).data[1];
  const rooms = (await ok(await request.get(`/api/class-rooms?class_group_id=${group.id}`))).data as { id: number; name: string }[];
  const room = rooms[rooms.length - 1]!;
  await ok(
    await request.post('/api/customer/profile', {
      headers: { authorization: `Bearer ${registered.access_token}` },
      data: { phone, childrens: [{ fullname: 'Phan Minh Khôi', district_id: school!.districtId, school_id: school!.schoolId, class_group_id: group.id, class_room_id: room.id, child_consent: true }] },
    }),
  );

  const admin = await ok(await request.post('/api/login', { data: DEMO_ADMIN }));
  await storeSession(context, baseURL!, { token: admin.access_token, user: admin.user });
  const report = await ok(await request.get('/api/report-school', { headers: { authorization: `Bearer ${admin.access_token}` } }));
  const empty = report.data.class.find((row: { total_done: number }) => row.total_done === 0);
  expect(empty, 'a class of the demo school where nobody finished').toBeTruthy();
  expect(empty.avg_score).toBeNull();

  await page.goto('/bao-cao');
  const tabs = page.getByRole('tablist', { name: 'Báo cáo của trường' }).getByRole('tab');
  await expect(tabs).toHaveCount(3);
  for (const tab of await tabs.all()) {
    await expect(tab).toBeInViewport({ ratio: 1 });
    const box = (await tab.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(360);
    expect(box.height).toBeGreaterThanOrEqual(44);
  }
  await expectAccessible(page, 'school report');

  await tabs.filter({ hasText: 'Lớp - Giáo viên truyền lửa' }).click();
  // On phones the table is a list of cards: rows found by their 'Lớp' cell.
  const rowOf = (name: string) => page.getByRole('tabpanel').locator('tbody tr').filter({ has: page.locator('td[data-label="Lớp"]').getByText(name, { exact: true }) });
  const row = rowOf(empty.class);
  await expect(row.locator('[data-label="Số học sinh dự thi"]')).toHaveText('0');
  await expect(row.locator('[data-label="Điểm trung bình"]')).toHaveText('—');
  await expect(row.locator('[data-label="Thời gian trung bình"]')).toHaveText('—');
  // Averages: one decimal, Vietnamese comma.
  const done = report.data.class.find((r: { avg_score: number | null }) => r.avg_score !== null);
  if (done) {
    await expect(rowOf(done.class).locator('[data-label="Điểm trung bình"]')).toHaveText(/^\d+,\d$/);
  }
  await expectAccessible(page, 'school report, classes tab');

  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Xuất excel' }).click()]);
  expect(download.suggestedFilename()).toBe('bao_cao_truong.xlsx');
  const dialog = page.getByRole('dialog', { name: 'Thành công' });
  await expect(dialog).toContainText('Xuất excel thành công.');
  await expectAccessible(page, 'export popup');
  await dialog.getByRole('button', { name: 'Đóng' }).click();
  await expect(dialog).toBeHidden();
});

test('a malformed result address says the exam was not found, in words a parent understands', async ({ page, context, request, baseURL }) => {
  const phone = uniquePhone();
  await ok(await request.post('/api/send-otp', { data: { phone, password: 'matkhau123', is_register: 1 } }));
  const registered = await ok(await request.post('/api/register', { data: { phone, password: 'matkhau123', otp: await otpFor(phone), consent: true } }));
  await storeSession(context, baseURL!, { token: registered.access_token, user: registered.user });
  await page.setViewportSize({ width: 360, height: 640 });
  await page.goto('/ket-qua-thi/khongtontai123');
  const alert = page.locator('main .alert-error');
  await expect(alert).toHaveText(/Không tìm thấy bài thi\./);
  await expect(page.getByText('Thiếu hoặc sai tham số', { exact: false })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Thử lại' })).toHaveCount(0);
  await expectAccessible(page, 'malformed result address');
  // The practice round's result the same way.
  await page.goto('/thi-thu/ket-qua/khongtontai123');
  await expect(alert).toHaveText(/Không tìm thấy bài thi thử\./);
  await expect(page.getByText('Thiếu hoặc sai tham số', { exact: false })).toHaveCount(0);
  await alert.getByRole('link', { name: 'Về trang Vào thi' }).click();
  await expect(page).toHaveURL(/\/du-thi$/);
});

test('a result page that cannot load for good says so once and leads to Vào thi', async ({ page, context, request, baseURL }) => {
  const phone = uniquePhone();
  await ok(await request.post('/api/send-otp', { data: { phone, password: 'matkhau123', is_register: 1 } }));
  const registered = await ok(await request.post('/api/register', { data: { phone, password: 'matkhau123', otp: await otpFor(phone), consent: true } }));
  await storeSession(context, baseURL!, { token: registered.access_token, user: registered.user });

  // A 503 (server busy) can pass: 'Thử lại' is offered, and pressing it asks again.
  let busy = true;
  await page.route('**/api/exam-result*', (route) =>
    busy
      ? route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ success: false, code: 'service_unavailable', message: 'Hệ thống đang bận, vui lòng thử lại sau giây lát.' }) })
      : route.continue(),
  );
  await page.goto('/ket-qua-thi/khong-co-bai-thi-nay-0000');
  const alert = page.locator('main .alert-error');
  await expect(alert).toContainText('Hệ thống đang bận');
  await expectAccessible(page, 'result, server busy');
  busy = false;
  await alert.getByRole('button', { name: 'Thử lại' }).click();
  // The real answer is final: one message, no 'Thử lại', a way to Vào thi.
  await expect(alert).toHaveText(/Không tìm thấy bài thi\./);
  await expect(page.getByText('Không tìm thấy bài thi.')).toHaveCount(1);
  await expect(page.getByRole('button', { name: 'Thử lại' })).toHaveCount(0);
  await expectAccessible(page, 'result not found');
  await alert.getByRole('link', { name: 'Về trang Vào thi' }).click();
  await expect(page).toHaveURL(/\/du-thi$/);
});
