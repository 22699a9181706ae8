// The organiser regrades a question after a wrong key: a child's exam is submitted with a wrong
// answer to one question; the organiser finds that question in the book's bank, chooses "accept
// both answers" with the child's answer, runs the dry run (the child's exam gains 5 points),
// confirms, and the child's result review shows the new points and the question counted right.
// The child is in Nhóm 2, whose exams no other spec takes, and the last book of the group, so
// that the regrade (which keeps the bank's key) touches no other spec's exam.
import type { APIRequestContext } from '@playwright/test';
import { DEMO_ORGANISER, expect, expectAccessible, logInAs, ok, storeSession, test } from './fixtures';
import { registerFamily } from './exam-fixtures';


const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A fresh parent with a grade-3/4 contestant who submits an exam of the group's last book:
 * the first question answered wrong on purpose (the key read from the organiser's view of the
 * bank), every other one with its first answer.
 */
async function familyWithExam(request: APIRequestContext) {
  const { token, user, childId } = await registerFamily(request, 'Hoàng Minh Châu', 1);
  const headers = { authorization: `Bearer ${token}` };

  const books = (await ok(await request.get(`/api/children/${childId}/books`, { headers }))).data as { id: number; name: string }[];
  const book = books[books.length - 1]!;
  const started = await ok(await request.post('/api/start-exam', { headers, data: { book_id: book.id, child_id: childId } }));
  const taking = await ok(await request.get(`/api/examing?book_id=${book.id}&child_id=${childId}&slug_exam=${started.slug}`, { headers }));
  const organiser = await ok(await request.post('/api/login', { data: DEMO_ORGANISER }));
  const bank = await ok(await request.get(`/api/admin/books/${book.id}/questions?per_page=200`, { headers: { authorization: `Bearer ${organiser.access_token}` } }));
  const key = new Map<number, number>(
    (bank.data.items as { id: number; answers: { id: number; is_correct: boolean }[] }[]).map((q) => [q.id, q.answers.find((a) => a.is_correct)!.id]),
  );
  const answers = taking.data.data_questions.map((q: { id: number; answers: { id: number }[] }, index: number) => ({
    question_id: q.id,
    answer_id: index === 0 ? q.answers.find((a) => a.id !== key.get(q.id))!.id : q.answers[0]!.id,
  }));
  await ok(await request.post('/api/submit-exam', { headers, data: { exam_id: started.exam_id, slug: started.slug, answers, prediction: 5000, seq: 1 } }));
  const result = await ok(await request.get(`/api/exam-result?slug=${started.slug}`, { headers }));
  return { token, user, slug: started.slug as string, book, result: result.data };
}

test('the organiser regrades a question with a dry run, confirms, and the child sees the changed points', async ({ page, browser, request, baseURL }) => {
  const family = await familyWithExam(request);
  const questions = family.result.data_questions as { id: number; value: string; answers: { id: number; value: string }[] }[];
  const results = family.result.data_result as { question_id: number; answer_id_user: number; answer_id_correct: number }[];
  const wrong = results.find((r) => r.answer_id_user !== r.answer_id_correct);
  expect(wrong, 'the first question was answered wrong on purpose').toBeDefined();
  const question = questions.find((q) => q.id === wrong!.question_id)!;
  const chosen = question.answers.find((a) => a.id === wrong!.answer_id_user)!;
  const pointsBefore = family.result.points as number;

  // The organiser finds the question in the book's bank and opens "Chấm lại".
  await logInAs(page, DEMO_ORGANISER);
  await page.goto(`/quan-tri/sach/${family.book.id}`);
  await expect(page.getByRole('heading', { level: 1, name: family.book.name })).toBeVisible();
  await page.getByLabel('Tìm câu hỏi hoặc đáp án').fill(question.value);
  const table = page.getByRole('table', { name: /Câu hỏi của sách/ });
  await expect(table.getByRole('row')).toHaveCount(2);
  await table.getByRole('button', { name: 'Chấm lại câu 1' }).click();
  const dialog = page.getByRole('dialog', { name: 'Chấm lại câu 1' });
  await expect(dialog).toContainText(question.value);

  // Nothing chosen: the form says what is missing.
  await dialog.getByRole('button', { name: 'Chạy thử' }).click();
  await expect(dialog.getByText('Vui lòng chọn cách chấm lại.')).toBeVisible();
  await expect(dialog.getByText('Vui lòng nhập lý do chấm lại.')).toBeVisible();

  await dialog.getByRole('radio', { name: /Chấp nhận cả hai đáp án/ }).check();
  await dialog.getByRole('radio', { name: new RegExp(`^[A-D]\\. ${escape(chosen.value)}`) }).check();
  await dialog.getByLabel('Lý do (ghi vào nhật ký thao tác)').fill('Câu hỏi có hai cách hiểu, cả hai đáp án đều hợp lý.');
  await dialog.getByRole('button', { name: 'Chạy thử' }).click();

  // The dry run: the child's exam gains 5 points; nothing stored yet.
  const preview = dialog.getByRole('region', { name: 'Kết quả chạy thử (chưa lưu gì)' });
  await expect(preview).toContainText('1 bài tăng điểm');
  await expect(preview).toContainText('0 bài giảm điểm');
  const row = preview.getByRole('row').filter({ hasText: 'Hoàng Minh Châu' });
  await expect(row).toContainText(`${pointsBefore}${pointsBefore + 5}+5`);
  await expectAccessible(page, 'regrade dry run');
  expect((await ok(await request.get(`/api/exam-result?slug=${family.slug}`, { headers: { authorization: `Bearer ${family.token}` } }))).data.points).toBe(pointsBefore);

  await preview.getByRole('button', { name: 'Xác nhận chấm lại' }).click();
  await expect(page.getByText('Đã chấm lại câu hỏi')).toBeVisible();
  await expect(dialog).toBeHidden();

  // The history lists it.
  await page.goto('/quan-tri/cham-lai');
  await expect(page.getByRole('heading', { level: 1, name: 'Chấm lại câu hỏi' })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: question.value })).toContainText('Chấp nhận cả hai đáp án');
  await expectAccessible(page, 'regrade history');

  // The child's result review: the new points, the question counted right, and why.
  const familyContext = await browser.newContext();
  await storeSession(familyContext, baseURL!, family);
  const child = await familyContext.newPage();
  await child.goto(`/ket-qua-thi/${family.slug}`);
  await expect(child.getByRole('heading', { level: 1, name: 'Kết quả thi' })).toBeVisible();
  await expect(child.locator('.result-summary')).toContainText(`${pointsBefore + 5}/100`);
  const card = child.getByRole('listitem').filter({ has: child.getByRole('heading', { name: new RegExp(escape(question.value)) }) });
  await expect(card).toContainText('Câu hỏi đã được chấm lại: cả hai đáp án đều được tính đúng.');
  await expect(card).toContainText('Trả lời đúng');
  await expectAccessible(child, 'result review after a regrade');
  await familyContext.close();
});
