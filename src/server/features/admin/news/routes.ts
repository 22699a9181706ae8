import {
  adminNewsItemSchema,
  adminNewsPostResponseSchema,
  newsCreateSchema,
  newsIdParamsSchema,
  newsImageResponseSchema,
  newsListQuerySchema,
  newsUpdateSchema,
} from '../../../../shared/schemas/admin-news';
import { importMessages, okResponseSchema, pageResponseSchema } from '../../../../shared/schemas/admin';
import type { Services } from '../../../services';
import type { Api } from '../../../lib/api';
import { appError, AppError } from '../../../lib/errors';
import { MAX_IMAGE_BYTES, mediaMessages } from '../../media';
import { readUpload } from '../kit/uploads';
import * as news from './service';

const IMAGE_MB = MAX_IMAGE_BYTES / 1024 / 1024;

/** The back office's news routes, under /api/admin (organiser only: the scope checks it). */
export function registerAdminNewsRoutes(admin: Api, services: Services) {
  const { auth } = services;

  admin.get('/news', { schema: { summary: 'Danh sách bài viết tin tức (có phân trang, tìm kiếm)', querystring: newsListQuerySchema, response: { 200: pageResponseSchema(adminNewsItemSchema) } } }, async (request) => ({
    success: true as const,
    data: await news.listNews(services, request.query),
  }));

  admin.get('/news/:id', { schema: { summary: 'Một bài viết tin tức', params: newsIdParamsSchema, response: { 200: adminNewsPostResponseSchema } } }, async (request) => ({
    success: true as const,
    data: await news.getNews(services, request.params.id),
  }));

  admin.post('/news', { schema: { summary: 'Thêm bài viết tin tức', body: newsCreateSchema, response: { 200: adminNewsPostResponseSchema } } }, async (request) => ({
    success: true as const,
    data: await news.createNews(services, auth.userOf(request), request.body),
  }));

  admin.put(
    '/news/:id',
    { schema: { summary: 'Sửa bài viết tin tức', params: newsIdParamsSchema, body: newsUpdateSchema, response: { 200: adminNewsPostResponseSchema } } },
    async (request) => ({
      success: true as const,
      data: await news.updateNews(services, auth.userOf(request), request.params.id, request.body),
    }),
  );

  admin.delete('/news/:id', { schema: { summary: 'Xoá bài viết tin tức', params: newsIdParamsSchema, response: { 200: okResponseSchema } } }, async (request) => {
    await news.deleteNews(services, auth.userOf(request), request.params.id);
    return { success: true as const };
  });

  admin.post(
    '/news/images',
    {
      schema: { summary: 'Tải lên ảnh cho bài viết tin tức', response: { 200: newsImageResponseSchema } },
      config: { upload: { maxBytes: MAX_IMAGE_BYTES, fields: {}, accept: 'image/jpeg,image/png,image/webp' } },
    },
    async (request) => {
      const file = await readUpload(request).catch((error: unknown) => {
        // The upload reader's "too large" speaks of splitting a spreadsheet: say it of a picture.
        if (error instanceof AppError && error.message === importMessages.tooLarge(IMAGE_MB)) {
          throw appError('payload_too_large', mediaMessages.tooLarge(IMAGE_MB), { file: mediaMessages.tooLarge(IMAGE_MB) });
        }
        throw error;
      });
      return { success: true as const, data: await news.uploadNewsImage(services, auth.userOf(request), file) };
    },
  );
}
