// Answer similarity of two exams (decision 027): Wollack's ω with weighted matches, its exact
// tail, and Tarone's count of the tests that can reach the family-wise threshold. Pure: no
// database; screen.ts feeds it the counts of repo.ts and the exams.

/** Ability groups: the exam's right answers in bands of 3 (0-2, 3-5, …, 18-20 of 20). */
export const BAND_WIDTH = 3;
export const BANDS = 7;
export const bandOf = (correct: number) => Math.min(BANDS - 1, Math.max(0, Math.floor(correct / BAND_WIDTH)));

/** Added to each answer's count (blank included) so that no probability is 0. */
export const SMOOTHING = 0.5;
/** A shared key answer weighs 1, a shared wrong answer or blank this much. */
export const WRONG_WEIGHT = 2;
/** Below this normal z a direction's exact tail is not computed (it is above 1e-4). */
export const Z_SCREEN = 3;

/** Counts of repo.ts: exams of ability `band` that gave `answerId` (null: blank) to `questionId`. */
export interface ResponseCell {
  questionId: number;
  band: number;
  answerId: number | null;
  count: number;
}

/** One question of the model: its answers (option 0 is the blank) and P(option | band). */
export interface QuestionModel {
  questionId: number;
  options: Map<number, number>;
  /** probabilities[band * optionCount + option] */
  probabilities: Float64Array;
  optionCount: number;
}

/**
 * The nominal response probabilities from the counts: P(answer k | band g) =
 * (n_gk + 1/2) / (n_g + 1/2 · options), the options being the answers seen for the question and
 * the blank. `answerIds` may add answers nobody chose (the bank's).
 */
export function responseModel(cells: readonly ResponseCell[], answerIds: ReadonlyMap<number, readonly number[]> = new Map()): Map<number, QuestionModel> {
  const answersOf = new Map<number, Set<number>>();
  for (const [questionId, ids] of answerIds) answersOf.set(questionId, new Set(ids));
  for (const cell of cells) {
    const set = answersOf.get(cell.questionId) ?? new Set<number>();
    if (cell.answerId !== null) set.add(cell.answerId);
    answersOf.set(cell.questionId, set);
  }
  const models = new Map<number, QuestionModel>();
  for (const [questionId, set] of answersOf) {
    const options = new Map<number, number>();
    [...set].sort((a, b) => a - b).forEach((id, index) => options.set(id, index + 1));
    const optionCount = options.size + 1;
    models.set(questionId, { questionId, options, probabilities: new Float64Array(BANDS * optionCount), optionCount });
  }
  const counts = new Map<number, Float64Array>();
  for (const cell of cells) {
    const model = models.get(cell.questionId)!;
    const table = counts.get(cell.questionId) ?? new Float64Array(BANDS * model.optionCount);
    const option = cell.answerId === null ? 0 : model.options.get(cell.answerId)!;
    table[cell.band * model.optionCount + option]! += cell.count;
    counts.set(cell.questionId, table);
  }
  for (const model of models.values()) {
    const table = counts.get(model.questionId) ?? new Float64Array(BANDS * model.optionCount);
    for (let band = 0; band < BANDS; band += 1) {
      let total = 0;
      for (let k = 0; k < model.optionCount; k += 1) total += table[band * model.optionCount + k]!;
      const denominator = total + SMOOTHING * model.optionCount;
      for (let k = 0; k < model.optionCount; k += 1) {
        model.probabilities[band * model.optionCount + k] = (table[band * model.optionCount + k]! + SMOOTHING) / denominator;
      }
    }
  }
  return models;
}

/** An exam as the comparison reads it: its questions in increasing id, its answers (null: blank) and key. */
export interface Sheet {
  examId: number;
  band: number;
  questionIds: readonly number[];
  answerIds: readonly (number | null)[];
  keyIds: readonly (number | null)[];
  /** The Unix second the final answer to each question was saved (null: blank, or no time); none given: no times. */
  answerSeconds?: readonly (number | null)[];
}

