// Two siblings with the same score, the same time to the second and the same prediction, who
// submitted 16 ms apart within one second (issue 42): the families see the same submission time,
// so the ranking sees it too. They share the first place, and the tie, which crosses the one
// special prize, goes to the organiser to decide (decision 003), instead of 16 ms deciding
// between 10.000.000 đ and 5.000.000 đ. A submission one second later still ranks after them.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness';
import { bookForClassRoom, insertFinishedExams, insertPupils } from '../../demo/finished-exams';
import { computeResults, type ComputeSummary } from './compute';

let server: TestServer;
let summary: ComputeSummary;
let pupils: { id: number; userId: number }[];

beforeAll(async () => {
  server = await startTestServer();
  const contest = await server.db.selectFrom('contests').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
  const school = await server.db.selectFrom('schools').select('id').where('name', '=', 'Trường Tiểu học Lê Lợi').executeTakeFirstOrThrow();
  // Three pupils of one parent (insertPupils gives a parent three children): siblings.
  pupils = await insertPupils(server.db, { schoolId: school.id, classRooms: ['5A1'], count: 3, fullname: (i) => `Anh chị em ${i + 1}` });
  const book = (await bookForClassRoom(server.db, '5A1')).id;
  // A whole second a day into the window, then 16 ms and 1,000 ms after it.
  const second = Math.floor(contest.exam_starts_at.getTime() / 1000) * 1000 + 86_400_000;
  await insertFinishedExams(
    server.db,
    [0, 16, 1000].map((offsetMs, i) => ({ contestantId: pupils[i]!.id, bookId: book, attempt: 1, points: 100, durationSeconds: 300, submittedAt: new Date(second + offsetMs), prediction: 3 })),
  );
  server.clock.set(new Date(contest.exam_ends_at.getTime() + 60_000));
  summary = await computeResults(server);
});
afterAll(() => server?.close());

it('ranks submissions within one second equal: the siblings share the first place, the next second ranks third', async () => {
  expect(new Set(pupils.map((pupil) => pupil.userId)).size).toBe(1);
  const results = await server.db
    .selectFrom('individual_results')
    .select(['contestant_id', 'rank', 'tied'])
    .where('contestant_id', 'in', pupils.map((pupil) => pupil.id))
    .orderBy('contestant_id')
    .execute();
  expect(results).toEqual([
    { contestant_id: pupils[0]!.id, rank: 1, tied: true },
    { contestant_id: pupils[1]!.id, rank: 1, tied: true },
    { contestant_id: pupils[2]!.id, rank: 3, tied: false },
  ]);
});

it('reports their tie as crossing the special prize, for the organiser to decide', () => {
  const tie = summary.ties.find((t) => t.scope === 'individual' && t.rank === 1);
  expect(tie).toMatchObject({ size: 2, crosses_prize: true });
  expect([...tie!.ids].map(Number).sort((a, b) => a - b)).toEqual([pupils[0]!.id, pupils[1]!.id]);
});
