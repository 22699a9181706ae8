// A contestant as printed (profile, certificates): with its school and its class room's name; and
// a contestant placed (the back office, the family's copy of its data): with the names of its
// school, district, class group and class. The one place for those joins and for the class shown.
import { sql } from 'kysely';
import type { Db } from './client';
import type { ContestantTable } from './schema';

/**
 * Contestants with their school and class room: what both selects below join. The school is the
 * one of the row's season as that season named it (the view season_schools, 0046: an ended
 * season's snapshot, else today's catalogue), so last season's rows keep last season's school name
 * and unit after the catalogue has moved to a new map (decision 038).
 */
const withSchoolAndRoom = (db: Db) =>
  db
    .selectFrom('contestants')
    .innerJoin('season_schools as schools', (join) => join.onRef('schools.id', '=', 'contestants.school_id').onRef('schools.contest_id', '=', 'contestants.contest_id'))
    .leftJoin('class_rooms', 'class_rooms.id', 'contestants.class_room_id');

/** A contestant's own columns that both selects answer. */
const ownColumns = [
  'contestants.id',
  'contestants.user_id',
  'contestants.position',
  'contestants.fullname',
  'contestants.district_id',
  'contestants.school_id',
  // 0033_seasons.sql: the season of this row of the child.
  'contestants.contest_id',
] as const;

/** Contestants with their school and class room; callers add where/orderBy. */
export const selectPrintedContestants = (db: Db) =>
  withSchoolAndRoom(db).select([
    ...ownColumns,
    'contestants.class_group_id',
    'contestants.class_room_id',
    'contestants.class_room_other',
    'class_rooms.name as class_room_name',
    'schools.name as school_name',
    'schools.address as school_address',
  ]);

export type PrintedContestant = Awaited<ReturnType<ReturnType<typeof selectPrintedContestants>['executeTakeFirstOrThrow']>>;

/** The class shown for a contestant: its class room's name, or the class its parent typed. */
export const printedClass = (row: { class_room_name: string | null; class_room_other: string | null }) =>
  row.class_room_name ?? row.class_room_other ?? '';

/** printedClass in SQL (needs `contestants` joined with `class_rooms` on the left). */
export const printedClassSql = sql<string>`coalesce(class_rooms.name, contestants.class_room_other)`;

/**
 * Contestants with where they study, by name: `school`, `district`, `class_group` (and its
 * `grades`) and `class` (the class shown, printedClassSql). Select from it or join it as a table,
 * `.innerJoin(placedContestants(db).as('c'), 'c.id', 'w.contestant_id')`; one row per contestant
 * (its joins follow the contestant's foreign keys, so none drops or repeats a row).
 */
export const placedContestants = (db: Db) =>
  withSchoolAndRoom(db)
    .innerJoin('class_groups', 'class_groups.id', 'contestants.class_group_id')
    .select([
      ...ownColumns,
      'contestants.created_at',
      'contestants.consent_version',
      'contestants.consented_at',
      // 0049: the consent to publish the name on the winners' list (issue 37.2).
      'contestants.name_consent_version',
      'contestants.name_consented_at',
      'contestants.anonymised_at',
      'schools.name as school',
      // The season's unit (the row's district_id follows its school's today: 0027's cascade).
      'schools.district_name as district',
      'schools.former_province',
      'class_groups.name as class_group',
      'class_groups.grades',
      printedClassSql.as('class'),
    ]);

/** The columns a parent's profile writes. */
export type ContestantColumns = Pick<ContestantTable, 'fullname' | 'district_id' | 'school_id' | 'class_group_id' | 'class_room_id' | 'class_room_other'>;