/** The model indexed for the pass: a question's index and its table. */
export interface IndexedModel {
  index: Map<number, number>;
  questions: QuestionModel[];
}

export function indexModel(model: ReadonlyMap<number, QuestionModel>): IndexedModel {
  const questions = [...model.values()].sort((a, b) => a.questionId - b.questionId);
  return { index: new Map(questions.map((question, i) => [question.questionId, i])), questions };
}

/**
 * A sheet resolved against the model once (the pass compares each exam with many others): its
 * questions by model index in increasing order (ids increase with the index), the option of each
 * answer, whether it is wrong (or blank). An answer the model does not know drops its question.
 */
export interface PreparedSheet {
  examId: number;
  band: number;
  question: Int32Array;
  option: Int32Array;
  wrong: Uint8Array;
  /** chance[band * n + j]: P(an examinee of `band` gives this sheet's answer to its j-th question). */
  chance: Float64Array;
  /** The second the j-th question's final answer was saved (NaN: none), and all of the exam's such seconds in increasing order (for in-step.ts). */
  seconds: Float64Array;
  times: Float64Array;
}

export function prepareSheet(sheet: Sheet, model: IndexedModel): PreparedSheet {
  // Typed arrays of the largest size, viewed to the questions kept (the pass prepares every exam: no intermediate lists).
  const size = sheet.questionIds.length;
  const question = new Int32Array(size);
  const option = new Int32Array(size);
  const wrong = new Uint8Array(size);
  const seconds = new Float64Array(size);
  const times = new Float64Array(size);
  let n = 0;
  let timed = 0;
  for (let i = 0; i < size; i += 1) {
    const answer = sheet.answerIds[i] ?? null;
    const at = answer === null ? null : (sheet.answerSeconds?.[i] ?? null);
    if (at !== null) times[timed++] = at;
    const index = model.index.get(sheet.questionIds[i]!);
    if (index === undefined) continue;
    const k = answer === null ? 0 : model.questions[index]!.options.get(answer);
    if (k === undefined) continue;
    question[n] = index;
    option[n] = k;
    wrong[n] = answer !== null && answer === sheet.keyIds[i] ? 0 : 1;
    seconds[n] = at ?? Number.NaN;
    n += 1;
  }
  const chance = new Float64Array(BANDS * n);
  for (let band = 0; band < BANDS; band += 1) {
    for (let j = 0; j < n; j += 1) {
      const table = model.questions[question[j]!]!;
      chance[band * n + j] = table.probabilities[band * table.optionCount + option[j]!]!;
    }
  }
  return {
    examId: sheet.examId,
    band: sheet.band,
    question: question.subarray(0, n),
    option: option.subarray(0, n),
    wrong: wrong.subarray(0, n),
    chance,
    seconds: seconds.subarray(0, n),
    times: times.subarray(0, timed).sort(),
  };
}

/** What a direction "copier copied from source" gives over the questions both drew. */
export interface DirectionTerms {
  /** Common questions. */
  common: number;
  /** Identical answers, and of them the identical wrong answers or blanks. */
  identical: number;
  identicalWrong: number;
  /** H, E, V and ω = (H − E) / √V. */
  observed: number;
  expected: number;
  variance: number;
  omega: number;
  /** Π p: the smallest p-value this direction could have (every common answer identical). */
  smallestP: number;
}

