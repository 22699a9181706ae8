// Reading a multipart upload (one file in field `file`, plus form fields): the size is capped
// while the file streams in, so an oversize file is refused before anything parses it.
import type { Socket } from 'node:net';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { FastifyRequest } from 'fastify';
import { importMessages } from '../../../shared/schemas/admin';
import { AppError, unprocessable } from '../../lib/errors';
import { cleanFileName } from '../../lib/file-names';

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

const refuse = (message: string) => unprocessable(message, 'import_invalid', []);

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Marks a multipart upload route (file in field `file`) for the OpenAPI document, with its
     * other form fields and what they mean. Such a route has no body schema: readUpload reads it.
     */
    upload?: { fields?: Record<string, string>; accept?: string };
  }
}

/** The request's file and fields; a 422 (errors: []) when there is no file or it is over `maxBytes`. */
export async function readUpload(request: FastifyRequest, { maxBytes }: { maxBytes: number }): Promise<Upload> {
  if (!request.isMultipart()) throw refuse(importMessages.noFile);
  const fields: Record<string, string> = {};
  let file: Omit<Upload, 'fields'> | undefined;
  try {
    for await (const part of request.parts({ limits: { fileSize: maxBytes, files: 1, fields: 20, fieldSize: 10_000 } })) {
      if (part.type === 'file') {
        const bytes = await part.toBuffer();
        if (part.fieldname === 'file') file = { fileName: cleanFileName(part.filename), mimeType: part.mimetype, bytes };
      } else {
        fields[part.fieldname] = String(part.value ?? '');
      }
    }
  } catch (error) {
    // The client left before its file was in: nobody reads the answer. 499 (nginx's "client
    // closed request") keeps it out of the failures, and its ECONNRESET from "database unavailable".
    if (request.raw.aborted || request.raw.socket.destroyed) throw new AppError(499, 'bad_request', 'Kết nối đã đóng trước khi gửi xong tệp.');
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw refuse(importMessages.tooLarge(Math.round(maxBytes / 1024 / 1024)));
    if (code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') {
      throw refuse(importMessages.noFile);
    }
    throw error;
  }
  if (!file || file.bytes.length === 0) throw refuse(importMessages.noFile);
  return { ...file, fields, connection: request.raw.socket };
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
