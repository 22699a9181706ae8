// npm run results:compute [-- --force] [-- --contest=<id>] [-- --publish]
// Ranks the contestants of the current contest and stores the prizes (spec section 9), applying
// the organiser's tie decisions. Refuses before the exam window closes (or while exams are in
// progress) unless --force. Re-running replaces the previous results (a publication is kept).
// --publish then publishes them (on or after the results date, not with --force, every tie that
// crosses a prize boundary decided), with an audit entry; the back office (/quan-tri/ket-qua)
// does the same from the browser.
// With the embedded database (no DATABASE_URL), stop the server first: PGlite has one user.
import { loadConfig } from '../config';
import { openDatabase } from '../db/client';
import { migrate } from '../db/migrate';
import { systemClock } from '../lib/clock';
import { AppError } from '../lib/errors';
import { computeResults, publishResults } from '../features/results/compute';
import { formatDateTime, formatDuration, formatMoney } from '../../shared/format';

const args = process.argv.slice(2);
const force = args.includes('--force');
const publish = args.includes('--publish');
const contestArg = args.find((arg) => arg.startsWith('--contest='));
const contestId = contestArg ? Number(contestArg.split('=')[1]) : undefined;

const config = loadConfig();
const database = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
let exitCode = 0;
try {
  await migrate(database.db);
  const db = database.db;
  const summary = await computeResults({ db, clock: systemClock }, { force, contestId });
  console.log(`Kết quả cuộc thi #${summary.contestId}${summary.forced ? ' (TẠM TÍNH: --force)' : ''}`);
  console.log(`Số bài thi: ${summary.examPapers}; số thí sinh dự thi: ${summary.participants}`);

  const winners = await db
    .selectFrom('individual_results')
    .innerJoin('contestants', 'contestants.id', 'individual_results.contestant_id')
    .innerJoin('schools', 'schools.id', 'individual_results.school_id')
    .select([
      'individual_results.rank',
      'individual_results.tied',
      'individual_results.points',
      'individual_results.duration_seconds',
      'individual_results.prize_name',
      'individual_results.prize_amount',
      'individual_results.class_name',
      'contestants.fullname',
      'schools.name as school',
    ])
    .where('individual_results.contest_id', '=', summary.contestId)
    .where('individual_results.prize_code', 'is not', null)
    .orderBy('individual_results.rank')
    .orderBy('contestants.id')
    .execute();
  console.log('\nGiải cá nhân:');
  for (const w of winners) {
    console.log(
      `  ${String(w.rank).padStart(3)}${w.tied ? '=' : ' '} ${w.prize_name} (${formatMoney(w.prize_amount ?? 0)}): ` +
        `${w.fullname}, lớp ${w.class_name}, ${w.school} — ${w.points} điểm, ${formatDuration(w.duration_seconds)}`,
    );
  }

  const schools = await db
    .selectFrom('school_results')
    .innerJoin('schools', 'schools.id', 'school_results.school_id')
    .select(['school_results.rank', 'school_results.tied', 'school_results.score', 'school_results.participants', 'school_results.prize_name', 'schools.name'])
    .where('school_results.contest_id', '=', summary.contestId)
    .where('school_results.prize_code', 'is not', null)
    .orderBy('school_results.rank')
    .execute();
  console.log('\nGiải tập thể trường:');
  for (const s of schools) {
    console.log(`  ${s.rank}${s.tied ? '=' : ' '} ${s.prize_name}: ${s.name} — ${s.participants} học sinh dự thi, điểm ${s.score.toFixed(4)}`);
  }
  console.log(`Học sinh nhận quà tiêu biểu của trường: ${summary.schoolPupilWinners}`);

  const classes = await db
    .selectFrom('class_results')
    .innerJoin('schools', 'schools.id', 'class_results.school_id')
    .leftJoin('class_teachers', (join) =>
      join.onRef('class_teachers.school_id', '=', 'class_results.school_id').onRef('class_teachers.class_name', '=', 'class_results.class_name'),
    )
    .select(['class_results.rank', 'class_results.tied', 'class_results.class_name', 'class_results.avg_points', 'class_results.prize_name', 'schools.name', 'class_teachers.teacher_name'])
    .where('class_results.contest_id', '=', summary.contestId)
    .where('class_results.prize_code', 'is not', null)
    .orderBy('class_results.rank')
    .execute();
  console.log('\nGiải Giáo viên truyền lửa:');
  for (const c of classes) {
    console.log(
      `  ${c.rank}${c.tied ? '=' : ' '} ${c.prize_name}: lớp ${c.class_name}, ${c.name}` +
        ` — giáo viên ${c.teacher_name ?? '(chưa có tên)'}, điểm trung bình ${c.avg_points.toFixed(2)}`,
    );
  }

  if (summary.ties.length) {
    console.log('\nĐồng hạng sau cả bốn tiêu chí (Ban tổ chức cần xem xét):');
    for (const tie of summary.ties) {
      console.log(
        `  ${tie.scope}${tie.school_id ? ` (trường #${tie.school_id})` : ''}: hạng ${tie.rank}, ${tie.size} bên` +
          `${tie.crosses_prize ? ' — VƯỢT SỐ GIẢI của hạng này' : ''}: ${tie.ids.join(', ')}`,
      );
    }
  }
  if (publish) {
    const now = systemClock.now();
    const run = await db.transaction().execute(async (trx) => {
      const contest = await trx.selectFrom('contests').selectAll().where('id', '=', summary.contestId).executeTakeFirstOrThrow();
      const before = await trx.selectFrom('result_runs').select('published_at').where('contest_id', '=', contest.id).executeTakeFirst();
      const published = await publishResults(trx, contest, now, null);
      // The command line has no account: the entry names it instead (audit_log keeps the text).
      if (!before?.published_at) {
        await trx
          .insertInto('audit_log')
          .values({ actor_id: null, actor_phone: 'dòng lệnh', kind: 'results.publish', summary: `Công bố kết quả ${contest.name} (npm run results:compute -- --publish)`, details: JSON.stringify({ participants: published.participants }) })
          .execute();
      }
      return published;
    });
    console.log(`\nĐã công bố kết quả lúc ${formatDateTime(run.published_at!)}.`);
  }
} catch (error) {
  if (error instanceof AppError) {
    console.error(error.message);
    exitCode = 1;
  } else {
    throw error;
  }
} finally {
  await database.close();
}
process.exitCode = exitCode;
