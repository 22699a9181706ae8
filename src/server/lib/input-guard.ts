// Guards on every request's input, before any route's schema sees it:
// - JSON bodies nest no deeper than MAX_JSON_DEPTH. No form of the site nests more than a few
//   levels, and deep nesting only makes every later walk over the value (a schema, the check
//   below, secure-json-parse's prototype scan) expensive or a stack overflow: a 500 before this
//   guard. The text is measured before it is parsed, in one pass without recursion, so even a
//   megabyte of '[' (which JSON.parse itself may refuse with a RangeError) is a plain 400.
// - Control characters (NUL and the other C0/C1 codes but tab, line feed and carriage return)
//   have no place in any text of the site, and PostgreSQL refuses NUL in text outright. One check
//   for every route, body, query and path alike: the offending field gets a 400 field error, so
//   a new route is covered without remembering it.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { inputMessages, messages } from '../../shared/messages';
import { appError, type FieldErrors } from './errors';

/** Deepest nesting of arrays and objects a JSON body may have. */
export const MAX_JSON_DEPTH = 64;

/** Whether the JSON text nests arrays and objects at most `max` deep (brackets inside strings do not count). */
export function jsonDepthWithin(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i += 1; // a backslash: the next character is escaped
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth += 1;
      if (depth > max) return false;
    } else if (c === 0x5d || c === 0x7d) depth -= 1;
  }
  return true;
}

/** Replaces Fastify's JSON parser by the same one (prototype poisoning refused) behind the depth check. */
export function registerJsonParser(app: FastifyInstance) {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (!jsonDepthWithin(body as string)) {
      done(appError('invalid_input', inputMessages.tooDeep), undefined);
      return;
    }
    parseJson(request, body as string, done);
  });
}

// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/;

/**
 * The dotted path of the first string (or object key) holding a control character, if any.
 * A walk with its own stack, not recursion: however deep a value is, it cannot overflow.
 */
export function findControlCharacter(value: unknown): string | undefined {
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length > 0) {
    const [item, path] = stack.pop()!;
    if (typeof item === 'string') {
      if (CONTROL_CHARACTER.test(item)) return path || '_';
      continue;
    }
    if (item === null || typeof item !== 'object') continue;
    const entries = Object.entries(item);
    // Pushed last first, so that the first offending field in document order is the one named.
    for (let i = entries.length - 1; i >= 0; i -= 1) {
      const [key, child] = entries[i]!;
      const childPath = path ? `${path}.${key}` : key;
      if (CONTROL_CHARACTER.test(key)) return childPath;
      stack.push([child, childPath]);
    }
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
