import type { Services } from '../../app';
import type { Api } from '../../lib/api';
import { getCurrentContest } from '../contest/repo';

/** GET /api/site: footer texts and the contest dates the public pages show. */
export function registerSiteRoutes(api: Api, { config, db }: Services) {
  api.get('/site', async (_request, reply) => {
    const contest = await getCurrentContest(db);
    reply.header('cache-control', 'public, max-age=60');
    return {
      success: true,
      data: {
        ...config.site,
        contest: contest && {
          name: contest.name,
          exam_starts_at: contest.exam_starts_at.toISOString(),
          exam_ends_at: contest.exam_ends_at.toISOString(),
          results_at: contest.results_at.toISOString(),
          exam_duration_seconds: contest.exam_duration_seconds,
        },
      },
    };
  });
}
