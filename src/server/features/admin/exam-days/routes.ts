// /api/admin/exam-days: the live dashboard and the incident desk (organiser only: the scope checks it).
import {
  contestantIdParamsSchema,
  dashboardQuerySchema,
  dashboardResponseSchema,
  examIdParamsSchema,
  extensionBodySchema,
  extraAttemptBodySchema,
  incidentContestantResponseSchema,
  incidentSearchQuerySchema,
  incidentSearchResponseSchema,
} from '../../../../shared/schemas/admin-exam-days';
import type { Services } from '../../../services';
import type { Api } from '../../../lib/api';
import * as service from './service';

export function registerAdminExamDaysRoutes(admin: Api, services: Services) {
  const { auth } = services;

  admin.get(
    '/exam-days/dashboard',
    { schema: { summary: 'Theo dõi kỳ thi: số liệu trực tiếp (tính lại tối đa 5 giây một lần cho cả hệ thống)', querystring: dashboardQuerySchema, response: { 200: dashboardResponseSchema } } },
    async (request) => ({ success: true as const, data: await service.getDashboard(services, request.query) }),
  );

  admin.get(
    '/exam-days/contestants',
    { schema: { summary: 'Tìm thí sinh theo số điện thoại phụ huynh, tên thí sinh, trường', querystring: incidentSearchQuerySchema, response: { 200: incidentSearchResponseSchema } } },
    async (request) => ({ success: true as const, data: await service.searchContestants(services, request.query) }),
  );

  admin.get(
    '/exam-days/contestants/:contestantId',
    { schema: { summary: 'Một thí sinh và các lượt thi', params: contestantIdParamsSchema, response: { 200: incidentContestantResponseSchema } } },
    async (request) => ({ success: true as const, data: await service.getContestant(services, request.params.contestantId) }),
  );

  // Granting and withdrawing the extra attempt: the same parameters, body and answer.
  const extraAttemptRoute = (url: string, summary: string, change: typeof service.giveExtraAttempt) =>
    admin.post(
      url,
      { schema: { summary, params: contestantIdParamsSchema, body: extraAttemptBodySchema, response: { 200: incidentContestantResponseSchema } } },
      async (request) => ({
        success: true as const,
        data: await change(services, auth.userOf(request), request.params.contestantId, request.body),
      }),
    );
  extraAttemptRoute('/exam-days/contestants/:contestantId/extra-attempt', 'Thêm một lượt thi cho thí sinh (tối đa một lần, kèm lý do)', service.giveExtraAttempt);
  extraAttemptRoute(
    '/exam-days/contestants/:contestantId/extra-attempt/withdraw',
    'Rút lượt thi thêm chưa dùng (ví dụ thêm nhầm thí sinh), kèm lý do',
    service.withdrawExtraAttempt,
  );

  admin.post(
    '/exam-days/exams/:examId/extend',
    {
      schema: {
        summary: 'Gia hạn lượt thi đang làm (tổng cộng tối đa 20 phút, kèm lý do)',
        params: examIdParamsSchema,
        body: extensionBodySchema,
        response: { 200: incidentContestantResponseSchema },
      },
    },
    async (request) => ({
      success: true as const,
      data: await service.extendAttempt(services, auth.userOf(request), request.params.examId, request.body),
    }),
  );
}
