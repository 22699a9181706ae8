// "Mùa thi mới" (issue 26, decision 025): the organiser opens next year's season. The preview and
// the switch read the same plan; the switch applies it in one transaction with the current season
// locked, so two organisers cannot open two seasons, and records it in the audit log.
import { snapshotSchools } from '../../../db/school-snapshots';
import { PRIZE_TIERS } from '../../../../shared/prizes';
import { DEFAULT_CLASS_MIN_PARTICIPANTS } from '../../../../shared/ranking-rules';
import { seasonMessages } from '../../../../shared/messages/seasons';
import { contestMessages, contestProblems } from '../../../../shared/schemas/admin-contest';
import { newSeasonSchema, type SeasonPreview } from '../../../../shared/schemas/admin-seasons';
import { gradeOf, groupOfGrade } from '../../../../shared/seasons';
import type { Db } from '../../../db/client';
import type { Contest } from '../../../db/schema';
import { appError, type FieldErrors } from '../../../lib/errors';
import type { Services } from '../../../services';
import * as contests from '../../../core/contest';
import { recordAudit, type Actor } from '../kit/audit';
import { NO_COVER_IMAGE } from '../books';
import * as repo from './repo';

type Deps = Pick<Services, 'db' | 'clock'>;
type Input = ReturnType<typeof newSeasonSchema.parse>;

export async function listSeasons({ db }: Pick<Services, 'db'>) {
  const rows = await contests.listSeasons(db);
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    is_current: row.is_current,
    exam_starts_at: row.exam_starts_at.toISOString(),
    exam_ends_at: row.exam_ends_at.toISOString(),
    results_at: row.results_at.toISOString(),
  }));
}

const specTiers = (): contests.TierRow[] => {
  const positions = new Map<string, number>();
  return PRIZE_TIERS.map((tier) => {
    const position = (positions.get(tier.kind) ?? 0) + 1;
    positions.set(tier.kind, position);
    return { kind: tier.kind, code: tier.code, name: tier.name, position, winners: tier.count, amount: tier.amount };
  });
};

/** What the switch will do, from the current season and the organiser's choices; 422 with errors by field when the input breaks a rule. */
async function plan(db: Db, current: Contest, input: Input) {
  const settings = {
    name: input.name,
    reading_starts_at: input.reading_starts_at,
    reading_ends_at: input.reading_ends_at,
    exam_starts_at: input.exam_starts_at,
    exam_ends_at: input.exam_ends_at,
    results_at: input.results_at,
    ceremony_starts_at: input.ceremony_starts_at,
    ceremony_ends_at: input.ceremony_ends_at,
    exam_duration_seconds: current.exam_duration_seconds,
    questions_per_exam: current.questions_per_exam,
    attempts_per_contestant: current.attempts_per_contestant,
    retention_months: current.retention_months,
    class_min_participants: DEFAULT_CLASS_MIN_PARTICIPANTS,
    prize_tiers: [],
  };
  const problems: FieldErrors = { ...contestProblems(settings) };
  const seasons = await contests.listSeasons(db);
  if (!problems.name && seasons.some((season) => season.name.trim().toLowerCase() === input.name.toLowerCase())) problems.name = seasonMessages.nameTaken;
  if (!problems.exam_starts_at && new Date(input.exam_starts_at) <= current.exam_ends_at) {
    problems.exam_starts_at = `Phải sau ngày đóng thi của ${current.name}.`;
  }

  const [groups, books, children, tiers, resultSettings, teachers, admins] = await Promise.all([
    repo.classGroups(db),
    repo.booksOfSeason(db, current.id),
    repo.contestantsToCarry(db, current.id),
    contests.prizeTiersOf(db, current.id),
    repo.resultSettingsOf(db, current.id),
    repo.countClassTeachers(db),
    repo.countSchoolAdmins(db),
  ]);
  if (input.books.length === 0) problems.books = seasonMessages.needsBooks;
  input.books.forEach((book, i) => {
    if (!groups.some((group) => group.id === book.class_group_id)) problems[`books.${i}.class_group_id`] = 'Nhóm lớp không có trong danh mục.';
    if (book.copy_questions_from !== null && !books.some((b) => b.id === book.copy_questions_from)) problems[`books.${i}.copy_questions_from`] = seasonMessages.bookCopyUnknown;
  });
  const first = Object.values(problems)[0];
  if (first) throw appError('invalid_settings', Object.keys(problems).length === 1 ? first : contestMessages.invalid, problems);

  // Each child moves up one grade; past grade 5 the child has finished and is not carried over.
  const carried: repo.CarriedContestant[] = [];
  let finished = 0;
  for (const child of children) {
    const grade = gradeOf(child.grades, child.class_name);
    const group = grade === null ? null : groupOfGrade(groups, grade + 1);
    if (!group) {
      finished += 1;
      continue;
    }
    carried.push({
      user_id: child.user_id,
      position: child.position,
      fullname: child.fullname,
      district_id: child.district_id,
      school_id: child.school_id,
      class_group_id: group.id,
      carried_from_id: child.id,
      consent_version: child.consent_version,
      consented_at: child.consented_at,
      // The parent's choice on the name in the winners' list goes with the child (issue 37.2).
      name_consent_version: child.name_consent_version,
      name_consented_at: child.name_consented_at,
    });
  }
  const groupName = (id: number) => groups.find((group) => group.id === id)?.name ?? '';
  const preview: SeasonPreview = {
    current: { id: current.id, name: current.name },
    name: input.name,
    carried: groups
      .map((group) => ({ class_group_name: group.name, contestants: carried.filter((c) => c.class_group_id === group.id).length }))
      .filter((row) => row.contestants > 0),
    finished,
    books: input.books.map((book) => {
      const source = books.find((b) => b.id === book.copy_questions_from);
      return { name: book.name, class_group_name: groupName(book.class_group_id), questions: source?.questions ?? 0, copied_from: source?.name ?? null };
    }),
    questions_per_exam: current.questions_per_exam,
    prize_tiers: input.copy.prize_settings ? tiers.length : PRIZE_TIERS.length,
    prize_settings_copied: input.copy.prize_settings,
    class_teachers: teachers,
    class_teachers_kept: input.copy.class_teachers,
    school_admins: admins,
    school_admins_kept: input.copy.school_admins,
    footer_kept: input.copy.footer,
  };
  return {
    preview,
    carried,
    books: input.books.map((book) => ({ ...book, source: books.find((b) => b.id === book.copy_questions_from) })),
    tiers: input.copy.prize_settings ? tiers : specTiers(),
    classMin: input.copy.prize_settings ? (resultSettings?.class_min_participants ?? DEFAULT_CLASS_MIN_PARTICIPANTS) : DEFAULT_CLASS_MIN_PARTICIPANTS,
    prizedSchoolsOnly: input.copy.prize_settings ? (resultSettings?.school_pupils_prized_schools_only ?? true) : true,
  };
}

