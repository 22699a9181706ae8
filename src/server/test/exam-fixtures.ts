// Helpers for the exam API tests: a parent with a contestant, an exam started through the API,
// and the exam's answer key read from the database (the API never reveals it before the end).
import type { TestServer } from './harness';
import { createContestant, createParent, type ContestantOverrides } from './factories';

export async function parentWithContestant(server: TestServer, overrides: ContestantOverrides = {}) {
  const parent = await createParent(server);
  const contestant = await createContestant(server, parent, overrides);
  return { parent, contestant, book: contestant.books[0]! };
}

export interface StartedExam {
  token: string;
  examId: number;
  slug: string;
  bookId: number;
  childId: number;
  questions: { id: number; value: string; answers: { id: number; value: string }[] }[];
  key: Record<string, number>;
}

export async function startExam(server: TestServer, setup?: Awaited<ReturnType<typeof parentWithContestant>>): Promise<StartedExam> {
  const { parent, contestant, book } = setup ?? (await parentWithContestant(server));
  const started = await server.request('POST', '/api/start-exam', { token: parent.token, body: { book_id: book.id, child_id: contestant.id } });
  if (started.status !== 200) throw new Error(`start failed: ${started.status} ${JSON.stringify(started.body)}`);
  const loaded = await server.request(
    'GET',
    `/api/examing?book_id=${book.id}&child_id=${contestant.id}&slug_exam=${started.body.slug}`,
    { token: parent.token },
  );
  if (loaded.status !== 200) throw new Error(`load failed: ${loaded.status} ${JSON.stringify(loaded.body)}`);
  const row = await server.db.selectFrom('exams').select('answer_key').where('id', '=', started.body.exam_id).executeTakeFirstOrThrow();
  return {
    token: parent.token,
    examId: started.body.exam_id,
    slug: started.body.slug,
    bookId: book.id,
    childId: contestant.id,
    questions: loaded.body.data.data_questions,
    key: row.answer_key,
  };
}

/** The first `correct` questions answered right, the rest of the first `total` answered wrong. */
export function answersFor(exam: StartedExam, total: number, correct: number) {
  return exam.questions.slice(0, total).map((question, index) => {
    const right = exam.key[question.id]!;
    const wrong = question.answers.find((answer) => answer.id !== right)!.id;
    return { question_id: question.id, answer_id: index < correct ? right : wrong };
  });
}

export const saveBody = (exam: StartedExam, extra: Record<string, unknown> = {}) => ({
  exam_id: exam.examId,
  slug: exam.slug,
  answers: [],
  ...extra,
});

export const examRow = (server: TestServer, examId: number) =>
  server.db.selectFrom('exams').selectAll().where('id', '=', examId).executeTakeFirstOrThrow();
