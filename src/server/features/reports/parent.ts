// GET /api/report-parent (issue 26): a family's children of one season with their finished exams,
// their result once published and their certificates. The current season by default; an earlier
// one only if the family had a child in it (their own rows only: never another family's).
import { formatDate, formatDuration } from '../../../shared/format';
import { seasonMessages } from '../../../shared/messages/seasons';
import type { ReportParentResponse, SeasonChild } from '../../../shared/schemas/reports';
import { printedClass } from '../../db/contestants';
import { forbidden, notFound } from '../../lib/errors';
import type { AuthUser } from '../../core/guard';
import { seasonOrCurrent } from '../../core/contest';
import { contestantCertificates, resultsHeldMessage } from '../certificates';
import { resultsPublished } from '../results';
import { getResultRun } from '../../core/ranking/repo';
import { familyContestants, familySeasons, finishedExams } from './repo';
import type { ReportDeps } from './service';

/** GET /api/report-parent/seasons: the family's seasons, the current one selected (cheap: no certificate work). */
export async function parentSeasons(deps: ReportDeps, user: AuthUser) {
  if (user.role !== 'parent') throw forbidden(seasonMessages.parentsOnly);
  const seasons = await familySeasons(deps.db, user.id);
  return { success: true as const, data: seasons.map((season) => ({ ...season, selected: season.is_current })) };
}

export async function parentReport(deps: ReportDeps, user: AuthUser, seasonId?: number): Promise<ReportParentResponse> {
  if (user.role !== 'parent') throw forbidden(seasonMessages.parentsOnly);
  const seasons = await familySeasons(deps.db, user.id);
  if (seasonId !== undefined && !seasons.some((season) => season.id === seasonId)) throw notFound(seasonMessages.notFamilySeason);
  const contest = await seasonOrCurrent(deps.db, seasonId);
  const [contestants, published] = await Promise.all([familyContestants(deps.db, user.id, contest.id), getResultRun(deps.db, contest.id).then(resultsPublished)]);
  const exams = await finishedExams(
    deps.db,
    contestants.map((contestant) => contestant.id),
  );

  // A handful of children: one at a time, each with the certificates' own rules.
  const childrens: SeasonChild[] = [];
  for (const contestant of contestants) {
    const { facts, certificates } = await contestantCertificates(deps, contest, contestant);
    const held = await resultsHeldMessage(deps, facts);
    const result = facts.visible && !held ? facts.result : undefined;
    childrens.push({
      id: contestant.id,
      fullname: contestant.fullname,
      class: printedClass(contestant),
      school: { name: contestant.school_name },
      exams: exams
        .filter((exam) => exam.contestant_id === contestant.id)
        .map((exam) => ({ slug: exam.slug, attempt: exam.attempt, points: exam.points ?? 0, duration: formatDuration(exam.duration_seconds ?? 0), book: exam.book })),
      result: result
        ? { points: result.points, duration: formatDuration(result.duration_seconds), rank: result.rank, prize_name: result.prize_name, school_top: result.school_top }
        : null,
      results_held: held,
      certificates: [...certificates.values()],
    });
  }

  return {
    success: true,
    data: {
      season: { id: contest.id, name: contest.name, is_current: contest.is_current, results_published: published, results_date: formatDate(contest.results_at) },
      childrens,
    },
  };
}
