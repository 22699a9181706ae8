// The prize changes of a regrade: the contest ranked before and after in memory, compared.
import { describe, expect, it } from 'vitest';
import { attemptRow as attempt } from '../../../test/attempts';
import { prizeChangesOf } from './prize-changes';

const tier = (code: string, position: number, winners: number) => ({ code, name: `Giải ${code}`, position, winners, amount: 100_000 });
const settings = {
  tiers: {
    individual: [tier('I1', 1, 1), tier('I2', 2, 1)],
    school: [tier('S1', 1, 2)],
    school_pupils: [tier('P1', 1, 1)],
    teacher: [tier('T1', 1, 1)],
  },
  classMinParticipants: 2,
  prizedSchoolsOnly: true,
};

// School 1: pupils 1 (95, 5A1) and 2 (90, 5A1), class 5A1 average 92.5.
// School 2: pupils 3 (90 in 100 s, 4A1) and 4 (85, 4A1), class 4A1 average 87.5.
// Before: 1 I1, 3 I2 (90 in 100 s beats 90 in 300 s); best pupils 1 and 3; teacher prize 5A1@1.
const attempts = [attempt(11, 1, 1, '5A1', 95, 200), attempt(12, 2, 1, '5A1', 90, 300), attempt(13, 3, 2, '4A1', 90, 100), attempt(14, 4, 2, '4A1', 85, 100)];
const input = { attempts, examPapers: 4, settings, schoolSizes: [{ schoolId: 1, pupilCount: 10 }, { schoolId: 2, pupilCount: 10 }] };

describe('prizeChangesOf', () => {
  it('lists nothing when no point changes', () => {
    expect(prizeChangesOf(input, new Map())).toEqual([]);
  });

  it('lists individual, best-pupil and teacher prizes that a regrade gives, takes or changes', () => {
    // Pupil 4 gains 15 (100) and pupil 1 loses 10 (85): ranks 4, 3, 2, 1 -> 4 I1, 3 keeps I2;
    // each school's best pupil changes (2 and 4); class 4A1 (95) takes the teacher prize from
    // 5A1 (87.5). Listed in the order of the ranking before.
    const changes = prizeChangesOf(input, new Map([[14, 100], [11, 85]]));
    expect(changes.map((c) => [c.kind, c.change, c.contestantId ?? c.className, c.rankBefore, c.rankAfter, c.prizeBefore, c.prizeAfter])).toEqual([
      ['individual', 'lose', 1, 1, 4, 'Giải I1', null],
      ['individual', 'gain', 4, 4, 1, null, 'Giải I1'],
      ['school_pupils', 'lose', 1, 1, 2, 'Giải P1', null],
      ['school_pupils', 'lose', 3, 1, 2, 'Giải P1', null],
      ['school_pupils', 'gain', 2, 2, 1, null, 'Giải P1'],
      ['school_pupils', 'gain', 4, 2, 1, null, 'Giải P1'],
      ['teacher', 'lose', '5A1', 1, 2, 'Giải T1', null],
      ['teacher', 'gain', '4A1', 2, 1, null, 'Giải T1'],
    ]);
  });

  it('calls a prize that moves to another tier a change', () => {
    // Pupil 3 gains 10 (100): first; pupil 1 second.
    const changes = prizeChangesOf(input, new Map([[13, 100]]));
    expect(changes.filter((c) => c.kind === 'individual').map((c) => [c.contestantId, c.change, c.prizeBefore, c.prizeAfter])).toEqual([
      [1, 'change', 'Giải I1', 'Giải I2'],
      [3, 'change', 'Giải I2', 'Giải I1'],
    ]);
  });
});
