// Profile rules: who may have contestants, what may change once a contestant has an exam, and
// the save of the whole list in one transaction.
import { moveMessages, schoolNotice } from '../../../shared/catalogue-move';
import { accountMessages, messages, privacyMessages } from '../../../shared/messages';
import { NAME_CONSENT_DEFAULT, needsPrivacyConsent, PRIVACY_NOTICE_VERSION } from '../../../shared/privacy';
import { CLASS_ROOM_OTHER, contestAttemptsOf, MAX_CONTESTANTS_PER_ACCOUNT } from '../../../shared/rules';
import { normalisePhone, type ApiUser } from '../../../shared/schemas/auth';
import type { Contestant, ContestantValues, Profile } from '../../../shared/schemas/profile';
import { printedClass, type ContestantColumns } from '../../db/contestants';
import { appError, type FieldErrors, forbidden, notFound } from '../../lib/errors';
import type { AuthUser } from '../../core/guard';
import { toApiUser } from '../auth';
import type { Services } from '../../services';
import { getCurrentContest } from '../../core/contest';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/errors';
import { gradeOf, LAST_GRADE } from '../../../shared/seasons';
import * as repo from './repo';

const POSITIONS = Array.from({ length: MAX_CONTESTANTS_PER_ACCOUNT }, (_, i) => i + 1);

const field = (index: number, name: string) => `childrens.${index}.${name}`;

/** What the profile's rules read. */
export type ProfileDeps = Pick<Services, 'db' | 'clock'>;

export async function loadProfile(deps: ProfileDeps, userId: number): Promise<Profile> {
  const { db } = deps;
  const account = await repo.findAccount(db, userId);
  if (!account) throw notFound(messages.notFound);
  const contestants = account.role === 'parent' ? await repo.listContestantViews(db, userId) : [];
  const ids = contestants.map((c) => c.id);
  const [exams, withExtra, contest] = await Promise.all([
    repo.listExamsOfContestants(db, ids),
    repo.contestantsWithExtraAttempt(db, ids),
    ids.length > 0 ? getCurrentContest(db) : undefined,
  ]);
  // Attempts past the contest's own are the extra one the organiser gave.
  const baseAttempts = contestAttemptsOf(contest?.attempts_per_contestant);
  const childrens: Contestant[] = contestants.map((c) => ({
    id: c.id,
    position: c.position,
    fullname: c.fullname,
    district_id: c.district_id,
    school_id: c.school_id,
    class_group_id: c.class_group_id,
    class_room_id: c.class_room_id ?? CLASS_ROOM_OTHER,
    class_room_other: c.class_room_other,
    class: printedClass(c),
    school: { name: c.school_name, address: c.school_address },
    class_room: c.class_room_name === null ? null : { name: c.class_room_name },
    exams: exams
      .filter((e) => e.contestant_id === c.id)
      .map((e) => ({
        id: e.id,
        slug: e.slug,
        status: e.status,
        points: e.points,
        book_id: e.book_id,
        book: { name: e.book_name },
        attempt: e.attempt,
        time_complete_minutes: e.duration_seconds === null ? null : Math.floor(e.duration_seconds / 60),
        time_complete_seconds: e.duration_seconds === null ? null : e.duration_seconds % 60,
        prediction: e.prediction,
        start_time: e.start_time.toISOString(),
        end_time: e.end_time.toISOString(),
        extension_minutes: e.extension_minutes,
        extra: withExtra.has(c.id) && e.attempt > baseAttempts,
      })),
    extra_attempts: withExtra.has(c.id) ? 1 : 0,
    publish_name: c.name_consented_at !== null,
    class_pending: c.class_pending,
    ...noticeOf(c),
  }));
  const finished = account.role === 'parent' ? await finishedChildren(deps, userId) : [];
  return {
    ...toApiUser(account),
    school:
      account.school_id === null ? null : { id: account.school_id, name: account.school_name ?? '', address: account.school_address ?? '' },
    childrens,
    privacy_consent_required: needsPrivacyConsent(account),
    ...(finished.length ? { finished_childrens: finished } : {}),
  };
}

