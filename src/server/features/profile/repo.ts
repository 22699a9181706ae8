import { sql } from 'kysely';
// SQL of the profile: the account, its contestants with their exams, and the catalogue checks.
import type { Db } from '../../db/client';
import { selectPrintedContestants, type ContestantColumns } from '../../db/contestants';

export const findAccount = (db: Db, userId: number) =>
  db
    .selectFrom('users')
    .leftJoin('schools', 'schools.id', 'users.school_id')
    .select([
      'users.id',
      'users.phone',
      'users.name',
      'users.role',
      'users.school_id',
      'users.privacy_version',
      'schools.name as school_name',
      'schools.address as school_address',
    ])
    .where('users.id', '=', userId)
    .executeTakeFirst();

// The account's children of the current season (0033_seasons.sql): earlier seasons' rows are history.
const CURRENT_SEASON = sql<number>`(SELECT id FROM contests WHERE is_current)`;

export const listContestantViews = (db: Db, userId: number) =>
  selectPrintedContestants(db)
    // The row it was carried from (last season) and its school as last season named it: a school
    // moved, renamed, merged or closed by the catalogue's move is told on the profile (decision 038).
    .leftJoin('contestants as carried_from', 'carried_from.id', 'contestants.carried_from_id')
    .leftJoin('season_schools as previous_school', (join) =>
      join.onRef('previous_school.id', '=', 'carried_from.school_id').onRef('previous_school.contest_id', '=', 'carried_from.contest_id'),
    )
    .select([
      'contestants.class_pending',
      'contestants.name_consented_at',
      'schools.district_name',
      'previous_school.id as previous_school_id',
      'previous_school.name as previous_school_name',
      'previous_school.district_name as previous_district_name',
      sql<boolean>`EXISTS (SELECT 1 FROM schools closed WHERE closed.id = contestants.school_id AND closed.closed_from_contest_id IS NOT NULL)`.as('school_closed'),
    ])
    .where('contestants.user_id', '=', userId)
    .where('contestants.contest_id', '=', CURRENT_SEASON)
    .orderBy('contestants.position')
    .execute();

export const listExamsOfContestants = (db: Db, contestantIds: number[]) =>
  contestantIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('exams as e')
        .innerJoin('books as b', 'b.id', 'e.book_id')
        .select([
          'e.id',
          'e.contestant_id',
          'e.slug',
          'e.status',
          'e.points',
          'e.book_id',
          'b.name as book_name',
          'e.attempt',
          'e.duration_seconds',
          'e.prediction',
          'e.start_time',
          'e.end_time',
          'e.extension_minutes',
        ])
        .where('e.contestant_id', 'in', contestantIds)
        .orderBy('e.contestant_id')
        .orderBy('e.attempt')
        .execute();

/** The contestants the organiser gave an extra attempt (0013_exam_days.sql). */
export async function contestantsWithExtraAttempt(db: Db, contestantIds: number[]): Promise<Set<number>> {
  if (contestantIds.length === 0) return new Set();
  const rows = await db.selectFrom('extra_attempts').select('contestant_id').where('contestant_id', 'in', contestantIds).execute();
  return new Set(rows.map((row) => row.contestant_id));
}

// Saving ---------------------------------------------------------------------------------------

/** Serialises the profile saves of one account (two tabs, two devices). */
export const lockAccount = (db: Db, userId: number) =>
  db.selectFrom('users').select('id').where('id', '=', userId).forUpdate().executeTakeFirst();

/** The account's contestants, locked: an exam cannot start for one of them until we commit. */
export const lockContestants = (db: Db, userId: number) =>
  db
    .selectFrom('contestants')
    .select(['id', 'position', 'fullname', 'district_id', 'school_id', 'class_group_id', 'class_room_id', 'class_room_other', 'class_pending'])
    .where('user_id', '=', userId)
    .where('contest_id', '=', CURRENT_SEASON)
    .orderBy('position')
    .forUpdate()
    .execute();

