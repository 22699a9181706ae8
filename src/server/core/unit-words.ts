// Error answers in the words of the current season's unit level (issue 36, decision 037). Every
// message catalogue is written for the specification's districts ('Huyện là bắt buộc.', "quận/
// huyện"); a season that names communes says "Xã/Phường" instead. One hook for every refusal the
// API sends (a schema's 400, a service's 409 or 422, an import's row problems), so no service has
// to carry the level: the level is read only when an error answer names the unit at all.
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client';
import { mentionsUnit, relabelUnit, type UnitLevel } from '../../shared/unit-level';
import { getCurrentContest } from './contest';

type Problem = { row: number; column: string; message: string };
type ErrorBody = { success: false; message?: unknown; errors?: unknown };

const isErrorBody = (payload: unknown): payload is ErrorBody =>
  typeof payload === 'object' && payload !== null && (payload as { success?: unknown }).success === false;

/** The texts of an error answer a person reads: its message, its field errors, its row problems' columns and messages. */
function textsOf(body: ErrorBody): string[] {
  const texts = typeof body.message === 'string' ? [body.message] : [];
  if (Array.isArray(body.errors)) for (const problem of body.errors as Problem[]) texts.push(String(problem.column), String(problem.message));
  else if (body.errors && typeof body.errors === 'object') texts.push(...Object.values(body.errors as Record<string, unknown>).map(String));
  return texts;
}

/** `body` said for `level`. */
export function relabelErrorBody<T extends ErrorBody>(body: T, level: UnitLevel): T {
  const say = (text: unknown) => (typeof text === 'string' ? relabelUnit(text, level) : text);
  const errors = Array.isArray(body.errors)
    ? (body.errors as Problem[]).map((problem) => ({ ...problem, column: say(problem.column), message: say(problem.message) }))
    : body.errors && typeof body.errors === 'object'
      ? Object.fromEntries(Object.entries(body.errors as Record<string, unknown>).map(([key, text]) => [key, say(text)]))
      : body.errors;
  return { ...body, message: say(body.message), ...(body.errors === undefined ? {} : { errors }) };
}

export function registerUnitWords(api: FastifyInstance, db: Db) {
  api.addHook('preSerialization', async (_request, reply, payload: unknown) => {
    if (reply.statusCode < 400 || !isErrorBody(payload) || !textsOf(payload).some(mentionsUnit)) return payload;
    // A database that is away leaves the specification's words: the refusal itself matters more.
    const level = await getCurrentContest(db).then((contest) => contest?.unit_level, () => undefined);
    return level && level !== 'district' ? relabelErrorBody(payload, level) : payload;
  });
}
