import { z } from 'zod';
import { messages } from '../../../shared/messages';
import type { Services } from '../../services';
import type { Api } from '../../lib/api';
import { notFound } from '../../lib/errors';
import { findMedia } from './media';

const ONE_YEAR_SECONDS = 31_536_000;
const paramsSchema = z.object({ file: z.string().regex(/^[0-9a-f]{64}\.[a-z0-9]{2,5}$/) });

/** GET /api/media/{sha256}.{ext}: an uploaded file; the name is its content's hash, so it never changes. */
export function registerMediaRoutes(api: Api, { db }: Services) {
  api.get('/media/:file', { schema: { summary: 'Tệp ảnh hoặc âm thanh đã tải lên (theo mã SHA-256)', params: paramsSchema } }, async (request, reply) => {
    const [sha256, ext] = request.params.file.split('.');
    const media = await findMedia(db, sha256!);
    if (!media || media.ext !== ext) throw notFound(messages.notFound);
    return reply
      .header('content-type', media.content_type)
      .header('cache-control', `public, max-age=${ONE_YEAR_SECONDS}, immutable`)
      .header('content-disposition', 'inline')
      .send(media.bytes);
  });
}
