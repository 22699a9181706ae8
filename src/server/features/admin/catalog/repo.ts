// SQL of the back office's catalogue: paged lists with what uses each row, the counts that
// decide whether a row may be deleted, merges, and the batched statements of the imports (a few
// statements per file, never one per row).
import { sql } from 'kysely';
import type { Db } from '../../../db/client';
import { classKeyOf } from '../../../db/class-key';
import { printedClassSql } from '../../../db/contestants';
import { foldSql, foldedContains } from '../../../db/fold';
import type { z } from 'zod';
import type {
  classGroupsQuerySchema,
  classRoomsQuerySchema,
  classTeachersQuerySchema,
  districtsQuerySchema,
  schoolsQuerySchema,
} from '../../../../shared/schemas/admin-catalog';
import { pageOf } from '../kit/list-query';
import { chunks as sliced } from '../kit/sheets';
import { countsOf } from '../../../db/counts';

/** Rows per statement in the imports' batched writes (well under PostgreSQL's 65 535 parameters). */
const CHUNK = 1000;

const count = async (query: { executeTakeFirstOrThrow(): Promise<{ n: number | string }> }) => Number((await query.executeTakeFirstOrThrow()).n);

const chunks = <T>(items: T[]) => sliced(items, CHUNK);

/** A column folded for the lists' searches: without accents, in any case ("hoa" finds "Hoà", "Hòa"). */
const folded = (column: string) => foldSql(sql.ref(column));

/** The columns a catalogue row is read, returned and audited with. */
const DISTRICT = ['id', 'name'] as const;
const SCHOOL = ['id', 'district_id', 'name', 'address', 'pupil_count'] as const;
const CLASS_GROUP = ['id', 'name', 'grades', 'position'] as const;
const CLASS_ROOM = ['id', 'class_group_id', 'name', 'position'] as const;

/** Deletes one row by id (the service has checked that nothing uses it; a foreign key still guards). */
export async function deleteRow(db: Db, table: 'districts' | 'schools' | 'class_groups' | 'class_rooms', id: number) {
  await db.deleteFrom(table).where('id', '=', id).execute();
}

// Districts -------------------------------------------------------------------------------------
export async function listDistricts(db: Db, query: z.output<typeof districtsQuerySchema>) {
  let q = db.selectFrom('districts');
  if (query.q) q = q.where(folded('districts.name'), 'like', foldedContains(query.q));
  const page = await pageOf(
    q.select((eb) => [
      'districts.id',
      'districts.name',
      // "Tỉnh cũ" (decision 038), '' when not known.
      'districts.former_province',
      eb.selectFrom('schools').whereRef('schools.district_id', '=', 'districts.id').select(eb.fn.countAll<number>().as('n')).as('schools'),
    ]),
    q.select((eb) => eb.fn.countAll<number>().as('n')),
    query,
    { columns: { name: 'districts.name', schools: 'schools' }, own: ['districts.name', 'districts.id'], names: ['districts.name'] },
  );
  return { ...page, items: page.items.map((row) => ({ ...row, schools: Number(row.schools ?? 0) })) };
}

export const findDistrict = (db: Db, id: number, forUpdate = false) => {
  const q = db.selectFrom('districts').select(DISTRICT).where('id', '=', id);
  return (forUpdate ? q.forUpdate() : q).executeTakeFirst();
};

export const insertDistrict = (db: Db, values: { name: string }) => db.insertInto('districts').values(values).returning(DISTRICT).executeTakeFirstOrThrow();

export const updateDistrict = (db: Db, id: number, values: { name: string }) =>
  db.updateTable('districts').set(values).where('id', '=', id).returning(DISTRICT).executeTakeFirstOrThrow();

export const countSchoolsOfDistrict = (db: Db, id: number) =>
  count(db.selectFrom('schools').where('district_id', '=', id).select((eb) => eb.fn.countAll<number>().as('n')));

