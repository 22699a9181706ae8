// The results of a contest of 300 contestants with deliberate ties, checked against a prize list
// worked out by hand (see the plan below).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness';
import { insertFinishedExams, insertPupils, bookForClassRoom, type FinishedExamInput } from '../../demo/finished-exams';
import { computeResults, type ComputeSummary } from './compute';

// Plan (best attempts; instants in seconds after T):
//  School C (Hương Sơn, 188 pupils), class 3A1: elite
//    P1 100 pts 300 s (attempts: 90/200 s before, 60/100 s after)      -> rank 1, special
//    P2, P3 100 pts 310 s at T+10, predictions papers-5 and papers+5     -> rank 2 tied, both 'first'
//    P4 100 pts 310 s at T+10, prediction papers+6                       -> rank 4, second
//    P5 100 pts 310 s at T+11                                            -> rank 5, second
//    P6 95 pts 100 s                                                     -> rank 6, third
//  School A (Lê Lợi, 1250), class 5A1: 30 pupils 95 pts, 400..429 s (and a 60-pt attempt each)
//                                                                        -> ranks 7..36: 19 third, 11 consolation
//  School B (Nguyễn Trãi, 980), class 4A1: 37 pupils 90 pts, 500..536 s  -> ranks 37..73 consolation
//  School D (Tân Lập, 255), class 2A1: 3 pupils 90 pts 600 s, same instant, no prediction
//                                                                        -> rank 74 tied x3, all consolation (76 winners)
//  The rest (no prize): A 1A1 10 + 1A2 10 pupils 80 pts 700 s; A 1A3 100 pupils 50 pts 900 s;
//  B 4A2 53 pupils 60 pts 800 s; C 3A2 44 pupils 70 pts 850 s; D 2A2 7 pupils 40 pts 900 s.
// Exam papers: 300 best + 2 (P1) + 30 (5A1) = 332.
// Schools (participants / size): A 150/1250, B 90/980, C 50/188, D 10/255
//   A = .5·150/150 + .5·(.12/.26596) = .7256 first; C = .5·50/150 + .5 = .6667 second;
//   B = .5·90/150 + .5·(.09184/.26596) = .4727 third; D = .1071 none.
// Teacher prizes (classes with >= 10 participants): 5A1@A avg 95 first, 4A1@B avg 90 second,
//   1A1@A and 1A2@A avg 80, 10 pupils, 700 s: tied third (both).
// Ties reported: individual ranks 2 (x2) and 74 (x3), P2/P3 inside school C's 30 best, classes rank 3.
const PAPERS = 332;

let server: TestServer;
let summary: ComputeSummary;
const ids: Record<string, number[]> = {};
let schoolId: Record<'A' | 'B' | 'C' | 'D', number>;

async function schoolByName(name: string) {
  return (await server.db.selectFrom('schools').select('id').where('name', '=', name).executeTakeFirstOrThrow()).id;
}

beforeAll(async () => {
  server = await startTestServer();
  const contest = await server.db.selectFrom('contests').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
  const T = contest.exam_starts_at.getTime() + 86_400_000;
  const at = (seconds: number) => new Date(T + seconds * 1000);
  schoolId = {
    A: await schoolByName('Trường Tiểu học Lê Lợi'),
    B: await schoolByName('Trường Tiểu học Nguyễn Trãi'),
    C: await schoolByName('Trường Tiểu học Hương Sơn'),
    D: await schoolByName('Trường Tiểu học Tân Lập'),
  };
  const exams: FinishedExamInput[] = [];
  const group = async (name: string, school: keyof typeof schoolId, classRoom: string, count: number) => {
    const pupils = await insertPupils(server.db, { schoolId: schoolId[school], classRooms: [classRoom], count, fullname: (i) => `${name} ${i + 1}` });
    ids[name] = pupils.map((p) => p.id);
    return { pupils, book: (await bookForClassRoom(server.db, classRoom)).id };
  };
  const exam = (contestantId: number, bookId: number, attempt: number, points: number, durationSeconds: number, seconds: number, prediction: number | null) =>
    exams.push({ contestantId, bookId, attempt, points, durationSeconds, submittedAt: at(seconds), prediction });

  const elite = await group('Elite', 'C', '3A1', 6);
  const [p1, p2, p3, p4, p5, p6] = ids.Elite!;
  exam(p1!, elite.book, 1, 90, 200, -3600, 10);
  exam(p1!, elite.book, 2, 100, 300, 0, 10);
  exam(p1!, elite.book, 3, 60, 100, 3600, 10);
  exam(p2!, elite.book, 1, 100, 310, 10, PAPERS - 5);
  exam(p3!, elite.book, 1, 100, 310, 10, PAPERS + 5);
  exam(p4!, elite.book, 1, 100, 310, 10, PAPERS + 6);
  exam(p5!, elite.book, 1, 100, 310, 11, PAPERS);
  exam(p6!, elite.book, 1, 95, 100, 20, PAPERS);

  const a95 = await group('A95', 'A', '5A1', 30);
  a95.pupils.forEach((p, i) => {
    exam(p.id, a95.book, 1, 60, 100, 50 + i, 1);
    exam(p.id, a95.book, 2, 95, 400 + i, 100 + i, 100);
  });
  const b90 = await group('B90', 'B', '4A1', 37);
  b90.pupils.forEach((p, i) => exam(p.id, b90.book, 1, 90, 500 + i, 200 + i, 100));
  const tie = await group('Tie', 'D', '2A1', 3);
  tie.pupils.forEach((p) => exam(p.id, tie.book, 1, 90, 600, 5000, null));

  let second = 10_000;
  const rest = async (name: string, school: keyof typeof schoolId, classRoom: string, count: number, points: number, duration: number) => {
    const { pupils, book } = await group(name, school, classRoom, count);
    for (const p of pupils) exam(p.id, book, 1, points, duration, (second += 1), 100);
  };
  await rest('A1A1', 'A', '1A1', 10, 80, 700);
  await rest('A1A2', 'A', '1A2', 10, 80, 700);
  await rest('A1A3', 'A', '1A3', 100, 50, 900);
  await rest('B4A2', 'B', '4A2', 53, 60, 800);
  await rest('C3A2', 'C', '3A2', 44, 70, 850);
  await rest('D2A2', 'D', '2A2', 7, 40, 900);
  await insertFinishedExams(server.db, exams);

  server.clock.set(new Date(contest.exam_ends_at.getTime() + 60_000));
  summary = await computeResults(server);
});

