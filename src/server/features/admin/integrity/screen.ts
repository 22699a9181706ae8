// The screening run (decision 027): the response model from one aggregation, then one streaming
// pass over the finished exams in (book, school) order comparing each school's exams of a book
// pair by pair, the cross-school pairs of one account or login, the speed of each exam, and the
// exams that shared a login; the flags at the family-wise rate asked.
import { connectionCount, type Db } from '../../../db/client';
import * as repo from './repo';
import { alternations, saveInstants, speedFinding, timelineOf, LOCKSTEP_MIN_ALTERNATIONS } from './signals';
import {
  bandOf,
  directionPValue,
  directionTerms,
  indexModel,
  prepareSheet,
  responseModel,
  SmallestPHistogram,
  contactTier,
  tierThresholds,
  type ContactTier,
  Z_SCREEN,
  type DirectionTerms,
  type PreparedSheet,
} from './similarity';

export const DEFAULT_FAMILY_RATE = 0.01;
const PAGE = 20_000;

export interface ScreeningResult {
  exams: number;
  pairs: number;
  /** Tarone's K summed over the tiers: the directions counted in the Bonferroni corrections. */
  tests: number;
  /** The classmates' threshold (the tier most pairs are in); each tier's own in `tiers`. */
  threshold: number;
  tiers: Record<ContactTier, { pairs: number; tests: number; threshold: number }>;
  flags: repo.NewFlag[];
  /** Every pair whose stronger direction was computed exactly (normal z ≥ Z_SCREEN), with its p: for the benchmark's calibration. */
  candidates: { a: number; b: number; p: number; tier: ContactTier }[];
}

/** What the comparison keeps of an exam (the stored objects are dropped once read). */
interface ExamFacts {
  id: number;
  contestant_id: number;
  user_id: number;
  book_id: number;
  school_id: number;
  class_key: string;
  session_id: number | null;
}

interface Exam {
  row: ExamFacts;
  sheet: PreparedSheet;
}

interface Candidate {
  a: Exam;
  b: Exam;
  /** The direction: a copied from b (`aFromB`) or b from a. */
  aFromB: boolean;
  p: number;
  terms: DirectionTerms;
  contact: string[];
  tier: ContactTier;
}

const contactOf = (a: Exam['row'], b: Exam['row']) => {
  const contact: string[] = [];
  if (a.school_id === b.school_id) contact.push(a.class_key === b.class_key ? 'class' : 'school');
  if (a.user_id === b.user_id) contact.push('account');
  if (a.session_id !== null && a.session_id === b.session_id) contact.push('device');
  return contact;
};

/**
 * Runs the screening of a contest inside `trx` (the cursor needs a transaction); stores nothing.
 * `pool` (the database outside the transaction) reads the model's counts one book per connection
 * when it has several (PostgreSQL); with one (PGlite) the transaction holds it, so `trx` reads them.
 */
