// The exam on a phone: start, answer with the navigator, survive a reload and a network drop,
// submit, review; and an exam whose time runs out (on the second test server, whose contest has a
// 25-second exam: e2e/prepare-short-exam.ts) submits itself.
import { expect, expectAccessible, phoneViewport, test } from './fixtures';
import { chooseAnswer, examResult, logIn, navigatorItem, registerFamily, serverAnswers, startAndOpenExam, startExamByApi } from './exam-fixtures';

test.use({ viewport: phoneViewport });

test('a child takes a whole exam on a phone, survives a reload and a network drop, submits and reviews the result', async ({ page, context, request, baseURL }) => {
  const family = await registerFamily(request);
  await logIn(context, baseURL!, family);
  const onServer = serverAnswers(page);

  await page.goto('/du-thi');
  await expect(page.getByText(/^Thời gian thi: \d\d\/\d\d\/\d{4} - \d\d\/\d\d\/\d{4}$/)).toBeVisible();
  await page.getByRole('button', { name: 'Vào thi' }).click();
  await expect(page.getByText('Vui lòng chọn thí sinh.')).toBeVisible();
  await expect(page.getByText('Vui lòng chọn sách thi.')).toBeVisible();
  await page.getByLabel('Thí sinh').selectOption({ index: 1 });
  await expect(page.getByLabel('Sách thi').locator('option')).toHaveCount(4);
  await page.getByLabel('Sách thi').selectOption({ index: 1 });
  await page.getByRole('button', { name: 'Vào thi' }).click();
  await page.getByRole('alertdialog', { name: 'Bắt đầu lượt thi thứ 1 trong 3 lượt?' }).getByRole('button', { name: 'Bắt đầu thi' }).click();
  await page.waitForURL(/\/bat-dau-thi\/\d+\/\d+\/[A-Za-z0-9_-]{16,}$/);
  const exam = { slug: page.url().split('/').pop()! };

  // One question at a time; previous disabled at 1, next at 21; the countdown from the server.
  await expect(page.locator('.exam-time time')).toHaveText(/^00:(19:\d\d|20:00)$/);
  await expect(page.getByRole('button', { name: 'Câu trước' })).toBeDisabled();
  await expect(page.getByRole('status').filter({ hasText: 'Đã lưu bài làm' })).toBeVisible();

  // Questions 1-8: answer, then next.
  for (let n = 1; n <= 8; n += 1) {
    await expect(page.locator('.exam-question-number').first()).toHaveText(`Câu ${n}`);
    await chooseAnswer(page, n % 4);
    await expect(navigatorItem(page, n)).toHaveAccessibleName(`Câu ${n}, đã trả lời`);
    await page.getByRole('button', { name: 'Câu sau' }).click();
  }
  await expect(navigatorItem(page, 9)).toHaveAccessibleName('Câu 9, chưa trả lời');
  await expect(page.getByRole('status').filter({ hasText: 'Đã lưu bài làm' })).toBeVisible();

  // Jump with the navigator, answer, and reload at once (before any save): the device kept it.
  await navigatorItem(page, 12).click();
  await expect(page.locator('.exam-question-number').first()).toHaveText('Câu 12');
  await chooseAnswer(page, 2);
  await page.reload();
  for (const n of [1, 2, 3, 4, 5, 6, 7, 8, 12]) await expect(navigatorItem(page, n)).toHaveAccessibleName(`Câu ${n}, đã trả lời`);
  // Back on question 12 (kept on the device), its answer chosen.
  await expect(page.locator('.exam-question-number').first()).toHaveText('Câu 12');
  await expect(page.locator('.exam-answer input').nth(2)).toBeChecked();
  await expect(page.getByRole('status').filter({ hasText: 'Đã lưu bài làm' })).toBeVisible();
  await expect.poll(onServer).toBe(9);

  // The network drops: answering goes on, the indicator says the answers wait for the network.
  await context.setOffline(true);
  for (const n of [9, 10, 11, 13]) {
    await navigatorItem(page, n).click();
    await chooseAnswer(page, 0);
  }
  await expect(page.getByRole('status').filter({ hasText: 'Chưa lưu – sẽ tự lưu khi có mạng' })).toBeVisible();
  await expectAccessible(page, 'exam offline');
  expect(onServer()).toBe(9);
  await context.setOffline(false);
  await expect(page.getByRole('status').filter({ hasText: 'Đã lưu bài làm' })).toBeVisible();
  await expect.poll(onServer).toBe(13);

  // Submitting with unanswered questions is refused and marks them.
  for (const n of [14, 15, 16, 17, 18, 19]) {
    await navigatorItem(page, n).click();
    await chooseAnswer(page, 3);
  }
  await page.getByRole('button', { name: 'Nộp bài' }).click();
  // The questions left are listed, each a button to it; nothing is submitted.
  const left = page.getByRole('dialog', { name: 'Em còn 2 câu chưa trả lời' });
  await expect(left.getByText('Vui lòng hoàn thành tất cả câu hỏi trước khi nộp bài')).toBeVisible();
  await expect(left.getByRole('button', { name: /^Câu \d+$/ })).toHaveText(['Câu 20', 'Câu 21']);
  await expectAccessible(page, 'the questions left before a submit');
  await left.getByRole('button', { name: 'Câu 20' }).click();
  await expect(left).toBeHidden();
  await expect(page.locator('.exam-question-number').first()).toHaveText('Câu 20');
  await expect(navigatorItem(page, 20)).toHaveAccessibleName('Câu 20, chưa trả lời, cần làm');
  await expect(navigatorItem(page, 21)).toHaveAccessibleName('Câu 21, chưa trả lời, cần làm');
  await expectAccessible(page, 'exam with unanswered questions marked');

  await chooseAnswer(page, 1);
  await page.getByRole('button', { name: 'Câu sau' }).click();
  await expect(page.getByRole('button', { name: 'Câu sau' })).toBeDisabled();
  const prediction = page.getByLabel('Số bài thi em dự đoán');
  await expect(prediction).toHaveAttribute('inputmode', 'numeric');
  await prediction.fill('-3');
  await expect(page.getByText('Giá trị phải lớn hơn hoặc bằng 0')).toBeVisible();
  await prediction.fill('2.5');
  await expect(page.getByText('Giá trị phải là số nguyên')).toBeVisible();
  await expectAccessible(page, 'prediction with an error');
  await prediction.fill('12345');
  await expect(navigatorItem(page, 21)).toHaveAccessibleName('Câu 21, đã trả lời');

  await page.getByRole('button', { name: 'Nộp bài' }).click();
  const dialog = page.getByRole('dialog', { name: 'Nộp bài thi?' });
  await expect(dialog).toBeVisible();
  await expectAccessible(page, 'submit confirmation');
  await dialog.getByRole('button', { name: 'Nộp bài' }).click();
  await expect(page.getByText('Nộp bài thành công!')).toBeVisible();
  await page.waitForURL(`**/giay-chung-nhan/${family.childId}`);

  const result = await examResult(request, family, exam.slug);
  expect(result.data.data_answers).toHaveLength(20);
  expect(result.data.prediction).toBe(12345);
  await page.goto(`/ket-qua-thi/${exam.slug}`);
  await expect(page.getByRole('heading', { name: 'Kết quả thi' })).toBeVisible();
  const summary = page.locator('.result-summary');
  await expect(summary.getByText(`${result.data.points}/100`, { exact: true })).toBeVisible();
  await expect(summary.getByText(result.data.book.name, { exact: true })).toBeVisible();
  await expect(summary.getByText('12.345', { exact: true })).toBeVisible();
  await expect(page.getByText('Đáp án đúng')).toHaveCount(20);
  await expect(page.getByText('Em chọn')).toHaveCount(20);
});

