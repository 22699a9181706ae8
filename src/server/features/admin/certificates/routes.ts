// Back office, certificates: drawing progress, search, revocation (organiser only: the scope checks it).
import {
  certificateCodeParamsSchema,
  certificateProgressResponseSchema,
  certificateSearchQuerySchema,
  certificateSearchResponseSchema,
  revokeCertificateBodySchema,
  revokeCertificateResponseSchema,
} from '../../../../shared/schemas/admin-certificates';
import type { Services } from '../../../services';
import type { Api } from '../../../lib/api';
import * as service from './service';

export function registerAdminCertificateRoutes(admin: Api, services: Services) {
  const { auth } = services;

  admin.get('/certificates/progress', { schema: { summary: 'Tiến độ vẽ giấy chứng nhận', response: { 200: certificateProgressResponseSchema } } }, async () => ({
    success: true as const,
    data: await service.certificateProgress(services),
  }));

  admin.get(
    '/certificates',
    { schema: { summary: 'Tìm giấy chứng nhận theo mã hoặc tên người nhận', querystring: certificateSearchQuerySchema, response: { 200: certificateSearchResponseSchema } } },
    async (request) => ({ success: true as const, data: await service.searchCertificates(services, request.query.q) }),
  );

  admin.post(
    '/certificates/:code/revoke',
    { schema: { summary: 'Thu hồi một giấy chứng nhận (bắt buộc lý do)', params: certificateCodeParamsSchema, body: revokeCertificateBodySchema, response: { 200: revokeCertificateResponseSchema } } },
    async (request) => ({
      success: true as const,
      data: await service.revokeCertificate(services, auth.userOf(request), request.params.code, request.body),
    }),
  );
}
