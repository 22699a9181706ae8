// Issue 20, part 2: on a 360 x 640 phone the question is where the child looks, and so is every
// message. The question starts within the top 200 px and a question with four one-line answers
// fits without a scroll; Câu trước and Câu sau stay on screen under any question (issue 42: under a
// three-line question "Câu sau" ended at 667 px); a submit that fails offline says so on screen,
// wherever the child has scrolled to reach Nộp bài.
import { join } from 'node:path';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, expectAccessible, test } from './fixtures';
import { logIn, registerFamily, saveByApi, startAndOpenExam, startExamByApi } from './exam-fixtures';

const SCREEN = { width: 360, height: 640 };
test.use({ viewport: SCREEN });

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  expect(found, 'a visible box').not.toBeNull();
  return found!;
}

/** Four answers on the question on screen, each on one line. */
const answersOnOneLine = (page: Page) =>
  page
    .locator('.exam-answer-text')
    .evaluateAll(
      (texts) => texts.length === 4 && texts.every((text) => text.getBoundingClientRect().height < 1.5 * Number.parseFloat(getComputedStyle(text).lineHeight)),
    );

/** A new family's exam, opened on its first question once the screen has saved; the question's number. */
async function openNewExam(page: Page, request: APIRequestContext, baseURL: string, childName: string) {
  await startAndOpenExam(page, request, baseURL, childName);
  const number = page.locator('.exam-question-number').first();
  await expect(number).toHaveText('Câu 1');
  await expect(page.getByRole('status').filter({ hasText: 'Đã lưu bài làm' })).toBeVisible();
  return number;
}

test('at 360 x 640 the question starts within the top 200 px and four one-line answers fit without a scroll', async ({ page, request, baseURL }) => {
  const number = await openNewExam(page, request, baseURL!, 'Lâm Thảo Vy');

  const questionText = page.locator('.exam-question-text');
  const top = (await box(questionText)).y;
  expect(top, 'the question text starts within the top 200 px').toBeLessThan(200);
  // Type as DESIGN.md says: the question 20-22 px, the answers 18 px; 44-px targets in the bars.
  const fontSize = (locator: Locator) => locator.evaluate((element) => Number.parseFloat(getComputedStyle(element).fontSize));
  expect(await fontSize(questionText)).toBeGreaterThanOrEqual(20);
  expect(await fontSize(questionText)).toBeLessThanOrEqual(22);
  expect(await fontSize(page.locator('.exam-answer').first())).toBe(18);
  for (const target of [page.getByRole('button', { name: 'Thu gọn đồng hồ' }), page.getByRole('button', { name: 'Chữ vừa' })]) {
    const { width, height } = await box(target);
    expect(Math.min(width, height)).toBeGreaterThanOrEqual(44);
  }

  // The first question whose four answers are one line each (the keyboard moves without a scroll).
  for (let n = 1; !(await answersOnOneLine(page)); n += 1) {
    expect(n, 'a question with four one-line answers in the paper').toBeLessThan(20);
    await page.keyboard.press('ArrowRight');
    await expect(number).toHaveText(`Câu ${n + 1}`);
  }
  await page.evaluate(() => window.scrollTo(0, 0));
  const lastAnswer = await box(page.locator('.exam-answer').nth(3));
  expect(lastAnswer.y + lastAnswer.height, 'answer D ends on the first screen').toBeLessThanOrEqual(SCREEN.height);
  // ... above the bar of Câu trước / Câu sau stuck to the bottom of the screen.
  expect(lastAnswer.y + lastAnswer.height, 'answer D ends above the step bar').toBeLessThanOrEqual((await box(page.locator('.exam-steps'))).y);
  expect((await box(questionText)).y).toBeLessThan(200);
  await expectAccessible(page, 'the compact exam screen at 360 x 640');
});

