// Uploaded files kept in the database, addressed by the SHA-256 of their content (so app
// processes share them and keep no files of their own). Images are checked by content, not by
// name, and re-encoded for the web; audio clips must parse as audio (readAudio).
import { createHash } from 'node:crypto';
import { parseBuffer, type IFormat } from 'music-metadata';
import sharp from 'sharp';
import type { Db } from '../../db/client';
import { appError } from '../../lib/errors';
import { inputMessages } from '../../../shared/messages';

export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const MAX_AUDIO_BYTES = 5 * 1024 * 1024;

export const mediaMessages = {
  notImage: 'Tệp không phải ảnh JPEG, PNG hoặc WebP.',
  notAudio: inputMessages.notAudio,
  tooLarge: (mb: number) => `Tệp quá lớn: tối đa ${mb} MB.`,
} as const;

const refuse = (message: string) => appError('file_not_accepted', message, { file: message });

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

interface AudioKind {
  contentType: string;
  ext: string;
  /** What music-metadata must have read for a file of this signature to be that kind of audio. */
  parsed: (format: IFormat) => boolean;
}

const AUDIO_KINDS = {
  mp3: { contentType: 'audio/mpeg', ext: 'mp3', parsed: (format) => format.container === 'MPEG' && /Layer 3/.test(format.codec ?? '') },
  m4a: { contentType: 'audio/mp4', ext: 'm4a', parsed: (format) => Boolean(format.codec) && format.hasVideo !== true },
  ogg: { contentType: 'audio/ogg', ext: 'ogg', parsed: (format) => format.container === 'Ogg' && /^(Opus|Vorbis)/i.test(format.codec ?? '') },
  webm: { contentType: 'audio/webm', ext: 'webm', parsed: (format) => /webm/i.test(format.container ?? '') && Boolean(format.codec) && format.hasVideo !== true },
  wav: { contentType: 'audio/wav', ext: 'wav', parsed: (format) => format.container === 'WAVE' && Boolean(format.codec) },
} satisfies Record<string, AudioKind>;

/** The kind a clip claims by its first bytes (MP3, M4A, Ogg, WebM, WAV), or undefined. Not proof: see readAudio. */
export function audioSignatureOf(bytes: Buffer): keyof typeof AUDIO_KINDS | undefined {
  const text = (from: number, to: number) => bytes.subarray(from, to).toString('latin1');
  if (text(0, 3) === 'ID3' || mpegFrameLength(bytes, 0) !== undefined) return 'mp3';
  if (text(4, 8) === 'ftyp') return 'm4a';
  if (text(0, 4) === 'OggS') return 'ogg';
  if (bytes.subarray(0, 4).equals(EBML_MAGIC)) return 'webm';
  if (text(0, 4) === 'RIFF' && text(8, 12) === 'WAVE') return 'wav';
  return undefined;
}
const EBML_MAGIC = Buffer.from([0x1a, 0x45, 0xdf, 0xa3]);

/**
 * A clip is audio when its container parses (music-metadata) into the kind its signature claims,
 * with a duration; an MP3 also needs consecutive frames after its optional ID3 tag, since a file
 * of anything (an HTML page) can start with "ID3". Returns its type and duration in seconds.
 */
export async function readAudio(bytes: Buffer): Promise<{ contentType: string; ext: string; seconds: number } | undefined> {
  const signature = audioSignatureOf(bytes);
  if (!signature) return undefined;
  if (signature === 'mp3' && !hasMpegFrames(bytes)) return undefined;
  const kind: AudioKind = AUDIO_KINDS[signature];
  let format: IFormat;
  try {
    ({ format } = await parseBuffer(bytes, { size: bytes.length }, { duration: true, skipCovers: true, skipPostHeaders: true }));
  } catch {
    return undefined;
  }
  const seconds = format.duration;
  if (!kind.parsed(format) || seconds === undefined || !Number.isFinite(seconds) || seconds <= 0) return undefined;
  return { contentType: kind.contentType, ext: kind.ext, seconds };
}

/** An uploaded audio clip (MP3, M4A, Ogg, WebM or WAV that parses, with a duration), stored as it is. 422 for anything else. */
export async function storeAudio(db: Db, bytes: Buffer): Promise<string> {
  if (bytes.length > MAX_AUDIO_BYTES) throw refuse(mediaMessages.tooLarge(MAX_AUDIO_BYTES / 1024 / 1024));
  const audio = await readAudio(bytes);
  if (!audio) throw refuse(mediaMessages.notAudio);
  return storeMedia(db, bytes, audio.contentType, audio.ext);
}

// MPEG audio Layer III frames ------------------------------------------------------------------
// Kilobits per second by bitrate index, for MPEG-1 and for MPEG-2/2.5; samples per second by
// sample-rate index, per version (bits of the header: 3 = MPEG-1, 2 = MPEG-2, 0 = MPEG-2.5).
const BITRATES_V1 = [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const BITRATES_V2 = [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160];
const SAMPLE_RATES: Record<number, number[]> = { 3: [44100, 48000, 32000], 2: [22050, 24000, 16000], 0: [11025, 12000, 8000] };
const FRAMES_IN_A_ROW = 3;
/** How far after the ID3 tag the first frame may start (encoders pad). */
const FIRST_FRAME_WITHIN = 64 * 1024;

/** The length of the Layer III frame whose header is at `at`, or undefined when none is there. */
function mpegFrameLength(bytes: Buffer, at: number): number | undefined {
  if (at + 4 > bytes.length || bytes[at] !== 0xff) return undefined;
  const b1 = bytes[at + 1]!;
  const b2 = bytes[at + 2]!;
  const version = (b1 >> 3) & 3;
  const layer = (b1 >> 1) & 3;
  const bitrateIndex = b2 >> 4;
  const sampleRate = SAMPLE_RATES[version]?.[(b2 >> 2) & 3];
  if ((b1 & 0xe0) !== 0xe0 || layer !== 1 || !sampleRate || bitrateIndex === 0 || bitrateIndex === 15) return undefined;
  const kbps = (version === 3 ? BITRATES_V1 : BITRATES_V2)[bitrateIndex]!;
  const padding = (b2 >> 1) & 1;
  return Math.floor(((version === 3 ? 144 : 72) * kbps * 1000) / sampleRate) + padding;
}

/** Whether FRAMES_IN_A_ROW frames follow one another somewhere just after the optional ID3v2 tag. */
function hasMpegFrames(bytes: Buffer): boolean {
  let start = 0;
  if (bytes.subarray(0, 3).toString('latin1') === 'ID3' && bytes.length >= 10) {
    // The tag's size: four 7-bit bytes, plus its header and the footer when its flag says so.
    const size = ((bytes[6]! & 0x7f) << 21) | ((bytes[7]! & 0x7f) << 14) | ((bytes[8]! & 0x7f) << 7) | (bytes[9]! & 0x7f);
    start = 10 + size + (bytes[5]! & 0x10 ? 10 : 0);
  }
  const end = Math.min(bytes.length, start + FIRST_FRAME_WITHIN);
  for (let at = start; at < end; at += 1) {
    let next = at;
    let frames = 0;
    for (let length = mpegFrameLength(bytes, next); length !== undefined && frames < FRAMES_IN_A_ROW; length = mpegFrameLength(bytes, next)) {
      frames += 1;
      next += length;
    }
    if (frames >= FRAMES_IN_A_ROW) return true;
  }
  return false;
}

export const findMedia = (db: Db, sha256: string) =>
  db.selectFrom('media').select(['content_type', 'ext', 'bytes']).where('sha256', '=', sha256).executeTakeFirst();
