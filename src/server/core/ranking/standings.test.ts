// rankContest is pure: the whole contest's results from attempts and settings, no database.
import { describe, expect, it } from 'vitest';
import { attemptRow } from '../../test/attempts';
import { rankContest } from './standings';

const tier = (code: string, winners: number, amount: number) => ({ code, name: `Giải ${code}`, position: 1, winners, amount });
const settings = {
  tiers: { individual: [tier('I1', 1, 500_000)], school: [tier('S1', 1, 1_000_000)], school_pupils: [tier('P1', 1, 100_000)], teacher: [tier('T1', 1, 300_000)] },
  classMinParticipants: 2,
  prizedSchoolsOnly: true,
};
let nextExam = 1;
const attempt = (contestantId: number, schoolId: number, className: string, points: number, durationSeconds = 600) =>
  attemptRow(nextExam++, contestantId, schoolId, className, points, durationSeconds);

describe('rankContest', () => {
  const attempts = [
    attempt(1, 1, '5A1', 90),
    attempt(1, 1, '5A1', 95), // the best of contestant 1 counts
    attempt(2, 1, '5A1', 80),
    attempt(3, 1, '5A2', 70),
    attempt(4, 2, '5A1', 85),
  ];
  const standings = rankContest({ attempts, examPapers: 10, settings, schoolSizes: [{ schoolId: 1, pupilCount: 3 }, { schoolId: 2, pupilCount: 100 }] });

  it('ranks each contestant once, by the best attempt, and awards the individual prize', () => {
    expect(standings.individual.map((e) => [e.item.contestantId, e.rank, e.tier?.code ?? null])).toEqual([
      [1, 1, 'I1'],
      [4, 2, null],
      [2, 3, null],
      [3, 4, null],
    ]);
  });

  it('ranks a contestant whose prize is withheld after all others, individually and in the school (decision 027)', () => {
    const held = rankContest({ attempts, examPapers: 10, settings, schoolSizes: [{ schoolId: 1, pupilCount: 3 }, { schoolId: 2, pupilCount: 100 }], held: new Set([1]) });
    expect(held.individual.map((e) => [e.item.contestantId, e.rank, e.tier?.code ?? null])).toEqual([
      [4, 1, 'I1'],
      [2, 2, null],
      [3, 3, null],
      [1, 4, null],
    ]);
    // In school 1 the next pupil takes the best pupils' gift; the class and the school still count contestant 1.
    expect([...held.schoolTop]).toEqual([[2, 100_000]]);
    expect(held.schoolRank.get(1)?.rank).toBe(3);
    expect(held.classStats.find((c) => c.schoolId === 1 && c.className === '5A1')?.participants).toBe(2);
  });

  it('ranks schools by participation, gives the prized school its best pupil, and ranks classes above the minimum', () => {
    expect(standings.schools.map((e) => [e.item.schoolId, e.rank, e.tier?.code ?? null])).toEqual([
      [1, 1, 'S1'],
      [2, 2, null],
    ]);
    expect([...standings.schoolTop]).toEqual([[1, 100_000]]);
    expect(standings.schoolRank.get(4)?.rank).toBe(1);
    // 5A1 of school 1 has two pupils; 5A2 and school 2's 5A1 one each (below the minimum of 2).
    expect(standings.classes.map((e) => [e.item.schoolId, e.item.className, e.tier?.code ?? null])).toEqual([[1, '5A1', 'T1']]);
    expect(standings.classStats).toHaveLength(3);
    expect(standings.ties).toEqual([]);
  });
});

describe('rankContest with the organiser’s tie decisions', () => {
  // Contestants 1, 2 and 3 are equal under all four rules at rank 1; one prize of the tier.
  const attempts = [attempt(1, 1, '5A1', 90), attempt(2, 1, '5A1', 90), attempt(3, 2, '5A1', 90), attempt(4, 2, '5A1', 50)];
  const input = { attempts, examPapers: 10, settings, schoolSizes: [{ schoolId: 1, pupilCount: 10 }, { schoolId: 2, pupilCount: 10 }] };
  const prizes = (standings: ReturnType<typeof rankContest>) => standings.individual.map((e) => [e.item.contestantId, e.rank, e.tied, e.tier?.code ?? null]);

  it('without a decision, every member of the tie shares the prize and the tie is reported as crossing', () => {
    const standings = rankContest(input);
    expect(prizes(standings)).toEqual([
      [1, 1, true, 'I1'],
      [2, 1, true, 'I1'],
      [3, 1, true, 'I1'],
      [4, 4, false, null],
    ]);
    expect(standings.ties.find((tie) => tie.scope === 'individual')).toEqual({ scope: 'individual', rank: 1, size: 3, crosses_prize: true, ids: [1, 2, 3] });
  });

  it("'order' gives the members consecutive places in the decided order (the tier keeps one winner)", () => {
    const standings = rankContest({ ...input, tieDecisions: [{ scope: 'individual', ids: [3, 1, 2], decision: 'order', order: [3, 1, 2] }] });
    expect(prizes(standings)).toEqual([
      [3, 1, false, 'I1'],
      [1, 2, false, null],
      [2, 3, false, null],
      [4, 4, false, null],
    ]);
    expect(standings.ties.find((tie) => tie.scope === 'individual')).toMatchObject({ rank: 1, size: 3, crosses_prize: true, decision: 'order' });
  });

  it("'share' keeps the shared prize and marks the tie decided; a decision on another group changes nothing", () => {
    const shared = rankContest({ ...input, tieDecisions: [{ scope: 'individual', ids: [1, 2, 3], decision: 'share' }] });
    expect(prizes(shared)).toEqual(prizes(rankContest(input)));
    expect(shared.ties.find((tie) => tie.scope === 'individual')?.decision).toBe('share');
    const stale = rankContest({ ...input, tieDecisions: [{ scope: 'individual', ids: [1, 2], decision: 'order', order: [2, 1] }] });
    expect(prizes(stale)).toEqual(prizes(rankContest(input)));
    expect(stale.ties.find((tie) => tie.scope === 'individual')?.decision).toBeUndefined();
  });
});
