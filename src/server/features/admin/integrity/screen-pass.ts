// The screening's pass over the finished exams (decision 027), pure: no database. screen.ts
// streams the exams to it in (book, school) order, in a worker thread (screen-worker.ts); the pass
// compares each school's exams of a book pair by pair (answer similarity, and the in-step test for
// the pairs whose exams overlapped in time, pooled over each two contestants' attempts), then the
// cross-school pairs of one account or login, and checks the speed of each exam. Several passes
// (one per worker thread) can share a run, each taking whole school groups: each returns its part
// (`PassPart`: counts, Tarone's histograms, candidates), and `combineParts` sets the thresholds of
// the four families over all the parts and fires the flags at the family-wise rate asked.
import type { NewFlag, PassRow, ScreenExam } from './repo';
import { inStepPValue, inStepTerms, overlapInTime, pooledInStep, IN_STEP_WINDOW_SECONDS, type InStepTerms } from './in-step';
import { speedFinding, timelineOf } from './signals';
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
  TEST_SHARES,
  type ContactTier,
  type ScreeningTest,
  Z_SCREEN,
  type DirectionTerms,
  type PreparedSheet,
  type ResponseCell,
} from './similarity';

type Families<T> = Record<ScreeningTest, Record<ContactTier, T>>;
/** One value per family (test × tier), each made from its test and tier. */
const familiesOf = <T>(make: (test: ScreeningTest, tier: ContactTier) => T): Families<T> => ({
  similarity: { close: make('similarity', 'close'), class: make('similarity', 'class') },
  in_step: { close: make('in_step', 'close'), class: make('in_step', 'class') },
});

export interface ScreeningResult {
  exams: number;
  pairs: number;
  /** Tarone's K summed over the four families (test × tier): the directions counted in the Bonferroni corrections. */
  tests: number;
  /** The classmates' similarity threshold (the family most pairs are in); each family's own in `families`. */
  threshold: number;
  /**
   * Per test and tier: the pairs tested (similarity: pairs of exams; in-step: pairs of contestants
   * with exams that overlapped in time, all such attempts pooled), the directions computed, Tarone's K and the threshold.
   */
  families: Families<{ pairs: number; directions: number; tests: number; threshold: number }>;
  flags: NewFlag[];
  /**
   * For the benchmark's calibration: similarity, every pair whose stronger direction was computed
   * exactly (normal z ≥ Z_SCREEN); in-step, every direction with p ≤ the family-wise rate.
   */
  candidates: { test: ScreeningTest; a: number; b: number; contestants: [number, number]; p: number; tier: ContactTier }[];
}

/** What the comparison keeps of an exam (the stored objects are dropped once read). */
type ExamFacts = Pick<ScreenExam, 'id' | 'contestant_id' | 'user_id' | 'book_id' | 'school_id' | 'class_key'> & { session_id: number | null };

interface Exam {
  row: ExamFacts;
  sheet: PreparedSheet;
}

interface Candidate<Terms> {
  a: Exam;
  b: Exam;
  /** The direction: a copied from b (`aFromB`) or b from a. */
  aFromB: boolean;
  p: number;
  terms: Terms;
  contact: string[];
  tier: ContactTier;
}

/** One exam pair's in-step direction, waiting to be pooled with the same two contestants' other attempts. */
interface StepPart {
  /** The pair in the order compared (the flag's exam and other exam). */
  a: Exam;
  b: Exam;
  copier: Exam;
  source: Exam;
  terms: InStepTerms;
}

/** The in-step test of two contestants over all their exams that overlapped in time (in-step.ts, pooledInStep). */
interface StepCandidate extends Candidate<InStepTerms> {
  parts: StepPart[];
}

/** The ids of an exam that a flag names. */
interface ExamRef {
  id: number;
  contestant_id: number;
}

/** A candidate as a part returns it (plain data, sent between threads): the test, the pair, the direction, p and the evidence. */
export interface Fireable {
  test: ScreeningTest;
  a: ExamRef;
  b: ExamRef;
  copier: number;
  p: number;
  tier: ContactTier;
  contact: string[];
  evidence: Record<string, unknown>;
}

/** One pass's share of a run: what `combineParts` needs of it. */
export interface PassPart {
  exams: number;
  pairs: number;
  counts: Families<{ pairs: number; directions: number }>;
  /** Tarone's histograms' bins (SmallestPHistogram) per family. */
  histograms: Families<Float64Array>;
  candidates: Fireable[];
  /** The speed flags of the part's exams. */
  flags: NewFlag[];
}

