// Moving through the exam on a short phone (360 x 640): every question starts below the sticky
// timer bar, whatever the scroll position, with the focus on its heading; and the question on
// screen survives a reload.
import type { Page } from '@playwright/test';
import { expect, expectAccessible, test } from './fixtures';
import { chooseAnswer, navigatorItem, startAndOpenExam } from './exam-fixtures';

test.use({ viewport: { width: 360, height: 640 } });

const heading = (page: Page) => page.locator('.exam-card h2');

/** Question `n` is on screen: its whole text between the timer bar's bottom and the window's, its heading focused. */
async function expectQuestionInView(page: Page, n: number) {
  await expect(heading(page).locator('.exam-question-number')).toHaveText(new RegExp(`^Câu ${n}( –|$)`));
  await expect(heading(page)).toBeFocused();
  await expect
    .poll(async () => {
      const bar = (await page.locator('.exam-topbar').boundingBox())!;
      const text = (await heading(page).boundingBox())!;
      return { belowBar: text.y >= bar.y + bar.height, insideWindow: text.y + text.height <= page.viewportSize()!.height };
    }, { message: `question ${n} fully visible` })
    .toEqual({ belowBar: true, insideWindow: true });
}

const scrollToBottom = (page: Page) => page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));

test('every move to a question shows it whole below the timer bar, both ways, and a reload comes back to it', async ({ page, request, baseURL }) => {
  await startAndOpenExam(page, request, baseURL!, 'Ngô Thảo Vy');
  await expect(heading(page).locator('.exam-question-number')).toHaveText('Câu 1');
  await expectAccessible(page, 'exam screen');

  // Forward with 'Câu sau', every other time from the bottom of the page.
  for (let n = 2; n <= 21; n += 1) {
    if (n % 2 === 0) await scrollToBottom(page);
    await page.getByRole('button', { name: 'Câu sau' }).click();
    await expectQuestionInView(page, n);
  }
  // Back with 'Câu trước'.
  for (let n = 20; n >= 1; n -= 1) {
    if (n % 2 === 1) await scrollToBottom(page);
    await page.getByRole('button', { name: 'Câu trước' }).click();
    await expectQuestionInView(page, n);
  }
  // With the number grid (below the question: the page is scrolled down to reach it), both ways.
  for (const n of [21, 2, 17, 9, 20, 1, 14]) {
    await navigatorItem(page, n).click();
    await expectQuestionInView(page, n);
  }

  // The question on screen is kept with the answers: a reload comes back to question 7.
  await chooseAnswer(page, 1); // question 14
  await navigatorItem(page, 7).click();
  await chooseAnswer(page, 2);
  await page.reload();
  await expect(heading(page).locator('.exam-question-number')).toHaveText('Câu 7');
  await expect(page.locator('.exam-answer input').nth(2)).toBeChecked();
  await expect(navigatorItem(page, 7)).toHaveAttribute('aria-current', 'step');
  for (const n of [7, 14]) await expect(navigatorItem(page, n)).toHaveAccessibleName(`Câu ${n}, đã trả lời`);
  await expectAccessible(page, 'exam screen after a reload');
});
