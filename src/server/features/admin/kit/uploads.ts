// Reading a multipart upload (one file in field `file`, plus form fields). Each upload route
// declares its file's limit in its config (`upload.maxBytes`), and the body is bounded by it
// before and while it arrives (issue 35):
// - a Content-Length over the limit (plus the form's other fields) is a 413 before the body is read;
// - a file that grows past the limit (a chunked body) is refused as soon as it does (422), not at
//   its end; and any answer given before the body is all in closes the connection, so that the
//   rest is never read;
// - a body that is not multipart as it claims (no boundary, cut short) is a 400.
import type { Socket } from 'node:net';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { FastifyInstance, FastifyRequest, onRequestHookHandler, onSendHookHandler } from 'fastify';
import { messages } from '../../../../shared/messages';
import { importMessages } from '../../../../shared/schemas/admin';
import { appError } from '../../../lib/errors';
import { cleanFileName } from '../../../lib/file-names';

export interface Upload {
  fileName: string;
  /** What the browser said; never trusted alone (see fileKindOf). */
  mimeType: string;
  bytes: Buffer;
  /** The other form fields, as text. */
  fields: Record<string, string>;
  /** The client's connection: reading the file in a worker stops when it closes (file-reader.ts). */
  connection?: Socket;
}

const refuse = (message: string) => appError('import_invalid', message, []);

/** The form's other fields (at most FIELDS of FIELD_BYTES) and the multipart framing, on top of the file. */
const FIELDS = 20;
const FIELD_BYTES = 10_000;
const FORM_ALLOWANCE_BYTES = 256 * 1024;

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Marks a multipart upload route (file in field `file`) with its file's limit, and for the
     * OpenAPI document its other form fields and what they mean. Such a route has no body schema:
     * readUpload reads it.
     */
    upload?: { maxBytes: number; fields?: Record<string, string>; accept?: string };
  }
}

const megabytes = (bytes: number) => Math.round(bytes / 1024 / 1024);

/** A Content-Length the route's limit cannot hold: 413 before anything is read. */
const refuseDeclaredLength: onRequestHookHandler = (request, reply, done) => {
  const maxBytes = request.routeOptions.config.upload!.maxBytes;
  const length = Number(request.headers['content-length']);
  if (Number.isFinite(length) && length > maxBytes + FORM_ALLOWANCE_BYTES) {
    return done(appError('payload_too_large', messages.uploadTooLarge(megabytes(maxBytes))));
  }
  done();
};

/**
 * How long (ms) a connection closed under an unread body is still read from, and what it sends
 * discarded, after its answer: closing a socket with data still coming makes it reset the
 * connection, and a client busy sending may then lose the answer before it reads it (nginx's
 * lingering close, whose lingering_timeout is 5 s).
 */
const LINGER_MS = 2_000;

/**
 * An answer sent before the body has all arrived (refused, too large, not signed in) closes the
 * connection: Node would otherwise read the rest of the body, however large or slow, to keep it.
 */
const closeIfBodyUnread: onSendHookHandler = (request, reply, payload, done) => {
  if (!request.raw.complete) {
    reply.header('connection', 'close');
    lingerBeforeClosing(request.raw.socket);
  }
  done(null, payload);
};

/**
 * Node ends a "Connection: close" answer's socket with destroySoon() once the answer is written:
 * here that becomes "end our side, read on for LINGER_MS or until the client closes, then close".
 */
function lingerBeforeClosing(socket: Socket) {
  socket.destroySoon = () => {
    socket.end();
    const close = () => socket.destroy();
    const timer = setTimeout(close, LINGER_MS).unref();
    socket.once('end', close);
    socket.once('close', () => clearTimeout(timer));
  };
}

/** Gives every upload route of `scope` (routes with config.upload) its body bounds; call before the routes. */
export function registerUploadLimits(scope: FastifyInstance) {
  scope.addHook('onRoute', (route) => {
    if (!route.config?.upload) return;
    const asList = <T>(hooks: T | T[] | undefined): T[] => (hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks]);
    route.onRequest = [...asList(route.onRequest), refuseDeclaredLength];
    route.onSend = [closeIfBodyUnread, ...asList(route.onSend)];
  });
}

/**
 * The request's file and fields, within the route's `upload.maxBytes`: a 422 (errors: []) when
 * there is no file or it is over the limit, a 400 when the body is not the multipart it claims.
 */
