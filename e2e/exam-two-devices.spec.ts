// Issue 20, part 1: one exam open on two screens (the parent's phone and a tablet, or two tabs).
// The screen that loaded the exam last writes; the other is told, with the number of its answers
// that were not saved, and chooses to go on there (the server's answers, loaded again) or leave.
// Nothing of the older screen overwrites the newer one's, neither live nor from a phone that comes
// back online.
import type { APIRequestContext, Browser, BrowserContext, Page } from '@playwright/test';
import { expect, expectAccessible, phoneViewport, test } from './fixtures';
import { chooseAnswer, logIn, navigatorItem, registerFamily, savedExam, serverAnswers, startExamByApi, type Family } from './exam-fixtures';

test.use({ viewport: phoneViewport });

/** The dialog of a screen whose exam was opened elsewhere. */
const elsewhereDialog = (page: Page) => page.getByRole('alertdialog', { name: 'Bài thi đang được mở ở nơi khác' });
const saved = (page: Page) => page.getByRole('status').filter({ hasText: 'Đã lưu bài làm' });

/** Another device: a browser context of its own, the same parent logged in. */
async function secondDevice(browser: Browser, baseURL: string, family: Family) {
  const context = await browser.newContext({ viewport: phoneViewport, baseURL, locale: 'vi-VN', timezoneId: 'Asia/Ho_Chi_Minh' });
  await logIn(context, baseURL, family);
  return { context, page: await context.newPage() };
}

/** The answer chosen on question `n` (0-based index among its answers), as the screen shows it. */
async function chosenIndex(page: Page, n: number) {
  await navigatorItem(page, n).click();
  await expect(page.locator('.exam-question-number').first()).toHaveText(`Câu ${n}`);
  return page.locator('.exam-answer input').evaluateAll((inputs) => inputs.findIndex((input) => (input as HTMLInputElement).checked));
}

/** A new family whose child has an exam started through the API, logged in on `context`; the exam screen's address. */
async function familyOnExam(request: APIRequestContext, context: BrowserContext, baseURL: string, childName: string) {
  const family = await registerFamily(request, childName);
  const exam = await startExamByApi(request, family);
  await logIn(context, baseURL, family);
  return { family, exam, examUrl: `/bat-dau-thi/${exam.bookId}/${family.childId}/${exam.slug}` };
}

