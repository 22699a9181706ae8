// GET /api/report-school (spec section 7): a school administrator's report of their own school.
// GET /api/report-parent (issue 26): a family's children of one season, results and certificates.
import { reportParentQuerySchema, reportParentResponseSchema, reportParentSeasonsResponseSchema, reportSchoolQuerySchema, reportSchoolResponseSchema } from '../../../shared/schemas/reports';
import type { Services } from '../../services';
import type { Api } from '../../lib/api';
import { schoolReport } from './service';
import { parentReport, parentSeasons } from './parent';
import { readFromReplica } from '../../db/replicas';
import { bundleFile, getBundle, listBundles, requestBundle } from '../certificates';
import { bundleParamsSchema, bundleRequestSchema, bundleResponseSchema, bundlesResponseSchema } from '../../../shared/schemas/certificate-printing';
import { seasonQuerySchema } from '../../../shared/schemas/common';

export function registerReportRoutes(api: Api, services: Services) {
  const { auth } = services;

  api.get('/report-school', { preHandler: auth.requireUser, schema: { summary: 'Báo cáo của trường (quản trị trường)', querystring: reportSchoolQuerySchema, response: { 200: reportSchoolResponseSchema } } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    // Families' and exams' rows, a few seconds old at most: a replica's when one is usable.
    return readFromReplica(services, (db) => schoolReport({ ...services, db }, auth.userOf(request), request.query.season));
  });

  api.get(
    '/report-parent',
    { preHandler: auth.requireUser, schema: { summary: 'Kết quả và giấy chứng nhận của các con theo mùa thi (phụ huynh)', querystring: reportParentQuerySchema, response: { 200: reportParentResponseSchema } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      // The primary: the certificates are issued on request (as GET /api/chilren-certificate does).
      return parentReport(services, auth.userOf(request), request.query.season);
    },
  );

  api.get('/report-parent/seasons', { preHandler: auth.requireUser, schema: { summary: 'Các mùa thi của gia đình (phụ huynh)', response: { 200: reportParentSeasonsResponseSchema } } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return readFromReplica(services, (db) => parentSeasons({ ...services, db }, auth.userOf(request)));
  });

  // The school's certificates in one PDF (issue 37): built in the background (certificates/bundle.ts).
  api.post(
    '/report-school/certificates',
    { preHandler: auth.requireUser, schema: { summary: 'Tạo tệp PDF in giấy chứng nhận của cả trường hoặc một lớp (quản trị trường)', body: bundleRequestSchema, response: { 202: bundleResponseSchema } } },
    async (request, reply) => {
      const bundle = await requestBundle(services, auth.userOf(request), request.body);
      return reply.status(202).send({ success: true as const, data: bundle });
    },
  );

  api.get(
    '/report-school/certificates',
    { preHandler: auth.requireUser, schema: { summary: 'Các tệp PDF giấy chứng nhận của trường (quản trị trường)', querystring: seasonQuerySchema, response: { 200: bundlesResponseSchema } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { success: true as const, data: await listBundles(services, auth.userOf(request), request.query.season) };
    },
  );

  api.get(
    '/report-school/certificates/:id',
    { preHandler: auth.requireUser, schema: { summary: 'Tiến độ tạo tệp PDF giấy chứng nhận (quản trị trường)', params: bundleParamsSchema, response: { 200: bundleResponseSchema } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { success: true as const, data: await getBundle(services, auth.userOf(request), request.params.id) };
    },
  );

  // Binary answer: no response schema; the school check is in the service.
  api.get(
    '/report-school/certificates/:id/pdf',
    { preHandler: auth.requireUser, schema: { summary: 'Tải tệp PDF giấy chứng nhận của trường (quản trị trường)', params: bundleParamsSchema } },
    async (request, reply) => {
      const file = await bundleFile(services, auth.userOf(request), request.params.id);
      reply.header('cache-control', 'private, no-store');
      return reply.type('application/pdf').header('content-disposition', `attachment; filename="${file.fileName}"`).send(file.body);
    },
  );
}
