// Issue 42.3: two children with the same score and the same time, submitted in the same second
// with the same prediction, are a tie, whatever milliseconds apart the server received them; at
// the top of the ranking it crosses the Giải Đặc biệt / Giải Nhất boundary, so the organiser sees
// it in the tie list and decides it. The two exams are started in the same second (the test's
// clock is the server's: one machine), answered right through the API (the keys read as the
// organiser) and left to run out, so that both are finalised at their deadlines: the same length,
// the same second. Computing results cannot be undone, so the spec has a server of its own.
import type { APIRequestContext } from '@playwright/test';
import { DEMO_ORGANISER, expect, expectAccessible, ok, registerFamily, storeSession, test } from './fixtures';
import { startOwnServer } from './servers';

let server: Awaited<ReturnType<typeof startOwnServer>> | undefined;
const DAY = 86_400_000;

test.beforeAll(async () => {
  server = await startOwnServer(3, 'same-second');
});
test.afterAll(async () => {
  await server?.stop();
});

/** Waits until the test's clock (the server's) is early in a second, so that two requests sent now are received in it. */
async function earlyInASecond() {
  while (Date.now() % 1000 > 200) await new Promise((resolve) => setTimeout(resolve, 10));
}

test('two children submitted in the same second, a few milliseconds apart, are a tie the organiser decides', async ({ page, playwright }) => {
  test.setTimeout(240_000);
  const request: APIRequestContext = await playwright.request.newContext({ baseURL: server!.url });
  const login = await ok(await request.post('/api/login', { data: DEMO_ORGANISER }));
  const organiser = { authorization: `Bearer ${login.access_token}` };
  // A one-minute exam (the contest's own setting), so that the exams run out soon.
  await ok(await request.put('/api/admin/contest', { headers: organiser, data: { exam_duration_seconds: 60 } }));

  const names = ['Nguyễn Song Anh', 'Nguyễn Song Em'];
  const families: Awaited<ReturnType<typeof registerFamily>>[] = [];
  for (const name of names) families.push(await registerFamily(request, name, [server!.dataDir]));
  const bookOf = async (family: (typeof families)[number]) => (await ok(await request.get(`/api/children/${family.childId}/books`, { headers: family.headers }))).data[0].id as number;
  const book = await bookOf(families[0]!);
  expect(await bookOf(families[1]!)).toBe(book);
  const bank = await ok(await request.get(`/api/admin/books/${book}/questions?per_page=200`, { headers: organiser }));
  const key = new Map<number, number>((bank.data.items as { id: number; answers: { id: number; is_correct: boolean }[] }[]).map((q) => [q.id, q.answers.find((a) => a.is_correct)!.id]));

  await earlyInASecond();
  const started = await Promise.all(families.map(async (family) => ok(await request.post('/api/start-exam', { headers: family.headers, data: { book_id: book, child_id: family.childId } }))));
  // The same second, some milliseconds apart.
  const second = (iso: string) => Math.floor(new Date(iso).getTime() / 1000);
  expect(second(started[0].start_time)).toBe(second(started[1].start_time));
  for (const [index, family] of families.entries()) {
    const exam = started[index];
    const taking = await ok(await request.get(`/api/examing?book_id=${book}&child_id=${family.childId}&slug_exam=${exam.slug}`, { headers: family.headers }));
    const answers = (taking.data.data_questions as { id: number }[]).map((q) => ({ question_id: q.id, answer_id: key.get(q.id)! }));
    await ok(await request.post('/api/store-answers-exam', { headers: family.headers, data: { exam_id: exam.exam_id, slug: exam.slug, answers, prediction: 7, seq: 1 } }));
  }
  // Both run out and are finalised at their deadlines (the server's sweep, every 5 s).
  await expect
    .poll(async () => Promise.all(families.map(async (family, index) => (await request.get(`/api/exam-result?slug=${started[index].slug}`, { headers: family.headers })).status())), {
      timeout: 150_000,
      intervals: [2000],
    })
    .toEqual([200, 200]);

  // The window closes; the organiser computes the results and sees the tie.
  const now = Date.now();
  const at = (ms: number) => new Date(now + ms).toISOString();
  await ok(
    await request.put('/api/admin/contest', {
      headers: organiser,
      data: { reading_starts_at: at(-30 * DAY), reading_ends_at: at(-3 * DAY), exam_starts_at: at(-2 * DAY), exam_ends_at: at(-1000), results_at: at(DAY), ceremony_starts_at: at(2 * DAY), ceremony_ends_at: at(5 * DAY) },
    }),
  );
  await storeSession(page.context(), server!.url, { token: login.access_token, user: login.user });
  await page.goto(`${server!.url}/quan-tri/ket-qua`);
  await page.getByRole('button', { name: 'Tính kết quả' }).click();
  await expect(page.getByText(/^Đã tính xong lúc/)).toBeVisible({ timeout: 30_000 });
  const tie = page.getByRole('region', { name: 'Giải cá nhân, hạng 1' });
  await expect(tie).toContainText('Giải cá nhân: hạng 1, 2 bên');
  const members = tie.getByRole('table', { name: 'Các thí sinh, lớp hoặc trường đồng hạng' });
  for (const name of names) await expect(members.getByRole('row').filter({ hasText: name })).toContainText('100');
  await expect(page.getByRole('list', { name: 'Chưa công bố được vì' })).toContainText('nhóm đồng hạng vượt số giải');
  await expectAccessible(page, 'quan-tri/ket-qua, đồng hạng cùng một giây');

  // The organiser decides it (both take the higher prize); the next computation applies it.
  await tie.getByRole('button', { name: 'Quyết định' }).click();
  const dialog = page.getByRole('dialog', { name: 'Quyết định đồng hạng: Giải cá nhân, hạng 1' });
  await dialog.getByRole('radio', { name: /^Tất cả cùng nhận/ }).check();
  await dialog.getByLabel('Lý do (ghi vào nhật ký thao tác)').fill('Hai bạn nộp bài trong cùng một giây: cùng nhận giải');
  await dialog.getByRole('button', { name: 'Ghi quyết định' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Tính lại kết quả' }).click();
  await expect(tie.getByText('Đã áp dụng', { exact: false })).toBeVisible({ timeout: 30_000 });
  await request.dispose();
});
