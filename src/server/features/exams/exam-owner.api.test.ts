// One owner rule: exams.user_id (read by the save's SQL and every other exam query) can never
// disagree with contestants.user_id, because the database refuses every write that would part them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness';
import { createParent } from '../../test/factories';
import { startExam } from '../../test/exam-fixtures';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

describe('the owner of an exam', () => {
  it('is a contestant that never moves to another account (23001 restrict_violation)', async () => {
    const exam = await startExam(server);
    const other = await createParent(server);
    await expect(
      server.db.updateTable('contestants').set({ user_id: other.id }).where('id', '=', exam.childId).execute(),
    ).rejects.toMatchObject({ code: '23001', message: expect.stringContaining('contestants.user_id cannot change') });
  });

  it('cannot be set on the exam apart from its contestant (23503 exams_owner_fkey)', async () => {
    const exam = await startExam(server);
    const other = await createParent(server);
    // The app's types allow no update of exams.user_id; the database is what this test is about.
    await expect(server.db.updateTable('exams').set({ user_id: other.id } as never).where('id', '=', exam.examId).execute()).rejects.toMatchObject({
      code: '23503',
      constraint: 'exams_owner_fkey',
    });
    const started = await server.db.selectFrom('exams').selectAll().where('id', '=', exam.examId).executeTakeFirstOrThrow();
    const { id: _id, slug: _slug, ...copy } = started;
    await expect(
      server.db
        .insertInto('exams')
        .values({
          ...copy,
          slug: 'another-exam-slug-of-16+',
          attempt: 2,
          // Finished, so that the one-exam-in-progress index does not answer first.
          status: 1,
          submitted_at: copy.start_time,
          points: 0,
          correct_count: 0,
          duration_seconds: 0,
          user_id: other.id,
          questions: JSON.stringify(copy.questions),
          answers: JSON.stringify(copy.answers),
          answer_key: JSON.stringify(copy.answer_key),
        } as never)
        .execute(),
    ).rejects.toMatchObject({ code: '23503', constraint: 'exams_owner_fkey' });
  });

  it('is the same for the hot SQL and the other queries: another parent neither saves nor reads the exam', async () => {
    const exam = await startExam(server);
    const other = await createParent(server);
    const save = await server.request('POST', '/api/store-answers-exam', { token: other.token, body: { exam_id: exam.examId, slug: exam.slug, answers: [] } });
    expect(save.status).toBe(404);
    const read = await server.request('GET', `/api/examing?book_id=${exam.bookId}&child_id=${exam.childId}&slug_exam=${exam.slug}`, { token: other.token });
    expect(read.status).toBe(404);
  });
});
