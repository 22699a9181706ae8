// Issue 23.20: a question keeps its line breaks (a poem quoted line by line). On the server whose
// questions begin with a line of their own (prepare-short-exam.ts), the exam screen, the practice
// round and both result reviews show that line on its own, and the read-aloud highlight still
// marks the word being read, on the second line.
import type { Locator, Page } from '@playwright/test';
import { SHORT_EXAM_QUESTION_LEAD } from '../playwright.config';
import { expect, expectAccessible, test } from './fixtures';
import { logIn, registerFamily, savedExam, startExamByApi } from './exam-fixtures';

const LEAD = SHORT_EXAM_QUESTION_LEAD;

test.use({ server: 'short-exam' });

/**
 * Where the lead line and the text after its line break are drawn in `element`: the first
 * character after the break starts a line of its own, below the lead, at the element's left edge.
 */
async function expectLeadOnItsOwnLine(element: Locator) {
  expect(await element.innerText()).toContain(`${LEAD}\n`);
  const box = await element.evaluate((node, lead) => {
    const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
    for (let text = walker.nextNode() as Text | null; text; text = walker.nextNode() as Text | null) {
      const at = text.data.indexOf(`${lead}\n`);
      if (at < 0) continue;
      const rectOf = (start: number) => {
        const range = document.createRange();
        range.setStart(text, start);
        range.setEnd(text, start + 1);
        return range.getBoundingClientRect();
      };
      const first = rectOf(at);
      const next = rectOf(at + lead.length + 1);
      const left = (node as Element).getBoundingClientRect().left + parseFloat(getComputedStyle(node as Element).paddingLeft);
      return { firstTop: first.top, firstHeight: first.height, nextTop: next.top, nextLeft: next.left - left };
    }
    return null;
  }, LEAD);
  expect(box, `"${LEAD}" followed by a line break`).not.toBeNull();
  expect(box!.nextTop).toBeGreaterThanOrEqual(box!.firstTop + box!.firstHeight * 0.8);
  expect(Math.abs(box!.nextLeft)).toBeLessThan(2);
}

/** A device that speaks Vietnamese and reports one word: the first word after the question's first line break. */
const speechThatMarksTheSecondLine = `(() => {
  const voices = [{ lang: 'vi-VN', name: 'Tiếng Việt', localService: true, default: true, voiceURI: 'vi' }];
  class Utterance extends EventTarget { constructor(text) { super(); this.text = text; } }
  const synth = new EventTarget();
  synth.getVoices = () => voices;
  synth.cancel = () => {};
  synth.speak = (utterance) => setTimeout(() => {
    utterance.dispatchEvent(new Event('start'));
    const charIndex = utterance.text.indexOf('\\n') + 1;
    if (charIndex > 0) utterance.dispatchEvent(Object.assign(new Event('boundary'), { name: 'word', charIndex, charLength: 0 }));
  }, 50);
  Object.defineProperty(window, 'speechSynthesis', { value: synth, configurable: true });
  Object.defineProperty(window, 'SpeechSynthesisUtterance', { value: Utterance, configurable: true });
})();`;

/** Reads question 1 aloud: the word marked is the first of its second line, drawn below the lead. */
async function expectReadingMarksTheSecondLine(page: Page) {
  const question = page.locator('.exam-question-text').first();
  const secondLine = (await question.innerText()).split(`${LEAD}\n`)[1]!;
  await page.getByRole('button', { name: 'Đọc câu 1 cho em nghe' }).click();
  const word = question.locator('mark.exam-reading-word');
  await expect(word).toHaveText(/^\S+$/);
  expect(secondLine.startsWith(await word.innerText())).toBe(true);
  // The marked word is drawn under the lead line (the text's own first line).
  const leadBottom = await question.evaluate((node, lead) => {
    const text = [...node.childNodes].find((child) => child.nodeType === Node.TEXT_NODE && child.textContent!.startsWith(lead))!;
    const range = document.createRange();
    range.setStart(text, 0);
    range.setEnd(text, lead.length);
    return range.getBoundingClientRect().bottom;
  }, LEAD);
  expect((await word.boundingBox())!.y).toBeGreaterThanOrEqual(leadBottom - 1);
  await page.getByRole('button', { name: 'Đọc câu 1 cho em nghe' }).click();
  await expect(word).toHaveCount(0);
}

test('an exam question and its review show a question\'s line breaks', async ({ page, context, request, baseURL }) => {
  const family = await registerFamily(request, 'Ngô Thơ Hai Dòng');
  const exam = await startExamByApi(request, family);
  await context.addInitScript(speechThatMarksTheSecondLine);
  await logIn(context, baseURL!, family);

  await page.goto(`/bat-dau-thi/${exam.bookId}/${family.childId}/${exam.slug}`);
  await expectLeadOnItsOwnLine(page.locator('.exam-question-text').first());
  await expectReadingMarksTheSecondLine(page);

  // Submitted (away from the screen, before its 25 seconds run out): the review shows the lines too.
  await page.goto('/');
  const taking = await savedExam(request, family, exam);
  const answers = taking.data.data_questions.map((q: { id: number; answers: { id: number }[] }) => ({ question_id: q.id, answer_id: q.answers[0]!.id }));
  const submitted = await request.post('/api/submit-exam', {
    headers: { authorization: `Bearer ${family.token}` },
    data: { exam_id: exam.examId, slug: exam.slug, answers, prediction: 100 },
  });
  expect(submitted.ok()).toBe(true);
  await page.goto(`/ket-qua-thi/${exam.slug}`);
  const reviewed = page.locator('.result-question h3');
  await expect(reviewed).toHaveCount(20);
  await expectLeadOnItsOwnLine(reviewed.first());
  await expectAccessible(page, 'a result review with line breaks');
});

test('a practice question and its review show a question\'s line breaks', async ({ page, context, request, baseURL }) => {
  const family = await registerFamily(request, 'Đinh Thơ Thi Thử');
  await context.addInitScript(speechThatMarksTheSecondLine);
  await logIn(context, baseURL!, family);
  await page.goto('/du-thi');
  await page.locator('section.practice-offer').getByRole('button', { name: `Thi thử: ${family.childName}` }).click();
  await page.waitForURL(/\/thi-thu\/[A-Za-z0-9_-]{16,}$/);
  await expectLeadOnItsOwnLine(page.locator('.exam-question-text').first());
  await expectReadingMarksTheSecondLine(page);
  await expectAccessible(page, 'a practice question with a line break');

  // The practice round lasts as long as this server's exam: its time runs out and it is submitted.
  await page.waitForURL('**/thi-thu/ket-qua/**', { timeout: 45_000 });
  const reviewed = page.locator('.result-question h3');
  await expect(reviewed).toHaveCount(5);
  await expectLeadOnItsOwnLine(reviewed.first());
});
