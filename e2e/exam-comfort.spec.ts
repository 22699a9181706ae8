// Issue 14: an exam a six-year-old can take alone. The whole exam with the keyboard only; the text
// size at 360 px without a sideways scroll, kept on the device; the folded timer; the calm notice
// at 5 minutes left (the phone's clock moved forward; the 1-minute one is checked on the 25-second
// exam in exam.spec.ts).
import { expect, expectAccessible, phoneViewport, test } from './fixtures';
import { sampleMp3 } from '../src/server/test/audio-samples';
import { examResult, logIn, registerFamily, startAndOpenExam, startExamByApi } from './exam-fixtures';

test.use({ viewport: phoneViewport });

test('a child takes the whole exam with the keyboard only, from the first question to the submit', async ({ page, request, baseURL }) => {
  const { family, exam } = await startAndOpenExam(page, request, baseURL!, 'Đào Minh Khuê');
  const number = page.locator('.exam-question-number').first();
  await expect(number).toHaveText('Câu 1');
  await expectAccessible(page, 'the exam screen');

  // 1-4 and A-D choose, the right arrow and J go on, K goes back.
  const keys = ['1', '2', '3', '4', 'a', 'b', 'c', 'd'];
  for (let n = 1; n <= 20; n += 1) {
    await expect(number).toHaveText(`Câu ${n}`);
    await page.keyboard.press(keys[n % keys.length]!);
    await expect(page.locator('.exam-answer[data-selected]')).toHaveCount(1);
    await page.keyboard.press(n % 2 ? 'ArrowRight' : 'j');
  }
  await expect(number).toHaveText('Câu 21 – Câu hỏi dự đoán');
  await page.keyboard.press('k');
  await expect(number).toHaveText('Câu 20');
  // A chosen answer keeps its choice: A on question 20 is the first answer.
  await expect(page.locator('.exam-answer').nth(0)).toHaveAttribute('data-selected', 'true');
  await page.keyboard.press('ArrowRight');

  // The prediction: Tab into the field, type, Enter asks to submit.
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Số bài thi em dự đoán')).toBeFocused();
  await page.keyboard.type('1500');
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('dialog', { name: 'Nộp bài thi?' });
  await expect(confirm).toBeVisible();
  await expectAccessible(page, 'the submit confirmation');
  const submit = confirm.getByRole('button', { name: 'Nộp bài' });
  for (let tabs = 0; tabs < 4 && !(await submit.evaluate((button) => button === document.activeElement)); tabs += 1) await page.keyboard.press('Tab');
  await expect(submit).toBeFocused();
  await page.keyboard.press('Enter');
  await page.waitForURL(`**/giay-chung-nhan/${family.childId}`);
  const result = await examResult(request, family, exam.slug);
  expect(result.data.data_answers).toHaveLength(20);
  expect(result.data.prediction).toBe(1500);
});

test('the text size control keeps the exam within a 360-px screen and is kept on the device; the timer folds', async ({ page, request, baseURL }) => {
  await startAndOpenExam(page, request, baseURL!, 'Tạ Thị Phương Nghi');
  const sizes = page.getByRole('group', { name: 'Cỡ chữ' });
  const questionText = page.locator('.exam-question-text');
  const fontSize = () => questionText.evaluate((element) => Number.parseFloat(getComputedStyle(element).fontSize));
  const base = await fontSize();
  const noSidewaysScroll = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);

  await sizes.getByRole('button', { name: 'Chữ rất lớn' }).click();
  await expect(sizes.getByRole('button', { name: 'Chữ rất lớn' })).toHaveAttribute('aria-pressed', 'true');
  expect(await fontSize()).toBeGreaterThan(base * 1.4);
  expect(await noSidewaysScroll()).toBe(true);
  await page.getByRole('button', { name: 'Câu sau' }).click();
  expect(await noSidewaysScroll()).toBe(true);
  await expectAccessible(page, 'the exam in the largest text');

  await page.reload();
  await expect(sizes.getByRole('button', { name: 'Chữ rất lớn' })).toHaveAttribute('aria-pressed', 'true');

  // Folded: a bar instead of the digits (still read to screen readers); unfolded again.
  await page.getByRole('button', { name: 'Thu gọn đồng hồ' }).click();
  await expect(page.locator('.exam-time-bar')).toBeVisible();
  await expect(page.locator('.exam-time time')).not.toBeInViewport();
  await page.getByRole('button', { name: 'Hiện đồng hồ' }).click();
  await expect(page.locator('.exam-time time')).toBeVisible();
});

