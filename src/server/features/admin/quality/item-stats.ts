// Classical item analysis of one question, pure (decision 021): from the counts of finished exams
// by (rest score, answer chosen, counted right), the facility, the point-biserial discrimination
// against the rest score, the upper-27 % minus lower-27 % difference, the share choosing each
// answer overall and in each group, and the flags with their Vietnamese reasons. Below MIN_EXAMS
// exams a question has no figure and no flag: shares of a handful of exams ("96 % / 96 %" on 4)
// would read as findings; the report says once how many exams the figures need.
//
// Groups are by REST score (the exam's correct count without this question), so that the question
// does not help put its own right answerers in the upper group. An exam draws 20 of the bank's
// questions, so every figure is over the exams that drew the question. At the 27 % boundary the
// exams of the tied rest score enter in part (a weight in 0..1), so that each group holds exactly
// 27 % of the exams whatever the ties: the groups' shares do not depend on the order of ties.

/** Exams with this rest score that chose `answerId` (null: left blank) and were counted right or not. */
export interface Cell {
  rest: number;
  answerId: number | null;
  correct: boolean;
  count: number;
}

/** An answer of the bank, in the bank's order (A, B, C, D); `isKey`: the bank's correct answer now. */
export interface BankAnswer {
  id: number;
  isKey: boolean;
}

export interface Shares {
  overall: number;
  upper: number;
  lower: number;
}

export type FlagKind = 'wrong_key' | 'ambiguous' | 'too_hard' | 'too_easy';
export interface Flag {
  kind: FlagKind;
  reason: string;
}

export interface ItemStats {
  exams: number;
  /** Share counted right, 0..1; null with fewer than the minimum of exams (as every figure below). */
  facility: number | null;
  /** Point-biserial correlation of the item (0/1) with the rest score; null when either does not vary. */
  discrimination: number | null;
  /** Share right in the upper 27 % minus in the lower 27 % (by rest score). */
  upperLowerDifference: number | null;
  /** Per bank answer, in the bank's order. */
  answers: Shares[] | null;
  /** Left blank. */
  blank: Shares | null;
  /** The wrong answer the upper group chose most, when the key is suspect. */
  suspectedAnswerId: number | null;
  flags: Flag[];
}

/** Fewer exams than this: no figure, no flag (too little to judge). */
export const MIN_EXAMS = 30;
/** Share of the exams in each of the upper and lower groups. */
export const GROUP_SHARE = 0.27;
export const TOO_EASY_ABOVE = 0.95;
export const TOO_HARD_BELOW = 0.2;
/** Ambiguous: two answers each chosen by at least this share of the upper group (and more than by the lower). */
export const AMBIGUOUS_UPPER_SHARE = 0.3;

/** Flags in the order shown: the most serious first (rows sort by their first flag). */
export const flagOrder: readonly FlagKind[] = ['wrong_key', 'ambiguous', 'too_hard', 'too_easy'];

/**
 * Pearson's correlation of x (0/1) with y over weighted points: the point-biserial. Null when x or
 * y does not vary (every exam right, or the same rest score everywhere).
 */
export function pointBiserial(points: readonly { x: 0 | 1; y: number; count: number }[]): number | null {
  let n = 0;
  let sx = 0;
  let sy = 0;
  let sxy = 0;
  let syy = 0;
  for (const { x, y, count } of points) {
    n += count;
    sx += x * count;
    sy += y * count;
    sxy += x * y * count;
    syy += y * y * count;
  }
  // x is 0/1, so sum x^2 = sum x.
  const varX = n * sx - sx * sx;
  const varY = n * syy - sy * sy;
  if (n === 0 || varX <= 0 || varY <= 0) return null;
  return (n * sxy - sx * sy) / Math.sqrt(varX * varY);
}

/**
 * Each cell's weight in the group of the `share` highest (`from: 'top'`) or lowest rest scores:
 * whole rest levels while they fit, then the boundary level in part. Keys are cell indexes.
 */
export function groupWeights(cells: readonly Cell[], share: number, from: 'top' | 'bottom'): Map<number, number> {
  const byRest = new Map<number, number>();
  let n = 0;
  for (const cell of cells) {
    byRest.set(cell.rest, (byRest.get(cell.rest) ?? 0) + cell.count);
    n += cell.count;
  }
  const levels = [...byRest.keys()].sort((a, b) => (from === 'top' ? b - a : a - b));
  let room = share * n;
  const fraction = new Map<number, number>();
  for (const rest of levels) {
    if (room <= 0) break;
    const size = byRest.get(rest)!;
    const taken = Math.min(size, room);
    fraction.set(rest, taken / size);
    room -= taken;
  }
  const weights = new Map<number, number>();
  cells.forEach((cell, index) => {
    const f = fraction.get(cell.rest);
    if (f) weights.set(index, cell.count * f);
  });
  return weights;
}

const letter = (index: number) => String.fromCharCode(65 + index);
const percent = (share: number) => `${Math.round(share * 100)}%`;
const decimal = (value: number) => value.toFixed(2).replace('.', ',').replace('-', '−');