// Schools ---------------------------------------------------------------------------------------
export async function listSchools(db: Db, query: z.output<typeof schoolsQuerySchema>) {
  let q = db.selectFrom('schools').innerJoin('districts', 'districts.id', 'schools.district_id');
  if (query.district_id) q = q.where('schools.district_id', '=', query.district_id);
  if (query.q) {
    const pattern = foldedContains(query.q);
    q = q.where((eb) => eb.or([eb(folded('schools.name'), 'like', pattern), eb(folded('schools.address'), 'like', pattern)]));
  }
  const page = await pageOf(
    q.select((eb) => [
      'schools.id',
      'schools.district_id',
      'districts.name as district_name',
      'schools.name',
      'schools.address',
      'schools.pupil_count',
      eb.selectFrom('contestants').whereRef('contestants.school_id', '=', 'schools.id').select(eb.fn.countAll<number>().as('n')).as('contestants'),
      eb.selectFrom('contests').whereRef('contests.id', '=', 'schools.closed_from_contest_id').select('contests.name').as('closed_from'),
    ]),
    q.select((eb) => eb.fn.countAll<number>().as('n')),
    query,
    {
      columns: { name: 'schools.name', district_name: 'districts.name', address: 'schools.address', pupil_count: 'schools.pupil_count', contestants: 'contestants' },
      own: ['districts.name', 'schools.name', 'schools.id'],
      names: ['districts.name', 'schools.name', 'schools.address'],
    },
  );
  return { ...page, items: page.items.map((row) => ({ ...row, contestants: Number(row.contestants ?? 0), closed_from: row.closed_from ?? null })) };
}

export const findSchool = (db: Db, id: number, forUpdate = false) => {
  const q = db.selectFrom('schools').select(SCHOOL).where('id', '=', id);
  return (forUpdate ? q.forUpdate() : q).executeTakeFirst();
};

export interface SchoolRow {
  district_id: number;
  name: string;
  address: string;
  pupil_count: number;
}

export const insertSchool = (db: Db, values: SchoolRow) => db.insertInto('schools').values(values).returning(SCHOOL).executeTakeFirstOrThrow();

export const updateSchool = (db: Db, id: number, values: SchoolRow) =>
  db.updateTable('schools').set(values).where('id', '=', id).returning(SCHOOL).executeTakeFirstOrThrow();

/** Schools by id; locked (`lock`) in id order, so that two merges of the same pair never deadlock. */
export async function lockSchools(db: Db, ids: number[], lock = true) {
  const q = db.selectFrom('schools').select(SCHOOL).where('id', 'in', ids).orderBy('id');
  return (lock ? q.forUpdate() : q).execute();
}

/** What uses a school (the rows a merge moves). */
export async function schoolUsage(db: Db, id: number) {
  const row = await sql<{ contestants: number; school_admins: number; class_teachers: number; results: number }>`
    SELECT
      (SELECT count(*) FROM contestants WHERE school_id = ${id}) AS contestants,
      (SELECT count(*) FROM users WHERE school_id = ${id}) AS school_admins,
      (SELECT count(*) FROM class_teachers WHERE school_id = ${id}) AS class_teachers,
      (SELECT count(*) FROM individual_results WHERE school_id = ${id})
        + (SELECT count(*) FROM school_results WHERE school_id = ${id})
        + (SELECT count(*) FROM class_results WHERE school_id = ${id})
        + (SELECT count(*) FROM certificates WHERE school_id = ${id}) AS results
  `.execute(db);
  return countsOf(row.rows[0]!);
}

export type SchoolUsageCounts = Awaited<ReturnType<typeof schoolUsage>>;

/** What a merge of school `id` moves or drops, beyond its class teachers (counted by mergeSchool's caller). */
export async function schoolMergeCounts(db: Db, id: number) {
  const row = await sql<{ contestants: string; exams: string; school_admins: string; pupil_prizes: string; school_certificates: string }>`
    SELECT
      (SELECT count(*) FROM contestants WHERE school_id = ${id}) AS contestants,
      (SELECT count(*) FROM exams e JOIN contestants c ON c.id = e.contestant_id WHERE c.school_id = ${id}) AS exams,
      (SELECT count(*) FROM users WHERE school_id = ${id}) AS school_admins,
      (SELECT count(*) FROM individual_results WHERE school_id = ${id} AND (prize_code IS NOT NULL OR school_top)) AS pupil_prizes,
      (SELECT count(*) FROM certificates WHERE school_id = ${id}) AS school_certificates
  `.execute(db);
  return countsOf(row.rows[0]!);
}

