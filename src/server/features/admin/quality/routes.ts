// /api/admin/books/:bookId/quality: the question quality of a book (item analysis), and its .xlsx.
import { bookIdParamsSchema } from '../../../../shared/schemas/admin-books';
import { bookQualityResponseSchema } from '../../../../shared/schemas/admin-quality';
import type { Services } from '../../../services';
import type { Api } from '../../../lib/api';
import * as quality from './service';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Under /api/admin (organiser only: the scope checks it). */
export function registerAdminQualityRoutes(admin: Api, services: Services) {
  admin.get(
    '/books/:bookId/quality',
    {
      schema: {
        summary: 'Chất lượng câu hỏi của một sách: độ dễ, độ phân biệt, tỉ lệ chọn mỗi đáp án, cảnh báo (câu bị cảnh báo trước)',
        params: bookIdParamsSchema,
        response: { 200: bookQualityResponseSchema },
      },
    },
    async (request) => ({ success: true as const, data: await quality.bookQuality(services, request.params.bookId) }),
  );

  admin.post(
    '/books/:bookId/quality/refresh',
    {
      schema: {
        summary: 'Tính lại chất lượng câu hỏi của một sách trên mọi bài thi đã nộp đến lúc này',
        params: bookIdParamsSchema,
        response: { 200: bookQualityResponseSchema },
      },
    },
    async (request) => ({ success: true as const, data: await quality.bookQuality(services, request.params.bookId, { refresh: true }) }),
  );

  admin.get(
    '/books/:bookId/quality.xlsx',
    { schema: { summary: 'Xuất .xlsx chất lượng câu hỏi của một sách', params: bookIdParamsSchema } },
    async (request, reply) => {
      const file = await quality.bookQualityXlsx(services, request.params.bookId);
      return reply.header('content-type', XLSX_TYPE).header('content-disposition', `attachment; filename="${file.fileName}"`).send(file.bytes);
    },
  );
}
