// /api/viewer/*: the education offices' read-only area (issue 41, decision 039). One scope checks
// the role before anything else (401 without a session, 403 for any role but the two viewers; a
// locked account has no session), then each route reads its scope's figures on a replica when one
// is usable. A view is written to the audit log on the primary after the read: a failed write is
// logged and the read still answers (the figures are the office's own; the log is the organiser's).
import type { FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { messages } from '../../../shared/messages';
import {
  viewerMessages,
  viewerParticipationQuerySchema,
  viewerParticipationResponseSchema,
  viewerResultsResponseSchema,
  viewerScopeResponseSchema,
} from '../../../shared/schemas/viewers';
import type { Api } from '../../lib/api';
import type { Services } from '../../services';
import { participationXlsx, resultsXlsx, viewerExportFileNames } from './exports';
import { getParticipation, getResults, getScope, viewerOf, type Viewer } from './service';
import { recordView } from './repo';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export function registerViewerRoutes(api: Api, services: Services) {
  api.register(
    async (scope) => {
      const viewer: Api = scope.withTypeProvider<ZodTypeProvider>();
      const viewersOnly = services.auth.requireRole('province_viewer', 'unit_viewer');
      viewer.addHook('onRequest', viewersOnly);
      // An unknown viewer path tells a stranger nothing either: 401/403 first, then 404.
      viewer.setNotFoundHandler({ preHandler: viewersOnly }, (request, reply) =>
        reply.status(404).send({ success: false, code: 'not_found', message: messages.apiNotFound, request_id: request.id }),
      );
      // A scope's figures are never kept by a browser or a proxy.
      viewer.addHook('onSend', async (_request, reply) => {
        if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'private, no-store');
      });

      const who = (request: FastifyRequest) => viewerOf(services.db, services.auth.userOf(request));

      /** The view in the audit log (viewer.view, once per page in VIEW_REPEAT_MINUTES), on the primary; a failure is logged, never the read's. */
      async function audit(request: FastifyRequest, seen: Viewer, what: string) {
        try {
          await recordView(services.db, seen.user, viewerMessages.audit.viewed(what, seen.label), {
            path: request.url,
            kind: seen.kind,
            scope: seen.label,
            district_ids: seen.scope ?? null,
          });
        } catch (error) {
          request.log.error({ err: error }, 'viewer view not written to the audit log');
        }
      }

      viewer.get('/scope', { schema: { summary: 'Phạm vi xem của tài khoản: toàn tỉnh hoặc các đơn vị, mùa thi, kết quả đã công bố chưa', response: { 200: viewerScopeResponseSchema } } }, async (request) => {
        const seen = await who(request);
        return { success: true as const, data: await getScope(services, seen) };
      });

      viewer.get(
        '/participation',
        {
          schema: {
            summary: 'Số liệu tham gia trực tiếp của phạm vi xem: theo đơn vị và theo trường (trường tham gia thấp trước), biểu đồ theo giờ',
            querystring: viewerParticipationQuerySchema,
            response: { 200: viewerParticipationResponseSchema },
          },
        },
        async (request) => {
          const seen = await who(request);
          const data = await getParticipation(services, seen, request.query);
          await audit(request, seen, viewerMessages.views.participation);
          return { success: true as const, data };
        },
      );

      viewer.get('/results', { schema: { summary: 'Kết quả đã công bố của phạm vi xem: danh sách giải, tổng hợp theo trường và đơn vị', response: { 200: viewerResultsResponseSchema } } }, async (request) => {
        const seen = await who(request);
        const { contest: _contest, ...data } = await getResults(services, seen);
        await audit(request, seen, viewerMessages.views.results);
        return { success: true as const, data };
      });

      viewer.get(
        '/participation.xlsx',
        { schema: { summary: 'Tải tệp Excel số liệu tham gia của phạm vi xem (trang Đơn vị, Trường)', querystring: viewerParticipationQuerySchema } },
        async (request, reply) => {
          const seen = await who(request);
          const bytes = await participationXlsx(services, seen, request.query);
          await audit(request, seen, viewerMessages.views.participationXlsx);
          return reply.header('content-type', XLSX_TYPE).header('content-disposition', `attachment; filename="${viewerExportFileNames.participation}"`).send(bytes);
        },
      );

      viewer.get('/results.xlsx', { schema: { summary: 'Tải tệp Excel kết quả đã công bố của phạm vi xem (trang Giải thưởng, Trường, Đơn vị); 409 trước khi công bố' } }, async (request, reply) => {
        const seen = await who(request);
        const bytes = await resultsXlsx(services, seen);
        await audit(request, seen, viewerMessages.views.resultsXlsx);
        return reply.header('content-type', XLSX_TYPE).header('content-disposition', `attachment; filename="${viewerExportFileNames.results}"`).send(bytes);
      });
    },
    { prefix: '/viewer' },
  );
}
