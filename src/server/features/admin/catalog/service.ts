// Rules of the back office's catalogue: add, edit, delete only what nothing uses, rename or merge
// what is used. Each change and its audit entry are one transaction.
import type { z } from 'zod';
import type {
  classGroupInputSchema,
  classRoomInputSchema,
  classTeacherInputSchema,
  districtInputSchema,
  schoolInputSchema,
} from '../../../../shared/schemas/admin-catalog';
import { catalogChangeMessages as m } from '../../../../shared/messages/admin';
import { normaliseClassName } from '../../../../shared/schemas/profile';
import { nameKey } from '../../../../shared/vietnamese';
import type { Db } from '../../../db/client';
import { appError, AppError, notFound } from '../../../lib/errors';
import type { Services } from '../../../services';
import { recordAudit, type Actor } from '../kit/audit';
import * as repo from './repo';
import { recheckCertificates } from '../../certificates';
import { isForeignKeyViolation, isUniqueViolation } from '../../../db/errors';

type Deps = Pick<Services, 'db'>;


/** Runs `work` in a transaction; a unique violation (another request was faster) becomes `onTaken`. */
async function inTransaction<T>(db: Db, work: (trx: Db) => Promise<T>, onTaken: () => AppError, onInUse?: () => AppError): Promise<T> {
  try {
    return await db.transaction().execute(work);
  } catch (error) {
    if (isUniqueViolation(error)) throw onTaken();
    if (onInUse && isForeignKeyViolation(error)) throw onInUse();
    throw error;
  }
}

/**
 * Refuses a name that another row already has under nameKey ("An Hoà" = "an hòa"): the database's
 * unique index compares spellings only.
 */
function refuseSameName(rows: { id: number; name: string }[], name: string, exceptId: number | undefined, taken: (name: string) => AppError) {
  const key = nameKey(name);
  const same = rows.find((row) => row.id !== exceptId && nameKey(row.name) === key);
  if (same) throw taken(same.name);
}

/** "12 thí sinh, 1 tài khoản quản trị trường" from the non-zero counts. */
export function describeCounts(parts: [number, string][]): string {
  return parts
    .filter(([n]) => n > 0)
    .map(([n, what]) => `${n.toLocaleString('vi-VN')} ${what}`)
    .join(', ');
}

// Districts -------------------------------------------------------------------------------------
type DistrictValues = z.output<typeof districtInputSchema>;
const districtTaken = (name: string) => appError('name_taken', m.districtTaken(name), { name: m.districtTaken(name) });

export async function createDistrict({ db }: Deps, actor: Actor, input: DistrictValues) {
  return inTransaction(
    db,
    async (trx) => {
      refuseSameName(await repo.allDistricts(trx), input.name, undefined, districtTaken);
      const row = await repo.insertDistrict(trx, input);
      await recordAudit(trx, actor, { kind: 'district.create', summary: m.audit.districtCreated(row.name), details: { after: row } });
      return row;
    },
    () => districtTaken(input.name),
  );
}

export async function updateDistrict({ db }: Deps, actor: Actor, id: number, input: DistrictValues) {
  return inTransaction(
    db,
    async (trx) => {
      const before = await repo.findDistrict(trx, id, true);
      if (!before) throw notFound(m.districtNotFound);
      refuseSameName(await repo.allDistricts(trx), input.name, id, districtTaken);
      const after = await repo.updateDistrict(trx, id, input);
      await recordAudit(trx, actor, { kind: 'district.update', summary: m.audit.districtUpdated(before.name, after.name), details: { before, after } });
      return after;
    },
    () => districtTaken(input.name),
  );
}

export async function deleteDistrict({ db }: Deps, actor: Actor, id: number) {
  await inTransaction(
    db,
    async (trx) => {
      const before = await repo.findDistrict(trx, id, true);
      if (!before) throw notFound(m.districtNotFound);
      const schools = await repo.countSchoolsOfDistrict(trx, id);
      if (schools > 0) throw appError('in_use', m.districtHasSchools(before.name, schools));
      await repo.deleteRow(trx, 'districts', id);
      await recordAudit(trx, actor, { kind: 'district.delete', summary: m.audit.districtDeleted(before.name), details: { before } });
    },
    () => appError('in_use', m.districtChanged),
    () => appError('in_use', m.districtInUse),
  );
}

// Schools ---------------------------------------------------------------------------------------
type SchoolValues = z.output<typeof schoolInputSchema>;
const schoolTaken = (name: string) => appError('name_taken', m.schoolTaken(name), { name: m.schoolTaken(name) });