export async function screenContest(trx: Db, contestId: number, familyRate: number, pool: Db = trx): Promise<ScreeningResult> {
  const cells = pool !== trx && connectionCount(pool) > 1 ? await repo.responseCellsOfBooks(pool, contestId) : await repo.responseCells(trx, contestId);
  const bank = await repo.bankAnswers(trx, [...new Set(cells.map((cell) => cell.questionId))]);
  const model = indexModel(responseModel(cells, bank));
  const crossPairs = await repo.crossSchoolPairs(trx, contestId);
  const keep = new Set(crossPairs.flatMap((pair) => [pair.a, pair.b]));
  const kept = new Map<number, Exam>();

  const histograms: Record<ContactTier, SmallestPHistogram> = { close: new SmallestPHistogram(), class: new SmallestPHistogram() };
  const tierPairs: Record<ContactTier, number> = { close: 0, class: 0 };
  const candidates: Candidate[] = [];
  const flags: repo.NewFlag[] = [];
  let exams = 0;
  let pairs = 0;

  const scratch = {} as DirectionTerms;
  /** One direction; a candidate when its normal z reaches Z_SCREEN (then its exact p). */
  const direction = (copier: Exam, source: Exam, tier: ContactTier): { p: number; terms: DirectionTerms } | undefined => {
    const terms = directionTerms(copier.sheet, source.sheet, model, scratch);
    if (terms.common === 0) return undefined;
    // A test whose smallest p is above its tier's rate can reach no threshold: Tarone leaves it out of K.
    if (terms.smallestP <= familyRate) histograms[tier].add(terms.smallestP);
    if (terms.omega < Z_SCREEN) return undefined;
    return { p: directionPValue(copier.sheet, source.sheet, model, terms.observed), terms: { ...terms } };
  };
  const compare = (a: Exam, b: Exam) => {
    const contact = contactOf(a.row, b.row);
    const tier = contactTier(contact);
    if (!tier) return;
    pairs += 1;
    tierPairs[tier] += 1;
    const aFromB = direction(a, b, tier);
    const bFromA = direction(b, a, tier);
    const best = aFromB && (!bFromA || aFromB.p <= bFromA.p) ? { ...aFromB, aFromB: true } : bFromA ? { ...bFromA, aFromB: false } : undefined;
    if (best) candidates.push({ a, b, aFromB: best.aFromB, p: best.p, terms: best.terms, contact, tier });
  };

  let group: Exam[] = [];
  const closeGroup = () => {
    for (let i = 0; i < group.length; i += 1) {
      for (let j = i + 1; j < group.length; j += 1) {
        if (group[i]!.row.contestant_id !== group[j]!.row.contestant_id) compare(group[i]!, group[j]!);
      }
    }
    group = [];
  };

  await repo.streamExams(trx, contestId, PAGE, (rows) => {
    for (const row of rows) {
      exams += 1;
      const first = group[0]?.row;
      if (first && (first.book_id !== row.book_id || first.school_id !== row.school_id)) closeGroup();
      const questions = Object.keys(row.answer_key).map(Number).sort((x, y) => x - y);
      const timeline = timelineOf(row.answer_times, row.answers);
      const exam: Exam = {
        row: { id: row.id, contestant_id: row.contestant_id, user_id: row.user_id, book_id: row.book_id, school_id: row.school_id, class_key: row.class_key, session_id: timeline.session },
        sheet: prepareSheet(
          {
            examId: row.id,
            band: bandOf(row.correct_count),
            questionIds: questions,
            answerIds: questions.map((q) => row.answers[q] ?? null),
            keyIds: questions.map((q) => row.answer_key[q] ?? null),
          },
          model,
        ),
      };
      group.push(exam);
      if (keep.has(row.id)) kept.set(row.id, exam);
      // An answer without a time was given at the submit.
      const firstSeconds: number[] = [];
      for (const q of questions) if (row.answers[q] !== undefined) firstSeconds.push(timeline.questions.get(q)?.first ?? row.submit_s);
      const fast = speedFinding({ startSeconds: row.start_s, firstSeconds, right: row.correct_count });
      if (fast) {
        flags.push({
          kind: 'speed',
          exam_id: row.id,
          other_exam_id: null,
          contestant_id: row.contestant_id,
          other_contestant_id: null,
          // On the scale of −log10 p: 1 s a question ranks with p = 10^-12, 3.9 s with 10^-6.
          strength: 6 + 8 * (1 - fast.secondsPerQuestion / 4),
          evidence: { answered: fast.answered, right: fast.right, seconds: Math.round(fast.seconds), seconds_per_question: Math.round(fast.secondsPerQuestion * 10) / 10 },
          contact: [],
        });
      }
    }
  });
  closeGroup();
  for (const pair of crossPairs) {
    const a = kept.get(pair.a);
    const b = kept.get(pair.b);
    if (a && b) compare(a, b);
  }

  const thresholds = tierThresholds({ close: (t) => histograms.close.countAtMost(t), class: (t) => histograms.class.countAtMost(t) }, familyRate);
  for (const candidate of candidates) {
    const threshold = thresholds[candidate.tier].threshold;
    if (candidate.p > threshold) continue;
    const { a, b, terms } = candidate;
    const copier = candidate.aFromB ? a : b;
    flags.push({
      kind: 'similarity',
      exam_id: a.row.id,
      other_exam_id: b.row.id,
      contestant_id: a.row.contestant_id,
      other_contestant_id: b.row.contestant_id,
      strength: candidate.p > 0 ? -Math.log10(candidate.p) : 300,
      evidence: {
        p: candidate.p,
        omega: Math.round(terms.omega * 100) / 100,
        common: terms.common,
        identical: terms.identical,
        identical_wrong: terms.identicalWrong,
        expected: Math.round(terms.expected * 100) / 100,
        observed: terms.observed,
        copier_exam_id: copier.row.id,
        tier: candidate.tier,
        threshold,
      },
      contact: candidate.contact,
    });
  }

  for (const pair of await repo.sharedLoginPairs(trx, contestId)) {
    const turns = alternations(saveInstants(timelineOf(pair.times_a, pair.answers_a)), saveInstants(timelineOf(pair.times_b, pair.answers_b)));
    if (turns < LOCKSTEP_MIN_ALTERNATIONS) continue;
    const contact = ['device'];
    if (pair.same_class) contact.push('class');
    else if (pair.same_school) contact.push('school');
    if (pair.same_account) contact.push('account');
    flags.push({
      kind: 'lockstep',
      exam_id: pair.a,
      other_exam_id: pair.b,
      contestant_id: pair.contestant_a,
      other_contestant_id: pair.contestant_b,
      // On the scale of −log10 p: 8 turns rank with 10^-6, 20 or more with 10^-12.
      strength: 6 + Math.min(6, (turns - LOCKSTEP_MIN_ALTERNATIONS) / 2),
      evidence: { turns },
      contact,
    });
  }
  const tiers = {
    close: { pairs: tierPairs.close, ...thresholds.close },
    class: { pairs: tierPairs.class, ...thresholds.class },
  };
  return {
    exams,
    pairs,
    tests: tiers.close.tests + tiers.class.tests,
    threshold: tiers.class.threshold,
    tiers,
    flags,
    candidates: candidates.map((c) => ({ a: c.a.row.id, b: c.b.row.id, p: c.p, tier: c.tier })),
  };
}

