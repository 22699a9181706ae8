// Demo results: simulated pupils with finished exams in the demo school and a few others, so that
// the school report, the rankings and the certificates have something to show. Deterministic (a
// fixed pseudo-random sequence). Never used by the app itself: npm run results:demo.
import type { Db } from '../db/client';
import type { Clock } from '../lib/clock';
import { seededRandom } from '../lib/seeded-random';
import { demoAccounts } from '../db/seed/demo-accounts';
import { computeResults, type ComputeSummary } from '../features/results/compute';
import { bookForClassRoom, insertFinishedExams, insertPupils, type FinishedExamInput } from './finished-exams';

/** Phones of the simulated parents start with this (they cannot log in). */
export const DEMO_PHONE_PREFIX = '0388';

const FAMILY = ['Nguyễn', 'Trần', 'Lê', 'Phạm', 'Hoàng', 'Huỳnh', 'Phan', 'Vũ', 'Võ', 'Đặng', 'Bùi', 'Đỗ', 'Hồ', 'Ngô', 'Dương', 'Lý'];
const MIDDLE = ['Văn', 'Thị', 'Minh', 'Ngọc', 'Gia', 'Bảo', 'Thanh', 'Đức', 'Khánh', 'Hoài', 'Anh', 'Quốc', 'Tuệ', 'Phương'];
const GIVEN = ['An', 'Bình', 'Châu', 'Dũng', 'Giang', 'Hà', 'Hải', 'Hân', 'Hiếu', 'Hoà', 'Huy', 'Khang', 'Khoa', 'Lan', 'Linh', 'Long', 'Mai', 'Minh', 'My', 'Nam', 'Ngân', 'Nhi', 'Phúc', 'Quân', 'Quỳnh', 'Sơn', 'Tâm', 'Thảo', 'Trang', 'Trí', 'Tú', 'Uyên', 'Vy', 'Yến'];

export interface DemoOptions {
  /** Close the exam window now and publish the results today (the demo then shows prizes). */
  publish: boolean;
}

export interface DemoSummary {
  pupils: number;
  exams: number;
  schools: number;
  results?: ComputeSummary;
}

/**
 * Simulates the demo contest (once: with the simulated pupils already there, only publishes when
 * asked, otherwise refuses).
 */
export async function simulateDemoResults(db: Db, clock: Clock, options: DemoOptions): Promise<DemoSummary> {
  const already = await db.selectFrom('users').select('id').where('phone', 'like', `${DEMO_PHONE_PREFIX}%`).limit(1).executeTakeFirst();
  if (already && !options.publish) throw new Error('Dữ liệu mô phỏng đã có trong cơ sở dữ liệu; không tạo thêm.');
  if (already) return { pupils: 0, exams: 0, schools: 0, results: await publishDemoResults(db, clock) };
  const contest = await db.selectFrom('contests').selectAll().where('is_current', '=', true).executeTakeFirstOrThrow();
  const now = clock.now();
  const random = seededRandom(2025);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;

  const demoSchool = await db.selectFrom('schools').select(['id']).where('name', '=', demoAccounts.schoolAdmin.school).executeTakeFirstOrThrow();
  const others = await db.selectFrom('schools').select(['id']).where('id', '<>', demoSchool.id).orderBy('id').limit(6).execute();
  // The demo school gets many pupils in a few classes (so classes reach the teacher-prize
  // minimum); the others fewer.
  const plan = [
    { schoolId: demoSchool.id, count: 200, classRooms: ['1A1', '2A1', '2A2', '3A1', '4A2', '5A1', '5A3'] },
    ...others.map((school, index) => ({ schoolId: school.id, count: 30 + index * 12, classRooms: ['1A2', '3A2', '4A1', '5A2'] })),
  ];

  // Exams fall between the window's start and now (or its end when that came first).
  const from = contest.exam_starts_at.getTime();
  const until = Math.max(from + 60_000, Math.min(now.getTime(), contest.exam_ends_at.getTime()) - 60_000);
  let pupils = 0;
  const exams: FinishedExamInput[] = [];
  for (const [schoolIndex, entry] of plan.entries()) {
    const created = await insertPupils(db, {
      schoolId: entry.schoolId,
      classRooms: entry.classRooms,
      count: entry.count,
      fullname: () => `${pick(FAMILY)} ${pick(MIDDLE)} ${pick(GIVEN)}`,
      phonePrefix: DEMO_PHONE_PREFIX,
    });
    pupils += created.length;
    for (const pupil of created) {
      const book = await bookForClassRoom(db, pupil.classRoom, Math.floor(random() * 3));
      const attempts = 1 + Math.floor(random() * 3);
      // Each attempt later than the previous one.
      const times = Array.from({ length: attempts }, () => from + random() * (until - from)).sort((a, b) => a - b);
      // Pupils of the demo school read a little more (the report has a clear top).
      const skill = 0.45 + random() * 0.5 + (schoolIndex === 0 ? 0.05 : 0);
      times.forEach((time, index) => {
        const correct = Math.max(0, Math.min(20, Math.round(20 * skill + (random() - 0.5) * 6 + index)));
        exams.push({
          contestantId: pupil.id,
          bookId: book.id,
          attempt: index + 1,
          points: correct * 5,
          durationSeconds: 240 + Math.floor(random() * 900),
          submittedAt: new Date(time),
          prediction: Math.floor(200 + random() * 800),
        });
      });
    }
  }
  await insertFinishedExams(db, exams.map((exam) => ({ ...exam, contestId: contest.id })));

  const results = options.publish ? await publishDemoResults(db, clock) : undefined;
  return { pupils, exams: exams.length, schools: plan.length, results };
}

/** Ends the exam window a minute ago, publishes the results now and computes them. */
export async function publishDemoResults(db: Db, clock: Clock): Promise<ComputeSummary> {
  const contest = await db.selectFrom('contests').selectAll().where('is_current', '=', true).executeTakeFirstOrThrow();
  const endsAt = new Date(clock.now().getTime() - 60_000);
  const startsAt = new Date(Math.min(contest.exam_starts_at.getTime(), endsAt.getTime() - 86_400_000));
  await db
    .updateTable('contests')
    .set({ exam_starts_at: startsAt, exam_ends_at: endsAt, results_at: endsAt, reading_starts_at: new Date(Math.min(contest.reading_starts_at.getTime(), startsAt.getTime())) })
    .where('id', '=', contest.id)
    .execute();
  // Forced: a demo visitor may have an exam open; it is left out of the published results. A
  // forced run cannot be published through publishResults; the demo publishes it directly.
  const summary = await computeResults({ db, clock }, { contestId: contest.id, force: true });
  await db.updateTable('result_runs').set({ published_at: clock.now() }).where('contest_id', '=', contest.id).execute();
  return summary;
}