async function checkDistrict(db: Db, districtId: number) {
  const district = await repo.findDistrict(db, districtId);
  if (!district) throw appError('input_refused', m.districtUnknown, { district_id: m.districtUnknown });
  return district;
}

export async function createSchool({ db }: Deps, actor: Actor, input: SchoolValues) {
  return inTransaction(
    db,
    async (trx) => {
      const district = await checkDistrict(trx, input.district_id);
      refuseSameName(await repo.schoolsOfDistrict(trx, input.district_id), input.name, undefined, schoolTaken);
      const row = await repo.insertSchool(trx, input);
      await recordAudit(trx, actor, { kind: 'school.create', summary: m.audit.schoolCreated(row.name, district.name), details: { after: row } });
      return row;
    },
    () => schoolTaken(input.name),
  );
}

export async function updateSchool({ db }: Deps, actor: Actor, id: number, input: SchoolValues) {
  return inTransaction(
    db,
    async (trx) => {
      const before = await repo.findSchool(trx, id, true);
      if (!before) throw notFound(m.schoolNotFound);
      if (before.district_id !== input.district_id) {
        await checkDistrict(trx, input.district_id);
        // A contestant's school lies in its district (composite key): those pupils would have to move too.
        const { contestants } = await repo.schoolUsage(trx, id);
        if (contestants > 0) {
          throw appError('in_use', m.schoolHasContestants(before.name, contestants));
        }
      }
      refuseSameName(await repo.schoolsOfDistrict(trx, input.district_id), input.name, id, schoolTaken);
      const after = await repo.updateSchool(trx, id, input);
      // Certificates print the school's name and address: the job brings them up to date.
      if (after.name !== before.name || after.address !== before.address) await recheckCertificates(trx);
      // The school prizes weigh the school's size; its name is printed on its pupils' certificates.
      const movesResults = after.pupil_count !== before.pupil_count || after.name !== before.name || after.district_id !== before.district_id;
      await recordAudit(trx, actor, { kind: 'school.update', summary: m.audit.schoolUpdated(before.name), details: { before, after }, movesResults });
      return after;
    },
    () => schoolTaken(input.name),
  );
}

export function schoolUsage({ db }: Deps, id: number) {
  return db.transaction().execute(async (trx) => {
    if (!(await repo.findSchool(trx, id))) throw notFound(m.schoolNotFound);
    return repo.schoolUsage(trx, id);
  });
}

const describeSchoolUsage = (usage: repo.SchoolUsageCounts) =>
  describeCounts([
    [usage.contestants, m.counted.contestants],
    [usage.school_admins, m.counted.schoolAdmins],
    [usage.class_teachers, m.counted.classTeachers],
    [usage.results, m.counted.results],
  ]);

export async function deleteSchool({ db }: Deps, actor: Actor, id: number) {
  await inTransaction(
    db,
    async (trx) => {
      // Locked: a contestant or teacher added meanwhile waits for this transaction (foreign key).
      const before = await repo.findSchool(trx, id, true);
      if (!before) throw notFound(m.schoolNotFound);
      const usage = await repo.schoolUsage(trx, id);
      const used = describeSchoolUsage(usage);
      if (used) throw appError('in_use', m.schoolUsed(before.name, used));
      await repo.deleteRow(trx, 'schools', id);
      await recordAudit(trx, actor, { kind: 'school.delete', summary: m.audit.schoolDeleted(before.name), details: { before } });
    },
    () => appError('in_use', m.schoolChanged),
    () => appError('in_use', m.schoolInUse),
  );
}

// Class groups ----------------------------------------------------------------------------------
type ClassGroupValues = z.output<typeof classGroupInputSchema>;
const groupTaken = () => appError('name_taken', m.groupTaken, { name: m.groupTaken });

export async function createClassGroup({ db }: Deps, actor: Actor, input: ClassGroupValues) {
  return inTransaction(
    db,
    async (trx) => {
      const row = await repo.insertClassGroup(trx, input);
      await recordAudit(trx, actor, { kind: 'class_group.create', summary: m.audit.groupCreated(row.name), details: { after: row } });
      return row;
    },
    groupTaken,
  );
}

export async function updateClassGroup({ db }: Deps, actor: Actor, id: number, input: ClassGroupValues) {
  return inTransaction(
    db,
    async (trx) => {
      const before = await repo.findClassGroup(trx, id, true);
      if (!before) throw notFound(m.groupNotFound);
      const after = await repo.updateClassGroup(trx, id, input);
      await recordAudit(trx, actor, { kind: 'class_group.update', summary: m.audit.groupUpdated(before.name), details: { before, after } });
      return after;
    },
    groupTaken,
  );
}