test('the older screen is stopped with its unsaved answers counted, never overwrites the newer one, and may take the exam back', async ({ page, context, browser, request, baseURL }) => {
  test.setTimeout(150_000);
  const { family, exam, examUrl } = await familyOnExam(request, context, baseURL!, 'Trịnh Hải Đăng');

  // A answers questions 1 and 2.
  const onServerA = serverAnswers(page);
  await page.goto(examUrl);
  await chooseAnswer(page, 0);
  await navigatorItem(page, 2).click();
  await chooseAnswer(page, 1);
  await expect.poll(onServerA).toBe(2);

  // B opens the same exam (it writes from now on), changes question 1 and answers question 3.
  const b = await secondDevice(browser, baseURL!, family);
  const onServerB = serverAnswers(b.page);
  await b.page.goto(examUrl);
  await expect(navigatorItem(b.page, 2)).toHaveAccessibleName('Câu 2, đã trả lời');
  await chooseAnswer(b.page, 2);
  await navigatorItem(b.page, 3).click();
  await chooseAnswer(b.page, 3);
  await expect.poll(onServerB).toBe(3);
  await expect(saved(b.page)).toBeVisible();

  // A answers question 4: refused, A stops and says how many of its answers were not saved.
  await navigatorItem(page, 4).click();
  await chooseAnswer(page, 2);
  const dialog = elsewhereDialog(page);
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('1 câu trả lời trên màn hình này chưa được lưu.')).toBeVisible();
  await expect(dialog.getByText(/1 câu trả lời chưa lưu ở màn hình này sẽ không được giữ lại/)).toBeVisible();
  // Under the dialog (the screen is inert), by the timer: saving has stopped, and why.
  await expect(page.locator('.exam-save-status')).toHaveText('Đã dừng lưu');
  await expect(page.locator('.exam-alert').filter({ hasText: 'Bài thi đang được mở ở nơi khác' })).toBeInViewport();
  await expectAccessible(page, 'exam opened on another device');
  // A modal that only a choice closes: Escape does nothing, Tab stays inside.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeVisible();
  for (let i = 0; i < 4; i += 1) {
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => Boolean(document.activeElement?.closest('[role="alertdialog"]')))).toBe(true);
  }
  // Nothing of A's went to the server: B's answers are still what it holds.
  await b.page.reload();
  await expect(navigatorItem(b.page, 3)).toHaveAccessibleName('Câu 3, đã trả lời');
  await expect(navigatorItem(b.page, 4)).toHaveAccessibleName('Câu 4, chưa trả lời');
  expect(await chosenIndex(b.page, 1)).toBe(2);
  await expect.poll(onServerB).toBe(3);

  // A goes on there: the server's answers (B's), none of A's unsaved one; A saves again.
  await dialog.getByRole('button', { name: 'Tiếp tục ở đây' }).click();
  await expect(dialog).toBeHidden();
  await expect(navigatorItem(page, 3)).toHaveAccessibleName('Câu 3, đã trả lời');
  await expect(navigatorItem(page, 4)).toHaveAccessibleName('Câu 4, chưa trả lời');
  expect(await chosenIndex(page, 1)).toBe(2);
  await navigatorItem(page, 5).click();
  await chooseAnswer(page, 1);
  await expect.poll(onServerA).toBe(4);
  await expect(saved(page)).toBeVisible();

  // Now B is the older screen: its next answer meets the dialog, and it leaves.
  await navigatorItem(b.page, 6).click();
  await chooseAnswer(b.page, 0);
  const dialogB = elsewhereDialog(b.page);
  await expect(dialogB).toBeVisible();
  await expect(dialogB.getByText('1 câu trả lời trên màn hình này chưa được lưu.')).toBeVisible();
  await dialogB.getByRole('button', { name: 'Rời khỏi bài thi' }).click();
  await b.page.waitForURL('**/du-thi');
  await b.context.close();

  // What the server holds: B's question 1 and 3, A's 2 and 5; neither A's 4 nor B's 6.
  await page.close();
  const held = (await savedExam(request, family, exam)).data;
  const questions = held.data_questions as { id: number; answers: { id: number }[] }[];
  const expected = [
    [0, 2],
    [1, 1],
    [2, 3],
    [4, 1],
  ].map(([q, a]) => ({ question_id: questions[q!]!.id, answer_id: questions[q!]!.answers[a!]!.id }));
  const sorted = (list: { question_id: number; answer_id: number }[]) => [...list].sort((x, y) => x.question_id - y.question_id);
  expect(sorted(held.data_answers)).toEqual(sorted(expected));
});

test('a phone that comes back online after another device took over is told, and its queued answers overwrite nothing', async ({ page, context, browser, request, baseURL }) => {
  const { family, examUrl } = await familyOnExam(request, context, baseURL!, 'Ông Bảo Ngân');
  const onServerA = serverAnswers(page);
  await page.goto(examUrl);
  await chooseAnswer(page, 0);
  await expect.poll(onServerA).toBe(1);

  // The phone loses the network and keeps answering.
  await context.setOffline(true);
  for (const n of [2, 3]) {
    await navigatorItem(page, n).click();
    await chooseAnswer(page, 1);
  }
  await expect(page.getByRole('status').filter({ hasText: 'Chưa lưu – sẽ tự lưu khi có mạng' })).toBeVisible();

  // Meanwhile the tablet opens the exam and answers question 2 its own way.
  const b = await secondDevice(browser, baseURL!, family);
  const onServerB = serverAnswers(b.page);
  await b.page.goto(examUrl);
  await navigatorItem(b.page, 2).click();
  await chooseAnswer(b.page, 3);
  await expect.poll(onServerB).toBe(2);

  // Back online: the queued save is refused, the phone says so and how many answers it kept back.
  await context.setOffline(false);
  const dialog = elsewhereDialog(page);
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('2 câu trả lời trên màn hình này chưa được lưu.')).toBeVisible();
  expect(onServerA()).toBe(1);

  // The tablet still holds its own answers: a reload there shows question 2 as it chose, and no 3.
  await b.page.reload();
  await expect(navigatorItem(b.page, 3)).toHaveAccessibleName('Câu 3, chưa trả lời');
  expect(await chosenIndex(b.page, 2)).toBe(3);
  await b.context.close();

  // Leaving the phone's exam goes back to /du-thi; a later visit shows the server's answers only.
  await dialog.getByRole('button', { name: 'Rời khỏi bài thi' }).click();
  await page.waitForURL('**/du-thi');
  await page.goto(examUrl);
  await expect(navigatorItem(page, 2)).toHaveAccessibleName('Câu 2, đã trả lời');
  await expect(navigatorItem(page, 3)).toHaveAccessibleName('Câu 3, chưa trả lời');
  expect(await chosenIndex(page, 2)).toBe(3);
});
