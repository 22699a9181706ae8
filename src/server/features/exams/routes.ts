// Exam routes (spec section 7). Thin: schema, guard, one service call.
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  childBooksParamsSchema,
  childBooksResponseSchema,
  examResultQuerySchema,
  examResultResponseSchema,
  examTimeQuerySchema,
  examTimeResponseSchema,
  examingQuerySchema,
  examingResponseSchema,
  saveAnswersBodySchema,
  saveAnswersResponseSchema,
  startExamBodySchema,
  startExamResponseSchema,
  submitExamBodySchema,
  submitExamResponseSchema,
} from '../../../shared/schemas/exams';
import type { Services } from '../../services';
import type { Api } from '../../lib/api';
import { BEARER_SCHEME } from '../../lib/openapi';
import { readBearerToken } from '../../core/guard';
import { fastSerializerCompiler, fastValidatorCompiler } from './fast-schema';
import * as service from './service';

/** For the OpenAPI document: the hot paths below need the session token without a guard. */
const BEARER = [{ [BEARER_SCHEME]: [] }];

// Exam data is personal and changes with every save: never cached by a browser or a proxy.
const NO_STORE = 'no-store';

export function registerExamRoutes(api: Api, services: Services) {
  const { auth } = services;
  const deps = service.createExamDeps(services);

  /** preHandler: the caller must be a parent (401 / 403 with a clear message otherwise). */
  const requireParent = async (request: FastifyRequest, _reply: FastifyReply) => {
    service.assertCanTakeExams(await auth.authenticate(request));
  };

  api.get(
    '/children/:id/books',
    { preHandler: requireParent, schema: { summary: 'Sách mà thí sinh có thể thi', params: childBooksParamsSchema, response: { 200: childBooksResponseSchema } } },
    async (request) => ({
      success: true as const,
      data: await service.booksOfContestant(deps, auth.userOf(request), request.params.id),
    }),
  );

  // The start storm of an exam hour: the session is checked inside the start's own statement.
  api.post(
    '/start-exam',
    { schema: { summary: 'Bắt đầu một lượt thi (rút câu hỏi từ ngân hàng của sách)', body: startExamBodySchema, response: { 200: startExamResponseSchema }, security: BEARER } },
    async (request) => service.startExam(deps, readBearerToken(request), request.body.book_id, request.body.child_id),
  );

  api.get(
    '/examing',
    { preHandler: requireParent, schema: { summary: 'Bài thi đang làm: câu hỏi, đáp án đã chọn, thời gian còn lại', querystring: examingQuerySchema, response: { 200: examingResponseSchema } } },
    async (request, reply) => {
      reply.header('cache-control', NO_STORE);
      return service.examForTaking(deps, auth.userOf(request), request.query);
    },
  );

  // Hot paths: the session is checked inside the exam's own statement (no preHandler query).
  api.get(
    '/examing/get-time',
    { schema: { summary: 'Thời gian còn lại của bài thi', querystring: examTimeQuerySchema, response: { 200: examTimeResponseSchema }, security: BEARER } },
    async (request, reply) => {
      reply.header('cache-control', NO_STORE);
      return service.examTimes(deps, readBearerToken(request), request.query.exam_id);
    },
  );

  // The autosave is the exam day's most frequent request (docs/decisions/005-exam-save-path.md):
  // bodies and replies already in their final form skip Zod's work (fast-schema.ts; the rules are
  // still the Zod schemas'), and its replies are far below the compression threshold.
  api.post(
    '/store-answers-exam',
    {
      schema: { summary: 'Lưu đáp án trong lúc thi (tự động, thường xuyên)', body: saveAnswersBodySchema, response: { 200: saveAnswersResponseSchema }, security: BEARER },
      validatorCompiler: fastValidatorCompiler(saveAnswersBodySchema),
      serializerCompiler: fastSerializerCompiler(saveAnswersResponseSchema),
      compress: false,
    },
    async (request) => service.saveAnswers(deps, readBearerToken(request), request.body),
  );

  api.post(
    '/submit-exam',
    { preHandler: requireParent, schema: { summary: 'Nộp bài', body: submitExamBodySchema, response: { 200: submitExamResponseSchema } } },
    async (request) => service.submitExam(deps, auth.userOf(request), request.body),
  );

  api.get(
    '/exam-result',
    { preHandler: requireParent, schema: { summary: 'Kết quả của một lượt thi đã nộp', querystring: examResultQuerySchema, response: { 200: examResultResponseSchema } } },
    async (request, reply) => {
      reply.header('cache-control', NO_STORE);
      return service.examResult(deps, auth.userOf(request), request.query.slug);
    },
  );
}
