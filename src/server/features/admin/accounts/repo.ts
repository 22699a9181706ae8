// SQL of the back office's accounts: find, show, create school administrators, lock.
import { sql } from 'kysely';
import type { Db } from '../../../db/client';
import { printedClassSql } from '../../../db/contestants';
import type { AccountsQuery } from '../../../../shared/schemas/admin-accounts';
import { viewerMessages, type ViewerRole } from '../../../../shared/schemas/viewers';
import { containing, pageOf } from '../kit/list-query';
import { selectAttempts } from '../kit/attempts-query';
import { foldSql, foldedContains } from '../../../db/fold';

/**
 * The password of an account made by the back office until its owner uses the link: no scrypt
 * hash, so no password matches it (auth/service.ts compares against a dummy hash instead).
 */
export const NO_PASSWORD = '!unset';


/** A viewer's scope as the list shows it (0051): "Toàn tỉnh", or its units' names; null for other roles. */
const viewerScopeSql = sql<string | null>`CASE users.role
  WHEN 'province_viewer' THEN ${viewerMessages.wholeProvince}::text
  WHEN 'unit_viewer' THEN (SELECT string_agg(d.name, ', ' ORDER BY vi_sort_key(d.name), d.name)
                             FROM viewer_units v JOIN districts d ON d.id = v.district_id WHERE v.user_id = users.id)
  END`;

const selectAccounts = (db: Db) =>
  db
    .selectFrom('users')
    .leftJoin('schools', 'schools.id', 'users.school_id')
    .leftJoin('districts', 'districts.id', 'schools.district_id')
    .select([
      'users.id',
      'users.phone',
      'users.name',
      'users.role',
      'users.created_at',
      'users.locked_at',
      'users.school_id',
      'schools.name as school_name',
      'districts.name as district_name',
      viewerScopeSql.as('scope'),
    ]);

export async function listAccounts(db: Db, query: AccountsQuery) {
  let q = selectAccounts(db);
  // People type a phone with spaces or dots: its digits are what is searched.
  const digits = query.q?.replace(/\D/g, '');
  if (digits) q = q.where('users.phone', 'like', containing(digits));
  else if (query.q) {
    // A name without accents, in any case: the person's name or the school's.
    const pattern = foldedContains(query.q);
    q = q.where((eb) => eb.or([eb(foldSql(sql.ref('users.name')), 'like', pattern), eb(foldSql(sql.ref('schools.name')), 'like', pattern)]));
  }
  if (query.role) q = q.where('users.role', '=', query.role);
  return pageOf(q, q.clearSelect().select(sql<string>`count(*)`.as('n')), query, {
    columns: { phone: 'users.phone', name: 'users.name', role: 'users.role', school_name: 'schools.name', created_at: 'users.created_at', locked_at: 'users.locked_at' },
    own: ['users.phone'],
    names: ['users.name', 'schools.name'],
  });
}

export const findAccount = (db: Db, id: number) => selectAccounts(db).where('users.id', '=', id).executeTakeFirst();

