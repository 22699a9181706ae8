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
import { normaliseClassName } from '../../../../shared/schemas/profile';
import { nameKey } from '../../../../shared/vietnamese';
import type { Db } from '../../../db/client';
import { AppError, conflict, notFound, unprocessable } from '../../../lib/errors';
import type { Services } from '../../../services';
import { recordAudit, type Actor } from '../audit';
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

const notFoundMessage = {
  district: 'Không tìm thấy quận/huyện này (có thể đã bị xoá).',
  school: 'Không tìm thấy trường này (có thể đã bị xoá hoặc gộp).',
  group: 'Không tìm thấy nhóm lớp này.',
  room: 'Không tìm thấy lớp này (có thể đã bị xoá hoặc gộp).',
  teacher: 'Không tìm thấy giáo viên của lớp này.',
};

// Districts -------------------------------------------------------------------------------------
type DistrictValues = z.output<typeof districtInputSchema>;
const districtTaken = (name: string) => conflict(`Đã có quận/huyện "${name}".`, 'name_taken', { name: `Đã có quận/huyện "${name}".` });

export async function createDistrict({ db }: Deps, actor: Actor, input: DistrictValues) {
  return inTransaction(
    db,
    async (trx) => {
      refuseSameName(await repo.allDistricts(trx), input.name, undefined, districtTaken);
      const row = await repo.insertDistrict(trx, input);
      await recordAudit(trx, actor, { kind: 'district.create', summary: `Thêm quận/huyện ${row.name}`, details: { after: row } });
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
      if (!before) throw notFound(notFoundMessage.district);
      refuseSameName(await repo.allDistricts(trx), input.name, id, districtTaken);
      const after = await repo.updateDistrict(trx, id, input);
      await recordAudit(trx, actor, { kind: 'district.update', summary: `Sửa quận/huyện ${before.name} → ${after.name}`, details: { before, after } });
      return after;
    },
    () => districtTaken(input.name),
  );
}

export async function deleteDistrict({ db }: Deps, actor: Actor, id: number) {
  const inUse = (name: string, schools: number) =>
    conflict(`Không thể xoá quận/huyện "${name}": đang có ${schools.toLocaleString('vi-VN')} trường. Hãy xoá hoặc gộp các trường trước, hoặc đổi tên quận/huyện.`, 'in_use');
  await inTransaction(
    db,
    async (trx) => {
      const before = await repo.findDistrict(trx, id, true);
      if (!before) throw notFound(notFoundMessage.district);
      const schools = await repo.countSchoolsOfDistrict(trx, id);
      if (schools > 0) throw inUse(before.name, schools);
      await repo.deleteRow(trx, 'districts', id);
      await recordAudit(trx, actor, { kind: 'district.delete', summary: `Xoá quận/huyện ${before.name}`, details: { before } });
    },
    () => conflict('Quận/huyện vừa được thay đổi, hãy thử lại.', 'in_use'),
    () => conflict('Quận/huyện đang được dùng, không xoá được.', 'in_use'),
  );
}

// Schools ---------------------------------------------------------------------------------------
type SchoolValues = z.output<typeof schoolInputSchema>;
const schoolTaken = (name: string) => {
  const message = `Quận/huyện này đã có trường "${name}".`;
  return conflict(message, 'name_taken', { name: message });
};

async function checkDistrict(db: Db, districtId: number) {
  const district = await repo.findDistrict(db, districtId);
  if (!district) throw unprocessable('Quận/huyện không có trong danh mục.', 'input_refused', { district_id: 'Quận/huyện không có trong danh mục.' });
  return district;
}