export async function deleteClassGroup({ db }: Deps, actor: Actor, id: number) {
  await inTransaction(
    db,
    async (trx) => {
      const before = await repo.findClassGroup(trx, id, true);
      if (!before) throw notFound(m.groupNotFound);
      const usage = await repo.classGroupUsage(trx, id);
      const used = describeCounts([
        [usage.class_rooms, m.counted.classRooms],
        [usage.books, m.counted.books],
        [usage.contestants, m.counted.contestants],
      ]);
      if (used) throw appError('in_use', m.groupUsed(before.name, used));
      await repo.deleteRow(trx, 'class_groups', id);
      await recordAudit(trx, actor, { kind: 'class_group.delete', summary: m.audit.groupDeleted(before.name), details: { before } });
    },
    groupTaken,
    () => appError('in_use', m.groupInUse),
  );
}

// Class rooms -----------------------------------------------------------------------------------
type ClassRoomValues = z.output<typeof classRoomInputSchema>;
const roomTaken = (name: string) => appError('name_taken', m.roomTaken(name), { name: m.roomTaken(name) });

export async function createClassRoom({ db }: Deps, actor: Actor, input: ClassRoomValues) {
  return inTransaction(
    db,
    async (trx) => {
      const group = await repo.findClassGroup(trx, input.class_group_id);
      if (!group) throw appError('input_refused', m.groupUnknown, { class_group_id: m.groupUnknown });
      const row = await repo.insertClassRoom(trx, input);
      await recordAudit(trx, actor, { kind: 'class_room.create', summary: m.audit.roomCreated(row.name, group.name), details: { after: row } });
      return row;
    },
    () => roomTaken(input.name),
  );
}

export async function updateClassRoom({ db }: Deps, actor: Actor, id: number, input: ClassRoomValues) {
  return inTransaction(
    db,
    async (trx) => {
      const [before] = await repo.lockClassRooms(trx, [id]);
      if (!before) throw notFound(m.roomNotFound);
      if (before.class_group_id !== input.class_group_id) {
        if (!(await repo.findClassGroup(trx, input.class_group_id))) {
          throw appError('input_refused', m.groupUnknown, { class_group_id: m.groupUnknown });
        }
        const { contestants } = await repo.classRoomUsage(trx, before);
        if (contestants > 0) {
          throw appError('in_use', m.roomHasContestants(before.name, contestants));
        }
      }
      const after = await repo.updateClassRoom(trx, id, input);
      // Pupils of the room now print the new name: their teachers follow.
      if (after.name !== before.name) {
        await repo.moveClassTeachers(trx, before.name, after.name);
        await recheckCertificates(trx);
      }
      // A class's prizes go by its printed name: a new name may join or split a class.
      await recordAudit(trx, actor, { kind: 'class_room.update', summary: m.audit.roomUpdated(before.name), details: { before, after }, movesResults: after.name !== before.name });
      return after;
    },
    () => roomTaken(input.name),
  );
}

export async function classRoomUsage({ db }: Deps, id: number) {
  const room = await repo.findClassRoom(db, id);
  if (!room) throw notFound(m.roomNotFound);
  return repo.classRoomUsage(db, room);
}

export async function deleteClassRoom({ db }: Deps, actor: Actor, id: number) {
  await inTransaction(
    db,
    async (trx) => {
      const [before] = await repo.lockClassRooms(trx, [id]);
      if (!before) throw notFound(m.roomNotFound);
      const { contestants } = await repo.classRoomUsage(trx, before);
      if (contestants > 0) throw appError('in_use', m.roomUsed(before.name, contestants));
      await repo.deleteRow(trx, 'class_rooms', id);
      await recordAudit(trx, actor, { kind: 'class_room.delete', summary: m.audit.roomDeleted(before.name), details: { before } });
    },
    () => roomTaken(''),
    () => appError('in_use', m.roomInUse),
  );
}

