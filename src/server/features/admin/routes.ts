// /api/admin/*: the organiser's back office. One scope checks the role before anything else (401
// without a session, 403 for other roles), before a body is read; each area registers its routes
// in it. Every change an area makes is written to the audit log (kit/audit.ts) in its transaction.
import multipart from '@fastify/multipart';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { messages } from '../../../shared/messages';
import { auditEntrySchema, MAX_IMPORT_BYTES, pageResponseSchema, templateKinds } from '../../../shared/schemas/admin';
import type { Services } from '../../services';
import type { Api } from '../../lib/api';
import { listAudit } from './kit/audit';
import { auditFiltersSchema } from './kit/audit-query';
import { templateXlsx } from './kit/templates';
import { getCurrentContest } from '../../core/contest';
import { registerUploadLimits } from './kit/uploads';
import { classRoomsTemplateExamples, registerAdminCatalogRoutes } from './catalog';
import { registerAdminBooksRoutes } from './books';
import { registerAdminAccountsRoutes } from './accounts';
import { registerAdminContestRoutes } from './contest';
import { registerAdminNewsRoutes } from './news';
import { registerAdminPrivacyRoutes } from './privacy';
import { registerAdminRegradeRoutes } from './regrade';
import { registerAdminCertificateRoutes } from './certificates';
import { registerAdminExamDaysRoutes } from './exam-days';
import { registerAdminResultsRoutes } from './results';
import { registerAdminQualityRoutes } from './quality';
import { registerAdminIntegrityRoutes } from './integrity';
import { registerAdminSeasonRoutes } from './seasons';
import { registerAdminMessagesRoutes } from './messages';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export function registerAdminRoutes(api: Api, services: Services) {
  api.register(
    async (scope) => {
      const admin: Api = scope.withTypeProvider<ZodTypeProvider>();
      const organiserOnly = services.auth.requireRole('organiser');
      admin.addHook('onRequest', organiserOnly);
      // An unknown admin path tells a stranger nothing either: 401/403 first, then 404.
      admin.setNotFoundHandler({ preHandler: organiserOnly }, (request, reply) =>
        reply.status(404).send({ success: false, code: 'not_found', message: messages.apiNotFound, request_id: request.id }),
      );
      // Admin answers are never cached by a browser or proxy.
      admin.addHook('onSend', async (_request, reply) => {
        if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
      });
      // Uploads: one file per request; each route caps its size while it streams (kit/uploads.ts).
      await admin.register(multipart, { limits: { fileSize: MAX_IMPORT_BYTES, files: 1, fields: 20, parts: 25 } });
      // Each upload route's body bounded by its declared limit before and while it arrives.
      registerUploadLimits(admin);

      admin.get(
        '/templates/:file',
        { schema: { summary: 'Tải tệp Excel mẫu của một loại dữ liệu nhập', params: z.object({ file: z.enum(templateKinds.map((kind) => `${kind}.xlsx` as const)) }) } },
        async (request, reply) => {
          const kind = request.params.file.replace(/\.xlsx$/, '') as (typeof templateKinds)[number];
          return reply
            .header('content-type', XLSX_TYPE)
            .header('content-disposition', `attachment; filename="mau-${kind}.xlsx"`)
            .send(await templateXlsx(kind, kind === 'class-rooms' ? await classRoomsTemplateExamples(services.db) : {}, (await getCurrentContest(services.db))?.unit_level));
        },
      );

      admin.get('/audit', { schema: { summary: 'Nhật ký thao tác của ban tổ chức (lọc theo người, loại, ngày)', querystring: auditFiltersSchema, response: { 200: pageResponseSchema(auditEntrySchema) } } }, async (request) => ({
        success: true as const,
        data: await listAudit(services.db, request.query),
      }));

      registerAdminCatalogRoutes(admin, services);
      registerAdminBooksRoutes(admin, services);
      registerAdminAccountsRoutes(admin, services);
      registerAdminContestRoutes(admin, services);
      registerAdminNewsRoutes(admin, services);
      registerAdminPrivacyRoutes(admin, services);
      registerAdminRegradeRoutes(admin, services);
      registerAdminCertificateRoutes(admin, services);
      registerAdminExamDaysRoutes(admin, services);
      registerAdminResultsRoutes(admin, services);
      registerAdminQualityRoutes(admin, services);
      registerAdminIntegrityRoutes(admin, services);
      registerAdminSeasonRoutes(admin, services);
      registerAdminMessagesRoutes(admin, services);
    },
    { prefix: '/admin' },
  );
}