/** Of two directions, the one with the smaller p (the first on a tie), if any. */
const lower = <T extends { p: number }>(x: T | undefined, y: T | undefined) => (x && (!y || x.p <= y.p) ? x : y);

/**
 * The direction's parts to pool: each copier exam once, with the source exam that gives it the
 * most possible events (a choice made on the times alone, never on the answers), in exam order.
 */
function partsToPool(parts: readonly StepPart[]): StepPart[] {
  const byCopier = new Map<number, StepPart>();
  for (const part of parts) {
    const held = byCopier.get(part.copier.row.id);
    if (!held || part.terms.chances.length > held.terms.chances.length) byCopier.set(part.copier.row.id, part);
  }
  return [...byCopier.values()].sort((x, y) => x.copier.row.id - y.copier.row.id);
}

const sameAccount = (a: ExamFacts, b: ExamFacts) => a.user_id === b.user_id;
const sameDevice = (a: ExamFacts, b: ExamFacts) => a.session_id !== null && a.session_id === b.session_id;
const sameClass = (a: ExamFacts, b: ExamFacts) => a.school_id === b.school_id && a.class_key === b.class_key;

/** The contact of a pair as the flag lists it (the review's labels). */
const contactOf = (a: ExamFacts, b: ExamFacts) => {
  const contact: string[] = [];
  if (a.school_id === b.school_id) contact.push(a.class_key === b.class_key ? 'class' : 'school');
  if (sameAccount(a, b)) contact.push('account');
  if (sameDevice(a, b)) contact.push('device');
  return contact;
};

/** What the pass is given before the exams: the model's counts and answers, the exams of the cross-school pairs to keep, the rate. */
export interface PassInput {
  cells: ResponseCell[];
  /** The bank's answers of each question: [question id, answer ids]. */
  bank: [number, number[]][];
  /** Exams of the cross-school pairs (kept past their school group until finish); only the pass that compares those pairs has them. */
  keep: number[];
  familyRate: number;
}

export interface ScreeningPass {
  /** The next exams of the pass's school groups, in (book, school, id) order (a group whole, possibly over several calls). */
  addRows(rows: readonly PassRow[]): void;
  /** Exams of other passes' groups that are in cross-school pairs: kept for `finish`, not compared in a group, not counted. */
  addKept(rows: readonly PassRow[]): void;
  /** The cross-school pairs (to the pass that keeps their exams; [] to the others), then the part. */
  finish(crossPairs: readonly { a: number; b: number }[]): PassPart;
}