/** The terms of "copier copied from source" (written into `out` when given: the pass calls it for every direction). */
export function directionTerms(copier: PreparedSheet, source: PreparedSheet, _model?: IndexedModel, out?: DirectionTerms): DirectionTerms {
  let common = 0;
  let identical = 0;
  let identicalWrong = 0;
  let observed = 0;
  let expected = 0;
  let variance = 0;
  let smallestP = 1;
  let i = 0;
  let j = 0;
  const cq = copier.question;
  const sq = source.question;
  const co = copier.option;
  const so = source.option;
  const wrong = source.wrong;
  const chance = source.chance;
  const offset = copier.band * sq.length;
  const cn = cq.length;
  const sn = sq.length;
  while (i < cn && j < sn) {
    const a = cq[i]!;
    const b = sq[j]!;
    if (a < b) i += 1;
    else if (b < a) j += 1;
    else {
      const probability = chance[offset + j]!;
      const weight = wrong[j] ? WRONG_WEIGHT : 1;
      common += 1;
      smallestP *= probability;
      expected += weight * probability;
      variance += weight * weight * probability * (1 - probability);
      if (co[i] === so[j]) {
        identical += 1;
        observed += weight;
        if (weight !== 1) identicalWrong += 1;
      }
      i += 1;
      j += 1;
    }
  }
  const omega = variance > 0 ? (observed - expected) / Math.sqrt(variance) : 0;
  const result = out ?? ({} as DirectionTerms);
  result.common = common;
  result.identical = identical;
  result.identicalWrong = identicalWrong;
  result.observed = observed;
  result.expected = expected;
  result.variance = variance;
  result.omega = omega;
  result.smallestP = smallestP;
  return result;
}

/** The chance and the weight of each common question of the direction (for its exact tail). */
export function directionTermsPerQuestion(copier: PreparedSheet, source: PreparedSheet, model: IndexedModel): { p: number[]; w: number[] } {
  const p: number[] = [];
  const w: number[] = [];
  let i = 0;
  let j = 0;
  while (i < copier.question.length && j < source.question.length) {
    const a = copier.question[i]!;
    const b = source.question[j]!;
    if (a < b) i += 1;
    else if (b < a) j += 1;
    else {
      const question = model.questions[a]!;
      p.push(question.probabilities[copier.band * question.optionCount + source.option[j]!]!);
      w.push(source.wrong[j] ? WRONG_WEIGHT : 1);
      i += 1;
      j += 1;
    }
  }
  return { p, w };
}

/** The exact p-value of a direction: P(H ≥ observed) under independence. */
export function directionPValue(copier: PreparedSheet, source: PreparedSheet, model: IndexedModel, observed: number): number {
  const { p, w } = directionTermsPerQuestion(copier, source, model);
  return exactUpperTail(p, w, observed);
}

/**
 * P(Σ w_i X_i ≥ observed) for independent X_i ~ Bernoulli(p_i) and small positive integer
 * weights: the distribution of the sum by convolution (Σ w_i + 1 values).
 */
export function exactUpperTail(p: readonly number[], w: readonly number[], observed: number): number {
  let size = 1;
  for (const weight of w) size += weight;
  // One array convolved in place, from the top down (each sum moves up by its weight or stays).
  const dist = new Float64Array(size);
  dist[0] = 1;
  let top = 0;
  for (let i = 0; i < p.length; i += 1) {
    const weight = w[i]!;
    const probability = p[i]!;
    for (let s = top; s >= 0; s -= 1) {
      const mass = dist[s]!;
      if (mass === 0) continue;
      dist[s + weight]! += mass * probability;
      dist[s] = mass * (1 - probability);
    }
    top += weight;
  }
  let tail = 0;
  for (let s = Math.max(0, Math.ceil(observed - 1e-9)); s <= top; s += 1) tail += dist[s]!;
  return Math.min(1, tail);
}

/**
 * Histogram of the tests' smallest possible p-values by tenths of a decade, each rounded down to
 * its bin's lower edge (so Tarone's K computed from it can only be larger: conservative).
 */