/**
 * Whether the current contest's results have been computed (a merge makes them stale), and
 * whether a computation is running now (a task with a heartbeat after `staleBefore`).
 */
export async function resultsState(db: Db, staleBefore: Date) {
  const row = await sql<{ computed: boolean; computing: boolean }>`
    SELECT
      EXISTS (SELECT 1 FROM result_runs WHERE contest_id = (SELECT max(id) FROM contests)) AS computed,
      EXISTS (SELECT 1 FROM result_tasks WHERE status = 'running' AND heartbeat_at > ${staleBefore}) AS computing
  `.execute(db);
  return row.rows[0]!;
}

/** The school's own prizes in the stored results: "Giải Nhất trường", "Lớp 5A: Giải Nhì …". */
export async function schoolOwnPrizes(db: Db, id: number): Promise<string[]> {
  const rows = await sql<{ prize: string }>`
    SELECT prize_name AS prize FROM school_results WHERE school_id = ${id} AND prize_name IS NOT NULL
    UNION ALL
    SELECT 'Lớp ' || class_name || ': ' || prize_name FROM class_results WHERE school_id = ${id} AND prize_name IS NOT NULL
  `.execute(db);
  return rows.rows.map((r) => r.prize);
}

/** The classes the school's pupils are in, as printed ("5A2", or what the parent typed). */
export async function pupilClassesOf(db: Db, schoolId: number): Promise<string[]> {
  const rows = await db
    .selectFrom('contestants')
    .leftJoin('class_rooms', 'class_rooms.id', 'contestants.class_room_id')
    .select(printedClassSql.as('class_name'))
    .distinct()
    .where('contestants.school_id', '=', schoolId)
    .execute();
  return rows.map((r) => String(r.class_name));
}

/** The school's pupils whose class was typed (not a class room of the catalogue). */
export const typedClassPupilsOf = (db: Db, schoolId: number) =>
  db
    .selectFrom('contestants')
    .select(['id', 'class_group_id', 'class_room_other'])
    .where('school_id', '=', schoolId)
    .where('class_room_other', 'is not', null)
    .orderBy('id')
    .execute();

export const classRoomsOfGroups = (db: Db) => db.selectFrom('class_rooms').select(['id', 'class_group_id', 'name']).execute();

/** Sets pupils' classes (a class room, or a typed class): a merge writes the kept school's spelling. */
export async function setContestantClasses(db: Db, rows: { id: number; class_room_id: number | null; class_room_other: string | null }[]) {
  for (const part of chunks(rows)) {
    const values = sql.join(part.map((r) => sql`(${r.id}::int, ${r.class_room_id}::int, ${r.class_room_other}::text)`));
    await sql`
      UPDATE contestants c SET class_room_id = v.class_room_id, class_room_other = v.class_room_other
      FROM (VALUES ${values}) AS v (id, class_room_id, class_room_other)
      WHERE c.id = v.id
    `.execute(db);
  }
}

export const classTeachersOf = (db: Db, schoolId: number) =>
  db.selectFrom('class_teachers').select(['class_name', 'teacher_name']).where('school_id', '=', schoolId).orderBy('class_name').execute();

/**
 * Moves everything of school `from` to school `into`, then deletes `from`. Contestants take the
 * new school's district with it (composite key of 0001). The stored results of `from` are
 * derived data: its pupils' rows move, its school and class rows go with it (ON DELETE CASCADE)
 * until the results are computed again. `teachers` are the class teachers that move (the caller
 * leaves out the classes `into` already has); `pupilClasses`, the pupils whose typed class takes
 * the kept school's spelling of the same class.
 */