export function screeningPass({ cells, bank, keep: keepIds, familyRate }: PassInput): ScreeningPass {
  const model = indexModel(responseModel(cells, new Map(bank)));
  const keep = new Set(keepIds);
  const kept = new Map<number, Exam>();

  const histograms = familiesOf(() => new SmallestPHistogram());
  const counts = familiesOf(() => ({ pairs: 0, directions: 0 }));
  const similar: Candidate<DirectionTerms>[] = [];
  const inStepCandidates: StepCandidate[] = [];
  /** The in-step parts of the current school group (and then of the cross-school pairs), by pair of contestants. */
  let steps = new Map<string, { contact: Set<string>; tier: ContactTier; parts: StepPart[] }>();
  const flags: NewFlag[] = [];
  let exams = 0;
  let pairs = 0;

  const scratch = {} as DirectionTerms;
  /** One direction; a candidate when its normal z reaches Z_SCREEN (then its exact p). */
  const direction = (copier: Exam, source: Exam, tier: ContactTier): { p: number; terms: DirectionTerms } | undefined => {
    const terms = directionTerms(copier.sheet, source.sheet, model, scratch);
    if (terms.common === 0) return undefined;
    counts.similarity[tier].directions += 1;
    // A test whose smallest p is above its family's rate can reach no threshold: Tarone leaves it out of K.
    if (terms.smallestP <= familyRate) histograms.similarity[tier].add(terms.smallestP);
    if (terms.omega < Z_SCREEN) return undefined;
    return { p: directionPValue(copier.sheet, source.sheet, model, terms.observed), terms: { ...terms } };
  };
  /** One exam pair's in-step direction, for exams that overlapped in time: kept to be pooled per pair of contestants. */
  const stepPart = (a: Exam, b: Exam, copier: Exam, source: Exam): StepPart[] => {
    if (!overlapInTime(copier.sheet, source.sheet)) return [];
    const terms = inStepTerms(copier.sheet, source.sheet);
    return terms.chances.length ? [{ a, b, copier, source, terms }] : [];
  };
  /** One pooled in-step direction; a candidate when its p could matter (≤ the rate). */
  const pooledDirection = (parts: readonly StepPart[], tier: ContactTier) => {
    if (!parts.length) return undefined;
    const pooled = partsToPool(parts);
    const terms = pooledInStep(pooled.map((part) => part.terms));
    counts.in_step[tier].directions += 1;
    if (terms.smallestP <= familyRate) histograms.in_step[tier].add(terms.smallestP);
    const p = inStepPValue(terms);
    return p <= familyRate ? { p, terms, parts: pooled } : undefined;
  };
  /** Pools and tests the in-step parts gathered so far, both directions of each pair of contestants. */
  const settleSteps = () => {
    for (const { contact, tier, parts } of steps.values()) {
      counts.in_step[tier].pairs += 1;
      const first = parts[0]!.a.row.contestant_id;
      const fromFirst = pooledDirection(parts.filter((part) => part.copier.row.contestant_id === first), tier);
      const fromOther = pooledDirection(parts.filter((part) => part.copier.row.contestant_id !== first), tier);
      const best = lower(fromFirst, fromOther);
      if (!best) continue;
      // The flag names the attempt with the most events; the evidence lists every attempt pooled.
      const shown = best.parts.reduce((most, part) => (part.terms.events > most.terms.events ? part : most));
      inStepCandidates.push({ a: shown.a, b: shown.b, aFromB: shown.copier === shown.a, p: best.p, terms: best.terms, parts: best.parts, contact: [...contact], tier });
    }
    steps = new Map();
  };
  const stronger = <T extends { p: number }>(aFromB: T | undefined, bFromA: T | undefined) => {
    const best = lower(aFromB, bFromA);
    return best && { ...best, aFromB: best === aFromB };
  };
  const compare = (a: Exam, b: Exam) => {
    // The tier first, without building the contact list: this runs for every pair of a group (millions).
    const x = a.row;
    const y = b.row;
    const tier = contactTier(sameAccount(x, y), sameDevice(x, y), sameClass(x, y));
    if (!tier) return;
    pairs += 1;
    counts.similarity[tier].pairs += 1;
    const best = stronger(direction(a, b, tier), direction(b, a, tier));
    if (best) similar.push({ a, b, contact: contactOf(x, y), tier, ...best });
    // Cheap first: most pairs did not take their exams at the same time.
    if (!overlapInTime(a.sheet, b.sheet) && !overlapInTime(b.sheet, a.sheet)) return;
    const parts = [...stepPart(a, b, a, b), ...stepPart(a, b, b, a)];
    if (!parts.length) return;
    const key = a.row.contestant_id < b.row.contestant_id ? `${a.row.contestant_id}-${b.row.contestant_id}` : `${b.row.contestant_id}-${a.row.contestant_id}`;
    const entry = steps.get(key) ?? { contact: new Set<string>(), tier, parts: [] };
    // A pair of contestants is in the close tier when any of its exam pairs is (decided on the contact alone).
    if (tier === 'close') entry.tier = 'close';
    for (const item of contactOf(x, y)) entry.contact.add(item);
    entry.parts.push(...parts);
    steps.set(key, entry);
  };

  let group: Exam[] = [];
  const closeGroup = () => {
    for (let i = 0; i < group.length; i += 1) {
      for (let j = i + 1; j < group.length; j += 1) {
        if (group[i]!.row.contestant_id !== group[j]!.row.contestant_id) compare(group[i]!, group[j]!);
      }
    }
    settleSteps();
    group = [];
  };

  /** A stored row parsed and prepared for the comparisons, with its speed finding. */
  const examOf = (stored: PassRow) => {
    const row = { ...stored, answer_key: JSON.parse(stored.answer_key) as Record<string, number>, answers: JSON.parse(stored.answers) as Record<string, number>, answer_times: JSON.parse(stored.answer_times) as Record<string, number> };
    const questions = Object.keys(row.answer_key).map(Number).sort((x, y) => x - y);
    const timeline = timelineOf(row.answer_times, row.answers);
    // Per question: the answer, the key, the second the answer was saved (in-step test) and first given (speed; without a time: the submit's).
    const answerIds: (number | null)[] = [];
    const keyIds: (number | null)[] = [];
    const answerSeconds: (number | null)[] = [];
    const firstSeconds: number[] = [];
    for (const q of questions) {
      const answer = row.answers[q] ?? null;
      const times = timeline.questions.get(q);
      answerIds.push(answer);
      keyIds.push(row.answer_key[q] ?? null);
      answerSeconds.push(answer === null ? null : (times?.last ?? null));
      if (answer !== null) firstSeconds.push(times?.first ?? row.submit_s);
    }
    const exam: Exam = {
      row: { id: row.id, contestant_id: row.contestant_id, user_id: row.user_id, book_id: row.book_id, school_id: row.school_id, class_key: row.class_key, session_id: timeline.session },
      sheet: prepareSheet({ examId: row.id, band: bandOf(row.correct_count), questionIds: questions, answerIds, keyIds, answerSeconds }, model),
    };
    return { exam, fast: speedFinding({ startSeconds: row.start_s, firstSeconds, right: row.correct_count }) };
  };

  const addRows = (rows: readonly PassRow[]) => {
    for (const stored of rows) {
      exams += 1;
      const first = group[0]?.row;
      if (first && (first.book_id !== stored.book_id || first.school_id !== stored.school_id)) closeGroup();
      const { exam, fast } = examOf(stored);
      group.push(exam);
      if (keep.has(stored.id)) kept.set(stored.id, exam);
      if (fast) {
        flags.push({
          kind: 'speed',
          exam_id: stored.id,
          other_exam_id: null,
          contestant_id: stored.contestant_id,
          other_contestant_id: null,
          // On the scale of −log10 p: 1 s a question ranks with p = 10^-12, 3.9 s with 10^-6.
          strength: 6 + 8 * (1 - fast.secondsPerQuestion / 4),
          evidence: { answered: fast.answered, right: fast.right, seconds: Math.round(fast.seconds), seconds_per_question: Math.round(fast.secondsPerQuestion * 10) / 10 },
          contact: [],
        });
      }
    }
  };

  const addKept = (rows: readonly PassRow[]) => {
    for (const stored of rows) kept.set(stored.id, examOf(stored).exam);
  };

  const ref = (exam: Exam): ExamRef => ({ id: exam.row.id, contestant_id: exam.row.contestant_id });
  const fireable = (candidate: Candidate<unknown>, test: ScreeningTest, evidence: Record<string, unknown>): Fireable => ({
    test,
    a: ref(candidate.a),
    b: ref(candidate.b),
    copier: (candidate.aFromB ? candidate.a : candidate.b).row.id,
    p: candidate.p,
    tier: candidate.tier,
    contact: candidate.contact,
    evidence,
  });

  const finish = (crossPairs: readonly { a: number; b: number }[]): PassPart => {
    closeGroup();
    for (const pair of crossPairs) {
      const a = kept.get(pair.a);
      const b = kept.get(pair.b);
      if (a && b) compare(a, b);
    }
    settleSteps();
    const candidates = [
      ...similar.map((candidate) => {
        const { terms } = candidate;
        return fireable(candidate, 'similarity', {
          omega: Math.round(terms.omega * 100) / 100,
          common: terms.common,
          identical: terms.identical,
          identical_wrong: terms.identicalWrong,
          expected: Math.round(terms.expected * 100) / 100,
          observed: terms.observed,
        });
      }),
      ...inStepCandidates.map((candidate) =>
        fireable(candidate, 'in_step', {
          common: candidate.terms.common,
          events: candidate.terms.events,
          window_seconds: IN_STEP_WINDOW_SECONDS,
          // The attempts pooled: each copier exam with its source exam, their common questions and events.
          attempts: candidate.parts.map((part) => ({ copier_exam_id: part.copier.row.id, source_exam_id: part.source.row.id, common: part.terms.common, events: part.terms.events })),
        }),
      ),
    ];
    return { exams, pairs, counts, histograms: familiesOf((test, tier) => histograms[test][tier].bins), candidates, flags };
  };

  return { addRows, addKept, finish };
}

