import type { Services } from '../../services';
import type { Api } from '../../lib/api';
import { contestDatesJson, siteResponseSchema, type SiteInfo } from '../../../shared/schemas/site';
import { getCurrentContest } from '../../core/contest';
import { loadFooter } from './repo';
import { unitLevelLabels } from '../../../shared/unit-level';

/**
 * GET /api/site: footer texts and the contest dates the public pages show. Both are read from the
 * database on every request (no in-process cache), so a back-office change holds at once on every
 * process; browsers and proxies may keep the answer for 10 s (it is fetched on every page load).
 */
export function registerSiteRoutes(api: Api, { config, db }: Services) {
  api.get('/site', { schema: { summary: 'Thông tin chân trang của trang web (ban tổ chức, liên hệ, nhà tài trợ)', response: { 200: siteResponseSchema } } }, async (_request, reply) => {
    // One after the other: one pooled connection per request.
    const contest = await getCurrentContest(db);
    const { footer } = await loadFooter(db, config.site);
    reply.header('cache-control', 'public, max-age=10');
    const data: SiteInfo = {
      ...footer,
      contest: contest && {
        name: contest.name,
        ...contestDatesJson(contest),
        exam_duration_seconds: contest.exam_duration_seconds,
        questions_per_exam: contest.questions_per_exam,
        attempts_per_contestant: contest.attempts_per_contestant,
        retention_months: contest.retention_months,
        unit_level: contest.unit_level,
        unit_label: unitLevelLabels(contest.unit_level).long,
      },
    };
    return { success: true as const, data };
  });
}
