// Issue 12, contest settings: the organiser closes the exam window at /quan-tri/cuoc-thi (sets it
// to have ended) and a parent sees /du-thi's period follow and 'Vào thi' refused; the footer's
// hotline edited in the same screen shows on the public site. Every setting this spec changes is
// put back through the API at the end (the other specs need an open window and the demo footer).
import type { APIRequestContext } from '@playwright/test';
import { formatDate } from '../src/shared/format';
import { contestDateFields, toVietnamLocalInput, type ContestSettings } from '../src/shared/schemas/admin-contest';
import type { SiteFooter } from '../src/shared/schemas/site';
import { registerFamily, startExamByApi } from './exam-fixtures';
import { DEMO_ORGANISER, DEMO_PARENT, expect, expectAccessible, expectLoaded, logInAs, test } from './fixtures';

const DAY = 86_400_000;

async function organiserToken(request: APIRequestContext): Promise<string> {
  const response = await request.post('/api/login', { data: DEMO_ORGANISER });
  expect(response.ok()).toBe(true);
  return (await response.json()).access_token;
}

/** What the test found, put back after it (pass or fail) with a request context of its own. */
let saved: { contest: ContestSettings; footer: SiteFooter } | undefined;

test.afterAll(async ({ playwright, servers }) => {
  if (!saved) return;
  const request = await playwright.request.newContext({ baseURL: await servers.urlOf('demo') });
  try {
    const headers = { authorization: `Bearer ${await organiserToken(request)}` };
    const { contest } = saved;
    const dates = Object.fromEntries(contestDateFields.map((field) => [field, contest[field]]));
    expect((await request.put('/api/admin/contest', { headers, data: dates })).ok()).toBe(true);
    expect((await request.put('/api/admin/site', { headers, data: saved.footer })).ok()).toBe(true);
    const site = (await (await request.get('/api/site')).json()).data;
    expect(site.contest.exam_ends_at).toBe(contest.exam_ends_at);
    expect(site.hotline).toBe(saved.footer.hotline);
  } finally {
    await request.dispose();
  }
});

test('the organiser closes the exam window and /du-thi refuses to start; the footer follows its edit', async ({ page, browser, request }) => {
  test.setTimeout(180_000);
  const headers = { authorization: `Bearer ${await organiserToken(request)}` };
  saved = {
    contest: (await (await request.get('/api/admin/contest', { headers })).json()).data,
    footer: (await (await request.get('/api/admin/site', { headers })).json()).data.footer,
  };

  await logInAs(page, DEMO_ORGANISER);
  await page.goto('/quan-tri/cuoc-thi');
  await expectLoaded(page);
  const contestForm = page.getByRole('form', { name: 'Cuộc thi và thời gian' });
  await expect(contestForm.getByText('Đang mở thi')).toBeVisible();
  await expect(page.getByRole('table', { name: 'Giải cá nhân' }).getByText('10.000.000 đ').first()).toBeVisible();
  // Money typed the Vietnamese way is shown as it will be paid while typing; what could be read
  // two ways says so (not saved: the reload below drops it).
  const amount = page.getByRole('textbox', { name: 'Giải cá nhân, hạng 1: tiền thưởng mỗi giải (đồng)' });
  await expect(amount).toHaveValue('10.000.000');
  await amount.fill('300.000');
  await expect(amount).toHaveAccessibleDescription('Sẽ trả: 300.000 đ');
  await amount.fill('1.000.000 đ');
  await expect(amount).toHaveAccessibleDescription('Sẽ trả: 1.000.000 đ');
  await amount.fill('300.5');
  await expect(amount).toHaveAccessibleDescription(/"300.5" có thể hiểu theo hai cách/);
  await page.reload();
  await expectLoaded(page);
  await expectAccessible(page, 'contest settings');

  // A window that ends before it starts: the field says so and nothing is sent.
  const opens = contestForm.getByLabel('Mở thi', { exact: true });
  const closes = contestForm.getByLabel('Đóng thi', { exact: true });
  const now = Date.now();
  await opens.fill(toVietnamLocalInput(new Date(now - 10 * DAY).toISOString()));
  await closes.fill(toVietnamLocalInput(new Date(now - 11 * DAY).toISOString()));
  await contestForm.getByRole('button', { name: 'Lưu cài đặt cuộc thi' }).click();
  await expect(contestForm.getByText('Thời điểm đóng thi phải sau thời điểm mở thi.')).toBeVisible();
  await expectAccessible(page, 'contest settings with an error');

  // Closed: opened 10 days ago, ended yesterday.
  const endedAt = new Date(now - DAY);
  await closes.fill(toVietnamLocalInput(endedAt.toISOString()));
  await expect(closes).toHaveAccessibleDescription(new RegExp(`^${formatDate(endedAt)} \\d\\d:\\d\\d$`));
  // A child is taking an exam: closing the open window asks first, saying how many exams run.
  await startExamByApi(request, await registerFamily(request, 'Vũ Minh Anh'));
  await expect.poll(async () => (await (await request.get('/api/admin/exam-days/dashboard', { headers })).json()).data.totals.in_progress, { timeout: 15_000 }).toBeGreaterThan(0);
  await contestForm.getByRole('button', { name: 'Lưu cài đặt cuộc thi' }).click();
  const closing = page.getByRole('alertdialog', { name: 'Đóng thi sớm?' });
  await expect(closing).toContainText(/Đang có [1-9]\d* bài thi đang làm\./);
  await expect(closing).toContainText('các em đang làm bài vẫn làm tiếp');
  await closing.getByRole('button', { name: 'Chưa đóng' }).click();
  await expect(closing).toBeHidden();
  await expect(contestForm.getByText('Đang mở thi')).toBeVisible();
  await contestForm.getByRole('button', { name: 'Lưu cài đặt cuộc thi' }).click();
  await closing.getByRole('button', { name: 'Đóng thi ngay' }).click();
  await expect(page.getByText('Đã lưu cài đặt cuộc thi.')).toBeVisible();
  await expect(contestForm.getByText('Đã đóng thi')).toBeVisible();

  // The footer: a new hotline.
  const footerForm = page.getByRole('form', { name: 'Chân trang' });
  await footerForm.getByLabel('Hotline').fill('0243 999 888');
  await footerForm.getByRole('button', { name: 'Lưu chân trang' }).click();
  await expect(page.getByText('Đã lưu thông tin chân trang.')).toBeVisible();

  // The parent, in a browser of their own.
  const context = await browser.newContext();
  const parentPage = await context.newPage();
  await logInAs(parentPage, DEMO_PARENT);
  await parentPage.goto('/du-thi');
  await expectLoaded(parentPage);
  await expect(parentPage.locator('.join-exam-period')).toHaveText(`Thời gian thi: ${formatDate(new Date(now - 10 * DAY))} - ${formatDate(endedAt)}`);
  await expect(parentPage.locator('footer').getByRole('link', { name: '0243 999 888' })).toBeVisible();
  await parentPage.getByLabel('Thí sinh').selectOption({ index: 1 });
  await expect(parentPage.getByLabel('Sách thi').locator('option')).toHaveCount(4);
  await parentPage.getByLabel('Sách thi').selectOption({ index: 1 });
  await parentPage.getByRole('button', { name: 'Vào thi' }).click();
  await parentPage.getByRole('alertdialog').getByRole('button', { name: 'Bắt đầu thi' }).click();
  await expect(parentPage.getByText('Đã hết thời gian thi của cuộc thi.')).toBeVisible();
  await expect(parentPage).toHaveURL(/\/du-thi$/);
  await expectAccessible(parentPage, '/du-thi after the window closed');
  await context.close();
});
