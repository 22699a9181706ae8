// /api/admin/privacy: the organiser's side of personal data (organiser only: the scope checks it).
import { accountParamsSchema } from '../../../../shared/schemas/admin-accounts';
import { eraseResponseSchema, privacyAdminMessages, privacyOverviewResponseSchema, privacyRequestSchema } from '../../../../shared/schemas/admin-privacy';
import { myDataResponseSchema } from '../../../../shared/schemas/privacy';
import type { Api } from '../../../lib/api';
import type { Services } from '../../../services';
import * as privacy from './service';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export function registerAdminPrivacyRoutes(admin: Api, services: Services) {
  const { auth } = services;

  admin.get('/privacy', { schema: { summary: 'Dữ liệu cá nhân: hồ sơ hoạt động xử lý, thời hạn lưu giữ, yêu cầu đã thực hiện', response: { 200: privacyOverviewResponseSchema } } }, async () => ({
    success: true as const,
    data: await privacy.privacyOverview(services),
  }));

  admin.get('/privacy/statistics.xlsx', { schema: { summary: 'Tải thống kê ẩn danh (Excel) cần giữ trước khi xoá dữ liệu cá nhân' } }, async (_request, reply) =>
    reply
      .header('content-type', XLSX_TYPE)
      .header('content-disposition', `attachment; filename="${privacy.statisticsFileName(services.clock.now())}"`)
      .send(await privacy.anonymisedStatistics(services)),
  );

  admin.post(
    '/privacy/accounts/:id/copy',
    { schema: { summary: 'Bản sao dữ liệu cá nhân của một tài khoản theo yêu cầu qua điện thoại (ghi lý do)', params: accountParamsSchema, body: privacyRequestSchema, response: { 200: myDataResponseSchema } } },
    async (request) => ({
      success: true as const,
      data: await privacy.copyForSubject(services, auth.userOf(request), request.params.id, request.body.reason),
    }),
  );

  admin.post(
    '/privacy/accounts/:id/erase',
    { schema: { summary: 'Xoá dữ liệu cá nhân của một tài khoản theo yêu cầu qua điện thoại (ghi lý do)', params: accountParamsSchema, body: privacyRequestSchema, response: { 200: eraseResponseSchema } } },
    async (request) => ({
      success: true as const,
      message: privacyAdminMessages.erased,
      data: await privacy.eraseForSubject(services, auth.userOf(request), request.params.id, request.body.reason),
    }),
  );
}