/** The notice of a child whose school the catalogue's move changed (decision 038), when there is one. */
function noticeOf(c: Awaited<ReturnType<typeof repo.listContestantViews>>[number]): { school_notice?: string } {
  const notice = schoolNotice({
    school: c.school_name,
    district: c.district_name,
    closed: c.school_closed,
    classPending: c.class_pending,
    schoolId: c.school_id,
    previous: c.previous_school_id === null ? null : { id: c.previous_school_id, school: c.previous_school_name ?? '', district: c.previous_district_name ?? '' },
  });
  return notice === null ? {} : { school_notice: notice };
}

/** Children of earlier seasons who finished grade 5: they are not carried into a new season. */
async function finishedChildren({ db }: ProfileDeps, userId: number) {
  const rows = await repo.uncarriedPastContestants(db, userId);
  return rows
    .filter((row) => (gradeOf(row.grades, row.class_name) ?? 0) >= LAST_GRADE)
    .map((row) => ({ fullname: row.fullname, season: row.season }));
}

/** School must lie in the chosen district, class room in the chosen class group. */
async function checkCatalogue(deps: ProfileDeps, childrens: ContestantValues[]) {
  const { db } = deps;
  const ids = (pick: (c: ContestantValues) => number | string | null) => [
    ...new Set(childrens.map(pick).filter((v): v is number => typeof v === 'number')),
  ];
  const [districts, schools, groups, rooms] = await Promise.all([
    repo.districtsByIds(db, ids((c) => c.district_id)),
    repo.schoolsByIds(db, ids((c) => c.school_id)),
    repo.classGroupsByIds(db, ids((c) => c.class_group_id)),
    repo.classRoomsByIds(db, ids((c) => c.class_room_id)),
  ]);
  const errors: FieldErrors = {};
  childrens.forEach((child, i) => {
    if (!districts.some((d) => d.id === child.district_id)) errors[field(i, 'district_id')] = accountMessages.districtUnknown;
    const school = schools.find((s) => s.id === child.school_id);
    if (!school) errors[field(i, 'school_id')] = messages.schoolRequired;
    else if (school.district_id !== child.district_id) errors[field(i, 'school_id')] = accountMessages.schoolNotInDistrict;
    // Closed by the catalogue's move (decision 038): kept for history, refused for this season.
    else if (school.closed_from_contest_id !== null) errors[field(i, 'school_id')] = moveMessages.schoolClosed;
    if (!groups.some((g) => g.id === child.class_group_id)) errors[field(i, 'class_group_id')] = accountMessages.classGroupUnknown;
    if (child.class_room_id !== CLASS_ROOM_OTHER) {
      const room = rooms.find((r) => r.id === child.class_room_id);
      if (!room) errors[field(i, 'class_room_id')] = messages.classRequired;
      else if (room.class_group_id !== child.class_group_id) errors[field(i, 'class_room_id')] = accountMessages.classRoomNotInGroup;
    }
  });
  const first = Object.values(errors)[0];
  if (first) throw appError('invalid_contestant', first, errors);
}

/**
 * Saves the whole list: a contestant with an id is updated, one without is created, one left
 * out is deleted. Contestant 1 and contestants with an exam are never deleted; a contestant
 * with an exam keeps its fields (sending the same values back is fine).
 */
