import { describe, expect, it } from 'vitest';
import { prizeTotal, prizesOfKind, tierTotal } from './prizes';

describe('prize table (spec section 9)', () => {
  it('individual prizes add up to 41.000.000 đ over 75 pupils', () => {
    const individual = prizesOfKind('individual');
    expect(prizeTotal(individual)).toBe(41_000_000);
    expect(individual.reduce((n, tier) => n + tier.count, 0)).toBe(75);
  });

  it('teacher prizes add up to 6.000.000 đ', () => {
    expect(prizeTotal(prizesOfKind('teacher'))).toBe(6_000_000);
  });

  it('the 30 best pupils of a prized school get 2.100.000 đ in all', () => {
    expect(tierTotal(prizesOfKind('school_pupils')[0]!)).toBe(2_100_000);
  });

  it('school prizes are 10, 5 and 3 million', () => {
    expect(prizesOfKind('school').map((tier) => tier.amount)).toEqual([10_000_000, 5_000_000, 3_000_000]);
  });
});
