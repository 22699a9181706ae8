// Merging two catalogue entries that are one and the same (issue 23.1, decision 023): a school
// into another, a district into another. The organiser first sees what would move (the same
// counting as the merge), then confirms; the merge is one transaction with its audit entry.
import { catalogChangeMessages as m } from '../../../../shared/messages/admin';
import { classNameKey } from '../../../../shared/schemas/profile';
import { CLASS_OTHER_MAX_LENGTH } from '../../../../shared/rules';
import type { DistrictMergePreview, SchoolMergePreview } from '../../../../shared/schemas/admin-catalog';
import { nameKey } from '../../../../shared/vietnamese';
import { STALE_MS } from '../../../core/task-runner';
import type { Db } from '../../../db/client';
import { appError, notFound } from '../../../lib/errors';
import type { Services } from '../../../services';
import { recordAudit, type Actor } from '../kit/audit';
import * as repo from './repo';
import { recheckCertificates } from '../../certificates';
import { describeCounts } from './service';

type Deps = Pick<Services, 'db' | 'clock'>;
type SchoolRow = { id: number; district_id: number; name: string; address: string; pupil_count: number };
type Plan = {
  preview: SchoolMergePreview;
  teachers: { class_name: string; teacher_name: string }[];
  pupilClasses: { id: number; class_room_id: number | null; class_room_other: string | null }[];
};
type ResultsState = Awaited<ReturnType<typeof repo.resultsState>>;

const resultsStateAt = (db: Db, now: Date) => repo.resultsState(db, new Date(now.getTime() - STALE_MS));

/**
 * What merging `from` into `into` does, read in the caller's transaction: the counts, the classes
 * both schools have (one class after the merge: the same class key "5A" = "Lớp 5 a", the kept
 * school's teacher stays), the school's own prizes that the merge drops until results are
 * computed again, and why it is refused, if it is.
 */
async function planSchoolMerge(db: Db, results: ResultsState, from: SchoolRow, into: SchoolRow, districtNames: Map<number, string>): Promise<Plan> {
  const counts = await repo.schoolMergeCounts(db, from.id);
  const fromTeachers = await repo.classTeachersOf(db, from.id);
  const intoTeachers = await repo.classTeachersOf(db, into.id);
  const fromTeacherByKey = new Map(fromTeachers.map((t) => [classNameKey(t.class_name), t]));
  const intoTeacherByKey = new Map(intoTeachers.map((t) => [classNameKey(t.class_name), t]));
  // Each school's classes by class key: its teachers' and its pupils' (as printed).
  const classesOf = (teachers: { class_name: string }[], pupilClasses: string[]) => {
    const classes = new Map<string, string>();
    for (const name of [...teachers.map((t) => t.class_name), ...pupilClasses]) if (!classes.has(classNameKey(name))) classes.set(classNameKey(name), name);
    return classes;
  };
  const fromClasses = classesOf(fromTeachers, await repo.pupilClassesOf(db, from.id));
  const intoClasses = classesOf(intoTeachers, await repo.pupilClassesOf(db, into.id));

  // A class teacher moves unless the kept school has one for that class; a class both schools
  // have takes the kept school's spelling ("5 a4" -> "5A4"), so that its pupils make one class
  // (the ranking's class key compares spellings) and its teacher is theirs.
  const moving = fromTeachers.filter((t) => !intoTeacherByKey.has(classNameKey(t.class_name)));
  const spellings = await repo.classKeysOf(db, [...intoClasses.values()]);
  const teachers = moving.map((t) => ({ teacher_name: t.teacher_name, class_name: spellings.get(intoClasses.get(classNameKey(t.class_name)) ?? '') ?? t.class_name }));
  const rooms = await repo.classRoomsOfGroups(db);
  const pupilClasses: Plan['pupilClasses'] = [];
  const renamed = new Map<string, number>();
  for (const pupil of await repo.typedClassPupilsOf(db, from.id)) {
    const typed = pupil.class_room_other ?? '';
    const key = classNameKey(typed);
    const name = intoClasses.get(key);
    // Already one class for the ranking (its class key is the upper case): nothing to rewrite.
    if (name === undefined || name.toUpperCase() === typed.toUpperCase()) continue;
    const room = rooms.find((r) => r.class_group_id === pupil.class_group_id && r.name === name);
    if (room) pupilClasses.push({ id: pupil.id, class_room_id: room.id, class_room_other: null });
    else if (name.length <= CLASS_OTHER_MAX_LENGTH) pupilClasses.push({ id: pupil.id, class_room_id: null, class_room_other: name });
    else continue;
    renamed.set(key, (renamed.get(key) ?? 0) + 1);
  }
  const joined: SchoolMergePreview['joined_classes'] = [];
  for (const [key] of fromClasses) {
    const name = intoClasses.get(key);
    if (name === undefined) continue;
    const kept = intoTeacherByKey.get(key) ?? fromTeacherByKey.get(key);
    const other = fromTeacherByKey.get(key);
    const dropped = kept && other && kept !== other && nameKey(kept.teacher_name) !== nameKey(other.teacher_name) ? other.teacher_name : null;
    joined.push({ class_name: name, kept_teacher: kept?.teacher_name ?? null, dropped_teacher: dropped, pupils_renamed: renamed.get(key) ?? 0 });
  }

  let refusal: string | null = null;
  if (from.id === into.id) refusal = m.sameSchool;
  else if (results.computing) refusal = m.mergeWhileComputing;
  else if (counts.school_certificates > 0) refusal = m.mergeSchoolCertificates(from.name, counts.school_certificates);

  return {
    teachers,
    pupilClasses,
    preview: {
      from: { id: from.id, name: from.name, district_name: districtNames.get(from.district_id) ?? '' },
      into: { id: into.id, name: into.name, district_name: districtNames.get(into.district_id) ?? '' },
      contestants: counts.contestants,
      exams: counts.exams,
      school_admins: counts.school_admins,
      class_teachers: teachers.length,
      joined_classes: joined,
      pupil_prizes: counts.pupil_prizes,
      school_prizes: await repo.schoolOwnPrizes(db, from.id),
      results_computed: results.computed,
      refusal,
    },
  };
}