export async function saveProfile(deps: ProfileDeps, user: AuthUser, input: { phone?: string; childrens: ContestantValues[] }): Promise<{ user: ApiUser; data: Profile }> {
  const { db, clock } = deps;
  if (input.phone !== undefined && normalisePhone(input.phone) !== user.phone) {
    throw appError('phone_read_only', accountMessages.phoneReadOnly, { phone: accountMessages.phoneReadOnly });
  }
  if (user.role !== 'parent') {
    if (input.childrens.length > 0) throw forbidden(accountMessages.noContestantsForRole);
    return { user: toApiUser(user), data: await loadProfile(deps, user.id) };
  }
  // Enrolment needs the parent's consent to the current notice (a new version asks again).
  const account = await repo.findAccount(db, user.id);
  if (!account || needsPrivacyConsent(account)) throw appError('consent_required', privacyMessages.consentRequired);
  const childrens = input.childrens;
  if (childrens.length > MAX_CONTESTANTS_PER_ACCOUNT) throw appError('bad_request', accountMessages.tooManyContestants, { childrens: accountMessages.tooManyContestants });
  const sentIds = childrens.map((c) => c.id).filter((id): id is number => id !== undefined);
  if (new Set(sentIds).size !== sentIds.length) throw appError('invalid_contestant', accountMessages.contestantDuplicated, undefined);
  await checkCatalogue(deps, childrens);

  try {
    await db.transaction().execute(async (trx) => {
      await repo.lockAccount(trx, user.id);
      const existing = await repo.lockContestants(trx, user.id);
      const counts = await repo.examCounts(
        trx,
        existing.map((c) => c.id),
      );
      const errors: FieldErrors = {};

      childrens.forEach((child, i) => {
        if (child.id === undefined) return;
        const current = existing.find((c) => c.id === child.id);
        // Never created anew: an id of another account (or a deleted one) is refused.
        if (!current) throw appError('forbidden', accountMessages.contestantNotYours, { [field(i, 'id')]: accountMessages.contestantNotYours });
        if (!counts.get(current.id)) return;
        const row = toRow(child);
        for (const key of Object.keys(row) as (keyof typeof row)[]) {
          if (row[key] !== current[key]) errors[field(i, key)] = accountMessages.contestantLocked;
        }
      });
      if (Object.keys(errors).length) throw appError('contestant_locked', accountMessages.contestantLocked, errors);

      const removed = existing.filter((c) => !sentIds.includes(c.id));
      for (const contestant of removed) {
        if (contestant.position === 1) throw appError('contestant_undeletable', accountMessages.cannotDeleteFirstContestant, undefined);
        if (counts.get(contestant.id)) throw appError('contestant_undeletable', accountMessages.cannotDeleteContestantWithExams, undefined);
      }
      await repo.deleteContestants(
        trx,
        user.id,
        removed.map((c) => c.id),
      );

      // New contestants take the free positions from the lowest: deleting contestant 2 and
      // adding one gives the new one position 2, and the unique (user_id, position) keeps 3.
      const taken = new Set(existing.filter((c) => sentIds.includes(c.id)).map((c) => c.position));
      const free = POSITIONS.filter((p) => !taken.has(p));
      const now = clock.now();
      for (const child of childrens) {
        const row = toRow(child);
        if (child.id !== undefined) {
          if (!counts.get(child.id)) await repo.updateContestant(trx, user.id, child.id, row);
          // Not one of the fields an exam locks: the parent may give or take it back at any time.
          if (child.publish_name !== undefined) await repo.setNameConsent(trx, user.id, child.id, child.publish_name, now, PRIVACY_NOTICE_VERSION);
        } else {
          const position = free.shift();
          if (position === undefined) throw appError('bad_request', accountMessages.tooManyContestants, { childrens: accountMessages.tooManyContestants });
          // The schema refused a new contestant without the child's agreement (child_consent).
          await repo.insertContestant(trx, user.id, position, row, now, PRIVACY_NOTICE_VERSION, child.publish_name ?? NAME_CONSENT_DEFAULT);
        }
      }
    });
  } catch (error) {
    // The database's own guards (composite keys, one contestant per position, exams
    // referencing a contestant) caught a change that raced with this save.
    if (isForeignKeyViolation(error) || isUniqueViolation(error)) throw appError('profile_conflict', accountMessages.profileChangedElsewhere);
    throw error;
  }
  return { user: toApiUser(user), data: await loadProfile(deps, user.id) };
}

function toRow(child: ContestantValues): ContestantColumns {
  return {
    fullname: child.fullname,
    district_id: child.district_id,
    school_id: child.school_id,
    class_group_id: child.class_group_id,
    class_room_id: child.class_room_id === CLASS_ROOM_OTHER ? null : child.class_room_id,
    class_room_other: child.class_room_id === CLASS_ROOM_OTHER ? child.class_room_other : null,
  };
}