export async function mergeSchool(
  db: Db,
  from: { id: number },
  into: { id: number; district_id: number },
  teachers: { class_name: string; teacher_name: string }[],
  pupilClasses: { id: number; class_room_id: number | null; class_room_other: string | null }[],
) {
  await setContestantClasses(db, pupilClasses);
  await db.updateTable('contestants').set({ school_id: into.id, district_id: into.district_id }).where('school_id', '=', from.id).execute();
  await db.updateTable('users').set({ school_id: into.id }).where('school_id', '=', from.id).execute();
  if (teachers.length > 0) {
    await db
      .insertInto('class_teachers')
      .values(teachers.map((t) => ({ school_id: into.id, class_name: t.class_name, teacher_name: t.teacher_name })))
      .onConflict((oc) => oc.columns(['school_id', 'class_name']).doNothing())
      .execute();
  }
  await db.updateTable('individual_results').set({ school_id: into.id }).where('school_id', '=', from.id).execute();
  await db.deleteFrom('schools').where('id', '=', from.id).execute();
}

/** Districts by id; locked (`lock`) in id order (two merges of the same pair never deadlock). */
export const lockDistricts = (db: Db, ids: number[], lock = true) => {
  const q = db.selectFrom('districts').select(DISTRICT).where('id', 'in', ids).orderBy('id');
  return (lock ? q.forUpdate() : q).execute();
};

/** The schools of districts; locked (`lock`): a school added or edited meanwhile waits. */
export const lockSchoolsOfDistricts = (db: Db, districtIds: number[], lock = true) => {
  const q = db.selectFrom('schools').select(SCHOOL).where('district_id', 'in', districtIds).orderBy('id');
  return (lock ? q.forUpdate() : q).execute();
};

/** What the schools of a district are used by (the counts of a district merge). */
export async function districtUsage(db: Db, id: number) {
  const row = await sql<{ contestants: string; school_admins: string; class_teachers: string }>`
    SELECT
      (SELECT count(*) FROM contestants WHERE district_id = ${id}) AS contestants,
      (SELECT count(*) FROM users u JOIN schools s ON s.id = u.school_id WHERE s.district_id = ${id}) AS school_admins,
      (SELECT count(*) FROM class_teachers t JOIN schools s ON s.id = t.school_id WHERE s.district_id = ${id}) AS class_teachers
  `.execute(db);
  const counts = row.rows[0]!;
  return { contestants: Number(counts.contestants), school_admins: Number(counts.school_admins), class_teachers: Number(counts.class_teachers) };
}

/**
 * The district's remaining schools move to `intoId` (their pupils' district follows, 0027), its
 * unit viewers see `intoId` instead (0051: checked at the commit), then it is deleted.
 */
export async function moveSchoolsAndDeleteDistrict(db: Db, fromId: number, intoId: number) {
  await db.updateTable('schools').set({ district_id: intoId }).where('district_id', '=', fromId).execute();
  await sql`
    INSERT INTO viewer_units (user_id, district_id)
    SELECT user_id, ${intoId}::int FROM viewer_units WHERE district_id = ${fromId}
    ON CONFLICT DO NOTHING`.execute(db);
  await db.deleteFrom('viewer_units').where('district_id', '=', fromId).execute();
  await db.deleteFrom('districts').where('id', '=', fromId).execute();
}

