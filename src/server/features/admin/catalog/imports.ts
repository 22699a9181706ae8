// The catalogue's imports: schools (district, name, address, pupil count), classes (class group,
// name) and class teachers,
// through the one import flow (../imports.ts). Every row is checked and every problem reported
// before anything is stored; a good file is stored in one transaction with a few batched
// statements; the same file twice changes nothing.
import { templateColumns, importMessages, type ImportUpdate } from '../../../../shared/schemas/admin';
import { catalogLimits, classRoomName } from '../../../../shared/schemas/admin-catalog';
import { catalogImportMessages as im, catalogMessages } from '../../../../shared/messages/admin';
import { classNameKey, normaliseClassName } from '../../../../shared/schemas/profile';
import { nameKey } from '../../../../shared/vietnamese';
import { classGroupLabel } from '../../../../shared/class-groups';
import { gradesOf, groupOfGrade } from '../../../../shared/seasons';
import { appError } from '../../../lib/errors';
import type { Services } from '../../../services';
import type { Actor } from '../kit/audit';
import { tableFile } from '../kit/file-reader';
import { runImport } from '../kit/imports';
import { breather, ImportProblems, type SheetRow } from '../kit/sheets';
import type { Upload } from '../kit/uploads';
import * as repo from './repo';

type Deps = Pick<Services, 'db' | 'config'>;

/**
 * Names compare under nameKey, as everywhere a name is matched: any case, one tone-mark placement
 * ("Trường Tiểu học Hoà Bình" = "trường tiểu học hòa bình").
 */
const keyOf = (...parts: string[]) => parts.map(nameKey).join('\u0000');
const tooLong = im.tooLong;

/** A count in a cell: "1430", "1.430", "1,430" or "1 430" (thousands separators of either habit). */
export function parseCount(text: string): number | undefined {
  const digits = /^\d{1,3}([.,\s]\d{3})+$/.test(text) ? text.replace(/[.,\s]/g, '') : text;
  return /^\d{1,9}$/.test(digits) ? Number(digits) : undefined;
}

/** Another import or edit created the same school or district meanwhile. */
const catalogChanged = () => appError('name_taken', catalogMessages.changedDuringImport);

/** The catalogue's schools by district and name key (two of the same key, made before nameKey: the older). */
async function schoolsByKey<S extends { district_id: number; name: string }>(schools: S[]): Promise<Map<string, S>> {
  const byKey = new Map<string, S>();
  const breathe = breather();
  for (const s of schools) {
    await breathe();
    const key = keyOf(String(s.district_id), s.name);
    if (!byKey.has(key)) byKey.set(key, s);
  }
  return byKey;
}

/** The fields of `after` that differ from `before`, under their column titles, as text. */
function fieldChanges<T extends object>(before: T, after: T, fields: [keyof T & string, string][]): ImportUpdate['changes'] {
  return fields
    .filter(([field]) => before[field] !== after[field])
    .map(([field, title]) => ({ field: title, before: String(before[field]), after: String(after[field]) }));
}

// Schools ---------------------------------------------------------------------------------------
const SCHOOL_FIELDS: [keyof Omit<repo.SchoolRow, 'district_id'>, string][] = [
  ['address', im.addressField],
  ['pupil_count', im.pupilCountField],
];

interface SchoolLine {
  row: number;
  district: string;
  name: string;
  address: string;
  pupilCount: number;
}

async function checkSchoolRows(rows: SheetRow[], problems: ImportProblems) {
  const [colDistrict, colSchool, colAddress, colPupils] = templateColumns.schools as [string, string, string, string];
  const lines: SchoolLine[] = [];
  const breathe = breather();
  for (const { row, cells } of rows) {
    await breathe();
    const [district = '', name = '', address = '', pupils = ''] = cells;
    let ok = true;
    const fail = (column: string, message: string) => {
      problems.add(row, column, message);
      ok = false;
    };
    if (!district) fail(colDistrict, importMessages.required);
    else if (district.length > catalogLimits.districtName) fail(colDistrict, tooLong(catalogLimits.districtName));
    if (!name) fail(colSchool, importMessages.required);
    else if (name.length > catalogLimits.schoolName) fail(colSchool, tooLong(catalogLimits.schoolName));
    if (address.length > catalogLimits.address) fail(colAddress, tooLong(catalogLimits.address));
    const pupilCount = parseCount(pupils);
    if (!pupils) fail(colPupils, importMessages.required);
    else if (pupilCount === undefined || pupilCount > catalogLimits.pupilCount) {
      fail(colPupils, im.pupilCount(catalogLimits.pupilCount, pupils));
    }
    if (ok) lines.push({ row, district, name, address, pupilCount: pupilCount! });
  }
  const keys: { row: number; key: string }[] = [];
  for (const { row, cells } of rows) {
    await breathe();
    if (cells[0] && cells[1]) keys.push({ row, key: keyOf(cells[0], cells[1]) });
  }
  await problems.duplicates(keys, colSchool);
  return lines;
}