export async function examCounts(db: Db, contestantIds: number[]): Promise<Map<number, number>> {
  if (contestantIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('exams')
    .select(['contestant_id', (eb) => eb.fn.countAll<number>().as('count')])
    .where('contestant_id', 'in', contestantIds)
    .groupBy('contestant_id')
    .execute();
  return new Map(rows.map((row) => [row.contestant_id, Number(row.count)]));
}


export const deleteContestants = (db: Db, userId: number, ids: number[]) =>
  ids.length === 0 ? Promise.resolve() : db.deleteFrom('contestants').where('user_id', '=', userId).where('id', 'in', ids).execute();

/** Answering the class of a child carried over ends its pending state. */
export const updateContestant = (db: Db, userId: number, id: number, row: ContestantColumns) =>
  db.updateTable('contestants').set({ ...row, class_pending: false }).where('id', '=', id).where('user_id', '=', userId).execute();

/**
 * A new contestant, with the notice version under which the parent confirmed the child's agreement
 * and, when given, the consent to publish the child's name on the winners' list.
 */
export const insertContestant = (db: Db, userId: number, position: number, row: ContestantColumns, now: Date, consentVersion: string, publishName: boolean) =>
  db
    .insertInto('contestants')
    .values({
      ...row,
      user_id: userId,
      position,
      created_at: now,
      consent_version: consentVersion,
      consented_at: now,
      ...(publishName ? { name_consent_version: consentVersion, name_consented_at: now } : {}),
    })
    .execute();

/**
 * The consent to publish the name (issue 37.2), given or taken back; a consent already given keeps
 * its version and time (so saving the profile again does not move them).
 */
export async function setNameConsent(db: Db, userId: number, id: number, given: boolean, now: Date, version: string) {
  const query = db.updateTable('contestants').where('id', '=', id).where('user_id', '=', userId);
  if (given) await query.set({ name_consent_version: version, name_consented_at: now }).where('name_consented_at', 'is', null).execute();
  else await query.set({ name_consent_version: null, name_consented_at: null }).where('name_consented_at', 'is not', null).execute();
}

// Catalogue checks -----------------------------------------------------------------------------

export const districtsByIds = (db: Db, ids: number[]) =>
  ids.length === 0 ? Promise.resolve([]) : db.selectFrom('districts').select('id').where('id', 'in', ids).execute();

export const schoolsByIds = (db: Db, ids: number[]) =>
  ids.length === 0 ? Promise.resolve([]) : db.selectFrom('schools').select(['id', 'district_id', 'closed_from_contest_id']).where('id', 'in', ids).execute();

export const classGroupsByIds = (db: Db, ids: number[]) =>
  ids.length === 0 ? Promise.resolve([]) : db.selectFrom('class_groups').select('id').where('id', 'in', ids).execute();

export const classRoomsByIds = (db: Db, ids: number[]) =>
  ids.length === 0 ? Promise.resolve([]) : db.selectFrom('class_rooms').select(['id', 'class_group_id']).where('id', 'in', ids).execute();

/** Children of earlier seasons not carried into a later one, with their group's grades and class (issue 26). */
export const uncarriedPastContestants = (db: Db, userId: number) =>
  db
    .selectFrom('contestants as c')
    .innerJoin('contests as k', 'k.id', 'c.contest_id')
    .innerJoin('class_groups as g', 'g.id', 'c.class_group_id')
    .leftJoin('class_rooms as r', 'r.id', 'c.class_room_id')
    .select(['c.fullname', 'k.name as season', 'g.grades', sql<string | null>`coalesce(r.name, c.class_room_other)`.as('class_name')])
    .where('c.user_id', '=', userId)
    .where('k.is_current', '=', false)
    .where('c.anonymised_at', 'is', null)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('contestants as n').select('n.id').whereRef('n.carried_from_id', '=', 'c.id'))))
    .orderBy('c.contest_id', 'desc')
    .orderBy('c.position')
    .execute();
