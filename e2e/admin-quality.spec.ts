// The organiser opens a book's question quality from its page: when its figures were counted, and
// counting them again; every question listed with its figures and flags (the demo has no finished exam yet: each is "too few to judge", with the reason),
// the table sorts by a column, and the page passes the accessibility scan. The flags on real exams
// (a planted wrong key) are checked by the API test (features/admin/quality/quality.api.test.ts).
import { DEMO_ORGANISER, expect, expectAccessible, logInAs, test } from './fixtures';

test('a book\'s question quality: the link from the book, the flags with their reasons, sorting', async ({ page }) => {
  await logInAs(page, DEMO_ORGANISER);
  const organiser = await page.request.post('/api/login', { data: DEMO_ORGANISER });
  const token = (await organiser.json()).access_token as string;
  const books = (await (await page.request.get('/api/admin/books', { headers: { authorization: `Bearer ${token}` } })).json()).data.items as { id: number; name: string }[];
  const book = books[0]!;

  await page.goto(`/quan-tri/sach/${book.id}`);
  await expect(page.getByRole('heading', { level: 1, name: book.name })).toBeVisible();
  await page.getByRole('link', { name: /Chất lượng câu hỏi/ }).click();
  await expect(page).toHaveURL(new RegExp(`/quan-tri/sach/${book.id}/chat-luong$`));
  await expect(page.getByRole('heading', { level: 1, name: `Chất lượng câu hỏi: ${book.name}` })).toBeVisible();

  // The figures say when they were counted; "Tính lại" counts again.
  await expect(page.getByTestId('quality-computed')).toHaveText(/^Số liệu tính lúc \d\d:\d\d \d\d\/\d\d\/\d{4} trên [\d.]+ bài thi đã nộp\.$/);
  await page.getByRole('button', { name: 'Tính lại' }).click();
  await expect(page.getByRole('button', { name: 'Tính lại' })).toBeEnabled();
  await expect(page.getByTestId('quality-computed')).toBeVisible();

  const table = page.getByRole('table', { name: 'Chất lượng từng câu hỏi, câu có cảnh báo trước' });
  const rows = table.locator('tbody tr');
  const count = await rows.count();
  expect(count).toBeGreaterThan(0);
  await expect(page.getByTestId('quality-summary')).toContainText(`${count} / ${count} câu có cảnh báo`);
  await expect(rows.first()).toContainText('Chưa đủ bài thi. Mới có 0 bài thi rút câu này, cần ít nhất 30 bài để đánh giá.');

  // Sorting by the question's number, then the other way.
  await table.getByRole('button', { name: /^Câu/ }).click();
  await expect(table.getByRole('columnheader', { name: /^Câu/ }).first()).toHaveAttribute('aria-sort', 'ascending');
  await expect(rows.first().locator('td').first()).toHaveText('1');
  await table.getByRole('button', { name: /^Câu/ }).click();
  await expect(rows.first().locator('td').first()).toHaveText(String(count));
  await expect(page.getByRole('button', { name: 'Xuất bảng này (.xlsx)' })).toBeVisible();
  await expectAccessible(page, 'question quality');
});
