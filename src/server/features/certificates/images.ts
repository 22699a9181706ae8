// The organiser's signature and seal (issue 37): PNG images with transparency uploaded in the site
// settings, checked by content, kept in the media store (by SHA-256) and printed on every
// certificate. The certificate's content names the images it prints (sha256 and size), so a new
// upload changes every content: the certificates are drawn again, as after a rename.
import { deflateSync } from 'node:zlib';
import type { Metadata } from 'sharp';
import sharp from 'sharp';
import type { Db } from '../../db/client';
import { appError } from '../../lib/errors';
import { certificateImageMessages, type CertificateImageKind, type CertificateImagesResponse } from '../../../shared/schemas/certificate-printing';
import { formatDateTime } from '../../../shared/format';
import { storeMedia } from '../media';
import type { CertificateImageRef } from './content';

export const CERTIFICATE_IMAGE_MAX_BYTES = 1024 * 1024;
export const CERTIFICATE_IMAGE_MAX_SIDE = 2000;
/** Kept at most this long on its longer side: 800 px over the 170 pt of the signature's box is ~340 dpi. */
const STORED_MAX_SIDE = 800;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const refuse = (message: string) => appError('file_not_accepted', message, { file: message });

/**
 * An uploaded signature or seal: a PNG (by its first bytes and its decoding, not its name), at most
 * 1 MB and 2000 x 2000 px, with an alpha channel. Returned re-encoded (metadata dropped, at most
 * 800 px on its longer side) with its size; a 422 with the reason otherwise.
 */
export async function checkCertificateImage(bytes: Buffer): Promise<{ png: Buffer; width: number; height: number }> {
  if (bytes.length > CERTIFICATE_IMAGE_MAX_BYTES) throw refuse(certificateImageMessages.tooLarge);
  if (!bytes.subarray(0, 8).equals(PNG_SIGNATURE)) throw refuse(certificateImageMessages.notPng);
  let metadata: Metadata;
  try {
    metadata = await sharp(bytes).metadata();
  } catch {
    throw refuse(certificateImageMessages.notPng);
  }
  if (metadata.format !== 'png' || !metadata.width || !metadata.height) throw refuse(certificateImageMessages.notPng);
  if (metadata.width > CERTIFICATE_IMAGE_MAX_SIDE || metadata.height > CERTIFICATE_IMAGE_MAX_SIDE) throw refuse(certificateImageMessages.tooManyPixels(metadata.width, metadata.height));
  if (!metadata.hasAlpha) throw refuse(certificateImageMessages.noTransparency);
  try {
    const { data, info } = await sharp(bytes, { limitInputPixels: CERTIFICATE_IMAGE_MAX_SIDE ** 2 })
      .resize({ width: STORED_MAX_SIDE, height: STORED_MAX_SIDE, fit: 'inside', withoutEnlargement: true })
      .ensureAlpha()
      .png({ compressionLevel: 9 })
      .toBuffer({ resolveWithObject: true });
    return { png: data, width: info.width, height: info.height };
  } catch {
    throw refuse(certificateImageMessages.notPng);
  }
}

/** The images printed now (none uploaded: null). Read with the facts a content is made of. */
export async function currentCertificateImages(db: Db): Promise<Record<CertificateImageKind, CertificateImageRef | null>> {
  const rows = await db.selectFrom('certificate_images').select(['kind', 'sha256', 'width', 'height']).execute();
  const of = (kind: CertificateImageKind) => {
    const row = rows.find((r) => r.kind === kind);
    return row ? { sha256: row.sha256, width: row.width, height: row.height } : null;
  };
  return { signature: of('signature'), seal: of('seal') };
}

/** An image ready for both renderers: the PNG (pdfkit, the preview) and, for the hand-written PDF, its colours and alpha deflated. */
export interface PrintImage {
  sha256: string;
  png: Buffer;
  width: number;
  height: number;
  rgb: Buffer;
  alpha: Buffer;
}
export type PrintImages = ReadonlyMap<string, PrintImage>;

/** Decoded images by SHA-256: the content never changes under a hash, so they are kept (a few). */
const decoded = new Map<string, PrintImage>();
const KEPT = 8;

export async function decodePrintImage(sha256: string, png: Buffer): Promise<PrintImage> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const pixels = info.width * info.height;
  const rgb = Buffer.alloc(pixels * 3);
  const alpha = Buffer.alloc(pixels);
  for (let i = 0; i < pixels; i++) {
    rgb[i * 3] = data[i * 4]!;
    rgb[i * 3 + 1] = data[i * 4 + 1]!;
    rgb[i * 3 + 2] = data[i * 4 + 2]!;
    alpha[i] = data[i * 4 + 3]!;
  }
  return { sha256, png, width: info.width, height: info.height, rgb: deflateSync(rgb), alpha: deflateSync(alpha) };
}

/** The images these contents print, from the media store (an image no longer there is left out). */
export async function printImagesFor(db: Db, contents: readonly { signature?: CertificateImageRef | null; seal?: CertificateImageRef | null }[]): Promise<PrintImages> {
  const wanted = new Set<string>();
  for (const content of contents) for (const ref of [content.signature, content.seal]) if (ref) wanted.add(ref.sha256);
  const images = new Map<string, PrintImage>();
  const missing = [...wanted].filter((sha) => !decoded.has(sha));
  if (missing.length) {
    const rows = await db.selectFrom('media').select(['sha256', 'bytes']).where('sha256', 'in', missing).execute();
    for (const row of rows) {
      decoded.set(row.sha256, await decodePrintImage(row.sha256, Buffer.from(row.bytes)));
      if (decoded.size > KEPT) decoded.delete(decoded.keys().next().value!);
    }
  }
  for (const sha of wanted) {
    const image = decoded.get(sha);
    if (image) images.set(sha, image);
  }
  return images;
}

/**
 * Stores an uploaded signature or seal (checkCertificateImage) as the one printed from now on. The
 * caller marks the certificates to be brought up to date (recheckCertificates: each content names
 * its images), in the same transaction, with its audit entry.
 */
export async function saveCertificateImage(db: Db, kind: CertificateImageKind, file: { fileName: string; bytes: Buffer }, userId: number, now: Date) {
  const { png, width, height } = await checkCertificateImage(file.bytes);
  const path = await storeMedia(db, png, 'image/png', 'png');
  const sha256 = path.slice('/api/media/'.length, -'.png'.length);
  const row = { kind, sha256, width, height, file_name: file.fileName.slice(0, 255), uploaded_at: now, uploaded_by: userId };
  await db
    .insertInto('certificate_images')
    .values(row)
    .onConflict((oc) => oc.column('kind').doUpdateSet({ sha256, width, height, file_name: row.file_name, uploaded_at: now, uploaded_by: userId }))
    .execute();
  return { path, width, height };
}

/** The signature and seal as the settings show them. */
export async function listCertificateImages(db: Db): Promise<CertificateImagesResponse['data']> {
  const rows = await db.selectFrom('certificate_images').selectAll().execute();
  const of = (kind: CertificateImageKind) => {
    const row = rows.find((r) => r.kind === kind);
    return row ? { kind, url: `/api/media/${row.sha256}.png`, width: row.width, height: row.height, file_name: row.file_name, uploaded: formatDateTime(row.uploaded_at) } : null;
  };
  return { signature: of('signature'), seal: of('seal') };
}