test('at 5 minutes left a calm notice is shown and announced once', async ({ page, context, request, baseURL }) => {
  const family = await registerFamily(request, 'Hồ Gia Bảo');
  const exam = await startExamByApi(request, family);
  await logIn(context, baseURL!, family);
  // The phone's clock, moved forward: the 20-minute exam reaches its last 5 minutes.
  await page.clock.install();
  await page.goto(`/bat-dau-thi/${exam.bookId}/${family.childId}/${exam.slug}`);
  await expect(page.locator('.exam-question-number').first()).toHaveText('Câu 1');
  const live = page.locator('.exam-page p[aria-live="polite"]');
  await expect(live).toHaveText('');
  await page.clock.fastForward('15:30');
  await expect(live).toHaveText('Còn dưới 5 phút nữa là hết giờ. Em cứ bình tĩnh làm tiếp nhé.');
  await expect(page.locator('.exam-time-notice')).toContainText('Còn dưới 5 phút');
});

/** A device whose speech lists these voices; a Vietnamese one fails as soon as it is asked to speak. */
function fakeSpeech(voices: { lang: string; name: string }[]) {
  return `(() => {
    const voices = ${JSON.stringify(voices)}.map((v) => ({ ...v, localService: true, default: false, voiceURI: v.name }));
    class Utterance extends EventTarget { constructor(text) { super(); this.text = text; } }
    const synth = new EventTarget();
    synth.getVoices = () => voices;
    synth.cancel = () => {};
    synth.speak = (utterance) => setTimeout(() => utterance.dispatchEvent(Object.assign(new Event('error'), { error: 'synthesis-failed' })), 50);
    Object.defineProperty(window, 'speechSynthesis', { value: synth, configurable: true });
    Object.defineProperty(window, 'SpeechSynthesisUtterance', { value: Utterance, configurable: true });
  })();`;
}

test('a phone without a Vietnamese voice: the parent is told on Vào thi, and the exam has no speaker to tap', async ({ page, context, request, baseURL }) => {
  await page.setViewportSize({ width: 360, height: 640 });
  await context.addInitScript(fakeSpeech([{ lang: 'en-US', name: 'English' }]));
  const family = await registerFamily(request, 'Lò Văn Pao');
  await logIn(context, baseURL!, family);
  await page.goto('/du-thi');
  await expect(page.getByText(/Máy này chưa có giọng đọc tiếng Việt nên khi thi, nút loa chỉ có ở câu hỏi có ghi âm\..*mục Chuyển văn bản thành giọng nói\./)).toBeVisible();
  await expectAccessible(page, 'Vào thi without a Vietnamese voice');

  const exam = await startExamByApi(request, family);
  await page.goto(`/bat-dau-thi/${exam.bookId}/${family.childId}/${exam.slug}`);
  await expect(page.locator('.exam-question-number').first()).toHaveText('Câu 1');
  await expect(page.getByRole('button', { name: /cho em nghe/ })).toHaveCount(0);
});

test('a Vietnamese voice that fails says so once by the timer, and its speaker buttons go', async ({ page, context, request, baseURL }) => {
  await page.setViewportSize({ width: 360, height: 640 });
  await context.addInitScript(fakeSpeech([{ lang: 'vi-VN', name: 'Tiếng Việt' }]));
  const family = await registerFamily(request, 'Hà Thị Mai');
  await logIn(context, baseURL!, family);
  await page.goto('/du-thi');
  await expect(page.locator('.join-exam-form')).toBeVisible();
  await expect(page.getByText(/chưa có giọng đọc tiếng Việt/)).toHaveCount(0);

  const exam = await startExamByApi(request, family);
  await page.goto(`/bat-dau-thi/${exam.bookId}/${family.childId}/${exam.slug}`);
  await page.getByRole('button', { name: 'Đọc câu 1 cho em nghe' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Máy chưa đọc được bằng giọng tiếng Việt nên nút loa tạm ẩn' })).toBeVisible();
  await expect(page.getByRole('button', { name: /cho em nghe/ })).toHaveCount(0);
  await expectAccessible(page, 'the exam after its voice failed');
});

test("a read-aloud clip's downloaded copy loads under the site's security policy", async ({ page }) => {
  await page.goto('/du-thi');
  const outcome = await page.evaluate(async (bytes) => {
    const copy = URL.createObjectURL(new Blob([new Uint8Array(bytes)], { type: 'audio/mpeg' }));
    const refused = new Promise<string>((resolve) => document.addEventListener('securitypolicyviolation', (event) => resolve(`refused: ${event.violatedDirective}`)));
    const player = new Audio();
    const loaded = new Promise<string>((resolve) => {
      player.addEventListener('loadedmetadata', () => resolve(`loaded ${player.duration.toFixed(1)} s`));
      player.addEventListener('error', () => resolve(`error ${player.error?.code}`));
    });
    player.src = copy;
    player.load();
    return Promise.race([refused, loaded]);
  }, [...sampleMp3()]);
  expect(outcome).toMatch(/^loaded \d/);
});