/** POST /schools/import: new districts and schools are added, a school of the same district and name updated. */
export function importSchools(deps: Deps, actor: Actor, upload: Upload) {
  return runImport(deps, actor, upload, {
    read: tableFile('schools'),
    raced: catalogChanged,
    async preview(db, rows, { problems }) {
      const lines = await checkSchoolRows(rows, problems);
      // The file's own mistakes are answered before the catalogue is read.
      problems.throwIfAny();
      const breathe = breather();
      // One after the other: an import holds at most one pool connection (a dry run has no transaction).
      const districts = await repo.allDistricts(db);
      const schools = await repo.allSchools(db);
      const districtByKey = new Map(districts.map((d) => [keyOf(d.name), d.id]));
      const newDistrictByKey = new Map<string, string>();
      for (const line of lines) {
        await breathe();
        const key = keyOf(line.district);
        if (!districtByKey.has(key) && !newDistrictByKey.has(key)) newDistrictByKey.set(key, line.district);
      }
      const newDistricts = [...newDistrictByKey.values()];

      const schoolByKey = await schoolsByKey(schools);
      // A new school's district may be new too: its id is known once the districts are stored.
      const creates: (Omit<repo.SchoolRow, 'district_id'> & { districtKey: string })[] = [];
      const updates: (repo.SchoolRow & { id: number })[] = [];
      const changes: ImportUpdate[] = [];
      const districtName = new Map(districts.map((d) => [d.id, d.name]));
      let unchanged = 0;
      let sizesChanged = false;
      for (const line of lines) {
        await breathe();
        const districtId = districtByKey.get(keyOf(line.district));
        const existing = districtId === undefined ? undefined : schoolByKey.get(keyOf(String(districtId), line.name));
        // A school found under another spelling keeps the catalogue's ("Hoà" in the file, "Hòa" stored).
        const values = { name: existing?.name ?? line.name, address: line.address, pupil_count: line.pupilCount };
        if (!existing) creates.push({ ...values, districtKey: keyOf(line.district) });
        else if (existing.address === line.address && existing.pupil_count === line.pupilCount) unchanged += 1;
        else {
          updates.push({ ...values, district_id: districtId!, id: existing.id });
          if (existing.pupil_count !== line.pupilCount) sizesChanged = true;
          changes.push({ row: line.row, key: `${districtName.get(districtId!)} / ${existing.name}`, changes: fieldChanges(existing, values, SCHOOL_FIELDS) });
        }
      }
      const counts = { created: creates.length, updated: updates.length, unchanged, districts_created: newDistricts.length };
      return {
        counts,
        answer: {},
        updates: changes,
        creations: [
          ...newDistricts.map((name) => ({ kind: 'district' as const, name })),
          ...creates.map((school) => ({ kind: 'school' as const, name: `${school.name} (${newDistrictByKey.get(school.districtKey) ?? districtName.get(districtByKey.get(school.districtKey)!)})` })),
        ],
        async store(trx) {
          for (const d of await repo.insertDistricts(trx, newDistricts)) districtByKey.set(keyOf(d.name), d.id);
          await repo.insertSchools(trx, creates.map(({ districtKey, ...school }) => ({ ...school, district_id: districtByKey.get(districtKey)! })));
          await repo.updateSchools(trx, updates);
          return {
            audit: {
              kind: 'schools.import',
              summary: im.schoolsImported(upload.fileName, counts),
              details: { file: upload.fileName, counts: { ...counts, rows: rows.length } },
              // The school prizes weigh each school's size.
              movesResults: sizesChanged,
            },
          };
        },
      };
    },
  });
}

