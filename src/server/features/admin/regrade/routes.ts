// /api/admin/regrades: regrading a question after a wrong answer key (dry run, commit, history).
import {
  regradeCommitResponseSchema,
  regradeCommitSchema,
  regradeListQuerySchema,
  regradeListResponseSchema,
  regradePreviewResponseSchema,
  regradePreviewSchema,
} from '../../../../shared/schemas/admin-regrade';
import type { Services } from '../../../services';
import type { Api } from '../../../lib/api';
import * as regrade from './service';

/** The back office's regrading routes, under /api/admin (organiser only: the scope checks it). */
export function registerAdminRegradeRoutes(admin: Api, services: Services) {
  const { auth } = services;

  admin.get(
    '/regrades',
    { schema: { summary: 'Lịch sử chấm lại câu hỏi của cuộc thi', querystring: regradeListQuerySchema, response: { 200: regradeListResponseSchema } } },
    async (request) => ({ success: true as const, data: await regrade.listRegrades(services, request.query) }),
  );

  admin.post(
    '/regrades/preview',
    { schema: { summary: 'Chấm lại câu hỏi: chạy thử (không lưu gì)', body: regradePreviewSchema, response: { 200: regradePreviewResponseSchema } } },
    async (request) => ({ success: true as const, data: await regrade.previewRegrade(services, request.body) }),
  );

  admin.post(
    '/regrades',
    { schema: { summary: 'Chấm lại câu hỏi: lưu quy tắc và tính lại điểm các bài thi', body: regradeCommitSchema, response: { 200: regradeCommitResponseSchema } } },
    async (request) => ({ success: true as const, data: await regrade.commitRegrade(services, auth.userOf(request), request.body) }),
  );
}
