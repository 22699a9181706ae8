// Uploaded files kept in the database, addressed by the SHA-256 of their content (so app
// processes share them and keep no files of their own). Images are checked by content, not by
// name, and re-encoded for the web; audio clips are checked by their signature.
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import type { Db } from '../../db/client';
import { unprocessable } from '../../lib/errors';

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const MAX_AUDIO_BYTES = 5 * 1024 * 1024;

export const mediaMessages = {
  notImage: 'Tệp không phải ảnh JPEG, PNG hoặc WebP.',
  notAudio: 'Tệp không phải âm thanh MP3, OGG hoặc M4A.',
  tooLarge: (mb: number) => `Tệp quá lớn: tối đa ${mb} MB.`,
} as const;

const refuse = (message: string) => unprocessable(message, 'unsupported_media_type', { file: message });

/** Stores the bytes (once per content) and returns the path they are served at. */
export async function storeMedia(db: Db, bytes: Buffer, contentType: string, ext: string): Promise<string> {
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  await db
    .insertInto('media')
    .values({ sha256, content_type: contentType, ext, byte_size: bytes.length, bytes })
    .onConflict((oc) => oc.column('sha256').doNothing())
    .execute();
  return `/api/media/${sha256}.${ext}`;
}

/**
 * An uploaded image (JPEG, PNG, WebP, by content) re-encoded as WebP, at most `maxWidth` wide:
 * metadata dropped, nothing of the original file served. 422 for anything else.
 */
export async function storeImage(db: Db, bytes: Buffer, { maxWidth = 800 }: { maxWidth?: number } = {}): Promise<string> {
  if (bytes.length > MAX_IMAGE_BYTES) throw refuse(mediaMessages.tooLarge(MAX_IMAGE_BYTES / 1024 / 1024));
  let webp: Buffer;
  try {
    const image = sharp(bytes, { limitInputPixels: 40_000_000 });
    const { format } = await image.metadata();
    if (!format || !['jpeg', 'png', 'webp'].includes(format)) throw new Error(`format ${format}`);
    webp = await image.rotate().resize({ width: maxWidth, withoutEnlargement: true }).webp({ quality: 80 }).toBuffer();
  } catch {
    throw refuse(mediaMessages.notImage);
  }
  return storeMedia(db, webp, 'image/webp', 'webp');
}

/** The audio type of a clip by its signature (MP3, Ogg, MP4/M4A), or undefined. */
export function audioTypeOf(bytes: Buffer): { contentType: string; ext: string } | undefined {
  if (bytes.subarray(0, 3).toString('latin1') === 'ID3' || (bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0)) {
    return { contentType: 'audio/mpeg', ext: 'mp3' };
  }
  if (bytes.subarray(0, 4).toString('latin1') === 'OggS') return { contentType: 'audio/ogg', ext: 'ogg' };
  if (bytes.subarray(4, 8).toString('latin1') === 'ftyp') return { contentType: 'audio/mp4', ext: 'm4a' };
  return undefined;
}

/** An uploaded audio clip (MP3, OGG or M4A, by content), stored as it is. 422 for anything else. */
export async function storeAudio(db: Db, bytes: Buffer): Promise<string> {
  if (bytes.length > MAX_AUDIO_BYTES) throw refuse(mediaMessages.tooLarge(MAX_AUDIO_BYTES / 1024 / 1024));
  const type = audioTypeOf(bytes);
  if (!type) throw refuse(mediaMessages.notAudio);
  return storeMedia(db, bytes, type.contentType, type.ext);
}

export const findMedia = (db: Db, sha256: string) =>
  db.selectFrom('media').select(['content_type', 'ext', 'bytes']).where('sha256', '=', sha256).executeTakeFirst();
