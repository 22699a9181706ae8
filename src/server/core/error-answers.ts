// Every error the server sends has one shape: {success:false, code, message, errors?, request_id}.
// This module turns each kind of failure into it: our AppError, a schema validation failure,
// Fastify's own errors (bad JSON, body too large, bad URL encoding, handler timeout), a database
// that is away (503: try again), a bug (500, details only in the log), and the HTTP parser's own
// refusals (header too large, malformed request) that never reach Fastify's routing.
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { statusOf, type ErrorCode } from '../../shared/error-codes';
import { messages } from '../../shared/messages';
import { seasonMessages } from '../../shared/messages/seasons';
import { isConnectionError, pastSeasonOf } from '../db/errors';
import { AppError, type FieldErrors, type RowProblems } from '../lib/errors';

/** Seconds a client should wait before retrying a 503 (jittered on the client). */
export const RETRY_AFTER_SECONDS = 2;

export interface ErrorBody {
  success: false;
  code: ErrorCode;
  message: string;
  errors?: FieldErrors | RowProblems;
  request_id?: string;
  [extra: string]: unknown;
}

type UnavailableCode = 'service_unavailable' | 'request_timeout';

/** The body of a 503 "come back shortly" (load shed, database away, timeout): one shape for every layer that answers it. */
export const unavailableBody = (requestId: string, code: UnavailableCode = 'service_unavailable'): ErrorBody => ({
  success: false,
  code,
  message: messages.serviceUnavailable,
  request_id: requestId,
});

/** Sets a 503 that tells the client to come back shortly (load shed, database away, timeout); returns its body. */
export function unavailable(request: FastifyRequest, reply: FastifyReply, code: UnavailableCode = 'service_unavailable'): ErrorBody {
  reply.status(statusOf(code)).header('retry-after', String(RETRY_AFTER_SECONDS));
  return unavailableBody(request.id, code);
}

export const sendUnavailable = (request: FastifyRequest, reply: FastifyReply, code?: UnavailableCode) =>
  reply.send(unavailable(request, reply, code));

/** Fastify's and its plugins' client errors by status (@fastify/static's `send`: 403, 412, 416). */
const CLIENT_ERROR_CODES: Record<number, [ErrorCode, string]> = {
  403: ['forbidden', messages.forbidden],
  404: ['not_found', messages.apiNotFound],
  412: ['precondition_failed', messages.preconditionFailed],
  416: ['range_not_satisfiable', messages.rangeNotSatisfiable],
  413: ['payload_too_large', messages.payloadTooLarge],
  415: ['unsupported_media_type', messages.unsupportedMediaType],
  429: ['too_many_requests', messages.tooManyRequests],
};

/** An error answer: its status, its body, and whether it asks the client to retry (Retry-After). */
export interface ErrorAnswer {
  status: number;
  body: ErrorBody;
  retryAfter: boolean;
}

interface Log {
  info(object: object | string, message?: string): void;
  warn(object: object | string, message?: string): void;
  error(object: object | string, message?: string): void;
}

/**
 * The answer to an error thrown by a route or a framework (all but a schema's validation errors):
 * ours (AppError), a past season's write, a database that is away (503), a timeout, a bug (500,
 * details only in the log), Fastify's own client errors by status. Shared by Fastify's error handler
 * and the hot lane (core/hot-lane.ts), so that both answer an error alike.
 */
