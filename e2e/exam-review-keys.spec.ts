// Issue 40: the season holds the correct answers back until the exam window closes. The organiser
// chooses it in Cài đặt cuộc thi; a child's result review then shows the points, the time and the
// answers chosen, says when the correct answers will show, and marks no answer right or wrong.
// The setting is put back at the end (the worker's demo server is shared by the specs it runs).
import { formatDateTime } from '../src/shared/format';
import { examMessages } from '../src/shared/messages';
import { DEMO_ORGANISER, expect, expectAccessible, logInAs, ok, phoneViewport, test } from './fixtures';
import { logIn, registerFamily, saveByApi, startExamByApi } from './exam-fixtures';

test('with the keys held back, the result review shows the answers chosen and when the correct ones will show', async ({ page, context, request, baseURL, browser }) => {
  const organiser = await ok(await request.post('/api/login', { data: DEMO_ORGANISER }));
  const headers = { authorization: `Bearer ${organiser.access_token}` };
  const { data: settings } = await ok(await request.get('/api/admin/contest', { headers }));
  try {
    // The organiser chooses it on the settings page.
    const admin = await browser.newPage({ baseURL, locale: 'vi-VN', timezoneId: 'Asia/Ho_Chi_Minh' });
    await logInAs(admin, DEMO_ORGANISER);
    await admin.goto('/quan-tri/cuoc-thi');
    const choices = admin.getByRole('group', { name: 'Hiển thị đáp án đúng cho gia đình' });
    await expect(choices.getByRole('radio', { name: /Ngay sau khi nộp bài/ })).toBeChecked();
    await choices.getByRole('radio', { name: /Sau khi đóng thi/ }).check();
    await expectAccessible(admin, 'quan-tri/cuoc-thi, hiển thị đáp án đúng');
    await admin.getByRole('button', { name: 'Lưu cài đặt cuộc thi' }).click();
    await expect(admin.getByText('Đã lưu cài đặt cuộc thi.')).toBeVisible();
    await admin.close();
    expect((await ok(await request.get('/api/admin/contest', { headers }))).data.review_correct_answers).toBe('after_exam_window');

    // A child finishes an exam: 20 answers saved, then submitted.
    const family = await registerFamily(request, 'Lương Bảo Châu');
    const exam = await startExamByApi(request, family);
    const questions = await saveByApi(request, family, exam, (question) => question.answers[0]!.id, 12);
    await ok(
      await request.post('/api/submit-exam', {
        headers: { authorization: `Bearer ${family.token}` },
        data: { exam_id: exam.examId, slug: exam.slug, answers: questions.map((q) => ({ question_id: q.id, answer_id: q.answers[0]!.id })), prediction: 12, seq: 2 },
      }),
    );

    await page.setViewportSize(phoneViewport);
    await logIn(context, baseURL!, family);
    await page.goto(`/ket-qua-thi/${exam.slug}`);
    await expect(page.getByRole('heading', { level: 2, name: 'Câu trả lời của em' })).toBeVisible();
    await expect(page.getByRole('note')).toHaveText(examMessages.correctAnswersLater(formatDateTime(settings.exam_ends_at)));
    await expect(page.getByText('Em chọn')).toHaveCount(20);
    await expect(page.getByText('Đáp án đúng', { exact: true })).toHaveCount(0);
    await expect(page.getByText(/^Trả lời (đúng|sai)$/)).toHaveCount(0);
    await expectAccessible(page, 'ket-qua-thi, đáp án đúng chưa hiển thị');
  } finally {
    await ok(await request.put('/api/admin/contest', { headers, data: { review_correct_answers: settings.review_correct_answers } }));
  }
});
