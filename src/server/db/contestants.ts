// A contestant as printed (profile, certificates): with its school and its class room's name.
// The one place for that join and for the class shown.
import { sql } from 'kysely';
import type { Db } from './client';
import type { ContestantTable } from './schema';

/** Contestants with their school and class room; callers add where/orderBy. */
export const selectPrintedContestants = (db: Db) =>
  db
    .selectFrom('contestants')
    .innerJoin('schools', 'schools.id', 'contestants.school_id')
    .leftJoin('class_rooms', 'class_rooms.id', 'contestants.class_room_id')
    .select([
      'contestants.id',
      'contestants.user_id',
      'contestants.position',
      'contestants.fullname',
      'contestants.district_id',
      'contestants.school_id',
      'contestants.class_group_id',
      'contestants.class_room_id',
      'contestants.class_room_other',
      // 0033_seasons.sql: the season of this row of the child.
      'contestants.contest_id',
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

/** The columns a parent's profile writes. */
export type ContestantColumns = Pick<ContestantTable, 'fullname' | 'district_id' | 'school_id' | 'class_group_id' | 'class_room_id' | 'class_room_other'>;