export async function createSchool({ db }: Deps, actor: Actor, input: SchoolValues) {
  return inTransaction(
    db,
    async (trx) => {
      const district = await checkDistrict(trx, input.district_id);
      refuseSameName(await repo.schoolsOfDistrict(trx, input.district_id), input.name, undefined, schoolTaken);
      const row = await repo.insertSchool(trx, input);
      await recordAudit(trx, actor, { kind: 'school.create', summary: `Thêm trường ${row.name} (${district.name})`, details: { after: row } });
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
      if (!before) throw notFound(notFoundMessage.school);
      if (before.district_id !== input.district_id) {
        await checkDistrict(trx, input.district_id);
        // A contestant's school lies in its district (composite key): those pupils would have to move too.
        const { contestants } = await repo.schoolUsage(trx, id);
        if (contestants > 0) {
          throw conflict(
            `Không thể chuyển trường "${before.name}" sang quận/huyện khác: đã có ${contestants.toLocaleString('vi-VN')} thí sinh đăng ký. Hãy tạo trường ở quận/huyện mới rồi gộp trường này vào đó.`,
            'in_use',
          );
        }
      }
      refuseSameName(await repo.schoolsOfDistrict(trx, input.district_id), input.name, id, schoolTaken);
      const after = await repo.updateSchool(trx, id, input);
      // Certificates print the school's name and address: the job brings them up to date.
      if (after.name !== before.name || after.address !== before.address) await recheckCertificates(trx);
      await recordAudit(trx, actor, { kind: 'school.update', summary: `Sửa trường ${before.name}`, details: { before, after } });
      return after;
    },
    () => schoolTaken(input.name),
  );
}

export function schoolUsage({ db }: Deps, id: number) {
  return db.transaction().execute(async (trx) => {
    if (!(await repo.findSchool(trx, id))) throw notFound(notFoundMessage.school);
    return repo.schoolUsage(trx, id);
  });
}

const describeSchoolUsage = (usage: repo.SchoolUsageCounts) =>
  describeCounts([
    [usage.contestants, 'thí sinh'],
    [usage.school_admins, 'tài khoản quản trị trường'],
    [usage.class_teachers, 'giáo viên lớp'],
    [usage.results, 'dòng kết quả, giấy chứng nhận'],
  ]);

export async function deleteSchool({ db }: Deps, actor: Actor, id: number) {
  await inTransaction(
    db,
    async (trx) => {
      // Locked: a contestant or teacher added meanwhile waits for this transaction (foreign key).
      const before = await repo.findSchool(trx, id, true);
      if (!before) throw notFound(notFoundMessage.school);
      const usage = await repo.schoolUsage(trx, id);
      const used = describeSchoolUsage(usage);
      if (used) {
        throw conflict(`Không thể xoá trường "${before.name}": đang được dùng bởi ${used}. Hãy đổi tên trường, hoặc gộp trường vào một trường khác.`, 'in_use');
      }
      await repo.deleteRow(trx, 'schools', id);
      await recordAudit(trx, actor, { kind: 'school.delete', summary: `Xoá trường ${before.name}`, details: { before } });
    },
    () => conflict('Trường vừa được thay đổi, hãy thử lại.', 'in_use'),
    () => conflict('Trường đang được dùng, không xoá được. Hãy gộp trường vào một trường khác.', 'in_use'),
  );
}

// Class groups ----------------------------------------------------------------------------------
type ClassGroupValues = z.output<typeof classGroupInputSchema>;
const groupTaken = () => {
  const message = 'Đã có nhóm lớp cùng tên hoặc cùng thứ tự.';
  return conflict(message, 'name_taken', { name: message });
};

export async function createClassGroup({ db }: Deps, actor: Actor, input: ClassGroupValues) {
  return inTransaction(
    db,
    async (trx) => {
      const row = await repo.insertClassGroup(trx, input);
      await recordAudit(trx, actor, { kind: 'class_group.create', summary: `Thêm nhóm lớp ${row.name}`, details: { after: row } });
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
      if (!before) throw notFound(notFoundMessage.group);
      const after = await repo.updateClassGroup(trx, id, input);
      await recordAudit(trx, actor, { kind: 'class_group.update', summary: `Sửa nhóm lớp ${before.name}`, details: { before, after } });
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
      if (!before) throw notFound(notFoundMessage.group);
      const usage = await repo.classGroupUsage(trx, id);
      const used = describeCounts([
        [usage.class_rooms, 'lớp'],
        [usage.books, 'sách'],
        [usage.contestants, 'thí sinh'],
      ]);
      if (used) throw conflict(`Không thể xoá nhóm lớp "${before.name}": đang có ${used}. Hãy đổi tên nhóm thay vì xoá.`, 'in_use');
      await repo.deleteRow(trx, 'class_groups', id);
      await recordAudit(trx, actor, { kind: 'class_group.delete', summary: `Xoá nhóm lớp ${before.name}`, details: { before } });
    },
    groupTaken,
    () => conflict('Nhóm lớp đang được dùng, không xoá được.', 'in_use'),
  );
}

