// /api/admin/integrity: the screening runs, the flags and the decision on each (decision 027).
import {
  dismissFlagRequestSchema,
  dismissFlagsRequestSchema,
  flagIdParamsSchema,
  integrityFlagDetailResponseSchema,
  integrityFlagsResponseSchema,
  integrityRunRequestSchema,
  integrityStatusResponseSchema,
  withholdRequestSchema,
} from '../../../../shared/schemas/admin-integrity';
import { okResponseSchema } from '../../../../shared/schemas/admin';
import type { Services } from '../../../services';
import type { Api } from '../../../lib/api';
import * as integrity from './service';

/** Under /api/admin (organiser only: the scope checks it). */
export function registerAdminIntegrityRoutes(admin: Api, services: Services) {
  admin.get(
    '/integrity',
    { schema: { summary: 'Lượt kiểm tra kết quả gần nhất và có lượt nào đang chạy', response: { 200: integrityStatusResponseSchema } } },
    async () => ({ success: true as const, data: await integrity.status(services) }),
  );

  admin.post(
    '/integrity/runs',
    { schema: { summary: 'Chạy kiểm tra kết quả (bài giống nhau, làm quá nhanh, làm xen kẽ) ở tỉ lệ báo nhầm cho phép', body: integrityRunRequestSchema, response: { 202: okResponseSchema } } },
    async (request, reply) => {
      await integrity.startRun(services, services.auth.userOf(request), request.body, (error) => request.log.error({ err: error }, 'integrity screening failed'));
      return reply.code(202).send({ success: true as const });
    },
  );

  admin.get(
    '/integrity/flags',
    { schema: { summary: 'Các cảnh báo: chưa xử lý trước, mạnh nhất trước', response: { 200: integrityFlagsResponseSchema } } },
    async () => ({ success: true as const, data: await integrity.listFlags(services) }),
  );

  admin.get(
    '/integrity/flags/:flagId',
    { schema: { summary: 'Một cảnh báo với hai bài làm đặt cạnh nhau', params: flagIdParamsSchema, response: { 200: integrityFlagDetailResponseSchema } } },
    async (request) => ({ success: true as const, data: await integrity.flagDetail(services, request.params.flagId) }),
  );

  admin.post(
    '/integrity/flags/dismiss',
    { schema: { summary: 'Bỏ qua nhiều cảnh báo cùng một lý do (ví dụ các cảnh báo của một gia đình)', body: dismissFlagsRequestSchema, response: { 200: okResponseSchema } } },
    async (request) => {
      await integrity.dismissFlags(services, services.auth.userOf(request), request.body);
      return { success: true as const };
    },
  );

  admin.post(
    '/integrity/flags/:flagId/dismiss',
    { schema: { summary: 'Bỏ qua một cảnh báo (bắt buộc ghi lý do)', params: flagIdParamsSchema, body: dismissFlagRequestSchema, response: { 200: okResponseSchema } } },
    async (request) => {
      await integrity.dismissFlag(services, services.auth.userOf(request), request.params.flagId, request.body.reason);
      return { success: true as const };
    },
  );

  admin.post(
    '/integrity/flags/:flagId/withhold',
    { schema: { summary: 'Tạm giữ giải của một học sinh trong cảnh báo (bắt buộc ghi lý do; áp dụng từ lần tính kết quả sau)', params: flagIdParamsSchema, body: withholdRequestSchema, response: { 200: okResponseSchema } } },
    async (request) => {
      await integrity.withholdPrize(services, services.auth.userOf(request), request.params.flagId, request.body);
      return { success: true as const };
    },
  );
}
