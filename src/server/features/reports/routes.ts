// GET /api/report-school (spec section 7): a school administrator's report of their own school.
import { reportSchoolQuerySchema, reportSchoolResponseSchema } from '../../../shared/schemas/reports';
import type { Services } from '../../services';
import type { Api } from '../../lib/api';
import { schoolReport } from './service';
import { readDb } from '../../db/replicas';

export function registerReportRoutes(api: Api, services: Services) {
  const { auth } = services;

  api.get('/report-school', { preHandler: auth.requireUser, schema: { summary: 'Báo cáo của trường (quản trị trường)', querystring: reportSchoolQuerySchema, response: { 200: reportSchoolResponseSchema } } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    // Families' and exams' rows, a few seconds old at most: a replica's when one is usable.
    return schoolReport({ ...services, db: readDb(services) }, auth.userOf(request), request.query.season);
  });
}
