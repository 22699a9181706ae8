// The school report (spec sections 2, 3): pupils by class, every pupil's best result in ranking
// order, classes with averages, and from the results date the school's and classes' prizes.
import { formatAverage, formatDuration, formatMoney, formatNumber } from '../../../shared/format';
import { resultMessages } from '../../../shared/messages';
import type { ClassRow, QuantityStudentsRow, ReportSchoolResponse, ScoreRow } from '../../../shared/schemas/reports';
import { forbidden } from '../../lib/errors';
import type { Services } from '../../services';
import type { AuthUser } from '../../core/guard';
import { schoolPrizeCertificate } from '../certificates';
import { listSeasons, seasonOrCurrent } from '../../core/contest';
import { resultsPublished } from '../results';
import { bestAttempts, rankAttempts } from '../../core/ranking/ranking';
import { countExamPapers, getResultRun, loadFinishedAttempts } from '../../core/ranking/repo';
import { bookNames, findSchool, prizedClasses, registeredPupils } from './repo';

export type ReportDeps = Pick<Services, 'db' | 'clock' | 'config'>;

const byClassName = (a: string, b: string) => a.localeCompare(b, 'vi', { numeric: true });
/** 92.5 -> "92,5" */

/** The report of the current season, or of an earlier one (`seasonId`, issue 26). */
export async function schoolReport(deps: ReportDeps, user: AuthUser, seasonId?: number): Promise<ReportSchoolResponse> {
  if (user.role !== 'school_admin' || user.schoolId === null) throw forbidden(resultMessages.schoolAdminOnly);
  const schoolId = user.schoolId;
  const contest = await seasonOrCurrent(deps.db, seasonId);
  const school = await findSchool(deps.db, schoolId, contest.id);
  if (!school) throw forbidden(resultMessages.schoolAdminOnly);

  const [pupils, attempts, examPapers, books] = await Promise.all([
    registeredPupils(deps.db, contest.id, schoolId),
    loadFinishedAttempts(deps.db, contest.id, { schoolId }),
    countExamPapers(deps.db, contest.id),
    bookNames(deps.db),
  ]);
  const pupilById = new Map(pupils.map((pupil) => [pupil.id, pupil]));
  const examsPerPupil = new Map<number, number>();
  for (const attempt of attempts) examsPerPupil.set(attempt.contestantId, (examsPerPupil.get(attempt.contestantId) ?? 0) + 1);
  const ranked = rankAttempts(bestAttempts(attempts, examPapers), examPapers);

  const score: ScoreRow[] = ranked.map(({ item, rank, tied }) => ({
    rank,
    tied,
    fullname: pupilById.get(item.contestantId)?.fullname ?? '',
    class: item.className,
    count_exam: examsPerPupil.get(item.contestantId) ?? 0,
    points: item.points,
    duration: formatDuration(item.durationSeconds),
    duration_seconds: item.durationSeconds,
    book: books.get(item.bookId) ?? '',
    prediction: item.prediction,
  }));

  // Per class: registered pupils, participants and the averages of their best attempts.
  const classes = new Map<string, { register: number; done: number; points: number; seconds: number }>();
  for (const pupil of pupils) {
    const stat = classes.get(pupil.className) ?? { register: 0, done: 0, points: 0, seconds: 0 };
    stat.register += 1;
    classes.set(pupil.className, stat);
  }
  for (const { item } of ranked) {
    const stat = classes.get(item.className) ?? { register: 0, done: 0, points: 0, seconds: 0 };
    stat.done += 1;
    stat.points += item.points;
    stat.seconds += item.durationSeconds;
    classes.set(item.className, stat);
  }
  const classNames = [...classes.keys()].sort(byClassName);
  const quantityStudents: QuantityStudentsRow[] = classNames.map((name) => ({
    class: name,
    total_register: classes.get(name)!.register,
    total_done: classes.get(name)!.done,
  }));
  const classRows: ClassRow[] = classNames.map((name) => {
    const stat = classes.get(name)!;
    // Nobody finished: no average (shown as '—', an empty Excel cell), not a 0 that reads as a score.
    const avgSeconds = stat.done ? Math.round(stat.seconds / stat.done) : null;
    return {
      class: name,
      total_register: stat.register,
      total_done: stat.done,
      avg_score: stat.done ? Math.round((stat.points / stat.done) * 10) / 10 : null,
      avg_duration_format: avgSeconds === null ? '—' : formatDuration(avgSeconds),
      avg_duration_seconds: avgSeconds,
    };
  });

  // Prizes: only once the organiser has published the results.
  const published = resultsPublished(await getResultRun(deps.db, contest.id));
  const certificate = published ? await schoolPrizeCertificate(deps, contest, schoolId) : undefined;
  const prizesClass = published
    ? (await prizedClasses(deps.db, contest.id, schoolId)).map((row) => ({
        teacher_name: row.teacher_name ?? `Giáo viên chủ nhiệm lớp ${row.class_name}`,
        class_room: { name: row.class_name },
        prize_name: row.prize_name ?? '',
        desc: `Trị giá ${formatMoney(row.prize_amount ?? 0)}; lớp có ${formatNumber(row.participants)} học sinh dự thi, điểm trung bình ${formatAverage(row.avg_points)}.`,
      }))
    : [];

  return {
    success: true,
    data: {
      school: { name: school.name, address: school.address },
      contest: { name: contest.name },
      total_register: pupils.length,
      total_done: ranked.length,
      quantity_students: quantityStudents,
      score,
      class: classRows,
    },
    prize: {
      image_cer: certificate?.image_url ?? null,
      pdf_cer: certificate?.pdf_url ?? null,
      prize_name: certificate?.prizeName ?? null,
      desc: certificate ? `Trị giá ${formatMoney(certificate.amount)}; ${certificate.participants} học sinh của trường tham gia cuộc thi.` : null,
    },
    prizes_class: prizesClass,
    results_published: published,
    results_at: contest.results_at.toISOString(),
    seasons: (await listSeasons(deps.db)).map((season) => ({ id: season.id, name: season.name, is_current: season.is_current, selected: season.id === contest.id })),
  };
}