export async function readUpload(request: FastifyRequest): Promise<Upload> {
  const maxBytes = request.routeOptions.config.upload?.maxBytes;
  if (!maxBytes) throw new Error(`readUpload on ${request.routeOptions.url}, a route without config.upload.maxBytes`);
  if (!request.isMultipart()) throw refuse(importMessages.noFile);
  const fields: Record<string, string> = {};
  let file: Omit<Upload, 'fields'> | undefined;
  try {
    for await (const part of request.parts({ limits: { fileSize: maxBytes, files: 1, fields: FIELDS, fieldSize: FIELD_BYTES } })) {
      if (part.type === 'file') {
        const bytes = await fileWithin(part.file, part.toBuffer());
        if (part.fieldname === 'file') file = { fileName: cleanFileName(part.filename), mimeType: part.mimetype, bytes };
      } else {
        fields[part.fieldname] = String(part.value ?? '');
      }
    }
  } catch (error) {
    // The client left before its file was in: nobody reads the answer. 499 (nginx's "client
    // closed request") keeps it out of the failures, and its ECONNRESET from "database unavailable".
    if (request.raw.aborted || request.raw.socket.destroyed) throw appError('client_closed_request', messages.clientGoneBeforeUpload);
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw refuse(importMessages.tooLarge(megabytes(maxBytes)));
    if (code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') {
      throw refuse(importMessages.noFile);
    }
    // Anything else the multipart reader (busboy) raises is a body that is not what it claims:
    // "Multipart: Boundary not found", "Unexpected end of form", "Malformed part header"...
    request.log.info({ err: error }, 'malformed multipart body');
    throw appError('bad_request', messages.malformedUpload);
  }
  if (!file || file.bytes.length === 0) throw refuse(importMessages.noFile);
  return { ...file, fields, connection: request.raw.socket };
}

/**
 * The file's bytes, or FST_REQ_FILE_TOO_LARGE as soon as it passes the limit (busboy's 'limit'),
 * not when its part ends: the rest of a chunked body is then never read (closeIfBodyUnread).
 */
function fileWithin(stream: NodeJS.ReadableStream, buffered: Promise<Buffer>): Promise<Buffer> {
  // Settled later, when the connection closes: nobody waits for it then.
  buffered.catch(() => {});
  return new Promise<Buffer>((resolve, reject) => {
    stream.once('limit', () => reject(Object.assign(new Error('file over the limit'), { code: 'FST_REQ_FILE_TOO_LARGE' })));
    buffered.then(resolve, reject);
  });
}

/** `dry_run` form field: "1"/"true" for a preview. */
export const isDryRun = (fields: Record<string, string>) => fields.dry_run === '1' || fields.dry_run === 'true';

export type FileKind = 'xlsx' | 'csv' | 'txt';

/**
 * What the file is, by its content first (an .xlsx is a zip), then its name. Undefined for
 * anything else (an old .xls, a PDF, an image).
 */
export function fileKindOf(upload: Pick<Upload, 'fileName' | 'bytes'>): FileKind | undefined {
  const name = upload.fileName.toLowerCase();
  const isZip = upload.bytes.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
  if (isZip) return name.endsWith('.xlsx') || !/\.[a-z0-9]+$/.test(name) ? 'xlsx' : undefined;
  // Old binary Excel (OLE2), PDF, images and other binaries contain NUL bytes; text does not.
  if (upload.bytes.subarray(0, 4096).includes(0)) return undefined;
  if (name.endsWith('.csv')) return 'csv';
  if (name.endsWith('.txt') || name.endsWith('.gift') || name.endsWith('.aiken')) return 'txt';
  return undefined;
}

/**
 * The file as NFC UTF-8 text (a BOM dropped), in pieces of about `sliceBytes` that each end after
 * a line feed, with the event loop served between pieces (10 MB in one call holds the process for
 * about half a second), or a 422 saying how to save it as UTF-8 when a byte is not UTF-8. NFC never
 * joins characters across a line break.
 */
// 64 KB: decoding and normalising a 256 KB piece was one of the longest slices of a 9.5 MB GIFT
// import in a CPU profile (bench:imports), and exam saves of the same process wait behind it.
export async function* utf8Pieces(bytes: Buffer, sliceBytes = 64 * 1024): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  for (let start = 0; start < bytes.length; ) {
    let end = Math.min(start + sliceBytes, bytes.length);
    const newline = end < bytes.length ? bytes.lastIndexOf(0x0a, end - 1) : -1;
    if (newline >= start) end = newline + 1;
    let piece: string;
    try {
      piece = decoder.decode(bytes.subarray(start, end), { stream: end < bytes.length }).normalize('NFC');
    } catch {
      throw refuse(importMessages.notUtf8);
    }
    yield piece;
    start = end;
    if (start < bytes.length) await yieldToEventLoop();
  }
}

/**
 * The whole file's pieces (utf8Pieces), never joined into one string: joining 10 MB of
 * Vietnamese text alone holds the event loop for a quarter of a second.
 */
export async function decodeUtf8(bytes: Buffer): Promise<string[]> {
  const pieces: string[] = [];
  for await (const piece of utf8Pieces(bytes)) pieces.push(piece);
  return pieces;
}
