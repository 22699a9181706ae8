// Practice round routes (issue 14, /api/practice). Thin: schema, guard, one service call.
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  practiceExamResponseSchema,
  practiceResultResponseSchema,
  practiceSaveBodySchema,
  practiceSaveResponseSchema,
  practiceSlugParamsSchema,
  practiceStartBodySchema,
  practiceStartResponseSchema,
  practiceStatusResponseSchema,
  practiceSubmitResponseSchema,
  practiceTimeResponseSchema,
} from '../../../shared/schemas/practice';
import type { Api } from '../../lib/api';
import type { Services } from '../../services';
import { assertCanTakeExams } from '../exams';
import * as service from './service';

// Personal and changing with every save: never cached by a browser or a proxy.
const NO_STORE = 'no-store';

export function registerPracticeRoutes(api: Api, services: Services) {
  const { auth } = services;

  /** preHandler: the caller must be a parent (401 / 403 with a clear message otherwise), as for exams. */
  const requireParent = async (request: FastifyRequest, _reply: FastifyReply) => {
    assertCanTakeExams(await auth.authenticate(request));
  };

  api.get(
    '/practice/status',
    { preHandler: requireParent, schema: { summary: 'Thi thử: các thí sinh của tài khoản, số câu thi thử, bài thi thử đang làm', response: { 200: practiceStatusResponseSchema } } },
    async (request, reply) => {
      reply.header('cache-control', NO_STORE);
      return { success: true as const, data: await service.practiceStatus(services, auth.userOf(request)) };
    },
  );

  api.post(
    '/practice/start',
    { preHandler: requireParent, schema: { summary: 'Bắt đầu một bài thi thử (không tính lượt thi)', body: practiceStartBodySchema, response: { 200: practiceStartResponseSchema } } },
    async (request) => service.startPractice(services, auth.userOf(request), request.body.child_id),
  );

  api.get(
    '/practice/exams/:slug',
    { preHandler: requireParent, schema: { summary: 'Bài thi thử đang làm: câu hỏi, đáp án đã chọn, thời gian', params: practiceSlugParamsSchema, response: { 200: practiceExamResponseSchema } } },
    async (request, reply) => {
      reply.header('cache-control', NO_STORE);
      return service.practiceForTaking(services, auth.userOf(request), request.params.slug);
    },
  );

  api.get(
    '/practice/exams/:slug/time',
    { preHandler: requireParent, schema: { summary: 'Thời gian còn lại của bài thi thử', params: practiceSlugParamsSchema, response: { 200: practiceTimeResponseSchema } } },
    async (request, reply) => {
      reply.header('cache-control', NO_STORE);
      return service.practiceTime(services, auth.userOf(request), request.params.slug);
    },
  );

  api.post(
    '/practice/exams/:slug/answers',
    { preHandler: requireParent, schema: { summary: 'Lưu đáp án của bài thi thử', params: practiceSlugParamsSchema, body: practiceSaveBodySchema, response: { 200: practiceSaveResponseSchema } } },
    async (request) => service.savePractice(services, auth.userOf(request), request.params.slug, request.body),
  );

  api.post(
    '/practice/exams/:slug/submit',
    { preHandler: requireParent, schema: { summary: 'Nộp bài thi thử', params: practiceSlugParamsSchema, body: practiceSaveBodySchema, response: { 200: practiceSubmitResponseSchema } } },
    async (request) => service.submitPractice(services, auth.userOf(request), request.params.slug, request.body),
  );

  api.get(
    '/practice/exams/:slug/result',
    { preHandler: requireParent, schema: { summary: 'Kết quả bài thi thử: đáp án em chọn và đáp án đúng', params: practiceSlugParamsSchema, response: { 200: practiceResultResponseSchema } } },
    async (request, reply) => {
      reply.header('cache-control', NO_STORE);
      return service.practiceResult(services, auth.userOf(request), request.params.slug);
    },
  );
}
