import { sql } from 'kysely';
import { z } from 'zod';
import { unavailable } from '../../lib/error-answers';
import type { Api } from '../../lib/api';
import type { Services } from '../../services';

/** /healthz: the process is up. /readyz: the database answers. */
export function registerHealthRoutes(app: Api, { db }: Services) {
  app.get('/healthz', { schema: { summary: 'Tiến trình đang chạy', response: { 200: z.object({ success: z.literal(true), status: z.literal('ok') }) } } }, async () => ({
    success: true as const,
    status: 'ok' as const,
  }));
  app.get('/readyz', { schema: { summary: 'Cơ sở dữ liệu trả lời (503 khi không)' } }, async (request, reply) => {
    try {
      await sql`SELECT 1`.execute(db);
      return { success: true, status: 'ready' };
    } catch (error) {
      request.log.warn({ err: error }, 'database not reachable');
      return reply.send({ ...unavailable(request, reply), status: 'unavailable' });
    }
  });
}