const districtNamesOf = async (db: Db, ids: number[]) => new Map((await repo.allDistricts(db)).filter((d) => ids.includes(d.id)).map((d) => [d.id, d.name]));

/** The two schools (locked in id order for a merge, not for a count); 404 for `from`, 422 for a target that is gone. */
async function lockPair(db: Db, id: number, intoId: number, lock = true) {
  const locked = await repo.lockSchools(db, [id, intoId], lock);
  const from = locked.find((s) => s.id === id);
  const into = locked.find((s) => s.id === intoId);
  if (!from) throw notFound(m.schoolNotFound);
  if (!into) throw appError('merge_invalid', m.schoolIntoGone, { into_id: m.schoolNotFound });
  return { from, into };
}

/** One line of what a school merge moved, for the audit and the toast. */
export function describeSchoolMerge(p: SchoolMergePreview): string {
  return (
    describeCounts([
      [p.contestants, m.counted.contestants],
      [p.exams, m.counted.exams],
      [p.school_admins, m.counted.schoolAdmins],
      [p.class_teachers, m.counted.classTeachers],
      [p.joined_classes.length, m.counted.joinedClasses],
      [p.pupil_prizes, m.counted.pupilPrizes],
    ]) || m.nothingMoved
  );
}

/** GET /schools/:id/merge?into_id=: what the merge would do (nothing is changed). */
export async function previewSchoolMerge({ db, clock }: Deps, id: number, intoId: number): Promise<SchoolMergePreview> {
  return db.transaction().execute(async (trx) => {
    const { from, into } = await lockPair(trx, id, intoId, false);
    return (await planSchoolMerge(trx, await resultsStateAt(trx, clock.now()), from, into, await districtNamesOf(trx, [from.district_id, into.district_id]))).preview;
  });
}

/** Merges `from` into `into` in the caller's transaction; refuses (409) what the plan refuses. */
async function mergeSchoolIn(trx: Db, results: ResultsState, from: SchoolRow, into: SchoolRow, districtNames: Map<number, string>) {
  const plan = await planSchoolMerge(trx, results, from, into, districtNames);
  if (plan.preview.refusal) throw appError('merge_refused', plan.preview.refusal);
  await repo.mergeSchool(trx, from, into, plan.teachers, plan.pupilClasses);
  return plan.preview;
}

/** POST /schools/:id/merge: moves what uses school `id` to `intoId` and deletes `id`; answers what moved. */
export async function mergeSchool({ db, clock }: Deps, actor: Actor, id: number, intoId: number) {
  if (id === intoId) throw appError('merge_invalid', m.sameSchool, { into_id: m.pickOtherSchool });
  return db.transaction().execute(async (trx) => {
    const { from, into } = await lockPair(trx, id, intoId);
    const moved = await mergeSchoolIn(trx, await resultsStateAt(trx, clock.now()), from, into, await districtNamesOf(trx, [from.district_id, into.district_id]));
    await recheckCertificates(trx);
    await recordAudit(trx, actor, {
      kind: 'school.merge',
      summary: m.audit.schoolMerged(from.name, moved.from.district_name, into.name, moved.into.district_name, describeSchoolMerge(moved)),
      details: { before: { from, into }, moved },
      movesResults: true,
    });
    return { moved, into };
  });
}

