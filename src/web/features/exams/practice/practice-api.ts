// The practice round's calls (/api/practice), typed with the shared schemas. The exam screen's
// calls keep the session on a 401 (it asks for the login in place), as the real exam's do.
import type { ExamTimeResponse, ExamingResponse, SaveAnswersResponse } from '../../../../shared/schemas/exams';
import type {
  PracticeResultResponse,
  PracticeStartResponse,
  PracticeStatusResponse,
  PracticeSubmitResponse,
} from '../../../../shared/schemas/practice';
import { api } from '../../../lib/api-client';
import type { SaveOutcome, SavePayload } from '../answer-store';
import { SAVE_TIMEOUT_MS, saveFailure } from '../exam-api';

const inExam = { keepSession: true } as const;
const slugPath = (slug: string) => `/practice/exams/${encodeURIComponent(slug)}`;

export const practicePath = (slug: string) => `/thi-thu/${slug}`;
export const practiceResultPath = (slug: string) => `/thi-thu/ket-qua/${slug}`;

export const fetchPracticeStatus = () => api.get<PracticeStatusResponse>('/practice/status');

export const startPractice = (childId: number) => api.post<PracticeStartResponse>('/practice/start', { child_id: childId });

export const fetchPractice = (slug: string) => api.get<ExamingResponse>(slugPath(slug), inExam);

export const fetchPracticeTime = (slug: string) => api.get<ExamTimeResponse>(`${slugPath(slug)}/time`, inExam);

export const submitPractice = (slug: string, writer: string, payload: SavePayload) =>
  api.post<PracticeSubmitResponse>(`${slugPath(slug)}/submit`, { writer, ...payload }, inExam);

export const fetchPracticeResult = (slug: string) => api.get<PracticeResultResponse>(`${slugPath(slug)}/result`);

/** One save, in the answer store's terms (as the exam's saveAnswers, its writer handle too). */
export async function savePractice(slug: string, writer: string, payload: SavePayload, keepalive: boolean): Promise<SaveOutcome> {
  try {
    await api.post<SaveAnswersResponse>(`${slugPath(slug)}/answers`, { writer, ...payload }, { ...inExam, keepalive, timeoutMs: SAVE_TIMEOUT_MS });
    return { kind: 'ok' };
  } catch (error) {
    return saveFailure(error);
  }
}
