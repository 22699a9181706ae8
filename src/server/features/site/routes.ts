import type { Services } from '../../services';
import type { Api } from '../../lib/api';
import { contestDatesJson, type SiteInfo } from '../../../shared/schemas/site';
import { getCurrentContest } from '../contest/repo';

/** GET /api/site: footer texts and the contest dates the public pages show. */
export function registerSiteRoutes(api: Api, { config, db }: Services) {
  api.get('/site', async (_request, reply) => {
    const contest = await getCurrentContest(db);
    reply.header('cache-control', 'public, max-age=60');
    const data: SiteInfo = {
      ...config.site,
      contest: contest && {
        name: contest.name,
        ...contestDatesJson({
          reading_starts_at: contest.reading_starts_at,
          reading_ends_at: contest.reading_ends_at,
          exam_starts_at: contest.exam_starts_at,
          exam_ends_at: contest.exam_ends_at,
          results_at: contest.results_at,
          ceremony_starts_at: contest.ceremony_starts_at,
          ceremony_ends_at: contest.ceremony_ends_at,
        }),
        exam_duration_seconds: contest.exam_duration_seconds,
      },
    };
    return { success: true, data };
  });
}