export class SmallestPHistogram {
  /** bins[k]: tests with log10(smallest p) in [−(k + 1)/10, −k/10); the last bin takes everything smaller. */
  readonly bins = new Float64Array(3001);
  add(smallestP: number) {
    const k = smallestP <= 0 ? this.bins.length - 1 : Math.min(this.bins.length - 1, Math.floor(-Math.log10(smallestP) * 10));
    this.bins[k]! += 1;
  }
  /** Adds another histogram's bins (a part of the run counted in another thread). */
  addAll(bins: Float64Array) {
    for (let k = 0; k < this.bins.length; k += 1) this.bins[k]! += bins[k] ?? 0;
  }
  /** Tests whose smallest p (rounded down) is ≤ threshold. */
  countAtMost(threshold: number): number {
    // A bin counts when its lower edge 10^−(k+1)/10 is ≤ threshold.
    const first = Math.max(0, Math.ceil(-Math.log10(threshold) * 10 - 1 - 1e-9));
    let count = 0;
    for (let k = first; k < this.bins.length; k += 1) count += this.bins[k]!;
    return count;
  }
  get total(): number {
    return this.bins.reduce((sum, n) => sum + n, 0);
  }
}

/**
 * Tarone's modified Bonferroni: the smallest K ≥ 1 such that at most K tests can reach α / K
 * (their smallest p ≤ α / K). Testing each of those at α / K keeps the family-wise rate ≤ α.
 */
export function taroneCount(countAtMost: (threshold: number) => number, alpha: number): number {
  // m(K) does not grow with K, so K − m(K) grows: the K that pass form [K*, ∞). Binary search in [1, m(1)].
  let low = 1;
  let high = Math.max(1, countAtMost(alpha));
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    if (countAtMost(alpha / middle) <= middle) high = middle;
    else low = middle + 1;
  }
  return low;
}

/**
 * The contact tiers of the similarity test (decision 027), each a family of its own with a share
 * of the family-wise rate α: pairs sharing a parent account or a login (few pairs, the likeliest
 * copiers) and classmates. The shares sum to 1, so the chance of any false flag is at most
 * Σ share·α = α (Bonferroni across the tiers). Pairs of one school in other classes, with no
 * account or login in common, are not tested: at their number no copying could reach the threshold.
 */
export const CONTACT_TIERS = { close: 0.5, class: 0.5 } as const;
export type ContactTier = keyof typeof CONTACT_TIERS;

/**
 * The tier of a pair of exams from its contact: sharing a parent account or a login (device) is
 * close, classmates otherwise are the class tier, any other pair is not tested (null). Plain
 * booleans: the pass asks this for every pair of a school's exams (millions).
 */
export function contactTier(sameAccount: boolean, sameDevice: boolean, sameClass: boolean): ContactTier | null {
  if (sameAccount || sameDevice) return 'close';
  if (sameClass) return 'class';
  return null;
}

/**
 * Within each tier, two tests, each a family of its own with half the tier's rate: answer
 * similarity (above) and the in-step test (in-step.ts, pairs whose exams overlapped in time). The
 * four shares sum to 1, so the family-wise rate of the whole screening stays ≤ α.
 */
export const TEST_SHARES = { similarity: 0.5, in_step: 0.5 } as const;
export type ScreeningTest = keyof typeof TEST_SHARES;

/** Each tier's Tarone count K and threshold share·α / K, from the tier's own tests (α: the rate of the test's families). */
export function tierThresholds(countAtMost: Record<ContactTier, (threshold: number) => number>, alpha: number): Record<ContactTier, { tests: number; threshold: number }> {
  const result = {} as Record<ContactTier, { tests: number; threshold: number }>;
  for (const tier of Object.keys(CONTACT_TIERS) as ContactTier[]) {
    const rate = CONTACT_TIERS[tier] * alpha;
    const tests = taroneCount(countAtMost[tier], rate);
    result[tier] = { tests, threshold: rate / tests };
  }
  return result;
}

/** The standard normal upper tail (for showing ω's own p-value; Abramowitz-Stegun 7.1.26 via erfc). */
export function normalUpperTail(z: number): number {
  const x = Math.abs(z) / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const erfc = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429)))) * Math.exp(-x * x);
  return z >= 0 ? erfc / 2 : 1 - erfc / 2;
}
