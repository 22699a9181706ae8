// Practice round routes (issue 14, /api/practice). Thin: schema, guard, one service call, the
// reply (the exam screen's shared with the exam: core/paper/reply.ts).
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
import { practiceMessages } from '../../../shared/messages';
import type { Api } from '../../lib/api';
import { BEARER_SCHEME } from '../../lib/openapi';
import type { Services } from '../../services';
import { readBearerToken } from '../../core/guard';
import { resultReply, saveReply, takingReply, timeReply } from '../../core/paper/reply';
import { requireParent } from '../../core/paper/rules';
import * as service from './service';

// Personal and changing with every save: never cached by a browser or a proxy.
const NO_STORE = 'no-store';
/** For the OpenAPI document: the round's load needs the session token without a guard. */
const BEARER = [{ [BEARER_SCHEME]: [] }];
const iso = (date: Date) => date.toISOString();

export function registerPracticeRoutes(api: Api, services: Services) {
  const { auth } = services;
  const parentOnly = requireParent(auth);

  api.get(
    '/practice/status',
    { preHandler: parentOnly, schema: { summary: 'Thi thử: các thí sinh của tài khoản, số câu thi thử, bài thi thử đang làm', response: { 200: practiceStatusResponseSchema } } },
    async (request, reply) => {
      reply.header('cache-control', NO_STORE);
      return { success: true as const, data: await service.practiceStatus(services, auth.userOf(request)) };
    },
  );

  api.post(
    '/practice/start',
    { preHandler: parentOnly, schema: { summary: 'Bắt đầu một bài thi thử (không tính lượt thi)', body: practiceStartBodySchema, response: { 200: practiceStartResponseSchema } } },
    async (request) => {
      const started = await service.startPractice(services, auth.userOf(request), request.body.child_id);
      return {
        success: true as const,
        message: practiceMessages.started,
        slug: started.slug,
        practice_id: started.id,
        child_id: request.body.child_id,
        question_count: started.question_count,
        start_time: iso(started.start_time),
        end_time: iso(started.end_time),
      };
    },
  );

  api.get(
    '/practice/exams/:slug',
    // The session is checked inside the round's own statement, as for the exam (no preHandler query).
    { schema: { summary: 'Bài thi thử đang làm: câu hỏi, đáp án đã chọn, thời gian', params: practiceSlugParamsSchema, response: { 200: practiceExamResponseSchema }, security: BEARER } },
    async (request, reply) => {
      reply.header('cache-control', NO_STORE);
      const opened = await service.practiceForTaking(services, readBearerToken(request), request.params.slug);
      const { paper } = opened;
      // The exam screen's shape: attempt 0 and the contestant's group instead of a book.
      return takingReply(opened, { attempt: 0, book: { id: 0, name: practiceMessages.bookName(paper.group_name, paper.group_grades) } });
    },
  );

  api.get(
    '/practice/exams/:slug/time',
    { preHandler: parentOnly, schema: { summary: 'Thời gian còn lại của bài thi thử', params: practiceSlugParamsSchema, response: { 200: practiceTimeResponseSchema } } },
    async (request, reply) => {
      reply.header('cache-control', NO_STORE);
      return timeReply(await service.practiceTime(services, auth.userOf(request), request.params.slug));
    },
  );

  api.post(
    '/practice/exams/:slug/answers',
    { preHandler: parentOnly, schema: { summary: 'Lưu đáp án của bài thi thử', params: practiceSlugParamsSchema, body: practiceSaveBodySchema, response: { 200: practiceSaveResponseSchema } } },
    async (request) => saveReply(await service.savePractice(services, auth.userOf(request), request.params.slug, request.body)),
  );

  api.post(
    '/practice/exams/:slug/submit',
    { preHandler: parentOnly, schema: { summary: 'Nộp bài thi thử', params: practiceSlugParamsSchema, body: practiceSaveBodySchema, response: { 200: practiceSubmitResponseSchema } } },
    async (request) => {
      const { paper: practice, alreadySubmitted } = await service.submitPractice(services, auth.userOf(request), request.params.slug, request.body);
      return {
        success: true as const,
        submited: true as const,
        already_submitted: alreadySubmitted,
        message: alreadySubmitted ? practiceMessages.alreadySubmitted : practiceMessages.submitted,
        data: { slug: practice.slug, child_id: practice.contestant_id, correct_count: practice.correct_count ?? 0, question_count: practice.questions.length },
      };
    },
  );

  api.get(
    '/practice/exams/:slug/result',
    { preHandler: parentOnly, schema: { summary: 'Kết quả bài thi thử: đáp án em chọn và đáp án đúng', params: practiceSlugParamsSchema, response: { 200: practiceResultResponseSchema } } },
    async (request, reply) => {
      reply.header('cache-control', NO_STORE);
      const practice = await service.practiceResult(services, auth.userOf(request), request.params.slug);
      // Practice is never regraded: one correct answer a question, no note.
      return resultReply(practice, practice.answer_key, undefined, { question_count: practice.questions.length });
    },
  );
}
