// The time signals of the integrity screening (decision 027): impossible speed and lockstep.
// Pure: screen.ts reads exams.answer_times (0040_answer_times.sql) and passes them here.

/** Fewer seconds per answered question than this from the start to the last first answer: faster than any reader. */
export const FAST_SECONDS_PER_QUESTION = 4;
/** The speed check needs this many answered questions, and at least this share of them right (fast guessing is no concern). */
export const FAST_MIN_ANSWERED = 15;
export const FAST_MIN_RIGHT_SHARE = 0.5;
/** Lockstep: at least this many turns from one exam to the other, each within this many seconds. */
export const LOCKSTEP_MIN_ALTERNATIONS = 8;
export const LOCKSTEP_GAP_SECONDS = 20;

export interface Timeline {
  /** The session (login) of the exam's last save; null before any save. */
  session: number | null;
  /** Per answered question: the Unix second it was first answered and the second its stored answer was first saved. */
  questions: Map<number, { first: number; last: number | null }>;
}

/** An exam's timeline from its answer_times and its stored answers. */
export function timelineOf(times: Readonly<Record<string, number>>, answers: Readonly<Record<string, number>>): Timeline {
  const questions = new Map<number, { first: number; last: number | null }>();
  let session: number | null = null;
  // The screening reads every exam's times: a plain loop, no entry arrays, one object a question.
  for (const key in times) {
    const seconds = times[key]!;
    if (key === 's') {
      session = seconds;
      continue;
    }
    const at = key.indexOf(':');
    if (at <= 0) continue;
    const questionId = parseInt(key, 10);
    const answerId = Number(key.substring(at + 1));
    const stored = answers[questionId] === answerId;
    const entry = questions.get(questionId);
    if (entry === undefined) questions.set(questionId, { first: seconds, last: stored ? seconds : null });
    else {
      if (seconds < entry.first) entry.first = seconds;
      if (stored) entry.last = seconds;
    }
  }
  return { session, questions };
}

export interface SpeedInput {
  /** Unix seconds. */
  startSeconds: number;
  /** The first-answer second of each answered question (an answer without a time: the submit's). */
  firstSeconds: readonly number[];
  right: number;
}

export interface SpeedFinding {
  answered: number;
  right: number;
  /** From the start to the last question's first answer. */
  seconds: number;
  secondsPerQuestion: number;
}

/** The exam's speed finding when every answer was given faster than any reader could, else null. */
export function speedFinding({ startSeconds, firstSeconds, right }: SpeedInput): SpeedFinding | null {
  const answered = firstSeconds.length;
  if (answered < FAST_MIN_ANSWERED || right < FAST_MIN_RIGHT_SHARE * answered) return null;
  const seconds = Math.max(0, Math.max(...firstSeconds) - startSeconds);
  if (seconds >= FAST_SECONDS_PER_QUESTION * answered) return null;
  return { answered, right, seconds, secondsPerQuestion: seconds / answered };
}

/**
 * Turns between two exams: their save instants (distinct seconds), merged in order; a turn is a
 * save of one exam following a save of the other within LOCKSTEP_GAP_SECONDS. Taking turns on
 * one phone (one exam, then the other) gives 1.
 */
export function alternations(a: readonly number[], b: readonly number[]): number {
  const events = [...new Set(a)].map((t) => ({ t, from: 0 })).concat([...new Set(b)].map((t) => ({ t, from: 1 })));
  events.sort((x, y) => x.t - y.t || x.from - y.from);
  let turns = 0;
  for (let i = 1; i < events.length; i += 1) {
    const previous = events[i - 1]!;
    const event = events[i]!;
    if (event.from !== previous.from && event.t - previous.t <= LOCKSTEP_GAP_SECONDS) turns += 1;
  }
  return turns;
}

/** The save instants of a timeline: every first-answer second and every stored answer's second. */
export function saveInstants(timeline: Timeline): number[] {
  const instants: number[] = [];
  for (const { first, last } of timeline.questions.values()) {
    instants.push(first);
    if (last !== null && last !== first) instants.push(last);
  }
  return instants;
}