export async function mergeClassRoom({ db }: Deps, actor: Actor, id: number, intoId: number) {
  if (id === intoId) throw appError('merge_invalid', m.sameRoom, { into_id: m.pickOtherRoom });
  return db.transaction().execute(async (trx) => {
    const locked = await repo.lockClassRooms(trx, [id, intoId]);
    const from = locked.find((r) => r.id === id);
    const into = locked.find((r) => r.id === intoId);
    if (!from) throw notFound(m.roomNotFound);
    if (!into) throw appError('merge_invalid', m.roomIntoGone, { into_id: m.roomNotFound });
    if (into.class_group_id !== from.class_group_id) {
      throw appError('merge_invalid', m.roomOfOtherGroup, { into_id: m.pickRoomOfGroup });
    }
    const moved = await repo.classRoomUsage(trx, from);
    await repo.mergeClassRoom(trx, from, into);
    await recheckCertificates(trx);
    const what = describeCounts([[moved.contestants, m.counted.contestants]]) || m.noContestants;
    await recordAudit(trx, actor, { kind: 'class_room.merge', summary: m.audit.roomMerged(from.name, into.name, what), details: { before: { from, into }, moved }, movesResults: true });
    return { moved, into };
  });
}

// Class teachers --------------------------------------------------------------------------------
type ClassTeacherValues = z.output<typeof classTeacherInputSchema>;
const teacherTaken = (className: string) => appError('name_taken', m.teacherTaken(className), { class_name: m.teacherTaken(className) });

/** The stored row of a class teacher's key as the path gives it ('4b' finds '4B'). */
async function findTeacher(db: Db, key: { school_id: number; class_name: string }) {
  const name = normaliseClassName(key.class_name);
  const classKey = (await repo.classKeysOf(db, [name])).get(name)!;
  return repo.findClassTeacher(db, key.school_id, classKey);
}

async function teacherRow(db: Db, input: ClassTeacherValues) {
  const school = await repo.findSchool(db, input.school_id);
  if (!school) throw appError('input_refused', m.schoolUnknown, { school_id: m.schoolUnknown });
  const key = (await repo.classKeysOf(db, [input.class_name])).get(input.class_name)!;
  return { school, row: { school_id: school.id, class_name: key, teacher_name: input.teacher_name } };
}

export async function createClassTeacher({ db }: Deps, actor: Actor, input: ClassTeacherValues) {
  return inTransaction(
    db,
    async (trx) => {
      const { school, row } = await teacherRow(trx, input);
      await repo.insertClassTeacher(trx, row);
      await recordAudit(trx, actor, {
        kind: 'class_teacher.create',
        summary: m.audit.teacherCreated(row.teacher_name, row.class_name, school.name),
        details: { after: row },
      });
      return row;
    },
    () => teacherTaken(input.class_name),
  );
}

export async function updateClassTeacher({ db }: Deps, actor: Actor, key: { school_id: number; class_name: string }, input: ClassTeacherValues) {
  return inTransaction(
    db,
    async (trx) => {
      const before = await findTeacher(trx, key);
      if (!before) throw notFound(m.teacherNotFound);
      const { school, row } = await teacherRow(trx, input);
      await repo.updateClassTeacher(trx, before, row);
      await recordAudit(trx, actor, {
        kind: 'class_teacher.update',
        summary: m.audit.teacherUpdated(before.class_name, school.name),
        details: { before, after: row },
      });
      return row;
    },
    () => teacherTaken(input.class_name),
  );
}

export async function deleteClassTeacher({ db }: Deps, actor: Actor, key: { school_id: number; class_name: string }) {
  await db.transaction().execute(async (trx) => {
    const before = await findTeacher(trx, key);
    if (!before) throw notFound(m.teacherNotFound);
    await repo.deleteClassTeacher(trx, before);
    await recordAudit(trx, actor, { kind: 'class_teacher.delete', summary: m.audit.teacherDeleted(before.teacher_name, before.class_name), details: { before } });
  });
}

// Lists (paged on the server) -------------------------------------------------------------------
type ListQuery<T extends (db: Db, query: never) => unknown> = Parameters<T>[1];
export const listDistricts = ({ db }: Deps, query: ListQuery<typeof repo.listDistricts>) => repo.listDistricts(db, query);
export const listSchools = ({ db }: Deps, query: ListQuery<typeof repo.listSchools>) => repo.listSchools(db, query);
export const listClassGroups = ({ db }: Deps, query: ListQuery<typeof repo.listClassGroups>) => repo.listClassGroups(db, query);
export const listClassRooms = ({ db }: Deps, query: ListQuery<typeof repo.listClassRooms>) => repo.listClassRooms(db, query);
export const listClassTeachers = ({ db }: Deps, query: ListQuery<typeof repo.listClassTeachers>) => repo.listClassTeachers(db, query);
