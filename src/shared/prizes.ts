// The prize table of spec section 9, in one place: the rules page shows it, and the contest
// settings are seeded from it. Amounts are in đồng, per prize (not per tier).

export type PrizeKind = 'individual' | 'school' | 'school_pupils' | 'teacher';

export interface PrizeTier {
  kind: PrizeKind;
  /** Stable id of the tier (kept in the database; never shown). */
  code: string;
  name: string;
  /** How many prizes of this tier are given (per school for 'school_pupils'). */
  count: number;
  /** Đồng for one prize of this tier. */
  amount: number;
}

export const PRIZE_TIERS: readonly PrizeTier[] = [
  { kind: 'individual', code: 'special', name: 'Giải Đặc biệt', count: 1, amount: 10_000_000 },
  { kind: 'individual', code: 'first', name: 'Giải Nhất', count: 1, amount: 5_000_000 },
  { kind: 'individual', code: 'second', name: 'Giải Nhì', count: 3, amount: 2_000_000 },
  { kind: 'individual', code: 'third', name: 'Giải Ba', count: 20, amount: 500_000 },
  { kind: 'individual', code: 'consolation', name: 'Giải Khuyến khích', count: 50, amount: 200_000 },

  { kind: 'school', code: 'school_first', name: 'Giải Nhất tập thể trường', count: 1, amount: 10_000_000 },
  { kind: 'school', code: 'school_second', name: 'Giải Nhì tập thể trường', count: 1, amount: 5_000_000 },
  { kind: 'school', code: 'school_third', name: 'Giải Ba tập thể trường', count: 1, amount: 3_000_000 },
  // The 30 best pupils of each prized school, on top of the school's own prize.
  { kind: 'school_pupils', code: 'school_top_pupils', name: 'Quà cho 30 học sinh tiêu biểu của trường', count: 30, amount: 70_000 },

  { kind: 'teacher', code: 'teacher_first', name: 'Giải Nhất Giáo viên truyền lửa', count: 1, amount: 3_000_000 },
  { kind: 'teacher', code: 'teacher_second', name: 'Giải Nhì Giáo viên truyền lửa', count: 1, amount: 2_000_000 },
  { kind: 'teacher', code: 'teacher_third', name: 'Giải Ba Giáo viên truyền lửa', count: 1, amount: 1_000_000 },
];

export const prizesOfKind = (kind: PrizeKind): PrizeTier[] => PRIZE_TIERS.filter((tier) => tier.kind === kind);

/** Đồng for a whole tier: count × amount. */
export const tierTotal = (tier: PrizeTier): number => tier.count * tier.amount;

/** Đồng for all the given tiers (individual prizes: 41.000.000; teacher prizes: 6.000.000). */
export function prizeTotal(tiers: readonly PrizeTier[]): number {
  return tiers.reduce((sum, tier) => sum + tierTotal(tier), 0);
}

// School prize score (results helper: src/server/core/ranking/ranking.ts computes exactly
// this; shown on the rules page) -------------------------------------------------------------

/** How the school prizes are decided: 50:50 by participants and by participation relative to size. */
export const SCHOOL_SCORE_FORMULA =
  'Điểm xếp hạng của trường = 0,5 × (số học sinh dự thi của trường ÷ số học sinh dự thi của trường có nhiều học sinh dự thi nhất) ' +
  '+ 0,5 × (tỉ lệ dự thi của trường ÷ tỉ lệ dự thi cao nhất trong các trường). ' +
  'Tỉ lệ dự thi = số học sinh dự thi ÷ sĩ số học sinh của trường (tối đa bằng 1). ' +
  'Số học sinh dự thi là số thí sinh của trường có ít nhất một bài thi đã nộp.';
