// The "in step" copying test (decision 027): did one exam give the other's answer to a question
// within seconds after the other gave it? Pure: screen.ts feeds it the prepared sheets with their
// answer times (exams.answer_times, 0040_answer_times.sql); the exact tail is similarity.ts's.
import { exactUpperTail, type PreparedSheet } from './similarity';

/** A copied answer is saved at most this many seconds after the source's (finding the question in one's own shuffled paper and clicking). */
export const IN_STEP_WINDOW_SECONDS = 30;

/** Whether an answer saved at `copierSeconds` follows one saved at `sourceSeconds` in step. */
export const inStep = (copierSeconds: number, sourceSeconds: number) => copierSeconds >= sourceSeconds && copierSeconds <= sourceSeconds + IN_STEP_WINDOW_SECONDS;

/** What the direction "copier copied from source" gives over the questions both answered with a time. */
export interface InStepTerms {
  /** Common questions both answered with a time. */
  common: number;
  /** In-step events: the same answer, the copier's saved within the window after the source's. */
  events: number;
  /** The bound on each possible event's null chance (questions whose window holds none of the copier's times are left out: no event is possible there). */
  chances: number[];
  /** Per possible event: its question (model index), the answer's part of its chance (p_q) and the time's part (for pooling, pooledInStep). */
  questions: number[];
  answerChances: number[];
  timeChances: number[];
  /** Π chances: the smallest p-value the direction could have (every possible event observed). */
  smallestP: number;
}

/** The index of the first of the sorted times above `value` (`orEqual`: at or above). */
function firstAbove(sorted: Float64Array, value: number, orEqual: boolean): number {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    const at = sorted[middle]!;
    if (at < value || (!orEqual && at === value)) low = middle + 1;
    else high = middle;
  }
  return low;
}

/**
 * The direction "copier copied from source". At a common question q (both answered it, with a
 * time), an event is: the copier's final answer is the source's AND was saved in
 * W_q = [t_s(q), t_s(q) + window]. Under no copying the answer matches with p_q (the model's
 * chance that the copier's ability group gives the source's answer) and, the questions being
 * shuffled per exam, the copier's time for q is one of its n answer times taken without
 * replacement: given the questions met before, the chance is at most m_q / (n − k + 1) for the
 * k-th question with m_q of the copier's times inside W_q. So each event's chance given the others
 * is at most π_q = p_q · min(1, m_q / (n − k + 1)), and the count of events is dominated by a sum
 * of independent Bernoulli(π_q): its exact tail is a conservative p-value.
 */
export function inStepTerms(copier: PreparedSheet, source: PreparedSheet): InStepTerms {
  const chances: number[] = [];
  const questions: number[] = [];
  const answerChances: number[] = [];
  const timeChances: number[] = [];
  let common = 0;
  let events = 0;
  let smallestP = 1;
  const n = copier.times.length;
  const cq = copier.question;
  const sq = source.question;
  const offset = copier.band * sq.length;
  let i = 0;
  let j = 0;
  while (i < cq.length && j < sq.length) {
    const a = cq[i]!;
    const b = sq[j]!;
    if (a < b) i += 1;
    else if (b < a) j += 1;
    else {
      const sourceSeconds = source.seconds[j]!;
      const copierSeconds = copier.seconds[i]!;
      if (!Number.isNaN(sourceSeconds) && !Number.isNaN(copierSeconds)) {
        common += 1;
        // The copier's answer times inside the window.
        const inside = firstAbove(copier.times, sourceSeconds + IN_STEP_WINDOW_SECONDS, false) - firstAbove(copier.times, sourceSeconds, true);
        if (inside > 0) {
          const answerChance = source.chance[offset + j]!;
          const timeChance = Math.min(1, inside / (n - chances.length));
          const chance = answerChance * timeChance;
          chances.push(chance);
          questions.push(a);
          answerChances.push(answerChance);
          timeChances.push(timeChance);
          smallestP *= chance;
          if (copier.option[i] === source.option[j] && inStep(copierSeconds, sourceSeconds)) events += 1;
        }
      }
      i += 1;
      j += 1;
    }
  }
  return { common, events, chances, questions, answerChances, timeChances, smallestP };
}

/**
 * One direction over several exam pairs of the same two contestants (their attempts taken at the
 * same time), each copier exam at most once: a pair that copies in step on every attempt adds up
 * its events, where one attempt's 6 or 7 common questions are too few (decision 027, "over all
 * attempts"). The parts' time chances stay as they are: each copier exam's order is its own
 * shuffle, independent of the other exams'. The answers are not independent across attempts (a
 * pupil tends to give the same answer to a question again), so a question met again in a later
 * part counts its answer as certain (chance 1) and only its time as chance: whatever happened
 * before, that event's chance is still at most its time's. So the count of events stays dominated
 * by independent Bernoulli(π) and the exact tail a conservative p-value, as for one pair.
 */
export function pooledInStep(parts: readonly InStepTerms[]): InStepTerms {
  if (parts.length === 1) return parts[0]!;
  const seen = new Set<number>();
  const pooled: InStepTerms = { common: 0, events: 0, chances: [], questions: [], answerChances: [], timeChances: [], smallestP: 1 };
  for (const part of parts) {
    pooled.common += part.common;
    pooled.events += part.events;
    // A question is marked seen only after its part: within one exam pair each question occurs once.
    part.questions.forEach((question, k) => {
      const answerChance = seen.has(question) ? 1 : part.answerChances[k]!;
      const chance = answerChance * part.timeChances[k]!;
      pooled.chances.push(chance);
      pooled.questions.push(question);
      pooled.answerChances.push(answerChance);
      pooled.timeChances.push(part.timeChances[k]!);
      pooled.smallestP *= chance;
    });
    for (const question of part.questions) seen.add(question);
  }
  return pooled;
}

/** The p-value of the direction: P(events ≥ observed) under the dominating independent model. */
export function inStepPValue(terms: InStepTerms): number {
  return terms.events === 0 ? 1 : exactUpperTail(terms.chances, terms.chances.map(() => 1), terms.events);
}

/**
 * Whether two exams can have an in-step event: the copier's answer times reach into
 * [the source's first time, its last time + window]. The pass checks this before anything else.
 */
export function overlapInTime(copier: PreparedSheet, source: PreparedSheet): boolean {
  const c = copier.times;
  const s = source.times;
  return c.length > 0 && s.length > 0 && c[0]! <= s[s.length - 1]! + IN_STEP_WINDOW_SECONDS && c[c.length - 1]! >= s[0]!;
}
