import { pageResponseSchema } from '../../../../shared/schemas/admin';
import {
  accountDetailResponseSchema,
  accountParamsSchema,
  accountsQuerySchema,
  accountSummarySchema,
  createSchoolAdminSchema,
  issuedLinkResponseSchema,
  lockResponseSchema,
  schoolAdminImportResponseSchema,
} from '../../../../shared/schemas/admin-accounts';
import { createViewerSchema, viewerImportResponseSchema } from '../../../../shared/schemas/viewers';
import type { Services } from '../../../services';
import type { Api } from '../../../lib/api';
import { answerImport, importRouteConfig, readImportUpload } from '../kit/imports';
import * as accounts from './service';
import * as viewers from './viewers';

/** The back office's accounts routes, under /api/admin (organiser only: the scope checks it). */
export function registerAdminAccountsRoutes(admin: Api, services: Services) {
  const { auth } = services;

  admin.get('/accounts', { schema: { summary: 'Danh sách tài khoản (tìm theo số điện thoại, lọc theo vai trò)', querystring: accountsQuerySchema, response: { 200: pageResponseSchema(accountSummarySchema) } } }, async (request) => ({
    success: true as const,
    data: await accounts.listAccounts(services, request.query),
  }));

  admin.get('/accounts/:id', { schema: { summary: 'Chi tiết một tài khoản: thí sinh, bài thi, phiên đăng nhập', params: accountParamsSchema, response: { 200: accountDetailResponseSchema } } }, async (request) => ({
    success: true as const,
    data: await accounts.accountDetail(services, request.params.id),
  }));

  admin.post(
    '/accounts/:id/reset-link',
    { schema: { summary: 'Tạo liên kết đặt lại mật khẩu cho một tài khoản (gửi SMS)', params: accountParamsSchema, response: { 200: issuedLinkResponseSchema } } },
    async (request) => ({ success: true as const, data: await accounts.issueResetLinkFor(services, auth.userOf(request), request.params.id) }),
  );

  admin.post('/accounts/:id/lock', { schema: { summary: 'Khoá một tài khoản và kết thúc các phiên đăng nhập', params: accountParamsSchema, response: { 200: lockResponseSchema } } }, async (request) => ({
    success: true as const,
    data: await accounts.setAccountLocked(services, auth.userOf(request), request.params.id, true),
  }));

  admin.post('/accounts/:id/unlock', { schema: { summary: 'Mở khoá một tài khoản', params: accountParamsSchema, response: { 200: lockResponseSchema } } }, async (request) => ({
    success: true as const,
    data: await accounts.setAccountLocked(services, auth.userOf(request), request.params.id, false),
  }));

  admin.post('/school-admins', { schema: { summary: 'Tạo tài khoản quản trị trường (gửi liên kết đặt mật khẩu)', body: createSchoolAdminSchema, response: { 200: issuedLinkResponseSchema } } }, async (request) => ({
    success: true as const,
    data: await accounts.createSchoolAdmin(services, auth.userOf(request), request.body),
  }));

  admin.post(
    '/school-admins/import',
    {
      schema: { summary: 'Nhập tài khoản quản trị trường từ tệp Excel hoặc CSV (có chạy thử)', response: { 200: schoolAdminImportResponseSchema } },
      config: importRouteConfig('.xlsx, .csv (UTF-8)'),
    },
    async (request, reply) => answerImport(reply, await accounts.importSchoolAdmins(services, auth.userOf(request), await readImportUpload(request))),
  );

  // The education offices' read-only viewers (issue 41): a province viewer or a unit viewer.
  admin.post('/viewers', { schema: { summary: 'Tạo tài khoản xem số liệu (Sở Giáo dục toàn tỉnh hoặc một số đơn vị), gửi liên kết đặt mật khẩu', body: createViewerSchema, response: { 200: issuedLinkResponseSchema } } }, async (request) => ({
    success: true as const,
    data: await viewers.createViewer(services, auth.userOf(request), request.body),
  }));

  admin.post(
    '/viewers/import',
    {
      schema: { summary: 'Nhập tài khoản xem số liệu từ tệp Excel hoặc CSV (có chạy thử)', response: { 200: viewerImportResponseSchema } },
      config: importRouteConfig('.xlsx, .csv (UTF-8)'),
    },
    async (request, reply) => answerImport(reply, await viewers.importViewers(services, auth.userOf(request), await readImportUpload(request))),
  );
}
