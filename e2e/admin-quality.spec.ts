// The organiser opens a book's question quality from its page: when its figures were counted, and
// counting them again; every question listed with its figures and flags, the table sorts by a
// column, and the page passes the accessibility scan. The demo's book has only the exam a family
// finishes here, far fewer than a question needs (issue 42: "54 / 54 câu có cảnh báo", "96 % / 96 %"
// on 4 exams): the page says so once, at the top, counts no question as a warning for it, and shows
// no percentage computed from so few ("—", with what it means for a screen reader). The flags on
// real exams (a planted wrong key) are checked by the API test (features/admin/quality/quality.api.test.ts).
import { DEMO_ORGANISER, expect, expectAccessible, logInAs, ok, registerFamily, test } from './fixtures';

test('a book\'s question quality: the link from the book, too few exams said once, no share of one exam, sorting', async ({ page, request }) => {
  // A family finishes an exam on a book: its 20 questions have one exam each.
  const family = await registerFamily(request, 'Hồ Ngọc Diệp');
  const { headers, childId } = family;
  const book = (await ok(await request.get(`/api/children/${childId}/books`, { headers }))).data[0] as { id: number; name: string };
  const started = await ok(await request.post('/api/start-exam', { headers, data: { book_id: book.id, child_id: childId } }));
  const taking = await ok(await request.get(`/api/examing?book_id=${started.book_id}&child_id=${childId}&slug_exam=${started.slug}`, { headers }));
  const answers = taking.data.data_questions.map((q: { id: number; answers: { id: number }[] }) => ({ question_id: q.id, answer_id: q.answers[0]!.id }));
  await ok(await request.post('/api/submit-exam', { headers, data: { exam_id: started.exam_id, slug: started.slug, answers, prediction: 5, seq: 1 } }));

  await logInAs(page, DEMO_ORGANISER);
  await page.goto(`/quan-tri/sach/${book.id}`);
  await expect(page.getByRole('heading', { level: 1, name: book.name })).toBeVisible();
  await page.getByRole('link', { name: /Chất lượng câu hỏi/ }).click();
  await expect(page).toHaveURL(new RegExp(`/quan-tri/sach/${book.id}/chat-luong$`));
  await expect(page.getByRole('heading', { level: 1, name: `Chất lượng câu hỏi: ${book.name}` })).toBeVisible();

  // The figures say when they were counted; "Tính lại" counts again (the exam just finished included).
  await page.getByRole('button', { name: 'Tính lại' }).click();
  await expect(page.getByRole('button', { name: 'Tính lại' })).toBeEnabled();
  await expect(page.getByTestId('quality-computed')).toHaveText(/^Số liệu tính lúc \d\d:\d\d \d\d\/\d\d\/\d{4} trên [\d.]+ bài thi đã nộp\.$/);

  const table = page.getByRole('table', { name: 'Chất lượng từng câu hỏi, câu có cảnh báo trước' });
  const rows = table.locator('tbody tr');
  const count = await rows.count();
  expect(count).toBeGreaterThan(0);
  // Said once, at the top: how many exams the figures need and how many there are.
  const note = page.getByRole('note').filter({ hasText: 'chỉ được tính khi có ít nhất 30 bài thi rút câu đó' });
  await expect(note).toContainText(new RegExp(`Sách mới có [\\d.]+ bài thi đã nộp: ${count} / ${count} câu chưa đủ \\(nhiều nhất \\d+ bài một câu\\)`));
  // Not a warning on every question.
  await expect(page.getByTestId('quality-summary')).toHaveText('Chưa câu nào đủ bài thi để đánh giá.');
  await expect(table.locator('.quality-flags')).toHaveCount(0);
  // A question the exam drew: its count, and no percentage of it ("—", explained to a screen reader).
  const drawn = rows.filter({ has: page.locator('td:nth-child(3)', { hasText: /^[1-9]/ }) }).first();
  await expect(drawn).toBeVisible();
  await expect(drawn).not.toContainText('%');
  await expect(drawn.locator('td').nth(2)).toHaveText(/^—\s*chưa đủ bài thi để tính \(\d+\/30 bài\)$/);
  await expect(drawn.locator('td').nth(2).locator('.visually-hidden')).toHaveText(/chưa đủ bài thi để tính/);
  await expect(table).not.toContainText('%');

  // Sorting by the question's number, then the other way.
  await table.getByRole('button', { name: /^Câu/ }).click();
  await expect(table.getByRole('columnheader', { name: /^Câu/ }).first()).toHaveAttribute('aria-sort', 'ascending');
  await expect(rows.first().locator('td').first()).toHaveText('1');
  await table.getByRole('button', { name: /^Câu/ }).click();
  await expect(rows.first().locator('td').first()).toHaveText(String(count));
  await expect(page.getByRole('button', { name: 'Xuất bảng này (.xlsx)' })).toBeVisible();
  await expectAccessible(page, 'question quality');
});
