// The practice round ("Thi thử", issue 14) on a phone: from /du-thi, a child takes a practice
// round on the exam screen, submits, sees which answers were right, and the real attempts are
// untouched.
import { DEMO_ORGANISER, expect, expectAccessible, logInAs, phoneViewport, test } from './fixtures';
import { chooseAnswer, logIn, navigatorItem, registerFamily, startPracticeByApi } from './exam-fixtures';

test.use({ viewport: phoneViewport });

test('a child takes a practice round from /du-thi to the end, sees which answers were right, and keeps every attempt', async ({ page, context, request, baseURL }) => {
  const family = await registerFamily(request, 'Phạm Thu Hà');
  await logIn(context, baseURL!, family);
  const headers = { authorization: `Bearer ${family.token}` };

  await page.goto('/du-thi');
  const contestantOption = page.getByLabel('Thí sinh').locator('option', { hasText: family.childName });
  await expect(contestantOption).toHaveText(`${family.childName} (còn 3 lượt thi)`);
  const offer = page.locator('section.practice-offer');
  await expect(offer.getByText('Làm quen với cách thi trước khi thi thật')).toBeVisible();
  await expectAccessible(page, '/du-thi with the practice offer');
  await offer.getByRole('button', { name: `Thi thử: ${family.childName}` }).click();

  // The exam screen, labelled as practice: 5 questions and the prediction, 6 minutes.
  await page.waitForURL(/\/thi-thu\/[A-Za-z0-9_-]{16,}$/);
  const slug = page.url().split('/').pop()!;
  await expect(page.locator('.exam-practice-badge')).toHaveText('Thi thử');
  await expect(page.getByText('Bài thi thử: không tính vào số lượt thi')).toBeVisible();
  await expect(page.locator('.exam-time time')).toHaveText(/^00:0(5:\d\d|6:00)$/);
  await expect(page.getByRole('navigation', { name: 'Danh sách câu hỏi' }).getByRole('button')).toHaveCount(6);

  for (let n = 1; n <= 5; n += 1) {
    await expect(page.locator('.exam-question-number').first()).toHaveText(`Câu ${n}`);
    await chooseAnswer(page, n % 4);
    await expect(navigatorItem(page, n)).toHaveAccessibleName(`Câu ${n}, đã trả lời`);
    await page.getByRole('button', { name: 'Câu sau' }).click();
  }
  await page.getByLabel('Số bài thi em dự đoán').fill('2500');
  await expect(navigatorItem(page, 6)).toHaveAccessibleName('Câu 6, đã trả lời');
  await page.getByRole('button', { name: 'Nộp bài' }).click();
  const dialog = page.getByRole('dialog', { name: 'Nộp bài thi?' });
  await dialog.getByRole('button', { name: 'Nộp bài' }).click();
  await expect(page.getByText('Đã nộp bài thi thử.')).toBeVisible();

  // The practice result: labelled practice, the score in right answers, each question's right answer.
  await page.waitForURL(`**/thi-thu/ket-qua/${slug}`);
  const result = await (await request.get(`/api/practice/exams/${slug}/result`, { headers })).json();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/Thi thử\s*Kết quả thi thử/);
  await expect(page.getByText('Đây là bài thi thử: không tính vào số lượt thi')).toBeVisible();
  await expect(page.getByText(`Em trả lời đúng ${result.data.correct_count}/5 câu`)).toBeVisible();
  await expect(page.getByText('Đáp án đúng', { exact: true })).toHaveCount(5);
  await expect(page.getByText('Em chọn', { exact: true })).toHaveCount(5);
  await expect(page.getByText('Em trả lời đúng', { exact: true })).toHaveCount(result.data.correct_count);
  await expect(page.getByText('Dự đoán số bài thi của em: 2.500')).toBeVisible();
  await expectAccessible(page, 'practice result');

  // Again: a new round opens at once.
  await page.getByRole('button', { name: 'Thi thử lần nữa' }).click();
  await page.waitForURL((url) => /\/thi-thu\/[A-Za-z0-9_-]{16,}$/.test(url.pathname) && !url.pathname.endsWith(slug));
  await expect(page.locator('.exam-practice-badge')).toHaveText('Thi thử');

  // Back to /du-thi: the round in progress can be resumed, and no attempt was used.
  await page.goto('/du-thi');
  await expect(page.getByRole('link', { name: `Tiếp tục thi thử: ${family.childName}` })).toBeVisible();
  await expect(contestantOption).toHaveText(`${family.childName} (còn 3 lượt thi)`);
  await expect(page.getByText('Chưa có bài thi nào.')).toBeVisible();
  const profile = await (await request.get('/api/profile', { headers })).json();
  expect(profile.data.childrens[0].exams).toEqual([]);

  await page.goto(`/thi-thu/ket-qua/${slug}`);
  await page.getByRole('link', { name: 'Vào thi thật' }).click();
  await page.waitForURL('**/du-thi');
  await expect(page.getByRole('heading', { name: 'Vào thi', level: 1 })).toBeVisible();
});