export function itemStats(cells: readonly Cell[], bank: readonly BankAnswer[], minExams = MIN_EXAMS): ItemStats {
  const exams = cells.reduce((sum, cell) => sum + cell.count, 0);
  if (exams === 0 || exams < minExams) {
    return { exams, facility: null, discrimination: null, upperLowerDifference: null, answers: null, blank: null, suspectedAnswerId: null, flags: [] };
  }
  const size = GROUP_SHARE * exams;
  const upper = groupWeights(cells, GROUP_SHARE, 'top');
  const lower = groupWeights(cells, GROUP_SHARE, 'bottom');

  const sharesOf = (chosen: (cell: Cell) => boolean): Shares => {
    let overall = 0;
    let up = 0;
    let low = 0;
    cells.forEach((cell, index) => {
      if (!chosen(cell)) return;
      overall += cell.count;
      up += upper.get(index) ?? 0;
      low += lower.get(index) ?? 0;
    });
    return { overall: overall / exams, upper: up / size, lower: low / size };
  };

  const right = sharesOf((cell) => cell.correct);
  const answers = bank.map((answer) => sharesOf((cell) => cell.answerId === answer.id));
  const stats: ItemStats = {
    exams,
    facility: right.overall,
    discrimination: pointBiserial(cells.map((cell) => ({ x: cell.correct ? 1 : 0, y: cell.rest, count: cell.count }))),
    upperLowerDifference: right.upper - right.lower,
    answers,
    blank: sharesOf((cell) => cell.answerId === null),
    suspectedAnswerId: null,
    flags: [],
  };
  return { ...stats, ...flagsOf({ ...stats, answers }, bank) };
}

function flagsOf(stats: ItemStats & { answers: Shares[] }, bank: readonly BankAnswer[]): Pick<ItemStats, 'flags' | 'suspectedAnswerId'> {
  const flags: Flag[] = [];
  // An answer draws the upper group when at least AMBIGUOUS_UPPER_SHARE of it chose the answer and
  // a larger share of the upper group than of the lower did. The second condition keeps a hard
  // question's common wrong answer (chosen by most of both groups) from looking like the key.
  const draws = (index: number) => stats.answers[index]!.upper > stats.answers[index]!.lower;
  const keyIndex = bank.findIndex((answer) => answer.isKey);
  const keyUpper = keyIndex >= 0 ? stats.answers[keyIndex]!.upper : 0;
  // The wrong answer that the upper group chose most among those it chose more than the lower
  // group did (the first in the bank's order on a tie).
  let rival = -1;
  bank.forEach((answer, index) => {
    if (!answer.isKey && draws(index) && (rival < 0 || stats.answers[index]!.upper > stats.answers[rival]!.upper)) rival = index;
  });
  const rivalUpper = rival >= 0 ? stats.answers[rival]!.upper : 0;
  const keyName = keyIndex >= 0 ? `đáp án đúng ${letter(keyIndex)}` : 'đáp án đúng';

  if (rival >= 0 && rivalUpper > keyUpper) {
    flags.push({
      kind: 'wrong_key',
      reason: `Có thể sai đáp án: nhóm 27% điểm cao chọn ${letter(rival)} (${percent(rivalUpper)}) nhiều hơn ${keyName} (${percent(keyUpper)}).`,
    });
  } else if (stats.discrimination !== null && stats.discrimination < 0) {
    flags.push({
      kind: 'wrong_key',
      reason: `Có thể sai đáp án: độ phân biệt âm (${decimal(stats.discrimination)}), thí sinh điểm cao làm đúng câu này ít hơn thí sinh điểm thấp.`,
    });
  }
  const drawing = bank.map((_, index) => index).filter((index) => stats.answers[index]!.upper >= AMBIGUOUS_UPPER_SHARE && draws(index));
  if (drawing.length >= 2) {
    const list = drawing.map((index) => `${letter(index)} (${percent(stats.answers[index]!.upper)})`).join(', ');
    flags.push({
      kind: 'ambiguous',
      reason: `Có thể có hai đáp án đúng: trong nhóm 27% điểm cao, mỗi đáp án ${list} được từ ${percent(AMBIGUOUS_UPPER_SHARE)} trở lên chọn, nhiều hơn trong nhóm điểm thấp.`,
    });
  }
  const facility = stats.facility!;
  if (facility < TOO_HARD_BELOW) flags.push({ kind: 'too_hard', reason: `Quá khó: chỉ ${percent(facility)} bài làm đúng (dưới ${percent(TOO_HARD_BELOW)}).` });
  if (facility > TOO_EASY_ABOVE) flags.push({ kind: 'too_easy', reason: `Quá dễ: ${percent(facility)} bài làm đúng (trên ${percent(TOO_EASY_ABOVE)}).` });
  const suspect = flags.some((flag) => flag.kind === 'wrong_key') && rival >= 0 ? bank[rival]!.id : null;
  return { flags, suspectedAnswerId: suspect };
}

/** Flagged first (by their most serious flag), then the lowest discrimination, then the bank's order. */
export function compareItems(a: { flags: Flag[]; discrimination: number | null; order: number }, b: typeof a): number {
  const rank = (item: typeof a) => (item.flags.length === 0 ? flagOrder.length : Math.min(...item.flags.map((flag) => flagOrder.indexOf(flag.kind))));
  const byFlag = rank(a) - rank(b);
  if (byFlag !== 0) return byFlag;
  const da = a.discrimination ?? Number.POSITIVE_INFINITY;
  const db = b.discrimination ?? Number.POSITIVE_INFINITY;
  if (da !== db) return da < db ? -1 : 1;
  return a.order - b.order;
}