export async function countLiveSessions(db: Db, userId: number, now: Date): Promise<number> {
  const row = await db
    .selectFrom('sessions')
    .select(sql<string>`count(*)`.as('n'))
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export const contestantsOf = (db: Db, userId: number) =>
  db
    .selectFrom('contestants')
    .innerJoin('schools', 'schools.id', 'contestants.school_id')
    .leftJoin('class_rooms', 'class_rooms.id', 'contestants.class_room_id')
    .select(['contestants.id', 'contestants.position', 'contestants.fullname', 'schools.name as school', printedClassSql.as('class_name')])
    .where('contestants.user_id', '=', userId)
    .orderBy('contestants.position')
    .execute();

export const examsOf = (db: Db, userId: number) => selectAttempts(db).select('exams.correct_count').where('exams.user_id', '=', userId).execute();

export const findUsersByPhones = (db: Db, phones: string[]) =>
  phones.length === 0
    ? Promise.resolve([])
    : db.selectFrom('users').select(['id', 'phone', 'name', 'role', 'school_id']).where('phone', 'in', phones).execute();

export const listDistricts = (db: Db) => db.selectFrom('districts').select(['id', 'name']).execute();
export const listSchools = (db: Db) => db.selectFrom('schools').select(['id', 'name', 'district_id']).execute();

export const findSchool = (db: Db, id: number) =>
  db
    .selectFrom('schools')
    .innerJoin('districts', 'districts.id', 'schools.district_id')
    .select(['schools.id', 'schools.name', 'schools.district_id', 'districts.name as district_name'])
    .where('schools.id', '=', id)
    .executeTakeFirst();

/** New school administrators; returns the rows made (a phone taken meanwhile is left out). */
export const insertSchoolAdmins = (db: Db, rows: { phone: string; name: string; school_id: number }[], now: Date) =>
  rows.length === 0
    ? Promise.resolve([])
    : db
        .insertInto('users')
        .values(rows.map((row) => ({ ...row, role: 'school_admin' as const, password_hash: NO_PASSWORD, created_at: now })))
        .onConflict((oc) => oc.column('phone').doNothing())
        .returning(['id', 'phone'])
        .execute();

/** School administrators' new names and schools, in one statement. */
export async function updateSchoolAdmins(db: Db, rows: { id: number; name: string; school_id: number }[]) {
  if (rows.length === 0) return;
  const values = sql.join(rows.map((r) => sql`(${r.id}::int, ${r.name}::text, ${r.school_id}::int)`));
  await sql`
    UPDATE users u SET name = v.name, school_id = v.school_id
    FROM (VALUES ${values}) AS v (id, name, school_id)
    WHERE u.id = v.id AND u.role = 'school_admin'
  `.execute(db);
}

export const lockUser = (db: Db, id: number) => db.selectFrom('users').select(['id', 'phone', 'locked_at']).where('id', '=', id).forUpdate().executeTakeFirst();

export const deleteUnusedResetLinks = (db: Db, userId: number) =>
  db.deleteFrom('password_reset_tokens').where('user_id', '=', userId).where('used_at', 'is', null).execute();

export const setLocked = (db: Db, id: number, lockedAt: Date | null) =>
  db.updateTable('users').set({ locked_at: lockedAt }).where('id', '=', id).returning('locked_at').executeTakeFirst();

/** Ends every live session of the user at once; returns how many. */
export async function revokeSessions(db: Db, userId: number, now: Date): Promise<number> {
  const rows = await db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('id')
    .execute();
  return rows.length;
}

export const insertOrganiser = (db: Db, phone: string, name: string, now: Date) =>
  db
    .insertInto('users')
    .values({ phone, name, role: 'organiser', school_id: null, password_hash: NO_PASSWORD, created_at: now })
    .onConflict((oc) => oc.column('phone').doNothing())
    .returning(['id', 'phone'])
    .executeTakeFirst();

// Viewers (0051) ------------------------------------------------------------------------------

/** New viewers; returns the rows made (a phone taken meanwhile is left out). */
export const insertViewers = (db: Db, rows: { phone: string; name: string; role: ViewerRole }[], now: Date) =>
  rows.length === 0
    ? Promise.resolve([])
    : db
        .insertInto('users')
        .values(rows.map((row) => ({ ...row, school_id: null, password_hash: NO_PASSWORD, created_at: now })))
        .onConflict((oc) => oc.column('phone').doNothing())
        .returning(['id', 'phone'])
        .execute();

/** Viewers' new names and roles, in one statement (their units follow: setViewerUnits). */
export async function updateViewers(db: Db, rows: { id: number; name: string; role: ViewerRole }[]) {
  if (rows.length === 0) return;
  const values = sql.join(rows.map((r) => sql`(${r.id}::int, ${r.name}::text, ${r.role}::text)`));
  await sql`
    UPDATE users u SET name = v.name, role = v.role
    FROM (VALUES ${values}) AS v (id, name, role)
    WHERE u.id = v.id AND u.role IN ('province_viewer', 'unit_viewer')
  `.execute(db);
}

/** Each viewer's units become exactly `districtIds` (none for a province viewer). */
export async function setViewerUnits(db: Db, rows: { userId: number; districtIds: readonly number[] }[]) {
  if (rows.length === 0) return;
  await db.deleteFrom('viewer_units').where('user_id', 'in', rows.map((r) => r.userId)).execute();
  const units = rows.flatMap((r) => r.districtIds.map((districtId) => ({ user_id: r.userId, district_id: districtId })));
  if (units.length > 0) await db.insertInto('viewer_units').values(units).execute();
}

/** The units of these viewers, by viewer. */
export async function viewerUnitsOf(db: Db, userIds: number[]): Promise<Map<number, number[]>> {
  const units = new Map<number, number[]>();
  if (userIds.length === 0) return units;
  const rows = await db.selectFrom('viewer_units').select(['user_id', 'district_id']).where('user_id', 'in', userIds).orderBy('district_id').execute();
  for (const row of rows) units.set(row.user_id, [...(units.get(row.user_id) ?? []), row.district_id]);
  return units;
}

export const findDistricts = (db: Db, ids: readonly number[]) =>
  ids.length === 0 ? Promise.resolve([]) : db.selectFrom('districts').select(['id', 'name']).where('id', 'in', [...ids]).execute();