// Class rooms -----------------------------------------------------------------------------------
type ClassRoomValues = z.output<typeof classRoomInputSchema>;
const roomTaken = (name: string) => {
  const message = `Nhóm lớp này đã có lớp "${name}".`;
  return conflict(message, 'name_taken', { name: message });
};

export async function createClassRoom({ db }: Deps, actor: Actor, input: ClassRoomValues) {
  return inTransaction(
    db,
    async (trx) => {
      const group = await repo.findClassGroup(trx, input.class_group_id);
      if (!group) throw unprocessable('Nhóm lớp không có trong danh mục.', 'input_refused', { class_group_id: 'Nhóm lớp không có trong danh mục.' });
      const row = await repo.insertClassRoom(trx, input);
      await recordAudit(trx, actor, { kind: 'class_room.create', summary: `Thêm lớp ${row.name} (${group.name})`, details: { after: row } });
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
      if (!before) throw notFound(notFoundMessage.room);
      if (before.class_group_id !== input.class_group_id) {
        if (!(await repo.findClassGroup(trx, input.class_group_id))) {
          throw unprocessable('Nhóm lớp không có trong danh mục.', 'input_refused', { class_group_id: 'Nhóm lớp không có trong danh mục.' });
        }
        const { contestants } = await repo.classRoomUsage(trx, before);
        if (contestants > 0) {
          throw conflict(
            `Không thể chuyển lớp "${before.name}" sang nhóm khác: đã có ${contestants.toLocaleString('vi-VN')} thí sinh (các em thi sách của nhóm mình).`,
            'in_use',
          );
        }
      }
      const after = await repo.updateClassRoom(trx, id, input);
      // Pupils of the room now print the new name: their teachers follow.
      if (after.name !== before.name) {
        await repo.moveClassTeachers(trx, before.name, after.name);
        await recheckCertificates(trx);
      }
      await recordAudit(trx, actor, { kind: 'class_room.update', summary: `Sửa lớp ${before.name}`, details: { before, after } });
      return after;
    },
    () => roomTaken(input.name),
  );
}

export async function classRoomUsage({ db }: Deps, id: number) {
  const room = await repo.findClassRoom(db, id);
  if (!room) throw notFound(notFoundMessage.room);
  return repo.classRoomUsage(db, room);
}

export async function deleteClassRoom({ db }: Deps, actor: Actor, id: number) {
  await inTransaction(
    db,
    async (trx) => {
      const [before] = await repo.lockClassRooms(trx, [id]);
      if (!before) throw notFound(notFoundMessage.room);
      const { contestants } = await repo.classRoomUsage(trx, before);
      if (contestants > 0) {
        throw conflict(
          `Không thể xoá lớp "${before.name}": đang có ${contestants.toLocaleString('vi-VN')} thí sinh. Hãy đổi tên lớp, hoặc gộp lớp vào một lớp khác cùng nhóm.`,
          'in_use',
        );
      }
      await repo.deleteRow(trx, 'class_rooms', id);
      await recordAudit(trx, actor, { kind: 'class_room.delete', summary: `Xoá lớp ${before.name}`, details: { before } });
    },
    () => roomTaken(''),
    () => conflict('Lớp đang có thí sinh, không xoá được. Hãy gộp lớp vào một lớp khác.', 'in_use'),
  );
}

