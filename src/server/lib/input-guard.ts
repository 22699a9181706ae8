// Control characters (NUL and the other C0/C1 codes but tab, line feed and carriage return) have
// no place in any text of the site, and PostgreSQL refuses NUL in text outright (a 500 before
// this guard). One check for every route, body, query and path alike: the offending field gets
// a 400 field error, so a new route is covered without remembering it.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { messages } from '../../shared/messages';
import type { FieldErrors } from './errors';

// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

/** The dotted path of the first string (or object key) holding a control character, if any. */
export function findControlCharacter(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return CONTROL_CHARACTER.test(value) ? path || '_' : undefined;
  if (value === null || typeof value !== 'object') return undefined;
  for (const [key, item] of Object.entries(value)) {
    const itemPath = path ? `${path}.${key}` : key;
    if (CONTROL_CHARACTER.test(key)) return itemPath;
    const found = findControlCharacter(item, itemPath);
    if (found) return found;
  }
  return undefined;
}

/** preValidation hook: refuses a request whose params, query or JSON body holds a control character. */
export async function refuseControlCharacters(request: FastifyRequest, reply: FastifyReply) {
  const field = findControlCharacter(request.params) ?? findControlCharacter(request.query) ?? findControlCharacter(request.body);
  if (!field) return;
  const errors: FieldErrors = { [field]: messages.controlCharacter };
  return reply
    .status(400)
    .send({ success: false, code: 'invalid_input', message: messages.controlCharacter, errors, request_id: request.id });
}