// Districts -------------------------------------------------------------------------------------

async function lockDistrictPair(db: Db, id: number, intoId: number, lock = true) {
  const locked = await repo.lockDistricts(db, [id, intoId], lock);
  const from = locked.find((d) => d.id === id);
  const into = locked.find((d) => d.id === intoId);
  if (!from) throw notFound(m.districtGone);
  if (!into) throw appError('merge_invalid', m.districtIntoGone, { into_id: m.districtIntoNotFound });
  return { from, into };
}

/**
 * What merging district `from` into `into` does: each school of `from` whose name is a school's
 * of `into` (nameKey: "Hoà" = "hòa") is merged into it; the others move as they are.
 */
async function planDistrictMerge(db: Db, results: ResultsState, from: { id: number; name: string }, into: { id: number; name: string }, lock = true) {
  const schools = await repo.lockSchoolsOfDistricts(db, [from.id, into.id], lock);
  const intoByName = new Map(schools.filter((s) => s.district_id === into.id).map((s) => [nameKey(s.name), s]));
  const names = new Map([
    [from.id, from.name],
    [into.id, into.name],
  ]);
  const pairs: { from: SchoolRow; into: SchoolRow }[] = [];
  const moved: string[] = [];
  for (const school of schools.filter((s) => s.district_id === from.id)) {
    const same = intoByName.get(nameKey(school.name));
    if (same) pairs.push({ from: school, into: same });
    else moved.push(school.name);
  }
  const joined: SchoolMergePreview[] = [];
  for (const pair of pairs) joined.push((await planSchoolMerge(db, results, pair.from, pair.into, names)).preview);
  const usage = await repo.districtUsage(db, from.id);
  const blocked = joined.find((p) => p.refusal);
  const preview: DistrictMergePreview = {
    from,
    into,
    schools_moved: moved,
    schools_joined: joined,
    contestants: usage.contestants,
    school_admins: usage.school_admins,
    class_teachers: usage.class_teachers,
    results_computed: results.computed,
    refusal: from.id === into.id ? m.sameDistrict : results.computing ? m.mergeWhileComputing : blocked ? blocked.refusal : null,
  };
  return { preview, pairs, names };
}

/** GET /districts/:id/merge?into_id=: what the merge would do (nothing is changed). */
export async function previewDistrictMerge({ db, clock }: Deps, id: number, intoId: number): Promise<DistrictMergePreview> {
  return db.transaction().execute(async (trx) => {
    const { from, into } = await lockDistrictPair(trx, id, intoId, false);
    return (await planDistrictMerge(trx, await resultsStateAt(trx, clock.now()), from, into, false)).preview;
  });
}

/** POST /districts/:id/merge: the district's schools join `intoId` (same-name schools merged), then it is deleted. */
export async function mergeDistrict({ db, clock }: Deps, actor: Actor, id: number, intoId: number) {
  if (id === intoId) throw appError('merge_invalid', m.sameDistrict, { into_id: m.pickOtherDistrict });
  return db.transaction().execute(async (trx) => {
    const { from, into } = await lockDistrictPair(trx, id, intoId);
    const results = await resultsStateAt(trx, clock.now());
    const { preview, pairs, names } = await planDistrictMerge(trx, results, from, into);
    if (preview.refusal) throw appError('merge_refused', preview.refusal);
    for (const pair of pairs) await mergeSchoolIn(trx, results, pair.from, pair.into, names);
    await repo.moveSchoolsAndDeleteDistrict(trx, from.id, into.id);
    if (pairs.length) await recheckCertificates(trx);
    const what =
      describeCounts([
        [preview.schools_moved.length, m.counted.schoolsMoved],
        [preview.schools_joined.length, m.counted.schoolsJoined],
        [preview.contestants, m.counted.contestants],
        [preview.school_admins, m.counted.schoolAdmins],
        [preview.class_teachers, m.counted.classTeachers],
      ]) || m.noSchools;
    const joinedNames = preview.schools_joined.map((p) => `${p.from.name} → ${p.into.name}`).join('; ');
    await recordAudit(trx, actor, {
      kind: 'district.merge',
      summary: m.audit.districtMerged(from.name, into.name, what, joinedNames),
      details: { before: { from, into }, moved: preview },
      movesResults: true,
    });
    return { moved: preview, into };
  });
}
