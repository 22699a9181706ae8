// GET /api/report-school (spec section 7): a school administrator's report of their own school.
// GET /api/report-parent (issue 26): a family's children of one season, results and certificates.
import { reportParentQuerySchema, reportParentResponseSchema, reportParentSeasonsResponseSchema, reportSchoolQuerySchema, reportSchoolResponseSchema } from '../../../shared/schemas/reports';
import type { Services } from '../../services';
import type { Api } from '../../lib/api';
import { schoolReport } from './service';
import { parentReport, parentSeasons } from './parent';
import { readFromReplica } from '../../db/replicas';

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
}