export function answerOfError(error: FastifyError | AppError | Error, requestId: string, log: Log, clientGone = false): ErrorAnswer {
  const answer = (status: number, body: ErrorBody, retryAfter = false): ErrorAnswer => ({ status, body, retryAfter });
  if (error instanceof AppError) {
    return answer(
      error.status,
      {
        success: false,
        code: error.code,
        message: error.message,
        ...(error.errors ? { errors: error.errors } : {}),
        ...error.extra,
        request_id: requestId,
      },
      error.status === 503,
    );
  }
  const pastSeason = pastSeasonOf(error);
  if (pastSeason !== undefined) {
    return answer(statusOf('season_read_only'), { success: false, code: 'season_read_only', message: seasonMessages.readOnly(pastSeason), request_id: requestId });
  }
  // The client's own connection closed under its request (Node's "aborted", ECONNRESET: a body
  // cut off, or one too slow, closed by the server): not the database's; nobody reads an answer.
  if (clientGone && (error as { code?: string }).code === 'ECONNRESET') {
    log.info('client connection closed before its request was read');
    return answer(statusOf('client_closed_request'), { success: false, code: 'client_closed_request', message: messages.clientGone, request_id: requestId });
  }
  const unavailableAnswer = (code: UnavailableCode) => answer(statusOf(code), unavailableBody(requestId, code), true);
  if (isConnectionError(error)) {
    log.warn({ err: error }, 'database unavailable');
    return unavailableAnswer('service_unavailable');
  }
  const fastifyError = error as FastifyError;
  if (fastifyError.code === 'FST_ERR_HANDLER_TIMEOUT') {
    log.warn('request timed out');
    return unavailableAnswer('request_timeout');
  }
  const status = fastifyError.statusCode ?? 500;
  if (status >= 500) {
    log.error({ err: error }, 'request failed');
    return answer(statusOf('server_error'), { success: false, code: 'server_error', message: messages.serverError, request_id: requestId });
  }
  // Fastify's own client errors: malformed JSON, body too large, wrong content type, bad URL...
  // Answered with their code's status: any other 4xx is a request we cannot read, a 400.
  const [code, message] = CLIENT_ERROR_CODES[status] ?? ['bad_request', messages.invalidInput];
  return answer(statusOf(code), { success: false, code, message, request_id: requestId });
}

export function handleError(error: FastifyError | AppError | Error, request: FastifyRequest, reply: FastifyReply) {
  if (hasZodFastifySchemaValidationErrors(error)) {
    const errors: FieldErrors = {};
    for (const issue of error.validation) {
      const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
      // An unknown field is reported on its object: the field's own name is the key.
      const unknown = issue.keyword === 'unrecognized_keys' && Array.isArray(issue.params?.keys) ? String(issue.params.keys[0]) : undefined;
      const field = unknown !== undefined ? (path ? `${path}.${unknown}` : unknown) : path || String(issue.params?.missingProperty ?? '_');
      errors[field] ??= issue.message ?? messages.invalidInput;
    }
    const first = Object.values(errors)[0];
    return reply
      .status(statusOf('invalid_input'))
      .send({ success: false, code: 'invalid_input', message: first ?? messages.invalidInput, errors, request_id: request.id } satisfies ErrorBody);
  }
  const { status, body, retryAfter } = answerOfError(error, request.id, request.log, request.raw.socket?.destroyed === true);
  if (retryAfter) reply.header('retry-after', String(RETRY_AFTER_SECONDS));
  return reply.status(status).send(body);
}

/**
 * Requests the HTTP parser refuses before Fastify sees them (headers over 16 KB, a malformed
 * request line, a client too slow to send its request): answered in the same JSON shape, with a
 * request id of their own that is also in the log, then the connection is closed. Fastify calls
 * this with itself as `this` (its logger); a reset connection has nobody to answer.
 */
export function handleClientError(this: { log?: { info(object: object, message: string): void } } | undefined, error: Error & { code?: string }, socket: Socket) {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  // Not writable, or an answer already begun on it: nothing more can be said, only closed.
  if (!socket.writable || (socket as Socket & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage?.headersSent) return socket.destroy();
  const [status, reason, code, message]: [number, string, ErrorCode, string] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [statusOf('header_too_large'), 'Request Header Fields Too Large', 'header_too_large', messages.payloadTooLarge]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [statusOf('request_too_slow'), 'Request Timeout', 'request_too_slow', messages.requestBodyTimeout]
        : [statusOf('bad_request'), 'Bad Request', 'bad_request', messages.invalidInput];
  const requestId = crypto.randomUUID();
  this?.log?.info({ request_id: requestId, status, parser_error: error.code }, 'request refused by the HTTP parser');
  const body = JSON.stringify({ success: false, code, message, request_id: requestId } satisfies ErrorBody);
  // Closed both ways once the answer is written: end() alone would leave it open for reading, and
  // a client still sending its slow body would keep it (issue 35).
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `X-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    () => socket.destroy(),
  );
}
