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
import { ApiRequestError, NetworkError, api } from '../../lib/api-client';
import type { SaveOutcome, SavePayload } from './answer-store';

export const fetchBooksOfContestant = async (childId: number) =>
  (await api.get<{ success: true; data: ExamBook[] }>(`/children/${childId}/books`)).data;

export const startExam = (bookId: number, childId: number) =>
  api.post<StartExamResponse>('/start-exam', { book_id: bookId, child_id: childId });

export const fetchExam = (bookId: number, childId: number, slug: string) =>
  api.get<ExamingResponse>(`/examing?book_id=${bookId}&child_id=${childId}&slug_exam=${encodeURIComponent(slug)}`);

export const fetchExamTime = (examId: number) => api.get<ExamTimeResponse>(`/examing/get-time?exam_id=${examId}`);

export const submitExam = (examId: number, slug: string, payload: SavePayload) =>
  api.post<SubmitExamResponse>('/submit-exam', { exam_id: examId, slug, ...payload });

export const fetchExamResult = (slug: string) => api.get<ExamResultResponse>(`/exam-result?slug=${encodeURIComponent(slug)}`);

/** A failure worth retrying: no answer at all, a server error, or too many requests. */
export const isTransient = (error: unknown) =>
  error instanceof NetworkError || (error instanceof ApiRequestError && (error.status >= 500 || error.status === 429));

/** One answer save, as the answer store needs it: ok, try again later, or refused for good. */
export async function saveAnswers(examId: number, slug: string, payload: SavePayload, keepalive: boolean): Promise<SaveOutcome> {
  try {
    await api.post<SaveAnswersResponse>('/store-answers-exam', { exam_id: examId, slug, ...payload }, { keepalive });
    return { kind: 'ok' };
  } catch (error) {
    if (error instanceof NetworkError) return { kind: 'network' };
    if (isTransient(error) || (error instanceof ApiRequestError && error.body.code === 'save_conflict')) return { kind: 'retry' };
    if (error instanceof ApiRequestError) return { kind: 'refused', code: error.body.code, message: error.body.message };
    return { kind: 'network' };
  }
}
