import { z } from 'zod';
import { pageResponseSchema } from '../../../../shared/schemas/admin';
import {
  computeRequestSchema,
  decisionResponseSchema,
  prizeListQuerySchema,
  prizeRowSchema,
  prizeWithdrawalRequestSchema,
  prizeWithdrawalResponseSchema,
  publishRequestSchema,
  publishResponseSchema,
  resultExportKinds,
  resultExportQuerySchema,
  resultsOverviewSchema,
  taskResponseSchema,
  tieDecisionRequestSchema,
} from '../../../../shared/schemas/admin-results';
import type { Services } from '../../../services';
import type { Api } from '../../../lib/api';
import { exportResults } from './exports';
import { getOverview, publish } from './publish';
import { listPrizes } from './review';
import { getTask, startCompute } from './task';
import { decideTie } from './ties';
import { withdrawPrize } from './withdrawals';
import { ceremonyWinnersPdf } from './winners-pdf';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const EXPORT_TIMEOUT_MS = 300_000;

/** The back office's results routes, under /api/admin (organiser only: the scope checks it). */
export function registerAdminResultsRoutes(admin: Api, services: Services) {
  const { auth } = services;

  admin.get('/results', { schema: { summary: 'Tình trạng kết quả: lần tính, tiến độ, đồng hạng, công bố, kinh phí', response: { 200: resultsOverviewSchema } } }, async () => ({
    success: true as const,
    data: await getOverview(services),
  }));

  admin.post(
    '/results/compute',
    { schema: { summary: 'Tính kết quả (chạy nền; force: tính tạm trước khi hết giờ thi)', body: computeRequestSchema, response: { 202: taskResponseSchema } } },
    async (request, reply) => {
      const task = await startCompute(services, auth.userOf(request), request.body, (error) => admin.log.error({ err: error }, 'results computation failed'));
      return reply.status(202).send({ success: true as const, data: task });
    },
  );

  admin.get('/results/task', { schema: { summary: 'Tiến độ của lần tính kết quả gần nhất', response: { 200: taskResponseSchema } } }, async () => ({
    success: true as const,
    data: await getTask(services),
  }));

  admin.post(
    '/results/ties',
    { schema: { summary: 'Quyết định một nhóm đồng hạng vượt số giải (kèm lý do)', body: tieDecisionRequestSchema, response: { 200: decisionResponseSchema } } },
    async (request) => ({ success: true as const, data: await decideTie(services, auth.userOf(request), request.body) }),
  );

  admin.post(
    '/results/publish',
    {
      schema: {
        summary: 'Công bố kết quả cho phụ huynh và nhà trường (kết quả đã cũ: chỉ khi xác nhận kèm lý do)',
        body: publishRequestSchema.nullish(),
        response: { 200: publishResponseSchema },
      },
    },
    async (request) => ({ success: true as const, data: await publish(services, auth.userOf(request), request.body ?? {}) }),
  );

  admin.post(
    '/results/withdrawals',
    {
      schema: {
        summary: 'Rút giải của một học sinh (kèm lý do): bỏ khỏi danh sách giải, kinh phí, tệp xuất và trang của gia đình; thu hồi giấy chứng nhận của giải',
        body: prizeWithdrawalRequestSchema,
        response: { 200: prizeWithdrawalResponseSchema },
      },
    },
    async (request) => ({ success: true as const, data: await withdrawPrize(services, auth.userOf(request), request.body) }),
  );

  admin.get(
    '/results/prizes',
    { schema: { summary: 'Danh sách giải theo loại, lọc theo quận/huyện và trường', querystring: prizeListQuerySchema, response: { 200: pageResponseSchema(prizeRowSchema) } } },
    async (request) => ({ success: true as const, data: await listPrizes(services, request.query) }),
  );

  admin.get(
    '/results/winners.pdf',
    { schema: { summary: 'Danh sách đoạt giải để in khi trao giải (PDF khổ A4, theo từng giải; họ tên học sinh chỉ khi phụ huynh đồng ý công bố)' } },
    async (_request, reply) => {
      const file = await ceremonyWinnersPdf(services);
      return reply.header('content-type', 'application/pdf').header('content-disposition', `attachment; filename="${file.fileName}"`).send(file.bytes);
    },
  );

  admin.get(
    '/results/exports/:kind',
    {
      // Every contestant's best result takes about 45 s for 200,000 rows (README, Performance).
      handlerTimeout: EXPORT_TIMEOUT_MS,
      schema: {
        summary: 'Xuất .xlsx: danh sách đoạt giải (có SĐT phụ huynh), kết quả mọi thí sinh, kinh phí trao giải',
        params: z.object({ kind: z.enum(resultExportKinds.map((kind) => `${kind}.xlsx` as const)) }),
        querystring: resultExportQuerySchema,
      },
    },
    async (request, reply) => {
      const kind = request.params.kind.replace(/\.xlsx$/, '') as (typeof resultExportKinds)[number];
      const file = await exportResults(services, auth.userOf(request), kind, request.query);
      return reply.header('content-type', XLSX_TYPE).header('content-disposition', `attachment; filename="${file.fileName}"`).send(file.bytes);
    },
  );
}
