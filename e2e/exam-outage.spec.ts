// The exam on a phone while the server sheds load: the save endpoint answers 503 (the API's JSON
// with Retry-After) for a while, the child keeps answering and sees that the answers wait on the
// device; once the server takes saves again they all reach it without a reload, and a submit that
// meets a 503 first is retried by itself.
import type { Page, Route } from '@playwright/test';
import { messages } from '../src/shared/messages';
import { expect, phoneViewport, test } from './fixtures';
import { chooseAnswer, examResult, logIn, navigatorItem, registerFamily, serverAnswers, startExamByApi } from './exam-fixtures';

// These tests answer API calls with page.route: with the offline shell's service worker controlling
// the page, Chromium may send a page's request past the route, so the worker is kept out here.
test.use({ serviceWorkers: 'block' });

test.use({ viewport: phoneViewport });

/** What the server sends when it sheds a request (src/server/core/error-answers.ts). */
const shed = (route: Route) =>
  route.fulfill({
    status: 503,
    headers: { 'retry-after': '2' },
    contentType: 'application/json; charset=utf-8',
    json: { success: false, code: 'service_unavailable', message: messages.serviceUnavailable, request_id: 'shed-by-test' },
  });

const saveStatus = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text });

test('answers made while saves get 503 stay on the phone, reach the server when it recovers, and the submit survives a 503', async ({ page, context, request, baseURL }) => {
  test.setTimeout(150_000);
  const family = await registerFamily(request, 'Đỗ Khánh Linh');
  const exam = await startExamByApi(request, family);
  await logIn(context, baseURL!, family);
  const answersOnServer = serverAnswers(page);

  await page.goto(`/bat-dau-thi/${exam.bookId}/${family.childId}/${exam.slug}`);
  await chooseAnswer(page, 0);
  await expect(saveStatus(page, 'Đã lưu bài làm')).toBeVisible();
  await expect.poll(answersOnServer).toBe(1);

  // The server sheds every save.
  let shedSaves = 0;
  await page.route('**/api/store-answers-exam', (route) => {
    shedSaves += 1;
    return shed(route);
  });
  for (const n of [2, 3, 4]) {
    await navigatorItem(page, n).click();
    await chooseAnswer(page, 1);
  }
  await expect(saveStatus(page, 'Chưa lưu – sẽ tự lưu khi có mạng')).toBeVisible();
  // The child keeps answering through several refused (and spaced-out) retries.
  await expect.poll(() => shedSaves, { timeout: 20_000 }).toBeGreaterThanOrEqual(2);
  for (const n of [5, 6, 7]) {
    await navigatorItem(page, n).click();
    await chooseAnswer(page, 2);
  }
  for (const n of [2, 3, 4, 5, 6, 7]) await expect(navigatorItem(page, n)).toHaveAccessibleName(`Câu ${n}, đã trả lời`);
  await expect(saveStatus(page, 'Chưa lưu – sẽ tự lưu khi có mạng')).toBeVisible();
  expect(answersOnServer()).toBe(1);

  // The server recovers: the next retry (jittered back-off, at most 2 s + 30 s away) saves everything.
  await page.unroute('**/api/store-answers-exam');
  await expect(saveStatus(page, 'Đã lưu bài làm')).toBeVisible({ timeout: 40_000 });
  await expect(saveStatus(page, 'Chưa lưu – sẽ tự lưu khi có mạng')).toHaveCount(0);
  await expect.poll(answersOnServer).toBe(7);

  // The rest, then a submit whose first try meets a 503: the child is told, and it goes through by itself.
  for (let n = 8; n <= 20; n += 1) {
    await navigatorItem(page, n).click();
    await chooseAnswer(page, 3);
  }
  await navigatorItem(page, 21).click();
  await page.getByLabel('Số bài thi em dự đoán').fill('321');
  let shedSubmits = 0;
  await page.route('**/api/submit-exam', (route) => {
    shedSubmits += 1;
    return shedSubmits === 1 ? shed(route) : route.fallback();
  });
  await page.getByRole('button', { name: 'Nộp bài' }).click();
  await page.getByRole('dialog', { name: 'Nộp bài thi?' }).getByRole('button', { name: 'Nộp bài' }).click();
  await expect(page.getByRole('alert').filter({ hasText: `Nộp bài chưa thành công. ${messages.serviceUnavailable}` })).toBeVisible();
  await expect(page.getByLabel('Số bài thi em dự đoán')).toBeDisabled(); // the answers are kept as they are
  await expect(page.getByText('Nộp bài thành công!')).toBeVisible({ timeout: 40_000 });
  await page.waitForURL(`**/giay-chung-nhan/${family.childId}`);
  expect(shedSubmits).toBe(2);

  const result = await examResult(request, family, exam.slug);
  expect(result.data.data_answers).toHaveLength(20);
  expect(result.data.prediction).toBe(321);
});