export async function mergeClassRoom({ db }: Deps, actor: Actor, id: number, intoId: number) {
  if (id === intoId) throw unprocessable('Không thể gộp một lớp vào chính nó.', 'merge_invalid', { into_id: 'Hãy chọn một lớp khác.' });
  return db.transaction().execute(async (trx) => {
    const locked = await repo.lockClassRooms(trx, [id, intoId]);
    const from = locked.find((r) => r.id === id);
    const into = locked.find((r) => r.id === intoId);
    if (!from) throw notFound(notFoundMessage.room);
    if (!into) throw unprocessable('Lớp được gộp vào không còn trong danh mục.', 'merge_invalid', { into_id: notFoundMessage.room });
    if (into.class_group_id !== from.class_group_id) {
      throw unprocessable('Chỉ gộp được vào một lớp cùng nhóm lớp (thí sinh thi sách của nhóm mình).', 'merge_invalid', { into_id: 'Hãy chọn lớp cùng nhóm.' });
    }
    const moved = await repo.classRoomUsage(trx, from);
    await repo.mergeClassRoom(trx, from, into);
    await recheckCertificates(trx);
    const what = describeCounts([[moved.contestants, 'thí sinh']]) || 'không có thí sinh nào';
    await recordAudit(trx, actor, { kind: 'class_room.merge', summary: `Gộp lớp ${from.name} vào ${into.name}: chuyển ${what}`, details: { before: { from, into }, moved } });
    return { moved, into };
  });
}

// Class teachers --------------------------------------------------------------------------------
type ClassTeacherValues = z.output<typeof classTeacherInputSchema>;
const teacherTaken = (className: string) => {
  const message = `Lớp ${className} của trường này đã có giáo viên; hãy sửa dòng đó.`;
  return conflict(message, 'name_taken', { class_name: message });
};

/** The stored row of a class teacher's key as the path gives it ('4b' finds '4B'). */
async function findTeacher(db: Db, key: { school_id: number; class_name: string }) {
  const name = normaliseClassName(key.class_name);
  const classKey = (await repo.classKeysOf(db, [name])).get(name)!;
  return repo.findClassTeacher(db, key.school_id, classKey);
}

async function teacherRow(db: Db, input: ClassTeacherValues) {
  const school = await repo.findSchool(db, input.school_id);
  if (!school) throw unprocessable('Trường không có trong danh mục.', 'input_refused', { school_id: 'Trường không có trong danh mục.' });
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
        summary: `Thêm giáo viên ${row.teacher_name} lớp ${row.class_name} (${school.name})`,
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
      if (!before) throw notFound(notFoundMessage.teacher);
      const { school, row } = await teacherRow(trx, input);
      await repo.updateClassTeacher(trx, before, row);
      await recordAudit(trx, actor, {
        kind: 'class_teacher.update',
        summary: `Sửa giáo viên lớp ${before.class_name} (${school.name})`,
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
    if (!before) throw notFound(notFoundMessage.teacher);
    await repo.deleteClassTeacher(trx, before);
    await recordAudit(trx, actor, { kind: 'class_teacher.delete', summary: `Xoá giáo viên ${before.teacher_name} lớp ${before.class_name}`, details: { before } });
  });
}

// Lists (paged on the server) -------------------------------------------------------------------
type ListQuery<T extends (db: Db, query: never) => unknown> = Parameters<T>[1];
export const listDistricts = ({ db }: Deps, query: ListQuery<typeof repo.listDistricts>) => repo.listDistricts(db, query);
export const listSchools = ({ db }: Deps, query: ListQuery<typeof repo.listSchools>) => repo.listSchools(db, query);
export const listClassGroups = ({ db }: Deps, query: ListQuery<typeof repo.listClassGroups>) => repo.listClassGroups(db, query);
export const listClassRooms = ({ db }: Deps, query: ListQuery<typeof repo.listClassRooms>) => repo.listClassRooms(db, query);
export const listClassTeachers = ({ db }: Deps, query: ListQuery<typeof repo.listClassTeachers>) => repo.listClassTeachers(db, query);
