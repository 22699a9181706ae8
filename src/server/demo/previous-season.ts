// The demo's finished previous season (issue 26): last year's contest with the demo family's two
// children a grade lower, their finished exams and published results, so that the history screens
// (a season selector, last year's certificates and their check) have something to show. Run once,
// right after the demo content is loaded into an empty database.
import type { Db } from '../db/client';
import { demoAccounts } from '../db/seed/demo-accounts';
import { ensurePrizeSettings } from '../db/seed/result-settings';
import type { Clock } from '../lib/clock';
import { computeResults } from '../features/results/compute';
import { bookForClassRoom, insertFinishedExams } from './finished-exams';

const YEAR_MS = 365 * 86_400_000;
/** The demo children's class last year (this year's: 2A1 and 5A3). */
const LAST_YEAR_CLASS: Record<string, string> = { 'Nguyễn Minh Anh': '1A1', 'Nguyễn Đức Trường': '4A3' };

export async function addPreviousDemoSeason(db: Db, clock: Clock): Promise<void> {
  // The copy is about 650 statements: in one transaction it commits once, where each statement on
  // its own waited for a synchronous standby (decision 029; 160 s over the failover drill's 200 ms
  // link). The results are computed after it, in their own transaction.
  const previousId = await db.transaction().execute((trx) => copyLastYear(trx));
  await computeResults({ db, clock }, { contestId: previousId, force: true });
  const current = await db.selectFrom('contests').select('results_at').where('is_current', '=', true).executeTakeFirstOrThrow();
  await db.updateTable('result_runs').set({ published_at: new Date(current.results_at.getTime() - YEAR_MS) }).where('contest_id', '=', previousId).execute();
}

/** Last year's contest, books, the demo family's children and their finished exams; returns its id. */
async function copyLastYear(db: Db): Promise<number> {
  const current = await db.selectFrom('contests').selectAll().where('is_current', '=', true).executeTakeFirstOrThrow();
  const shift = (date: Date) => new Date(date.getTime() - YEAR_MS);
  const year = /\d{4}$/.exec(current.name);
  const name = year ? current.name.replace(/\d{4}$/, String(Number(year[0]) - 1)) : `${current.name} (mùa trước)`;
  const { id: previousId } = await db
    .insertInto('contests')
    .values({
      name,
      reading_starts_at: shift(current.reading_starts_at),
      reading_ends_at: shift(current.reading_ends_at),
      exam_starts_at: shift(current.exam_starts_at),
      exam_ends_at: shift(current.exam_ends_at),
      results_at: shift(current.results_at),
      ceremony_starts_at: shift(current.ceremony_starts_at),
      ceremony_ends_at: shift(current.ceremony_ends_at),
      is_current: false,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await ensurePrizeSettings(db);

  // Last year is written while it is the current season (its books are read-only otherwise).
  const setCurrent = async (id: number) => {
    await db.updateTable('contests').set({ is_current: false }).where('is_current', '=', true).execute();
    await db.updateTable('contests').set({ is_current: true }).where('id', '=', id).execute();
  };
  await setCurrent(previousId);
  const books = await db.selectFrom('books').selectAll().where('contest_id', '=', current.id).orderBy('position').execute();
  for (const book of books) {
    const { id } = await db
      .insertInto('books')
      .values({ contest_id: previousId, class_group_id: book.class_group_id, name: book.name, author: book.author, image: book.image, position: book.position })
      .returning('id')
      .executeTakeFirstOrThrow();
    const questions = await db.selectFrom('questions').select(['id', 'value', 'audio', 'is_practice']).where('book_id', '=', book.id).orderBy('id').execute();
    for (const question of questions) {
      const { id: questionId } = await db
        .insertInto('questions')
        .values({ book_id: id, value: question.value, audio: question.audio, is_practice: question.is_practice })
        .returning('id')
        .executeTakeFirstOrThrow();
      const answers = await db.selectFrom('answers').select(['value', 'is_correct', 'audio']).where('question_id', '=', question.id).orderBy('id').execute();
      await db.insertInto('answers').values(answers.map((answer) => ({ ...answer, question_id: questionId }))).execute();
    }
  }

  const parent = await db.selectFrom('users').select('id').where('phone', '=', demoAccounts.parent.phone).executeTakeFirstOrThrow();
  const children = await db.selectFrom('contestants').selectAll().where('user_id', '=', parent.id).where('contest_id', '=', current.id).orderBy('position').execute();
  for (const [index, child] of children.entries()) {
    const classRoom = LAST_YEAR_CLASS[child.fullname];
    if (!classRoom) continue;
    const room = await db.selectFrom('class_rooms').select(['id', 'class_group_id']).where('name', '=', classRoom).executeTakeFirstOrThrow();
    const { id: lastYearId } = await db
      .insertInto('contestants')
      .values({
        contest_id: previousId,
        user_id: parent.id,
        position: child.position,
        fullname: child.fullname,
        district_id: child.district_id,
        school_id: child.school_id,
        class_group_id: room.class_group_id,
        class_room_id: room.id,
        class_room_other: null,
        consent_version: child.consent_version,
        consented_at: child.consented_at,
        created_at: shift(child.created_at),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db.updateTable('contestants').set({ carried_from_id: lastYearId }).where('id', '=', child.id).execute();
    const book = await bookForClassRoom(db, classRoom, index);
    const day = shift(current.exam_starts_at).getTime() + (index + 1) * 86_400_000;
    await insertFinishedExams(db, [
      { contestId: previousId, contestantId: lastYearId, bookId: book.id, attempt: 1, points: 75 + index * 10, durationSeconds: 620 - index * 40, submittedAt: new Date(day), prediction: 3 },
      { contestId: previousId, contestantId: lastYearId, bookId: book.id, attempt: 2, points: 85 + index * 5, durationSeconds: 580 - index * 30, submittedAt: new Date(day + 3_600_000), prediction: 4 },
    ]);
  }
  await setCurrent(current.id);
  return previousId;
}
