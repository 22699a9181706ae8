// The winners' list (issue 37.2): the public page's pages and the ceremony's whole list, with one
// rule for the names: a pupil is named only with the parent's consent, otherwise by class and school.
import { formatDate } from '../../../shared/format';
import { hiddenPupilName, unnamedTeacher, winnersMessages } from '../../../shared/messages/winners';
import { unitLevelLabels } from '../../../shared/unit-level';
import { WINNERS_PER_PAGE, type WinnerRow, type WinnersData, type WinnersQuery } from '../../../shared/schemas/winners';
import type { Contest } from '../../db/schema';
import type { Db } from '../../db/client';
import { readFromReplica } from '../../db/replicas';
import { getCurrentContest } from '../../core/contest';
import type { Services } from '../../services';
import * as repo from './repo';

/** The name a row shows: the consented pupil's or the teacher's name, else who the winner is. */
export function shownName(row: repo.WinnerDbRow): string {
  if (row.name) return row.name;
  const className = row.class_name ?? '';
  return row.kind === 'teacher' ? unnamedTeacher(className) : hiddenPupilName(className, row.school);
}

const toRow = (row: repo.WinnerDbRow): WinnerRow => ({
  tier: row.tier,
  kind: row.kind,
  name: shownName(row),
  class_name: row.class_name,
  school: row.school,
  unit: row.unit,
  prize: row.prize,
});

/** The current season and when its results were published; undefined before publication. */
async function publishedSeason(db: Db): Promise<{ contest: Contest; publishedAt: Date } | undefined> {
  const contest = await getCurrentContest(db);
  if (!contest) return undefined;
  const publishedAt = await repo.publishedAt(db, contest.id);
  return publishedAt && { contest, publishedAt };
}

/** GET /api/winners: a page of the current season's winners, searched by school; a message before publication. */
export function listWinners(services: Pick<Services, 'db' | 'reads'>, query: WinnersQuery): Promise<WinnersData> {
  // A public page (decision 030): a replica a few seconds behind is fine.
  return readFromReplica(services, async (db) => {
    const season = await publishedSeason(db);
    if (!season) return { published: false as const, message: winnersMessages.notPublished };
    const filter = { school: query.school || undefined };
    const [rows, total] = await Promise.all([
      repo.winnerRows(db, season.contest.id, filter, { limit: WINNERS_PER_PAGE, offset: (query.page - 1) * WINNERS_PER_PAGE }),
      repo.countWinners(db, season.contest.id, filter),
    ]);
    return {
      published: true as const,
      season: season.contest.name,
      published_on: formatDate(season.publishedAt),
      unit_label: unitLevelLabels(season.contest.unit_level).long,
      items: rows.map(toRow),
      total,
      page: query.page,
      per_page: WINNERS_PER_PAGE,
    };
  });
}

/** Every winner of the current season for the ceremony's printed list; undefined before publication. */
export async function ceremonyWinners(db: Db): Promise<{ season: string; publishedOn: string; unitLabel: string; rows: WinnerRow[] } | undefined> {
  const season = await publishedSeason(db);
  if (!season) return undefined;
  const rows = await repo.winnerRows(db, season.contest.id, {});
  return { season: season.contest.name, publishedOn: formatDate(season.publishedAt), unitLabel: unitLevelLabels(season.contest.unit_level).long, rows: rows.map(toRow) };
}