export async function previewSeason({ db }: Deps, input: Input): Promise<SeasonPreview> {
  const current = await contests.requireCurrentContest(db);
  return (await plan(db, current, input)).preview;
}

/** Opens the new season and makes it current; the previous one becomes read-only. */
export async function openSeason({ db, clock }: Deps, actor: Actor, input: Input) {
  const now = clock.now();
  return db.transaction().execute(async (trx) => {
    const current = await contests.requireCurrentContest(trx, { lock: true });
    const planned = await plan(trx, current, input);
    const id = await repo.insertSeason(trx, {
      name: input.name,
      reading_starts_at: new Date(input.reading_starts_at),
      reading_ends_at: new Date(input.reading_ends_at),
      exam_starts_at: new Date(input.exam_starts_at),
      exam_ends_at: new Date(input.exam_ends_at),
      results_at: new Date(input.results_at),
      ceremony_starts_at: new Date(input.ceremony_starts_at),
      ceremony_ends_at: new Date(input.ceremony_ends_at),
      exam_duration_seconds: current.exam_duration_seconds,
      questions_per_exam: current.questions_per_exam,
      attempts_per_contestant: current.attempts_per_contestant,
      retention_months: current.retention_months,
      review_correct_answers: current.review_correct_answers,
      unit_level: current.unit_level,
    });
    await repo.insertTiers(trx, id, planned.tiers, planned.classMin, planned.prizedSchoolsOnly);
    await repo.keepClassTeachers(trx, current.id);
    if (!input.copy.class_teachers) await repo.clearClassTeachers(trx);
    if (!input.copy.school_admins) await repo.lockSchoolAdmins(trx, now);
    if (!input.copy.footer) await repo.resetFooter(trx);
    // The ending season keeps its schools' names and units as they are now (decision 038): the
    // catalogue may move to a new map for the new season without changing last season's pages.
    await snapshotSchools(trx, current.id);
    // From here the new season is current: its books may be written, the old season's no longer.
    await repo.makeCurrent(trx, current.id, id);
    for (const [index, book] of planned.books.entries()) {
      const bookId = await repo.insertSeasonBook(trx, {
        contest_id: id,
        class_group_id: book.class_group_id,
        name: book.name,
        author: book.author,
        image: book.source?.image ?? NO_COVER_IMAGE,
        position: index + 1,
      });
      if (book.source) await repo.copyQuestions(trx, book.source.id, bookId);
    }
    await repo.insertCarriedContestants(trx, id, planned.carried, now);
    await recordAudit(trx, actor, {
      kind: 'season.open',
      summary: `Mở ${input.name} (thay ${current.name}): ${planned.carried.length} thí sinh lên lớp, ${planned.preview.finished} đã hoàn thành, ${planned.books.length} sách`,
      details: { from: { id: current.id, name: current.name }, to: { id, name: input.name }, copy: input.copy, preview: planned.preview },
    });
    return { ...planned.preview, id };
  });
}