// Class groups and rooms ------------------------------------------------------------------------
export async function listClassGroups(db: Db, query: z.output<typeof classGroupsQuerySchema>) {
  let q = db.selectFrom('class_groups');
  if (query.q) q = q.where(folded('class_groups.name'), 'like', foldedContains(query.q));
  const page = await pageOf(
    q.select((eb) => [
      'class_groups.id',
      'class_groups.name',
      'class_groups.grades',
      'class_groups.position',
      eb.selectFrom('class_rooms').whereRef('class_rooms.class_group_id', '=', 'class_groups.id').select(eb.fn.countAll<number>().as('n')).as('class_rooms'),
      eb.selectFrom('books').whereRef('books.class_group_id', '=', 'class_groups.id').select(eb.fn.countAll<number>().as('n')).as('books'),
      eb.selectFrom('contestants').whereRef('contestants.class_group_id', '=', 'class_groups.id').select(eb.fn.countAll<number>().as('n')).as('contestants'),
    ]),
    q.select((eb) => eb.fn.countAll<number>().as('n')),
    query,
    {
      columns: { position: 'class_groups.position', name: 'class_groups.name', grades: 'class_groups.grades', class_rooms: 'class_rooms', books: 'books', contestants: 'contestants' },
      own: ['class_groups.position'],
      names: ['class_groups.name'],
    },
  );
  return {
    ...page,
    items: page.items.map((row) => ({ ...row, class_rooms: Number(row.class_rooms ?? 0), books: Number(row.books ?? 0), contestants: Number(row.contestants ?? 0) })),
  };
}

export const findClassGroup = (db: Db, id: number, forUpdate = false) => {
  const q = db.selectFrom('class_groups').select(CLASS_GROUP).where('id', '=', id);
  return (forUpdate ? q.forUpdate() : q).executeTakeFirst();
};

type ClassGroupValues = { name: string; grades: string; position: number };
export const insertClassGroup = (db: Db, values: ClassGroupValues) => db.insertInto('class_groups').values(values).returning(CLASS_GROUP).executeTakeFirstOrThrow();

export const updateClassGroup = (db: Db, id: number, values: ClassGroupValues) =>
  db.updateTable('class_groups').set(values).where('id', '=', id).returning(CLASS_GROUP).executeTakeFirstOrThrow();

export async function classGroupUsage(db: Db, id: number) {
  const row = await sql<{ class_rooms: number; books: number; contestants: number }>`
    SELECT
      (SELECT count(*) FROM class_rooms WHERE class_group_id = ${id}) AS class_rooms,
      (SELECT count(*) FROM books WHERE class_group_id = ${id}) AS books,
      (SELECT count(*) FROM contestants WHERE class_group_id = ${id}) AS contestants
  `.execute(db);
  const usage = row.rows[0]!;
  return { class_rooms: Number(usage.class_rooms), books: Number(usage.books), contestants: Number(usage.contestants) };
}

export async function listClassRooms(db: Db, query: z.output<typeof classRoomsQuerySchema>) {
  let q = db.selectFrom('class_rooms').innerJoin('class_groups', 'class_groups.id', 'class_rooms.class_group_id');
  if (query.class_group_id) q = q.where('class_rooms.class_group_id', '=', query.class_group_id);
  if (query.q) q = q.where(folded('class_rooms.name'), 'like', foldedContains(query.q));
  const page = await pageOf(
    q.select((eb) => [
      'class_rooms.id',
      'class_rooms.class_group_id',
      'class_groups.name as class_group_name',
      'class_rooms.name',
      'class_rooms.position',
      eb.selectFrom('contestants').whereRef('contestants.class_room_id', '=', 'class_rooms.id').select(eb.fn.countAll<number>().as('n')).as('contestants'),
    ]),
    q.select((eb) => eb.fn.countAll<number>().as('n')),
    query,
    {
      columns: { name: 'class_rooms.name', class_group_name: 'class_groups.name', position: 'class_rooms.position', contestants: 'contestants' },
      // Classes in natural order ("3A", "3A1", "3B"), not in the order they were added.
      own: ['class_groups.position', 'class_rooms.name', 'class_rooms.id'],
      names: ['class_groups.name'],
      natural: ['class_rooms.name'],
    },
  );
  return { ...page, items: page.items.map((row) => ({ ...row, contestants: Number(row.contestants ?? 0) })) };
}

export const findClassRoom = (db: Db, id: number) => db.selectFrom('class_rooms').select(CLASS_ROOM).where('id', '=', id).executeTakeFirst();

export const lockClassRooms = (db: Db, ids: number[]) => db.selectFrom('class_rooms').select(CLASS_ROOM).where('id', 'in', ids).orderBy('id').forUpdate().execute();

