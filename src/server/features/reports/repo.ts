// SQL of the school report. The finished exams come from the ranking repo (one rule).
import { sql } from 'kysely';
import { seasonMessages } from '../../../shared/messages/seasons';
import type { Db } from '../../db/client';
import { contestantClassKey } from '../../db/class-key';
import { selectPrintedContestants } from '../../db/contestants';

/** The school as the season `contestId` names it (season_schools, 0046: last season's name after a move). */
export async function findSchool(db: Db, schoolId: number, contestId: number) {
  return db.selectFrom('season_schools').select(['id', 'name', 'address', 'district_name']).where('id', '=', schoolId).where('contest_id', '=', contestId).executeTakeFirst();
}

/** Every contestant of the season registered at the school, with the class key. */
export async function registeredPupils(db: Db, contestId: number, schoolId: number) {
  return db
    .selectFrom('contestants')
    .leftJoin('class_rooms', 'class_rooms.id', 'contestants.class_room_id')
    // A child carried into a new season has no class until the parent answers it (0033_seasons.sql).
    .select(['contestants.id', 'contestants.fullname', sql<string>`coalesce(${contestantClassKey}, ${seasonMessages.classNotAnswered})`.as('className')])
    .where('contestants.contest_id', '=', contestId)
    .where('contestants.school_id', '=', schoolId)
    .execute();
}

export async function bookNames(db: Db): Promise<Map<number, string>> {
  const rows = await db.selectFrom('books').select(['id', 'name']).execute();
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** The school's prized classes of a contest with their teachers, best first. */
export async function prizedClasses(db: Db, contestId: number, schoolId: number) {
  return db
    .selectFrom('class_results')
    .leftJoin('class_teachers', (join) =>
      join.onRef('class_teachers.school_id', '=', 'class_results.school_id').onRef('class_teachers.class_name', '=', 'class_results.class_name'),
    )
    .select([
      'class_results.class_name',
      'class_results.participants',
      'class_results.avg_points',
      'class_results.rank',
      'class_results.prize_name',
      'class_results.prize_amount',
      // An earlier season keeps the teacher its class had (0033_seasons.sql).
      sql<string | null>`coalesce(class_results.teacher_name, class_teachers.teacher_name)`.as('teacher_name'),
    ])
    .where('class_results.contest_id', '=', contestId)
    .where('class_results.school_id', '=', schoolId)
    .where('class_results.prize_code', 'is not', null)
    .orderBy('class_results.rank')
    .orderBy('class_results.class_name')
    .execute();
}

// The parent's report by season (issue 26) ------------------------------------------------------

/** The seasons in which the family had a child (names not yet erased), with the current one; newest first. */
export async function familySeasons(db: Db, userId: number) {
  return db
    .selectFrom('contests as k')
    .select(['k.id', 'k.name', 'k.is_current'])
    .where((eb) =>
      eb.or([
        eb('k.is_current', '=', true),
        eb.exists(eb.selectFrom('contestants as c').select('c.id').whereRef('c.contest_id', '=', 'k.id').where('c.user_id', '=', userId).where('c.anonymised_at', 'is', null)),
      ]),
    )
    .orderBy('k.exam_starts_at', 'desc')
    .orderBy('k.id', 'desc')
    .execute();
}

/** The family's children of one season, as printed then. */
export const familyContestants = (db: Db, userId: number, contestId: number) =>
  selectPrintedContestants(db)
    .where('contestants.user_id', '=', userId)
    .where('contestants.contest_id', '=', contestId)
    .where('contestants.anonymised_at', 'is', null)
    .orderBy('contestants.position')
    .execute();

/** Finished exams of these contestants with their book's name, by attempt. */
export async function finishedExams(db: Db, contestantIds: readonly number[]) {
  if (contestantIds.length === 0) return [];
  return db
    .selectFrom('exams')
    .innerJoin('books', 'books.id', 'exams.book_id')
    .select(['exams.contestant_id', 'exams.slug', 'exams.attempt', 'exams.points', 'exams.duration_seconds', 'books.name as book'])
    .where('exams.contestant_id', 'in', [...contestantIds])
    .where('exams.status', '=', 1)
    .orderBy('exams.contestant_id')
    .orderBy('exams.attempt')
    .execute();
}