/**
 * Deals the streamed exams (in (book, school, id) order) to `passes` passes: each school group
 * (book, school) whole to one pass, the groups in turn; an exam of a cross-school pair (`keep`) in
 * another pass's group is also sent to the first pass (which compares those pairs) as kept.
 */
export function groupDealer(passes: number, keep: ReadonlySet<number>) {
  let groupKey = '';
  let group = -1;
  return (rows: readonly PassRow[]) => {
    const shares = Array.from({ length: passes }, () => ({ rows: [] as PassRow[], kept: [] as PassRow[] }));
    for (const row of rows) {
      const key = `${row.book_id}:${row.school_id}`;
      if (key !== groupKey) {
        groupKey = key;
        group += 1;
      }
      const owner = group % passes;
      shares[owner]!.rows.push(row);
      if (owner !== 0 && keep.has(row.id)) shares[0]!.kept.push(row);
    }
    return shares;
  };
}

/**
 * The run's result from its parts: each family's Tarone count and threshold over the tests of
 * every part, then the flags. A pair is flagged once, with every test that fired: its evidence and
 * the strongest p.
 */
export function combineParts(parts: readonly PassPart[], familyRate: number): ScreeningResult {
  const histograms = familiesOf((test, tier) => {
    const histogram = new SmallestPHistogram();
    for (const part of parts) histogram.addAll(part.histograms[test][tier]);
    return histogram;
  });
  const sum = (value: (part: PassPart) => number) => parts.reduce((total, part) => total + value(part), 0);
  const counts = familiesOf((test, tier) => ({ pairs: sum((part) => part.counts[test][tier].pairs), directions: sum((part) => part.counts[test][tier].directions) }));
  // Each test's tiers share the test's rate (tierThresholds splits it between them).
  const byTest = {
    similarity: tierThresholds({ close: (t) => histograms.similarity.close.countAtMost(t), class: (t) => histograms.similarity.class.countAtMost(t) }, familyRate * TEST_SHARES.similarity),
    in_step: tierThresholds({ close: (t) => histograms.in_step.close.countAtMost(t), class: (t) => histograms.in_step.class.countAtMost(t) }, familyRate * TEST_SHARES.in_step),
  };
  const thresholds = familiesOf((test, tier) => byTest[test][tier]);

  const candidates = parts.flatMap((part) => part.candidates);
  const fired = new Map<string, { a: ExamRef; b: ExamRef; contact: string[]; tier: ContactTier; found: { test: ScreeningTest; p: number; copier: number; evidence: Record<string, unknown> }[] }>();
  for (const candidate of candidates) {
    const threshold = thresholds[candidate.test][candidate.tier].threshold;
    if (candidate.p > threshold) continue;
    const { a, b, copier } = candidate;
    const key = `${a.id}-${b.id}`;
    const entry = fired.get(key) ?? { a, b, contact: candidate.contact, tier: candidate.tier, found: [] };
    entry.found.push({ test: candidate.test, p: candidate.p, copier, evidence: { p: candidate.p, threshold, copier_exam_id: copier, ...candidate.evidence } });
    fired.set(key, entry);
  }
  const flags = parts.flatMap((part) => part.flags);
  for (const { a, b, contact, tier, found } of fired.values()) {
    found.sort((x, y) => x.p - y.p);
    const strongest = found[0]!;
    flags.push({
      kind: 'similarity',
      exam_id: a.id,
      other_exam_id: b.id,
      contestant_id: a.contestant_id,
      other_contestant_id: b.contestant_id,
      strength: strongest.p > 0 ? -Math.log10(strongest.p) : 300,
      evidence: { tier, tests: found.map((f) => f.test), p: strongest.p, copier_exam_id: strongest.copier, ...Object.fromEntries(found.map((f) => [f.test, f.evidence])) },
      contact,
    });
  }

  const summary = familiesOf((test, tier) => ({ ...counts[test][tier], ...thresholds[test][tier] }));
  return {
    exams: sum((part) => part.exams),
    pairs: sum((part) => part.pairs),
    tests: Object.values(thresholds).reduce((total, tiers) => total + tiers.close.tests + tiers.class.tests, 0),
    threshold: thresholds.similarity.class.threshold,
    families: summary,
    flags,
    candidates: candidates.map((c) => ({ test: c.test, a: c.a.id, b: c.b.id, contestants: [c.a.contestant_id, c.b.contestant_id] as [number, number], p: c.p, tier: c.tier })),
  };
}