test.describe('on a contest with a 25-second exam', () => {
  test.use({ server: 'short-exam' });

  test('an exam whose time runs out says so and is submitted automatically with the saved answers', async ({ page, request, baseURL }) => {
    const { family, exam } = await startAndOpenExam(page, request, baseURL!, 'Lê Minh Khang');
    await chooseAnswer(page, 0);
    await page.getByRole('button', { name: 'Câu sau' }).click();
    await chooseAnswer(page, 1);
    // The last 2 minutes: the time is in the accent colour; under a minute, said, with how many
    // questions are left, on screen wherever the child has scrolled (by the timer).
    await expect(page.locator('.exam-time')).toHaveAttribute('data-warning', 'true');
    const notice = page.locator('.exam-page p[aria-live="polite"]');
    await expect(notice).toHaveText('Còn dưới 1 phút nữa là hết giờ. Em còn 19 câu chưa trả lời.');
    await page.getByRole('button', { name: 'Nộp bài' }).scrollIntoViewIfNeeded();
    await expect(notice).toBeInViewport({ ratio: 1 });
    await expect(page.getByRole('alert').filter({ hasText: 'Hết thời gian làm bài' }).first()).toBeVisible({ timeout: 25_000 });
    await expect(page.locator('.exam-answer input').first()).toBeDisabled();
    await expectAccessible(page, 'exam time up');
    await page.waitForURL(`**/giay-chung-nhan/${family.childId}`, { timeout: 15_000 });

    const result = await examResult(request, family, exam.slug);
    expect(result.data.data_answers).toHaveLength(2);
    expect(result.data.time_complete_minutes).toBe(0);
  });
});