// Class teachers --------------------------------------------------------------------------------
/** POST /class-teachers/import: each row names a school of the catalogue, a class and its teacher (added or replaced). */
export function importClassTeachers(deps: Deps, actor: Actor, upload: Upload) {
  const [colDistrict, colSchool, colClass, colTeacher] = templateColumns['class-teachers'] as [string, string, string, string];
  return runImport(deps, actor, upload, {
    read: tableFile('class-teachers'),
    raced: catalogChanged,
    async preview(db, rows, { problems }) {
      const breathe = breather();
      // One after the other: an import holds at most one pool connection (a dry run has no transaction).
      const districts = await repo.allDistricts(db);
      const schools = await repo.allSchools(db);
      const districtByKey = new Map(districts.map((d) => [keyOf(d.name), d]));
      const schoolByKey = await schoolsByKey(schools);
      const roomByKey = new Map((await repo.allClassRooms(db)).map((room) => [classNameKey(room.name), room.name]));

      const lines: { row: number; schoolId: number; schoolName: string; className: string; teacher: string }[] = [];
      for (const { row, cells } of rows) {
        await breathe();
        const [district = '', schoolName = '', rawClass = '', teacher = ''] = cells;
        const typedClass = normaliseClassName(rawClass);
        // "Lớp 2B", " 2b " are the catalogue's "2B"; a class the catalogue lacks could never win a class prize.
        const className = roomByKey.get(classNameKey(typedClass)) ?? '';
        let ok = true;
        const fail = (column: string, message: string) => {
          problems.add(row, column, message);
          ok = false;
        };
        const knownDistrict = district ? districtByKey.get(keyOf(district)) : undefined;
        if (!district) fail(colDistrict, importMessages.required);
        else if (!knownDistrict) fail(colDistrict, im.unknownDistrict(district));
        const school = knownDistrict && schoolName ? schoolByKey.get(keyOf(String(knownDistrict.id), schoolName)) : undefined;
        if (!schoolName) fail(colSchool, importMessages.required);
        else if (knownDistrict && !school) fail(colSchool, im.unknownSchool(schoolName, knownDistrict.name));
        if (!typedClass) fail(colClass, importMessages.required);
        else if (!className) fail(colClass, im.unknownClass(typedClass));
        if (!teacher) fail(colTeacher, importMessages.required);
        else if (teacher.length > catalogLimits.teacherName) fail(colTeacher, tooLong(catalogLimits.teacherName));
        if (ok && school) lines.push({ row, schoolId: school.id, schoolName: school.name, className, teacher });
      }

      // Class keys come from the database (upper case, like every other class key), in one query.
      const classKeys = await repo.classKeysOf(db, lines.map((l) => l.className));
      const keyed = lines.map((l) => ({ ...l, classKey: classKeys.get(l.className)! }));
      await problems.duplicates(
        keyed.map((l) => ({ row: l.row, key: `${l.schoolId}\u0000${l.classKey}` })),
        colClass,
      );
      problems.throwIfAny();

      const existing = new Map(
        (await repo.classTeachersOfSchools(db, keyed.map((l) => l.schoolId))).map((t) => [`${t.school_id}\u0000${t.class_name}`, t.teacher_name]),
      );
      const writes: { school_id: number; class_name: string; teacher_name: string }[] = [];
      const changes: ImportUpdate[] = [];
      const counts = { created: 0, updated: 0, unchanged: 0 };
      for (const line of keyed) {
        await breathe();
        const before = existing.get(`${line.schoolId}\u0000${line.classKey}`);
        // The same name in another spelling ("Cô Thuỷ", "cô thủy") is the same teacher: left as stored.
        if (before !== undefined && nameKey(before) === nameKey(line.teacher)) counts.unchanged += 1;
        else {
          counts[before === undefined ? 'created' : 'updated'] += 1;
          writes.push({ school_id: line.schoolId, class_name: line.classKey, teacher_name: line.teacher });
          if (before !== undefined) {
            changes.push({ row: line.row, key: im.teacherKey(line.schoolName, line.classKey), changes: [{ field: colTeacher, before, after: line.teacher }] });
          }
        }
      }
      return {
        counts,
        answer: {},
        updates: changes,
        async store(trx) {
          await repo.upsertClassTeachers(trx, writes);
          return {
            audit: {
              kind: 'class_teachers.import',
              summary: im.teachersImported(upload.fileName, counts),
              details: { file: upload.fileName, counts: { ...counts, rows: rows.length } },
            },
          };
        },
      };
    },
  });
}

// Classes ---------------------------------------------------------------------------------------
/**
 * A class group as a file may name it: its name ("Nhóm 2"), its label ("Nhóm 2 (Lớp 3 - 4)"), or
 * a grade it covers ("3", "Lớp 3", "Khối 3").
 */
