// Issue 13, exam days: the organiser follows the exam window on /quan-tri/theo-doi and sees an
// exam in progress counted; a family whose child used the three attempts calls; the organiser
// finds the child on /quan-tri/ho-tro by the parent's phone, gives one extra attempt with a reason
// (refused without one), extends the extra attempt once it is started, and the family sees four
// attempts in /du-thi and its report, the extra one marked with its extension. On the server
// whose exams last 25 seconds, an exam extended while the child answers goes on past its old
// deadline without a reload.
import type { APIRequestContext } from '@playwright/test';
import { DEMO_ORGANISER, expect, expectAccessible, expectLoaded, logInAs, ok, storeSession, test } from './fixtures';
import { chooseAnswer, registerFamily, startAndOpenExam, startExamByApi, type Family } from './exam-fixtures';


/** Starts an exam and submits it with every question answered (the first answer each time). */
async function takeWholeExam(request: APIRequestContext, family: Family) {
  const headers = { authorization: `Bearer ${family.token}` };
  const exam = await startExamByApi(request, family);
  const loaded = await ok(await request.get(`/api/examing?book_id=${exam.bookId}&child_id=${family.childId}&slug_exam=${exam.slug}`, { headers }));
  const answers = loaded.data.data_questions.map((q: { id: number; answers: { id: number }[] }) => ({ question_id: q.id, answer_id: q.answers[0]!.id }));
  await ok(await request.post('/api/submit-exam', { headers, data: { exam_id: exam.examId, slug: exam.slug, answers, prediction: 1000 } }));
}