type ClassRoomValues = { class_group_id: number; name: string; position: number };
export const insertClassRoom = (db: Db, values: ClassRoomValues) => db.insertInto('class_rooms').values(values).returning(CLASS_ROOM).executeTakeFirstOrThrow();

export const updateClassRoom = (db: Db, id: number, values: ClassRoomValues) =>
  db.updateTable('class_rooms').set(values).where('id', '=', id).returning(CLASS_ROOM).executeTakeFirstOrThrow();

/** Moves the pupils (and the teachers of classes of that name) of room `from` to room `into` and deletes `from`. */
export async function mergeClassRoom(db: Db, from: { id: number; name: string }, into: { id: number; name: string }) {
  await db.updateTable('contestants').set({ class_room_id: into.id }).where('class_room_id', '=', from.id).execute();
  await moveClassTeachers(db, from.name, into.name);
  await deleteRow(db, 'class_rooms', from.id);
}

/** Contestants in the room, and teachers of classes of that name (their key moves with a rename or merge). */
export async function classRoomUsage(db: Db, room: { id: number; name: string }) {
  const row = await sql<{ contestants: number; class_teachers: number }>`
    SELECT
      (SELECT count(*) FROM contestants WHERE class_room_id = ${room.id}) AS contestants,
      (SELECT count(*) FROM class_teachers WHERE class_name = ${classKeyOf(sql`${room.name}::text`)}) AS class_teachers
  `.execute(db);
  const usage = row.rows[0]!;
  return { contestants: Number(usage.contestants), class_teachers: Number(usage.class_teachers) };
}

/**
 * Teachers of the classes named `from` become teachers of the classes named `to` (the class key
 * of every pupil of the room changes with its name), except in schools that already have one.
 */
export async function moveClassTeachers(db: Db, from: string, to: string) {
  await sql`
    UPDATE class_teachers t SET class_name = ${classKeyOf(sql`${to}::text`)}
    WHERE t.class_name = ${classKeyOf(sql`${from}::text`)}
      AND t.class_name <> ${classKeyOf(sql`${to}::text`)}
      AND NOT EXISTS (SELECT 1 FROM class_teachers o WHERE o.school_id = t.school_id AND o.class_name = ${classKeyOf(sql`${to}::text`)})
  `.execute(db);
}

// Class teachers --------------------------------------------------------------------------------
export async function listClassTeachers(db: Db, query: z.output<typeof classTeachersQuerySchema>) {
  let q = db
    .selectFrom('class_teachers')
    .innerJoin('schools', 'schools.id', 'class_teachers.school_id')
    .innerJoin('districts', 'districts.id', 'schools.district_id');
  if (query.district_id) q = q.where('schools.district_id', '=', query.district_id);
  if (query.school_id) q = q.where('class_teachers.school_id', '=', query.school_id);
  if (query.q) {
    const pattern = foldedContains(query.q);
    q = q.where((eb) =>
      eb.or([eb(folded('class_teachers.teacher_name'), 'like', pattern), eb(folded('class_teachers.class_name'), 'like', pattern), eb(folded('schools.name'), 'like', pattern)]),
    );
  }
  return pageOf(
    q.select([
      'class_teachers.school_id',
      'schools.name as school_name',
      'schools.district_id',
      'districts.name as district_name',
      'class_teachers.class_name',
      'class_teachers.teacher_name',
    ]),
    q.select((eb) => eb.fn.countAll<number>().as('n')),
    query,
    {
      columns: { district_name: 'districts.name', school_name: 'schools.name', class_name: 'class_teachers.class_name', teacher_name: 'class_teachers.teacher_name' },
      own: ['districts.name', 'schools.name', 'class_teachers.class_name'],
      names: ['districts.name', 'schools.name', 'class_teachers.class_name', 'class_teachers.teacher_name'],
    },
  );
}

export const findClassTeacher = (db: Db, schoolId: number, classKey: string) =>
  db.selectFrom('class_teachers').select(['school_id', 'class_name', 'teacher_name']).where('school_id', '=', schoolId).where('class_name', '=', classKey).executeTakeFirst();

