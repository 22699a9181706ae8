// Issue 14: the organiser's recorded clips reach the exam screen with the exam (read instead of the
// device's voice), for the exam's own questions and answers only.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness';
import { startExam } from '../../test/exam-fixtures';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

it('GET /api/examing carries the clips of the questions and answers that have one', async () => {
  const exam = await startExam(server);
  const first = await server.request('GET', `/api/examing?book_id=${exam.bookId}&child_id=${exam.childId}&slug_exam=${exam.slug}`, { token: exam.token });
  const [question, second] = first.body.data.data_questions;
  expect(question.audio).toBeUndefined();
  const clip = `/api/media/${'a'.repeat(64)}.mp3`;
  const answerClip = `/api/media/${'b'.repeat(64)}.ogg`;
  await server.db.updateTable('questions').set({ audio: clip }).where('id', '=', question.id).execute();
  await server.db.updateTable('answers').set({ audio: answerClip }).where('id', '=', question.answers[1].id).execute();

  const { body } = await server.request('GET', `/api/examing?book_id=${exam.bookId}&child_id=${exam.childId}&slug_exam=${exam.slug}`, { token: exam.token });
  const [withClip, without] = body.data.data_questions;
  expect(withClip.audio).toBe(clip);
  expect(withClip.answers.map((answer: { audio?: string }) => answer.audio)).toEqual(question.answers.map((_: unknown, i: number) => (i === 1 ? answerClip : undefined)));
  expect(without).toEqual(second);
});