test('Vào thi asks once before using an attempt; "Chưa thi" uses nothing', async ({ page, context, request, baseURL }) => {
  await page.setViewportSize({ width: 360, height: 640 });
  const family = await registerFamily(request);
  await logIn(context, baseURL!, family);
  await page.goto('/du-thi');
  await page.getByLabel('Thí sinh').selectOption({ index: 1 });
  await expect(page.getByLabel('Sách thi').locator('option')).toHaveCount(4);
  await page.getByLabel('Sách thi').selectOption({ index: 1 });
  await page.getByRole('button', { name: 'Vào thi' }).click();
  const dialog = page.getByRole('alertdialog', { name: 'Bắt đầu lượt thi thứ 1 trong 3 lượt?' });
  await expect(dialog.getByText('Thời gian 20 phút tính từ lúc bắt đầu.')).toBeVisible();
  await expectAccessible(page, 'the start question');
  await dialog.getByRole('button', { name: 'Chưa thi' }).click();
  await expect(dialog).toBeHidden();
  await expect(page).toHaveURL(/\/du-thi$/);
  const profile = await (await request.get('/api/profile', { headers: { authorization: `Bearer ${family.token}` } })).json();
  expect(profile.data.childrens[0].exams).toEqual([]);

  await page.getByRole('button', { name: 'Vào thi' }).click();
  await dialog.getByRole('button', { name: 'Bắt đầu thi' }).click();
  await page.waitForURL(/\/bat-dau-thi\/\d+\/\d+\/[A-Za-z0-9_-]{16,}$/);
});

test('starting while an exam is in progress shows the Continue message and opens that exam', async ({ page, context, request, baseURL }) => {
  const family = await registerFamily(request, 'Phạm Gia Hân');
  const exam = await startExamByApi(request, family);
  await logIn(context, baseURL!, family);

  await page.goto('/du-thi');
  const row = page.getByRole('row').filter({ hasText: 'Phạm Gia Hân' });
  await expect(row.getByText('Đang thi')).toBeVisible();
  await expect(row.getByRole('link', { name: 'Tiếp tục thi' })).toHaveAttribute('href', `/bat-dau-thi/${exam.bookId}/${family.childId}/${exam.slug}`);
  await page.getByLabel('Thí sinh').selectOption({ index: 1 });
  await expect(page.getByLabel('Sách thi').locator('option')).toHaveCount(4);
  await page.getByLabel('Sách thi').selectOption({ index: 2 });
  await page.getByRole('button', { name: 'Vào thi' }).click();
  await expect(page.getByText('Thí sinh đang có một bài thi chưa hoàn thành.', { exact: false })).toBeVisible();
  await expect(page.getByText(/Đang chuyển đến bài thi sau \d giây/)).toBeVisible();
  await page.waitForURL(`**/bat-dau-thi/${exam.bookId}/${family.childId}/${exam.slug}`);
  await expect(page.locator('.exam-question-number').first()).toHaveText('Câu 1');
});

test('the join page asks a visitor to register or log in', async ({ page }) => {
  await page.goto('/du-thi');
  await expect(page.getByText('Vui lòng đăng ký tài khoản để vào thi. Nếu đã có tài khoản thì ấn Đăng nhập nhé!')).toBeVisible();
  await page.waitForURL('**/dang-nhap');
});

test('an exam address with missing parameters shows a message and goes to 404', async ({ page, context, request, baseURL }) => {
  const family = await registerFamily(request, 'Vũ An Nhiên');
  await logIn(context, baseURL!, family);
  await page.goto('/bat-dau-thi/1');
  await expect(page.getByText('Không tìm thấy bài thi.')).toBeVisible();
  await page.waitForURL('**/404');
  await expect(page.getByRole('heading', { name: 'Trang không tồn tại' })).toBeVisible();
});

test('a malformed exam link opened without a session says only that the exam is not found, then shows the 404 page', async ({ page }) => {
  await page.goto('/bat-dau-thi/12/abc');
  await expect(page.getByText('Không tìm thấy bài thi.')).toBeVisible();
  await expect(page.getByText('Vui lòng đăng nhập.')).toHaveCount(0);
  await page.waitForURL('**/404');
  await expect(page.getByRole('heading', { name: 'Trang không tồn tại' })).toBeVisible();
  await expect(page.getByText('Vui lòng đăng nhập.')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Về trang chủ' })).toBeVisible();
  await expectAccessible(page, '404 after a malformed exam link');
});
