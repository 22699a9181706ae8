// The replies the exam screen reads, in the spec's field names, for the exam's routes and the
// practice round's alike (the same screen takes both: web/features/exams).
import { regradeMessages } from '../../../shared/messages';
import { countsRight, type RegradeRule } from '../../../shared/regrade-rules';
import type { AnswerMap, ExamQuestion } from '../../db/schema';
import type { OpenedRow, PaperRow } from './repo';
import { answerList } from './rules';

const iso = (date: Date) => date.toISOString();

/** GET /api/examing and GET /api/practice/exams/:slug: the paper being taken; `paper` is the kind's own part. */
export function takingReply(
  opened: { paper: OpenedRow; writer: string; now: Date },
  paper: { attempt: number; book: { id: number; name: string } },
) {
  const row = opened.paper;
  return {
    success: true as const,
    not_found: false as const,
    submited: false as const,
    message: '',
    children: { id: row.contestant_id, fullname: row.fullname },
    data: {
      id: row.id,
      slug: row.slug,
      status: 2 as const,
      attempt: paper.attempt,
      book: paper.book,
      prediction: row.prediction,
      data_questions: row.questions,
      data_answers: answerList(row.questions, row.answers),
      save_seq: row.save_seq,
      start_time: iso(row.start_time),
      end_time: iso(row.end_time),
      server_time: iso(opened.now),
      duration_seconds: Math.round((row.end_time.getTime() - row.start_time.getTime()) / 1000),
      writer: opened.writer,
    },
  };
}

/** The time re-sync's reply. */
export const timeReply = (times: { start_time: Date; end_time: Date; status: 1 | 2; now: Date }) => ({
  success: true as const,
  data: { start_time: iso(times.start_time), end_time: iso(times.end_time), server_time: iso(times.now), status: times.status },
});

/** An autosave's reply: applied with the paper's new save_seq, or `stale` (a newer save was applied) with the stored one. */
export const saveReply = (outcome: { stale: boolean; saveSeq: number; now: Date }) => ({
  success: true as const,
  saved: !outcome.stale,
  stale: outcome.stale,
  save_seq: outcome.saveSeq,
  server_time: iso(outcome.now),
});

/**
 * The result review's items: each question with the answer given and the correct one(s). A
 * regraded question (exams only) counts by its rule and says so; otherwise the key's answer.
 */
function reviewItems(
  questions: ExamQuestion[],
  answers: AnswerMap,
  key: AnswerMap,
  rules: ReadonlyMap<number, RegradeRule> = new Map(),
  keysHidden = false,
) {
  return questions.map((question) => {
    const given = answers[question.id];
    if (keysHidden) return { question_id: question.id, answer_id_user: given ?? null, answer_id_correct: null, answer_ids_correct: [], is_correct: null, regrade_note: null };
    const rule = rules.get(question.id);
    const correct = rule && rule.mode !== 'everyone' ? [...rule.acceptedAnswerIds] : key[question.id] !== undefined ? [key[question.id]!] : [];
    return {
      question_id: question.id,
      answer_id_user: given ?? null,
      answer_id_correct: correct[0] ?? null,
      answer_ids_correct: correct,
      is_correct: countsRight(given, key[question.id], rule),
      regrade_note: rule ? regradeMessages.resultNote[rule.mode] : null,
    };
  });
}

/**
 * A finished paper's result: what the exam and the practice round both give, and the kind's own
 * fields (`own`: the exam's attempt, book and points, the round's question count). While the
 * keys are held back (`keysHidden`, core/review-keys.ts), no item says which answer is right.
 */
export function resultReply<Own extends object>(
  paper: PaperRow,
  key: AnswerMap,
  rules: ReadonlyMap<number, RegradeRule> | undefined,
  own: Own,
  keysHidden = false,
) {
  return {
    success: true as const,
    children: { id: paper.contestant_id, fullname: paper.fullname },
    data: {
      ...own,
      slug: paper.slug,
      child_id: paper.contestant_id,
      prediction: paper.prediction,
      data_questions: paper.questions,
      data_result: reviewItems(paper.questions, paper.answers, key, rules, keysHidden),
      data_answers: answerList(paper.questions, paper.answers),
      correct_count: paper.correct_count ?? 0,
      duration_seconds: paper.duration_seconds ?? 0,
      start_time: iso(paper.start_time),
      submitted_at: iso(paper.submitted_at ?? paper.end_time),
    },
  };
}