type ClassTeacherKey = { school_id: number; class_name: string };
type ClassTeacherRow = ClassTeacherKey & { teacher_name: string };
export const insertClassTeacher = (db: Db, row: ClassTeacherRow) => db.insertInto('class_teachers').values(row).execute();

export const updateClassTeacher = (db: Db, key: ClassTeacherKey, row: ClassTeacherRow) =>
  db.updateTable('class_teachers').set(row).where('school_id', '=', key.school_id).where('class_name', '=', key.class_name).execute();

export const deleteClassTeacher = (db: Db, key: ClassTeacherKey) =>
  db.deleteFrom('class_teachers').where('school_id', '=', key.school_id).where('class_name', '=', key.class_name).execute();

/** Class keys (upper case, computed by the database like every other class key) of the given names. */
export async function classKeysOf(db: Db, names: string[]): Promise<Map<string, string>> {
  const keys = new Map<string, string>();
  for (const part of chunks([...new Set(names)])) {
    const rows = await sql<{ name: string; key: string }>`
      SELECT v.name, ${classKeyOf(sql.ref('v.name'))} AS key
      FROM (VALUES ${sql.join(part.map((name) => sql`(${name}::text)`))}) AS v (name)
    `.execute(db);
    for (const row of rows.rows) keys.set(row.name, row.key);
  }
  return keys;
}

// Imports ---------------------------------------------------------------------------------------
export const allDistricts = (db: Db) => db.selectFrom('districts').select(DISTRICT).orderBy('id').execute();
export const allClassRooms = (db: Db) => db.selectFrom('class_rooms').select(['id', 'name', 'class_group_id', 'position']).orderBy('position').execute();
export const allClassGroups = (db: Db) => db.selectFrom('class_groups').select(['id', 'name', 'grades']).orderBy('position').execute();

export async function insertClassRooms(db: Db, rooms: ClassRoomValues[]) {
  if (rooms.length === 0) return;
  await db.insertInto('class_rooms').values(rooms).execute();
}
export const schoolsOfDistrict = (db: Db, districtId: number) => db.selectFrom('schools').select(['id', 'name']).where('district_id', '=', districtId).execute();
export const allSchools = (db: Db) => db.selectFrom('schools').select(SCHOOL).orderBy('id').execute();

export async function insertDistricts(db: Db, names: string[]) {
  if (names.length === 0) return [];
  return db.insertInto('districts').values(names.map((name) => ({ name }))).returning(['id', 'name']).execute();
}

export async function insertSchools(db: Db, rows: SchoolRow[]) {
  for (const part of chunks(rows)) await db.insertInto('schools').values(part).execute();
}

export async function updateSchools(db: Db, rows: (SchoolRow & { id: number })[]) {
  for (const part of chunks(rows)) {
    const values = sql.join(part.map((r) => sql`(${r.id}::int, ${r.name}::text, ${r.address}::text, ${r.pupil_count}::int)`));
    await sql`
      UPDATE schools s SET name = v.name, address = v.address, pupil_count = v.pupil_count
      FROM (VALUES ${values}) AS v (id, name, address, pupil_count)
      WHERE s.id = v.id
    `.execute(db);
  }
}

export async function classTeachersOfSchools(db: Db, schoolIds: number[]) {
  const rows: { school_id: number; class_name: string; teacher_name: string }[] = [];
  for (const part of chunks([...new Set(schoolIds)])) {
    rows.push(...(await db.selectFrom('class_teachers').select(['school_id', 'class_name', 'teacher_name']).where('school_id', 'in', part).execute()));
  }
  return rows;
}

export async function upsertClassTeachers(db: Db, rows: { school_id: number; class_name: string; teacher_name: string }[]) {
  for (const part of chunks(rows)) {
    await db
      .insertInto('class_teachers')
      .values(part)
      .onConflict((oc) => oc.columns(['school_id', 'class_name']).doUpdateSet((eb) => ({ teacher_name: eb.ref('excluded.teacher_name') })))
      .execute();
  }
}
