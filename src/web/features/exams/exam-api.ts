// The exam calls of spec section 7, typed with the shared schemas.
import type {
  ExamBook,
  ExamResultResponse,
  ExamTimeResponse,
  ExamingResponse,
  SaveAnswersResponse,
  StartExamResponse,
  SubmitExamResponse,
} from '../../../shared/schemas/exams';
import { ApiRequestError, api, isRetryable } from '../../lib/api-client';
import type { SaveOutcome, SavePayload } from './answer-store';

export const fetchBooksOfContestant = async (childId: number) =>
  (await api.get<{ success: true; data: ExamBook[] }>(`/children/${childId}/books`)).data;

export const startExam = (bookId: number, childId: number) =>
  api.post<StartExamResponse>('/start-exam', { book_id: bookId, child_id: childId });

/** The calls of a running exam keep the session on a 401: the screen asks for the login in place. */
const inExam = { keepSession: true } as const;

export const fetchExam = (bookId: number, childId: number, slug: string) =>
  api.get<ExamingResponse>(`/examing?book_id=${bookId}&child_id=${childId}&slug_exam=${encodeURIComponent(slug)}`, inExam);

export const fetchExamTime = (examId: number) => api.get<ExamTimeResponse>(`/examing/get-time?exam_id=${examId}`, inExam);

/**
 * The screen's writer handle (GET /api/examing, issue 20) goes with every save and the submit: the
 * server refuses them (409 exam_open_elsewhere) once another screen has loaded the exam.
 */
export const submitExam = (examId: number, slug: string, writer: string, payload: SavePayload) =>
  api.post<SubmitExamResponse>('/submit-exam', { exam_id: examId, slug, writer, ...payload }, inExam);

/** The parent's session ended on the server (password changed or logged out elsewhere). */
export const isSessionEnded = (error: unknown) => error instanceof ApiRequestError && error.status === 401;

/** Another screen loaded the exam since this one did: it writes now (issue 20). Never retried. */
export const isOpenElsewhere = (error: unknown): error is ApiRequestError =>
  error instanceof ApiRequestError && error.body.code === 'exam_open_elsewhere';

export const fetchExamResult = (slug: string) => api.get<ExamResultResponse>(`/exam-result?slug=${encodeURIComponent(slug)}`);

/** Time limit of one answer save (ms): shorter than an ordinary call, so that a save stuck behind
 * a saturated server gives way to the next one (the server answers 503 after 8 s in its queue). */
export const SAVE_TIMEOUT_MS = 10_000;

/**
 * A failure worth retrying while taking an exam: the server briefly away (isRetryable), a bug's
 * 500 or too many requests. Only the first kind means "answers wait on the device".
 */
export const isTransient = (error: unknown) =>
  isRetryable(error) || (error instanceof ApiRequestError && (error.status >= 500 || error.status === 429));

/**
 * What a failed save comes to, in the answer store's terms (the exam's and the practice round's):
 * server away, try again later, another screen writes now, log in again, or refused for good.
 */
export function saveFailure(error: unknown): SaveOutcome {
  if (isSessionEnded(error)) return { kind: 'unauthorized' };
  if (isOpenElsewhere(error)) return { kind: 'elsewhere' };
  const retryAfterSeconds = error instanceof ApiRequestError ? error.retryAfterSeconds : undefined;
  if (isRetryable(error)) return { kind: 'unavailable', retryAfterSeconds };
  if (isTransient(error) || (error instanceof ApiRequestError && error.body.code === 'save_conflict')) return { kind: 'retry', retryAfterSeconds };
  if (error instanceof ApiRequestError) return { kind: 'refused', code: error.body.code, message: error.body.message };
  // Not an answer of the API at all (a bug in this code): keep the answers and try again.
  return { kind: 'unavailable' };
}

/** One answer save, as the answer store needs it. */
export async function saveAnswers(examId: number, slug: string, writer: string, payload: SavePayload, keepalive: boolean): Promise<SaveOutcome> {
  try {
    await api.post<SaveAnswersResponse>(
      '/store-answers-exam',
      { exam_id: examId, slug, writer, ...payload },
      { ...inExam, keepalive, timeoutMs: SAVE_TIMEOUT_MS },
    );
    return { kind: 'ok' };
  } catch (error) {
    return saveFailure(error);
  }
}
