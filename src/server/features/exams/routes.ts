// Exam routes (spec section 7). Thin: schema, guard, one service call, the reply in the spec's
// field names (the exam screen's replies shared with the practice round: core/paper/reply.ts).
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
  type SaveAnswersBody,
} from '../../../shared/schemas/exams';
import type { Services } from '../../services';
import type { Api } from '../../lib/api';
import { BEARER_SCHEME } from '../../lib/openapi';
import { readBearerToken } from '../../core/guard';
import { resultReply, saveReply, takingReply, timeReply } from '../../core/paper/reply';
import { requireParent } from '../../core/paper/rules';
import { examMessages } from '../../../shared/messages';
import { compileAsIsCheck, fastIdQueryCompiler, fastSerializer, fastSerializerCompiler, fastValidatorCompiler, idQueryReader } from './fast-schema';
import * as service from './service';

/** For the OpenAPI document: the hot paths below need the session token without a guard. */
const BEARER = [{ [BEARER_SCHEME]: [] }];

// Exam data is personal and changes with every save: never cached by a browser or a proxy.
const NO_STORE = 'no-store';

const iso = (date: Date) => date.toISOString();
const timeComplete = (durationSeconds: number) => ({
  time_complete_minutes: Math.floor(durationSeconds / 60),
  time_complete_seconds: durationSeconds % 60,
});

export function registerExamRoutes(api: Api, services: Services) {
  const { auth } = services;
  const deps = service.createExamDeps(services);
  const parentOnly = requireParent(auth);

  api.get(
    '/children/:id/books',
    { preHandler: parentOnly, schema: { summary: 'Sách mà thí sinh có thể thi', params: childBooksParamsSchema, response: { 200: childBooksResponseSchema } } },
    async (request) => ({
      success: true as const,
      data: await service.booksOfContestant(deps, auth.userOf(request), request.params.id),
    }),
  );

  // The start storm of an exam hour: the session is checked inside the start's own statement.
  api.post(
    '/start-exam',
    { schema: { summary: 'Bắt đầu một lượt thi (rút câu hỏi từ ngân hàng của sách)', body: startExamBodySchema, response: { 200: startExamResponseSchema }, security: BEARER } },
    async (request) => {
      const { book_id: bookId, child_id: childId } = request.body;
      const started = await service.startExam(deps, readBearerToken(request), bookId, childId);
      return {
        success: true as const,
        doing: false as const,
        message: examMessages.examStarted,
        slug: started.slug,
        exam_id: started.id,
        book_id: bookId,
        child_id: childId,
        start_time: iso(started.start_time),
        end_time: iso(started.end_time),
      };
    },
  );

  // Hot paths: the session is checked inside the exam's own statement (no preHandler query).
  api.get(
    '/examing',
    { schema: { summary: 'Bài thi đang làm: câu hỏi, đáp án đã chọn, thời gian còn lại', querystring: examingQuerySchema, response: { 200: examingResponseSchema }, security: BEARER } },
    async (request, reply) => {
      reply.header('cache-control', NO_STORE);
      const opened = await service.examForTaking(deps, readBearerToken(request), request.query);
      const { paper } = opened;
      return takingReply(opened, { attempt: paper.attempt, book: { id: paper.book_id, name: paper.book_name } });
    },
  );

  // The re-sync and the autosave are also served by the hot lane (core/hot-lane.ts) when they come
  // in their plain form: the same service call, predicates and reply; Fastify serves the rest.
  // Declared to the lane before their Fastify routes, which it hooks as they are registered.
  const hotHeaders = { 'cache-control': NO_STORE };
  const timeQuery = idQueryReader(examTimeQuerySchema);
  services.hotLane.route({
    method: 'GET',
    path: '/api/examing/get-time',
    readQuery: (search) => timeQuery.fromSearch(search),
    headers: hotHeaders,
    handle: async ({ token, query }) => timeReply(await service.examTimes(deps, token, (query as { exam_id: number }).exam_id)),
    serialize: fastSerializer(examTimeResponseSchema),
  });
  services.hotLane.route({
    method: 'POST',
    path: '/api/store-answers-exam',
    acceptsBody: compileAsIsCheck(saveAnswersBodySchema),
    handle: async ({ token, body }) => saveReply(await service.saveAnswers(deps, token, body as SaveAnswersBody)),
    serialize: fastSerializer(saveAnswersResponseSchema),
  });

  api.get(
    '/examing/get-time',
    // The re-sync of every exam screen each minute: its reply too is far below the compression threshold.
    {
      schema: { summary: 'Thời gian còn lại của bài thi', querystring: examTimeQuerySchema, response: { 200: examTimeResponseSchema }, security: BEARER },
      validatorCompiler: fastIdQueryCompiler(examTimeQuerySchema),
      serializerCompiler: fastSerializerCompiler(examTimeResponseSchema),
      compress: false,
    },
    async (request, reply) => {
      reply.header('cache-control', NO_STORE);
      return timeReply(await service.examTimes(deps, readBearerToken(request), request.query.exam_id));
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
    async (request) => saveReply(await service.saveAnswers(deps, readBearerToken(request), request.body)),
  );

  api.post(
    '/submit-exam',
    { preHandler: parentOnly, schema: { summary: 'Nộp bài', body: submitExamBodySchema, response: { 200: submitExamResponseSchema } } },
    async (request) => {
      const { paper: exam, alreadySubmitted } = await service.submitExam(deps, auth.userOf(request), request.body);
      return {
        success: true as const,
        submited: true as const,
        already_submitted: alreadySubmitted,
        message: alreadySubmitted ? examMessages.alreadySubmitted : examMessages.submitSuccess,
        data: { id: exam.id, slug: exam.slug, child_id: exam.contestant_id, points: exam.points ?? 0, ...timeComplete(exam.duration_seconds ?? 0) },
      };
    },
  );

  api.get(
    '/exam-result',
    { preHandler: parentOnly, schema: { summary: 'Kết quả của một lượt thi đã nộp', querystring: examResultQuerySchema, response: { 200: examResultResponseSchema } } },
    async (request, reply) => {
      reply.header('cache-control', NO_STORE);
      const { exam, key, rules, keysHiddenUntil } = await service.examResult(deps, auth.userOf(request), request.query.slug);
      return resultReply(
        exam,
        key,
        rules,
        {
          id: exam.id,
          attempt: exam.attempt,
          book: { id: exam.book_id, name: exam.book_name },
          points: exam.points ?? 0,
          ...timeComplete(exam.duration_seconds ?? 0),
          correct_answers_at: keysHiddenUntil?.toISOString() ?? null,
        },
        keysHiddenUntil !== null,
      );
    },
  );
}
