// Issue 40: when the result review shows the correct answers. The organiser chooses it in the
// contest settings: right after the submit (the default, the specification's) or once the exam
// window has closed. Until then the review gives the answers chosen, the points and the times,
// and nothing that tells the key (no correct answer, no per-question verdict, no regrade note),
// with the moment the keys will show; from exam_ends_at on, the keys as before.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessionAt } from '../../demo/finished-exams';
import { startTestServer, type TestServer } from '../../test/harness';
import { createOrganiser, type CreatedUser } from '../../test/factories';
import { answersFor, startExam, type StartedExam } from '../../test/exam-fixtures';

let server: TestServer;
let organiser: CreatedUser;
let examEndsAt: Date;

const setting = async (value: unknown) => server.request('PUT', '/api/admin/contest', { token: organiser.token, body: { review_correct_answers: value } });
const result = (exam: StartedExam, token = exam.token) => server.request('GET', `/api/exam-result?slug=${exam.slug}`, { token });

async function finishedExam() {
  const exam = await startExam(server);
  const submitted = await server.request('POST', '/api/submit-exam', {
    token: exam.token,
    body: { exam_id: exam.examId, slug: exam.slug, answers: answersFor(exam, 20, 15), prediction: 10, seq: 1 },
  });
  expect(submitted.status).toBe(200);
  return exam;
}

beforeAll(async () => {
  server = await startTestServer();
  organiser = await createOrganiser(server);
  examEndsAt = (await server.db.selectFrom('contests').select('exam_ends_at').where('is_current', '=', true).executeTakeFirstOrThrow()).exam_ends_at;
});
afterAll(() => server?.close());

describe('the review of correct answers', () => {
  it('is a setting of the season: after the submit by default, any other value refused', async () => {
    const settings = await server.request('GET', '/api/admin/contest', { token: organiser.token });
    expect(settings.body.data.review_correct_answers).toBe('after_submit');
    const refused = await setting('tomorrow');
    expect(refused.status).toBe(400);
    expect(refused.body.errors.review_correct_answers).toBe('Hãy chọn một trong hai cách hiển thị đáp án đúng.');
    expect((await server.request('GET', '/api/admin/contest', { token: organiser.token })).body.data.review_correct_answers).toBe('after_submit');
  });

  it('after the submit: the review shows each correct answer at once', async () => {
    const exam = await finishedExam();
    const review = await result(exam);
    expect(review.status).toBe(200);
    expect(review.body.data.correct_answers_at).toBeNull();
    const first = review.body.data.data_result.find((item: { question_id: number }) => item.question_id === exam.questions[0]!.id);
    expect(first).toMatchObject({ answer_id_correct: exam.key[exam.questions[0]!.id], is_correct: true });
  });

  it('after the exam window: until it closes, the answers chosen and the points, never the key', async () => {
    const saved = await setting('after_exam_window');
    expect(saved.status).toBe(200);
    expect(saved.body.data.review_correct_answers).toBe('after_exam_window');
    const exam = await finishedExam();
    const review = await result(exam);
    expect(review.status).toBe(200);
    const { data } = review.body;
    expect(data.correct_answers_at).toBe(examEndsAt.toISOString());
    expect(data.points).toBe(75);
    expect(data.correct_count).toBe(15);
    expect(data.data_result).toHaveLength(exam.questions.length);
    for (const item of data.data_result) {
      expect(item).toEqual({ question_id: item.question_id, answer_id_user: expect.any(Number), answer_id_correct: null, answer_ids_correct: [], is_correct: null, regrade_note: null });
    }
    // Nothing else in the answer names a correct answer, nor does any other answer the family reads.
    const family = [
      review,
      await server.request('GET', `/api/examing?book_id=${exam.bookId}&child_id=${exam.childId}&slug_exam=${exam.slug}`, { token: exam.token }),
      await server.request('GET', '/api/report-parent', { token: exam.token }),
      await server.request('GET', `/api/chilren-certificate?child_id=${exam.childId}`, { token: exam.token }),
      await server.request('GET', `/api/children/${exam.childId}/books`, { token: exam.token }),
    ];
    for (const answer of family) {
      expect(answer.status, JSON.stringify(answer.body).slice(0, 200)).toBeLessThan(500);
      expect(JSON.stringify(answer.body)).not.toMatch(/"(is_correct|correct)":true|"answer_id_correct":\d|"answer_ids_correct":\[\d|"answer_key"/);
    }

    // The same exam reviewed once the window has closed: the keys, as after a submit.
    const later = new Date(examEndsAt.getTime());
    server.clock.set(later);
    const token = await sessionAt(server.db, (await server.db.selectFrom('exams').select('user_id').where('id', '=', exam.examId).executeTakeFirstOrThrow()).user_id, later);
    const shown = await result(exam, token);
    expect(shown.status).toBe(200);
    expect(shown.body.data.correct_answers_at).toBeNull();
    const first = shown.body.data.data_result.find((item: { question_id: number }) => item.question_id === exam.questions[0]!.id);
    expect(first).toMatchObject({ answer_id_correct: exam.key[exam.questions[0]!.id], is_correct: true });
  });
});