afterAll(async () => {
  await server?.close();
});

async function individual(contestantId: number) {
  return server.db.selectFrom('individual_results').selectAll().where('contestant_id', '=', contestantId).executeTakeFirstOrThrow();
}

describe('compute-results on 300 contestants', () => {
  it('counts exam papers and participants', () => {
    expect(summary.examPapers).toBe(PAPERS);
    expect(summary.participants).toBe(300);
  });

  it('takes each contestant best attempt', async () => {
    const p1 = await individual(ids.Elite![0]!);
    expect([p1.points, p1.duration_seconds, p1.rank, p1.prize_code]).toEqual([100, 300, 1, 'special']);
  });

  it('ranks the top by the four rules, with the surviving tie flagged', async () => {
    const rows = await Promise.all(ids.Elite!.map(individual));
    expect(rows.map((r) => [r.rank, r.tied, r.prize_code])).toEqual([
      [1, false, 'special'],
      [2, true, 'first'],
      [2, true, 'first'],
      [4, false, 'second'], // same instant as P2/P3, prediction one further
      [5, false, 'second'], // one second later
      [6, false, 'third'],
    ]);
    expect(rows[1]!.prediction_distance).toBe(5);
    expect(rows[3]!.prediction_distance).toBe(6);
  });

  it('gives the prize list worked out by hand', async () => {
    const count = (code: string) => summary.individualWinners.filter((w) => w.prize === code).length;
    expect(count('Giải Đặc biệt')).toBe(1);
    expect(count('Giải Nhất')).toBe(2);
    expect(count('Giải Nhì')).toBe(2);
    expect(count('Giải Ba')).toBe(20);
    expect(count('Giải Khuyến khích')).toBe(51);
    expect(summary.individualWinners.reduce((sum, w) => sum + w.amount, 0)).toBe(44_200_000);

    const a95 = await Promise.all(ids.A95!.map(individual));
    expect(a95.map((r) => r.rank)).toEqual(Array.from({ length: 30 }, (_, i) => 7 + i));
    expect(a95.filter((r) => r.prize_code === 'third')).toHaveLength(19);
    expect(a95.filter((r) => r.prize_code === 'consolation')).toHaveLength(11);
    const b90 = await Promise.all(ids.B90!.map(individual));
    expect(b90.map((r) => r.rank)).toEqual(Array.from({ length: 37 }, (_, i) => 37 + i));
    expect(b90.every((r) => r.prize_code === 'consolation')).toBe(true);
    const tie = await Promise.all(ids.Tie!.map(individual));
    expect(tie.map((r) => [r.rank, r.tied, r.prize_code, r.prediction_distance])).toEqual([
      [74, true, 'consolation', null],
      [74, true, 'consolation', null],
      [74, true, 'consolation', null],
    ]);
    const firstWithout = await individual(ids.A1A1![0]!);
    expect([firstWithout.rank, firstWithout.prize_code]).toEqual([77, null]);
    const last = await individual(ids.D2A2![6]!);
    expect(last.rank).toBe(300);
  });

  it('reports the ties that survive the rules, and which cross a prize boundary', () => {
    const sorted = summary.ties.map((t) => ({ scope: t.scope, rank: t.rank, size: t.size, crosses: t.crosses_prize }));
    expect(sorted).toEqual([
      { scope: 'individual', rank: 2, size: 2, crosses: true },
      { scope: 'individual', rank: 74, size: 3, crosses: true },
      // P2 and P3 are also tied inside school C, within its 30 best: reported, no boundary crossed.
      { scope: 'school_pupils', rank: 2, size: 2, crosses: false },
      { scope: 'classes', rank: 3, size: 2, crosses: true },
    ]);
    expect(summary.ties[0]!.ids).toEqual([ids.Elite![1], ids.Elite![2]]);
  });

  it('ranks the schools 50:50 by participants and participation relative to size', async () => {
    const schools = await server.db.selectFrom('school_results').selectAll().orderBy('rank').execute();
    expect(schools.map((s) => [s.school_id, s.rank, s.prize_code, s.participants])).toEqual([
      [schoolId.A, 1, 'school_first', 150],
      [schoolId.C, 2, 'school_second', 50],
      [schoolId.B, 3, 'school_third', 90],
      [schoolId.D, 4, null, 10],
    ]);
    expect(schools[0]!.score).toBeCloseTo(0.5 + 0.5 * (150 / 1250) / (50 / 188), 5);
    expect(schools[1]!.score).toBeCloseTo(0.5 * (50 / 150) + 0.5, 5);
    expect(schools[2]!.score).toBeCloseTo(0.5 * (90 / 150) + 0.5 * (90 / 980) / (50 / 188), 5);
  });

  it('gives the 30 best pupils of each prized school the pupils prize', async () => {
    const tops = await server.db
      .selectFrom('individual_results')
      .select(['school_id', 'contestant_id', 'school_rank', 'school_top_amount'])
      .where('school_top', '=', true)
      .execute();
    const bySchool = (id: number) => tops.filter((t) => t.school_id === id);
    expect(bySchool(schoolId.A).map((t) => t.contestant_id).sort((a, b) => a - b)).toEqual([...ids.A95!].sort((a, b) => a - b));
    expect(bySchool(schoolId.B)).toHaveLength(30);
    expect(bySchool(schoolId.C)).toHaveLength(30);
    expect(bySchool(schoolId.D)).toHaveLength(0); // no school prize
    expect(tops.every((t) => t.school_top_amount === 70_000 && t.school_rank <= 30)).toBe(true);
    expect(summary.schoolPupilWinners).toBe(90);
  });

  it('gives the teacher prizes to classes by the documented rule', async () => {
    expect(summary.classWinners.map((c) => [c.schoolId, c.className, c.rank, c.tied, c.prize])).toEqual([
      [schoolId.A, '5A1', 1, false, 'Giải Nhất Giáo viên truyền lửa'],
      [schoolId.B, '4A1', 2, false, 'Giải Nhì Giáo viên truyền lửa'],
      [schoolId.A, '1A1', 3, true, 'Giải Ba Giáo viên truyền lửa'],
      [schoolId.A, '1A2', 3, true, 'Giải Ba Giáo viên truyền lửa'],
    ]);
    const elite = await server.db.selectFrom('class_results').selectAll().where('class_name', '=', '3A1').executeTakeFirstOrThrow();
    expect([elite.participants, elite.rank, elite.prize_code]).toEqual([6, null, null]); // too few participants
  });

  it('re-running replaces the previous results', async () => {
    // A new, better attempt of a pupil without a prize lifts them to the top.
    const climber = ids.D2A2![0]!;
    const book = (await bookForClassRoom(server.db, '2A2')).id;
    const contest = await server.db.selectFrom('contests').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    await insertFinishedExams(server.db, [
      { contestantId: climber, bookId: book, attempt: 2, points: 100, durationSeconds: 50, submittedAt: new Date(contest.exam_starts_at.getTime() + 3_600_000), prediction: 1 },
    ]);
    const again = await computeResults(server);
    expect(again.examPapers).toBe(PAPERS + 1);
    expect((await individual(climber)).prize_code).toBe('special');
    expect((await individual(ids.Elite![0]!)).rank).toBe(2);
    const rows = await server.db.selectFrom('individual_results').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(rows.n)).toBe(300);
    const runs = await server.db.selectFrom('result_runs').selectAll().execute();
    expect(runs).toHaveLength(1);
  });
});

describe('when results may be computed', () => {
  it('refuses before the exam window closes unless forced', async () => {
    const contest = await server.db.selectFrom('contests').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    server.clock.set(new Date(contest.exam_ends_at.getTime() - 60_000));
    await expect(computeResults(server)).rejects.toMatchObject({ status: 409, code: 'results_too_early' });
    const forced = await computeResults(server, { force: true });
    expect(forced.forced).toBe(true);
    server.clock.set(new Date(contest.exam_ends_at.getTime() + 60_000));
  });
});
