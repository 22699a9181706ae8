import { sql } from 'kysely';
import type { Db } from '../../db/client';
import { naturalVietnameseOrder, vietnameseOrder } from '../../db/vietnamese-order';
import { bankHoldsAnExam } from '../../db/question-bank';

// A parent picks a district, then a school of it: a district still without schools (just added,
// or its schools merged away) is not offered. The back office lists every one (/api/admin/districts).
// A school closed by the catalogue's move (decision 038) is kept for history, never offered.
export const listDistricts = (db: Db) =>
  db
    .selectFrom('districts')
    .select(['id', 'name'])
    .where(({ exists, selectFrom }) =>
      exists(selectFrom('schools').select('schools.id').whereRef('schools.district_id', '=', 'districts.id').where('schools.closed_from_contest_id', 'is', null)),
    )
    .orderBy(vietnameseOrder('name'))
    .orderBy('name')
    .execute();

export const listSchools = (db: Db, districtId: number) =>
  db
    .selectFrom('schools')
    .select(['id', 'name', 'address'])
    .where('district_id', '=', districtId)
    .where('closed_from_contest_id', 'is', null)
    .orderBy(vietnameseOrder('name')).orderBy('name').execute();

export const listClassGroups = (db: Db) =>
  db.selectFrom('class_groups').select(['id', 'name', 'grades']).orderBy('position').execute();

// In natural order ("3A", "3A1", "3B"), not in the order they were added: an import adds after the last.
export const listClassRooms = (db: Db, classGroupId: number) =>
  db
    .selectFrom('class_rooms')
    .select(['id', 'name'])
    .where('class_group_id', '=', classGroupId)
    .orderBy(naturalVietnameseOrder('name'))
    .orderBy('name')
    .execute();

// The books of the current season (0033_seasons.sql): earlier seasons' books are history.
export const listBooks = (db: Db) =>
  db
    .selectFrom('books')
    .select(['id', 'name', 'image', 'author', 'class_group_id'])
    .where('contest_id', '=', sql<number>`(SELECT id FROM contests WHERE is_current)`)
    .orderBy('position')
    .execute();

// The books a contestant may take an exam on: those of the current season whose bank holds an
// exam's questions (a book with an empty or short bank is never offered, issue 42).
export const listBooksOfGroup = (db: Db, classGroupId: number) =>
  db
    .selectFrom('books')
    .select(['id', 'name', 'image', 'author'])
    .where('class_group_id', '=', classGroupId)
    .where('contest_id', '=', sql<number>`(SELECT id FROM contests WHERE is_current)`)
    .where(({ ref }) => bankHoldsAnExam(ref('books.id')))
    .orderBy('position')
    .execute();