test('at 360 x 640 Câu trước and Câu sau are within the screen on every question, a three-line one included, and the last answer scrolls above them', async ({ page, request, baseURL }) => {
  const number = await openNewExam(page, request, baseURL!, 'Tạ Minh Châu');
  const questionText = page.locator('.exam-question-text');
  const previous = page.getByRole('button', { name: 'Câu trước' });
  const next = page.getByRole('button', { name: 'Câu sau' });
  const lines = () => questionText.evaluate((text) => Math.round(text.getBoundingClientRect().height / Number.parseFloat(getComputedStyle(text).lineHeight)));
  let longest = 0;
  for (let n = 1; ; n += 1) {
    await expect(number).toHaveText(`Câu ${n}`);
    const shown = await lines();
    if (shown >= 3 && longest < 3 && process.env.E2E_SCREENSHOTS) await page.screenshot({ path: join(process.env.E2E_SCREENSHOTS, 'exam-three-lines-360x640.png') });
    longest = Math.max(longest, shown);
    // Both controls whole on the first screen of the question, 44-px targets.
    for (const control of [previous, next]) {
      const { y, width, height } = await box(control);
      expect(y, `Câu ${n}: the control starts on screen`).toBeGreaterThanOrEqual(0);
      expect(y + height, `Câu ${n}: the control ends on screen`).toBeLessThanOrEqual(SCREEN.height);
      expect(Math.min(width, height)).toBeGreaterThanOrEqual(44);
    }
    // The last answer, brought into view (as the keyboard does), is not under the bar.
    const last = page.locator('.exam-answer').last();
    await last.evaluate((answer) => answer.scrollIntoView({ block: 'nearest' }));
    const answer = await box(last);
    const bar = await box(page.locator('.exam-steps'));
    expect(answer.y + answer.height, `Câu ${n}: the last answer above the bar`).toBeLessThanOrEqual(bar.y + 1);
    if (n === 20 || (await next.isDisabled())) break;
    await next.click();
  }
  expect(longest, 'a question of three lines or more in the paper').toBeGreaterThanOrEqual(3);
  await expectAccessible(page, 'the exam screen with its step bar at 360 x 640');
});

test('at 360 x 640 a submit that fails offline says so on screen, by the timer, after the scroll down to Nộp bài', async ({ page, context, request, baseURL }) => {
  const family = await registerFamily(request, 'Mạc Đăng Khoa');
  const exam = await startExamByApi(request, family);
  // Every question answered before the screen opens (a save without a writer handle, as any client may).
  await saveByApi(request, family, exam, (question) => question.answers[0]!.id, 4321);
  await logIn(context, baseURL!, family);
  await page.goto(`/bat-dau-thi/${exam.bookId}/${family.childId}/${exam.slug}`);
  await expect(page.locator('.exam-question-number').first()).toHaveText('Câu 1');
  await expect(page.getByRole('status').filter({ hasText: 'Đã lưu bài làm' })).toBeVisible();
  // After "Câu sau" too (the question brought under the timer, the case measured in the issue).
  await page.getByRole('button', { name: 'Câu sau' }).click();
  await expect(page.locator('.exam-question-number').first()).toHaveText('Câu 2');

  await context.setOffline(true);
  const submit = page.getByRole('button', { name: 'Nộp bài' });
  await submit.scrollIntoViewIfNeeded();
  expect(await page.evaluate(() => window.scrollY), 'Nộp bài is below the first screen').toBeGreaterThan(0);
  await submit.click();
  await page.getByRole('dialog', { name: 'Nộp bài thi?' }).getByRole('button', { name: 'Nộp bài' }).click();

  const message = page.getByRole('alert').filter({ hasText: 'Nộp bài chưa thành công. Không thể kết nối tới máy chủ.' });
  await expect(message).toBeVisible();
  await expect(message).toBeInViewport({ ratio: 1 });
  const shown = await box(message);
  expect(shown.y).toBeGreaterThanOrEqual(0);
  expect(shown.y + shown.height).toBeLessThanOrEqual(SCREEN.height);
  await expectAccessible(page, 'a submit that failed offline');

  // Back online: the submit goes through by itself.
  await context.setOffline(false);
  await page.waitForURL(`**/giay-chung-nhan/${family.childId}`, { timeout: 40_000 });
});