test('a practice round opened in a second tab stops the first, which says so and may take the round back', async ({ page, context, request, baseURL }) => {
  const family = await registerFamily(request, 'Kiều Minh Anh');
  const started = await startPracticeByApi(request, family);
  await logIn(context, baseURL!, family);
  const roundUrl = `/thi-thu/${started.slug}`;
  const saved = (tab: typeof page) => tab.getByRole('status').filter({ hasText: 'Đã lưu bài làm' });

  await page.goto(roundUrl);
  await chooseAnswer(page, 0);
  await expect(saved(page)).toBeVisible();

  // The same round in a second tab: it writes from now on, with the first tab's answer.
  const second = await context.newPage();
  await second.goto(roundUrl);
  await expect(navigatorItem(second, 1)).toHaveAccessibleName('Câu 1, đã trả lời');

  // The first tab's next answer is refused and not saved.
  await navigatorItem(page, 2).click();
  await chooseAnswer(page, 1);
  const dialog = page.getByRole('alertdialog', { name: 'Bài thi đang được mở ở nơi khác' });
  await expect(dialog.getByText('1 câu trả lời trên màn hình này chưa được lưu.')).toBeVisible();
  await expectAccessible(page, 'practice round opened in another tab');

  // Back to the first tab: the server's answers (question 2 was never saved), saving again.
  await dialog.getByRole('button', { name: 'Tiếp tục ở đây' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.locator('.exam-practice-badge')).toHaveText('Thi thử');
  await expect(navigatorItem(page, 1)).toHaveAccessibleName('Câu 1, đã trả lời');
  await expect(navigatorItem(page, 2)).toHaveAccessibleName('Câu 2, chưa trả lời');
  await navigatorItem(page, 3).click();
  await chooseAnswer(page, 2);
  await expect(saved(page)).toBeVisible();

  // Now the second tab is the older one; leaving goes back to /du-thi.
  await second.bringToFront();
  await navigatorItem(second, 4).click();
  await chooseAnswer(second, 3);
  const secondDialog = second.getByRole('alertdialog', { name: 'Bài thi đang được mở ở nơi khác' });
  await expect(secondDialog.getByText('1 câu trả lời trên màn hình này chưa được lưu.')).toBeVisible();
  await secondDialog.getByRole('button', { name: 'Rời khỏi bài thi' }).click();
  await second.waitForURL('**/du-thi');
});

test.describe('in the back office', () => {
  test.use({ viewport: { width: 1280, height: 900 } });

  test('the organiser marks a new question as a practice question; the bank count leaves it out', async ({ page }) => {
    await logInAs(page, DEMO_ORGANISER);
    await page.goto('/quan-tri/sach');
    await page.getByRole('link', { name: 'Cây khế' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Cây khế' })).toBeVisible();
    await expect(page.getByText('Câu hỏi thi thử (không bao giờ có trong bài thi thật): 2.')).toBeVisible();

    await page.getByRole('button', { name: 'Thêm câu hỏi' }).click();
    const editor = page.getByRole('dialog', { name: 'Thêm câu hỏi' });
    await editor.getByLabel('Câu hỏi', { exact: true }).fill('Câu thi thử: cây khế có quả màu gì khi chín?');
    await editor.getByLabel('Đáp án A', { exact: true }).fill('Màu vàng');
    await editor.getByLabel('Đáp án B', { exact: true }).fill('Màu tím');
    await editor.getByRole('button', { name: 'Bỏ đáp án D' }).click();
    await editor.getByRole('button', { name: 'Bỏ đáp án C' }).click();
    await editor.getByLabel('Đúng: đáp án A').check();
    const practice = editor.getByLabel(/^Câu hỏi thi thử/);
    await expect(practice).not.toBeChecked();
    await practice.check();
    await expectAccessible(page, 'question editor with the practice box');
    await editor.getByRole('button', { name: 'Thêm câu hỏi' }).click();
    await expect(editor).toBeHidden();

    await expect(page.getByText('Câu hỏi thi thử (không bao giờ có trong bài thi thật): 3.')).toBeVisible();
    await page.getByLabel('Tìm câu hỏi hoặc đáp án').fill('Câu thi thử: cây khế');
    const table = page.getByRole('table', { name: /Câu hỏi của sách/ });
    await expect(table.getByRole('row')).toHaveCount(2);
    await expect(table.getByRole('row').nth(1)).toContainText('Thi thử');
    await page.getByRole('button', { name: 'Sửa câu 1' }).click();
    await expect(page.getByRole('dialog', { name: 'Sửa câu hỏi' }).getByLabel(/^Câu hỏi thi thử/)).toBeChecked();
    await page.getByRole('dialog', { name: 'Sửa câu hỏi' }).getByRole('button', { name: 'Huỷ' }).click();

    await page.getByRole('button', { name: 'Xoá câu 1' }).click();
    await page.getByRole('alertdialog', { name: 'Xoá câu hỏi?' }).getByRole('button', { name: 'Xoá', exact: true }).click();
    await expect(page.getByText('Câu hỏi thi thử (không bao giờ có trong bài thi thật): 2.')).toBeVisible();
  });
});