function groupFinder(groups: { id: number; name: string; grades: string }[]) {
  const byName = new Map<string, { id: number; name: string }>();
  const byGrade = new Map<string, { id: number; name: string }>();
  for (const group of groups) {
    byName.set(nameKey(group.name), group);
    byName.set(nameKey(classGroupLabel(group)), group);
    const grades = gradesOf(group.grades);
    for (const grade of grades) if (!byGrade.has(String(grade))) byGrade.set(String(grade), group);
    // The grades it covers, as the covers and the profile print them ("Lớp 3-4", "Lớp 3 - 4").
    if (grades.length > 1) byGrade.set(`${grades[0]}-${grades.at(-1)}`, group);
  }
  return (text: string) => {
    const grade = /^(?:lớp|khối)?\s*(\d{1,2})(?:\s*-\s*(\d{1,2}))?$/iu.exec(text.trim());
    if (!grade) return byName.get(nameKey(text));
    const [from, to = from] = [Number(grade[1]), grade[2] === undefined ? undefined : Number(grade[2])];
    return byGrade.get(from === to ? String(from) : `${from}-${to}`);
  };
}

/** The class-rooms template's example group: the catalogue's group of its example class (3A), so that it imports as it is. */
export async function classRoomsTemplateExamples(db: Deps['db']): Promise<Record<string, string>> {
  const group = groupOfGrade(await repo.allClassGroups(db), 3);
  return group ? { [templateColumns['class-rooms'][0]!]: group.name } : {};
}

/**
 * POST /class-rooms/import: each row a class of a class group (classes are the catalogue's, shared
 * by every school, as in the dialog; a school's teacher of a class comes with the teacher import).
 * A new class is added after the group's last; one already there (under classRoomName, in any
 * group) is left as it is, and refused when the file puts it in another group.
 */
export function importClassRooms(deps: Deps, actor: Actor, upload: Upload) {
  const [colGroup, colClass] = templateColumns['class-rooms'] as [string, string];
  return runImport(deps, actor, upload, {
    read: tableFile('class-rooms'),
    raced: catalogChanged,
    async preview(db, rows, { problems }) {
      const breathe = breather();
      const groups = await repo.allClassGroups(db);
      const rooms = await repo.allClassRooms(db);
      const findGroup = groupFinder(groups);
      const groupName = new Map(groups.map((g) => [g.id, g.name]));
      const roomByName = new Map(rooms.map((room) => [classRoomName.safeParse(room.name).data ?? room.name, room]));
      const lines: { row: number; groupId: number; name: string }[] = [];
      for (const { row, cells } of rows) {
        await breathe();
        const [groupText = '', rawName = ''] = cells;
        const group = groupText ? findGroup(groupText) : undefined;
        if (!groupText) problems.add(row, colGroup, importMessages.required);
        else if (!group) problems.add(row, colGroup, im.unknownGroup(groupText, groups[0]?.name));
        const parsed = classRoomName.safeParse(rawName);
        if (!parsed.success) problems.add(row, colClass, rawName ? tooLong(catalogLimits.roomName) : importMessages.required);
        const existing = parsed.success ? roomByName.get(parsed.data) : undefined;
        if (group && existing && existing.class_group_id !== group.id) {
          problems.add(row, colClass, im.classInGroup(parsed.data, groupName.get(existing.class_group_id)));
        } else if (group && parsed.success) lines.push({ row, groupId: group.id, name: parsed.data });
      }
      await problems.duplicates(
        rows.map(({ row, cells }) => ({ row, key: classRoomName.safeParse(cells[1] ?? '').data ?? `\u0000${row}` })),
        colClass,
      );
      problems.throwIfAny();

      const nextPosition = new Map<number, number>();
      for (const room of rooms) nextPosition.set(room.class_group_id, Math.max(nextPosition.get(room.class_group_id) ?? 0, room.position));
      const creates: { class_group_id: number; name: string; position: number }[] = [];
      let unchanged = 0;
      for (const line of lines) {
        if (roomByName.has(line.name)) unchanged += 1;
        else {
          const position = (nextPosition.get(line.groupId) ?? 0) + 1;
          nextPosition.set(line.groupId, position);
          creates.push({ class_group_id: line.groupId, name: line.name, position: Math.min(position, 999) });
        }
      }
      const counts = { created: creates.length, updated: 0, unchanged };
      return {
        counts,
        answer: {},
        creations: creates.map((room) => ({ kind: 'class' as const, name: `${room.name} (${groupName.get(room.class_group_id)})` })),
        async store(trx) {
          await repo.insertClassRooms(trx, creates);
          return {
            audit: {
              kind: 'class_rooms.import',
              summary: im.classesImported(upload.fileName, counts),
              details: { file: upload.fileName, counts: { ...counts, rows: rows.length }, created: creates.map((room) => room.name) },
            },
          };
        },
      };
    },
  });
}