test('the organiser follows an exam live, gives an extra attempt (withdraws it and gives it again) and an extension, and the family sees them', async ({ page, browser, request, baseURL }) => {
  test.setTimeout(180_000);
  const family = await registerFamily(request, 'Phạm Gặp Sự Cố');
  await startExamByApi(request, family);

  // The dashboard counts the exam in progress (its figures are at most a few seconds old).
  await logInAs(page, DEMO_ORGANISER);
  await page.goto('/quan-tri/theo-doi');
  await expectLoaded(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Theo dõi kỳ thi' })).toBeVisible();
  const live = page.getByTestId('exam-days-totals').locator('div', { hasText: 'Đang thi' }).locator('dd');
  await expect(live).toHaveText(/^[1-9][\d.]*$/, { timeout: 20_000 });
  await expect(page.getByRole('img', { name: /lượt bắt đầu thi/ })).toBeVisible();
  await expect(page.getByText('Tình trạng lưu bài tự động')).toBeVisible();
  await expectAccessible(page, 'exam-day dashboard');

  // The child's three attempts are used up (the one in progress submitted, two more taken).
  const headers = { authorization: `Bearer ${family.token}` };
  const profile = await ok(await request.get('/api/profile', { headers }));
  const running = profile.data.childrens[0].exams[0];
  const runningExam = await ok(await request.get(`/api/examing?book_id=${running.book_id}&child_id=${family.childId}&slug_exam=${running.slug}`, { headers }));
  const answers = runningExam.data.data_questions.map((q: { id: number; answers: { id: number }[] }) => ({ question_id: q.id, answer_id: q.answers[0]!.id }));
  await ok(await request.post('/api/submit-exam', { headers, data: { exam_id: running.id, slug: running.slug, answers, prediction: 1000 } }));
  await takeWholeExam(request, family);
  await takeWholeExam(request, family);

  // The family calls: the organiser finds the child by name within its district and school (the
  // schools offered are the chosen district's), then by part of the parent's phone.
  await page.goto('/quan-tri/ho-tro');
  await expect(page.getByRole('heading', { level: 1, name: 'Hỗ trợ thí sinh' })).toBeVisible();
  const district = (await ok(await request.get('/api/districts'))).data[0];
  const school = (await ok(await request.get(`/api/schools?district_id=${district.id}`))).data[0];
  await expect(page.getByLabel('Trường', { exact: true })).toBeDisabled();
  await page.getByLabel('Tên thí sinh').fill('Phạm Gặp Sự Cố');
  await page.getByLabel('Quận/huyện', { exact: true }).selectOption({ label: district.name });
  await page.getByLabel('Trường', { exact: true }).selectOption({ label: school.name });
  await page.getByRole('button', { name: 'Tìm', exact: true }).click();
  await expect(page.getByRole('article', { name: 'Phạm Gặp Sự Cố' })).toBeVisible();
  await page.getByLabel('Tên thí sinh').fill('');
  await page.getByLabel('Số điện thoại phụ huynh').fill(family.phone.slice(-7));
  await page.getByRole('button', { name: 'Tìm', exact: true }).click();
  const card = page.getByRole('article', { name: 'Phạm Gặp Sự Cố' });
  await expect(card.getByTestId('incident-attempts')).toContainText('Được thi 3 lượt, còn 0 lượt.');
  await expect(card.getByRole('table', { name: /Các lượt thi/ }).getByRole('row')).toHaveCount(4);
  await expectAccessible(page, 'incident desk');

  // A reason is required; with one, the extra attempt is given.
  await card.getByRole('button', { name: 'Thêm một lượt thi' }).click();
  const dialog = page.getByRole('dialog', { name: /Thêm một lượt thi cho Phạm Gặp Sự Cố/ });
  await dialog.getByRole('button', { name: 'Thêm lượt thi' }).click();
  await expect(dialog.getByText('Vui lòng nhập lý do (được ghi vào nhật ký).')).toBeVisible();
  await expectAccessible(page, 'extra attempt dialog with an error');
  await dialog.getByLabel(/Lý do/).fill('Điện thoại của phụ huynh hết pin giữa lượt thi thứ 3');
  await dialog.getByRole('button', { name: 'Thêm lượt thi' }).click();
  await expect(dialog).toBeHidden();
  await expect(card.getByTestId('incident-attempts')).toContainText('Được thi 4 lượt, còn 1 lượt.');
  await expect(card.getByRole('button', { name: 'Thêm một lượt thi' })).toHaveCount(0);

  // Unused, it can be withdrawn (with a reason) and then given again.
  await card.getByRole('button', { name: 'Rút lượt thi thêm' }).click();
  const withdrawal = page.getByRole('dialog', { name: 'Rút lượt thi thêm của Phạm Gặp Sự Cố' });
  await withdrawal.getByLabel(/Lý do/).fill('Thử rút rồi thêm lại');
  await withdrawal.getByRole('button', { name: 'Rút lượt thi' }).click();
  await expect(withdrawal).toBeHidden();
  await expect(card.getByTestId('incident-attempts')).toHaveText('Được thi 3 lượt, còn 0 lượt.');
  await card.getByRole('button', { name: 'Thêm một lượt thi' }).click();
  await dialog.getByLabel(/Lý do/).fill('Điện thoại của phụ huynh hết pin giữa lượt thi thứ 3');
  await dialog.getByRole('button', { name: 'Thêm lượt thi' }).click();
  await expect(dialog).toBeHidden();
  await expect(card.getByTestId('incident-attempts')).toContainText('Được thi 4 lượt, còn 1 lượt.');

  // The family sees the fourth attempt on /du-thi and in its report.
  const familyContext = await browser.newContext();
  await storeSession(familyContext, baseURL!, family);
  const familyPage = await familyContext.newPage();
  await familyPage.goto('/du-thi');
  await expect(familyPage.getByLabel('Thí sinh').locator('option', { hasText: 'Phạm Gặp Sự Cố' })).toHaveText('Phạm Gặp Sự Cố (còn 1 lượt thi)');
  await familyPage.goto('/bao-cao');
  await expect(familyPage.getByTestId('attempts-note')).toHaveText('Số lần còn được tham gia thi: 1');

  // The child starts the extra attempt; the organiser extends it by 5 minutes.
  await startExamByApi(request, family);
  await page.getByRole('button', { name: 'Tìm', exact: true }).click();
  await card.getByRole('button', { name: 'Gia hạn lượt thi 4' }).click();
  const extend = page.getByRole('dialog', { name: /Gia hạn lượt thi 4/ });
  await extend.getByLabel('Số phút gia hạn').fill('25');
  await extend.getByLabel(/Lý do/).fill('Mạng của trường bị ngắt');
  await extend.getByRole('button', { name: 'Gia hạn' }).click();
  await expect(extend.getByText('Mỗi lượt thi được gia hạn tổng cộng tối đa 20 phút: còn gia hạn được 20 phút.')).toBeVisible();
  await extend.getByLabel('Số phút gia hạn').fill('5');
  await extend.getByRole('button', { name: 'Gia hạn' }).click();
  await expect(extend).toBeHidden();
  await expect(card.getByRole('row', { name: /^4 / })).toContainText('Lượt thi thêm, Gia hạn 5 phút');

  await familyPage.goto('/du-thi');
  await expect(familyPage.getByRole('cell', { name: /lần 4 \(lượt thi thêm, gia hạn 5 phút\)/ })).toBeVisible();
  await expect(familyPage.getByLabel('Thí sinh').locator('option', { hasText: 'Phạm Gặp Sự Cố' })).toHaveText('Phạm Gặp Sự Cố (hết lượt thi)');
  await expectAccessible(familyPage, '/du-thi with an extra attempt');
  await familyContext.close();
});

test.describe('on a contest with a 25-second exam', () => {
  test.use({ server: 'short-exam' });

  test('an attempt extended while the child answers goes on past its old deadline', async ({ page, request, baseURL }) => {
    const { exam } = await startAndOpenExam(page, request, baseURL!, 'Đỗ Được Gia Hạn');
    await chooseAnswer(page, 0);

    // The organiser extends it by one minute (the exam screen re-reads its deadline only every minute).
    const login = await ok(await request.post('/api/login', { data: DEMO_ORGANISER }));
    const headers = { authorization: `Bearer ${login.access_token}` };
    await ok(await request.post(`/api/admin/exam-days/exams/${exam.examId}/extend`, { headers, data: { minutes: 1, reason: 'Mạng của trường bị ngắt' } }));

    // The countdown (25 s at most) reaches the old deadline; the screen asks the server before it
    // says the time is over and shows the new deadline: more than 40 s left, which a 25-second
    // exam never shows otherwise. Past its old deadline the child is still answering.
    await expect(page.locator('.exam-time time')).toHaveText(/^00:00:[45]\d$/, { timeout: 45_000 });
    await expect(page.getByRole('alert').filter({ hasText: 'Hết thời gian làm bài' })).toHaveCount(0);
    await expect(page.locator('.exam-answer input').first()).toBeEnabled();
    await page.getByRole('button', { name: 'Câu sau' }).click();
    await chooseAnswer(page, 1);
  });
});
