// A reload without network on the exam screen (issue 24.8): the service worker (public/sw.js)
// serves the shell, the page shows the paper kept on the device with the answers kept there and a
// clear offline message; back online, the answers reach the server with no reload.
import type { Page } from '@playwright/test';
import { expect, expectAccessible, test } from './fixtures';
import { chooseAnswer, logIn, navigatorItem, registerFamily, serverAnswers, startExamByApi, startPracticeByApi } from './exam-fixtures';

test.use({ viewport: { width: 360, height: 640 } });

const OFFLINE_TEXT = 'Máy đang mất mạng. Bài làm của em vẫn được giữ trên máy và sẽ tự lưu khi có mạng trở lại.';
const saveStatus = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text });

/** The built files this page loaded that the service worker does not hold yet (none: a reload offline can show it). */
const filesNotKept = (page: Page) =>
  page.evaluate(async () => {
    const cache = await caches.open('exam-shell-v1');
    const files = performance
      .getEntriesByType('resource')
      .map((entry) => new URL(entry.name).pathname)
      .filter((path) => path.startsWith('/assets/'));
    const missing: string[] = [];
    for (const path of files) if (!(await cache.match(path, { ignoreVary: true }))) missing.push(path);
    return missing;
  });

test('an exam reloaded offline shows the paper with its answers kept and says so; back online it saves', async ({ page, context, request, baseURL }) => {
  const family = await registerFamily(request, 'Phạm Minh Khang');
  const exam = await startExamByApi(request, family);
  await logIn(context, baseURL!, family);
  const onServer = serverAnswers(page);
  // The exam opened directly (the first visit of the site on this phone).
  await page.goto(`/bat-dau-thi/${exam.bookId}/${family.childId}/${exam.slug}`);
  await expect(page.locator('.exam-question-number').first()).toHaveText('Câu 1');
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await expect.poll(() => filesNotKept(page)).toEqual([]);

  for (const n of [1, 2, 3]) {
    await navigatorItem(page, n).click();
    await chooseAnswer(page, n % 4);
  }
  await expect(saveStatus(page, 'Đã lưu bài làm')).toBeVisible();
  await expect.poll(onServer).toBe(3);

  // The network goes; two more answers wait on the phone; then a reload.
  await context.setOffline(true);
  for (const n of [4, 5]) {
    await navigatorItem(page, n).click();
    await chooseAnswer(page, 1);
  }
  await expect(saveStatus(page, 'Chưa lưu – sẽ tự lưu khi có mạng')).toBeVisible();
  const reloaded = await page.reload();
  expect(reloaded?.fromServiceWorker()).toBe(true);

  // The exam, not the browser's "No internet" page: the paper, every answer, the question on screen.
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Phạm Minh Khang');
  for (const n of [1, 2, 3, 4, 5]) await expect(navigatorItem(page, n)).toHaveAccessibleName(`Câu ${n}, đã trả lời`);
  await expect(navigatorItem(page, 6)).toHaveAccessibleName('Câu 6, chưa trả lời');
  await expect(page.locator('.exam-question-number').first()).toHaveText('Câu 5');
  await expect(page.locator('.exam-answer input').nth(1)).toBeChecked();
  await expect(page.getByRole('alert').filter({ hasText: OFFLINE_TEXT })).toBeVisible();
  await expect(page.locator('.exam-time time')).toHaveText(/^00:(1\d|20):\d\d$/);
  await expectAccessible(page, 'exam reloaded offline');

  // Still answering offline, then the network returns: everything is saved, the message goes.
  await navigatorItem(page, 6).click();
  await chooseAnswer(page, 2);
  await expect(navigatorItem(page, 6)).toHaveAccessibleName('Câu 6, đã trả lời');
  await context.setOffline(false);
  await expect(saveStatus(page, 'Đã lưu bài làm')).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: OFFLINE_TEXT })).toHaveCount(0);
  await expect.poll(onServer).toBe(6);
});

test('a practice round reloaded offline is shown the same way, from the same exam screen', async ({ page, context, request, baseURL }) => {
  const family = await registerFamily(request, 'Lê Gia Hân');
  const started = await startPracticeByApi(request, family);
  const headers = { authorization: `Bearer ${family.token}` };
  await logIn(context, baseURL!, family);
  await page.goto(`/thi-thu/${started.slug}`);
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
  await expect.poll(() => filesNotKept(page)).toEqual([]);
  await chooseAnswer(page, 0);
  await expect(saveStatus(page, 'Đã lưu bài làm')).toBeVisible();

  await context.setOffline(true);
  await navigatorItem(page, 2).click();
  await chooseAnswer(page, 3);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Thi thử');
  await expect(navigatorItem(page, 1)).toHaveAccessibleName('Câu 1, đã trả lời');
  await expect(navigatorItem(page, 2)).toHaveAccessibleName('Câu 2, đã trả lời');
  await expect(page.getByRole('alert').filter({ hasText: OFFLINE_TEXT })).toBeVisible();

  await context.setOffline(false);
  await expect(saveStatus(page, 'Đã lưu bài làm')).toBeVisible();
  await expect(page.getByRole('alert').filter({ hasText: OFFLINE_TEXT })).toHaveCount(0);
  // What the server holds (this load takes the round over: the test is done with the screen).
  const held = await (await request.get(`/api/practice/exams/${started.slug}`, { headers })).json();
  expect(held.data.data_answers).toHaveLength(2);
});
