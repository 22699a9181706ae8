// What the exam screen asks of the server, and the timing rules the screen's hooks share. The
// contest's exam and the practice round ("Thi thử") share the screen, its timer and its saving;
// each brings its own calls and where the child goes once the paper is submitted.
import type { ExamTimeResponse } from '../../../shared/schemas/exams';
import { TOTAL_EXAM_ITEMS } from '../../../shared/rules';
import { ApiRequestError } from '../../lib/api-client';
import type { SaveOutcome, SavePayload } from './answer-store';

export interface ExamBackend {
  save: (payload: SavePayload, options: { keepalive: boolean }) => Promise<SaveOutcome>;
  time: () => Promise<ExamTimeResponse>;
  submit: (payload: SavePayload) => Promise<{ message: string }>;
  /** Where the screen goes after the submit (the certificate page, the practice result). */
  finishedPath: string;
  /** A practice round: labelled as such on the screen. */
  practice?: boolean;
}

/** Back-off of a failed load or submit (ms): a random wait up to base * 2^failures, at most cap. */
export const RETRY_BACKOFF = { baseMs: 2_000, capMs: 30_000 };

export const retryAfterOf = (error: unknown) => (error instanceof ApiRequestError ? error.retryAfterSeconds : undefined);

/** Difference server clock - phone clock (ms), from one request's send/receive times. */
export const clockOffset = (serverTime: string, sentAt: number, receivedAt: number) => Date.parse(serverTime) - (sentAt + receivedAt) / 2;

/** The prediction is the last item of the navigator, whatever the number of questions. */
export const PREDICTION_INDEX = TOTAL_EXAM_ITEMS - 1;
