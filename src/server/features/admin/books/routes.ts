// /api/admin/books and /api/admin/questions: books, their covers and their question banks.
import { okResponseSchema, pageQuerySchema, pageResponseSchema } from '../../../../shared/schemas/admin';
import {
  adminQuestionSchema,
  bookIdParamsSchema,
  bookInputSchema,
  bookListQuerySchema,
  bookListResponseSchema,
  bookResponseSchema,
  mediaPathResponseSchema,
  questionIdParamsSchema,
  questionImportResponseSchema,
  questionInputSchema,
  questionResponseSchema,
} from '../../../../shared/schemas/admin-books';
import type { Services } from '../../../services';
import type { Api } from '../../../lib/api';
import { MAX_AUDIO_BYTES, MAX_IMAGE_BYTES } from '../../media';
import { answerImport, importRouteConfig, readImportUpload } from '../kit/imports';
import { readUpload } from '../kit/uploads';
import * as books from './service';


/** The back office's books routes, under /api/admin (organiser only: the scope checks it). */
export function registerAdminBooksRoutes(admin: Api, services: Services) {
  const { auth } = services;

  admin.get('/books', { schema: { summary: 'Danh sách sách thi và số câu hỏi của mỗi sách', querystring: bookListQuerySchema, response: { 200: bookListResponseSchema } } }, async (request) => ({
    success: true as const,
    data: await books.listBooks(services, request.query.q, request.query.season),
  }));

  admin.post('/books', { schema: { summary: 'Thêm sách thi', body: bookInputSchema, response: { 200: bookResponseSchema } } }, async (request) => ({
    success: true as const,
    data: await books.createBook(services, auth.userOf(request), request.body),
  }));

  admin.get('/books/:bookId', { schema: { summary: 'Một sách thi', params: bookIdParamsSchema, response: { 200: bookResponseSchema } } }, async (request) => ({
    success: true as const,
    data: await books.getBook(services, request.params.bookId),
  }));

  admin.put('/books/:bookId', { schema: { summary: 'Sửa sách thi', params: bookIdParamsSchema, body: bookInputSchema, response: { 200: bookResponseSchema } } }, async (request) => ({
    success: true as const,
    data: await books.updateBook(services, auth.userOf(request), request.params.bookId, request.body),
  }));

  admin.post(
    '/books/:bookId/cover',
    {
      schema: { summary: 'Tải lên ảnh bìa của sách', params: bookIdParamsSchema, response: { 200: mediaPathResponseSchema } },
      config: { upload: { maxBytes: MAX_IMAGE_BYTES, accept: 'image/jpeg, image/png, image/webp' } },
    },
    async (request) => {
      const upload = await readUpload(request);
      return { success: true as const, data: await books.uploadCover(services, auth.userOf(request), request.params.bookId, upload.bytes) };
    },
  );

  admin.get(
    '/books/:bookId/questions',
    { schema: { summary: 'Ngân hàng câu hỏi của một sách (có phân trang, tìm kiếm)', params: bookIdParamsSchema, querystring: pageQuerySchema, response: { 200: pageResponseSchema(adminQuestionSchema) } } },
    async (request) => ({ success: true as const, data: await books.listQuestions(services, request.params.bookId, request.query) }),
  );

  admin.post(
    '/books/:bookId/questions',
    { schema: { summary: 'Thêm một câu hỏi vào ngân hàng của sách', params: bookIdParamsSchema, body: questionInputSchema, response: { 200: questionResponseSchema } } },
    async (request) => ({
      success: true as const,
      data: await books.createQuestion(services, auth.userOf(request), request.params.bookId, request.body),
    }),
  );

  admin.post(
    '/books/:bookId/questions/import',
    {
      schema: { summary: 'Nhập câu hỏi từ tệp Excel, CSV, Aiken hoặc GIFT (có chạy thử)', params: bookIdParamsSchema, response: { 200: questionImportResponseSchema } },
      config: importRouteConfig('.xlsx, .csv, .txt', {
        mode: '"append" (default): add the questions not yet in the bank; "replace": the bank becomes the file (refused once an exam of the book exists)',
      }),
    },
    async (request, reply) => answerImport(reply, await books.importQuestions(services, auth.userOf(request), request.params.bookId, await readImportUpload(request))),
  );

  admin.post(
    '/questions/audio',
    { schema: { summary: 'Tải lên tệp âm thanh cho câu hỏi hoặc đáp án', response: { 200: mediaPathResponseSchema } }, config: { upload: { maxBytes: MAX_AUDIO_BYTES, accept: 'audio/mpeg, audio/mp4, audio/ogg, audio/webm, audio/wav' } } },
    async (request) => {
      const upload = await readUpload(request);
      return { success: true as const, data: await books.uploadAudio(services, upload.bytes) };
    },
  );

  admin.put(
    '/questions/:questionId',
    { schema: { summary: 'Sửa một câu hỏi', params: questionIdParamsSchema, body: questionInputSchema, response: { 200: questionResponseSchema } } },
    async (request) => ({
      success: true as const,
      data: await books.updateQuestion(services, auth.userOf(request), request.params.questionId, request.body),
    }),
  );

  admin.delete('/questions/:questionId', { schema: { summary: 'Xoá một câu hỏi (khi chưa có trong bài thi nào)', params: questionIdParamsSchema, response: { 200: okResponseSchema } } }, async (request) => {
    await books.deleteQuestion(services, auth.userOf(request), request.params.questionId);
    return { success: true as const };
  });
}

