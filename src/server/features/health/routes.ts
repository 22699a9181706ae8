import { z } from 'zod';
import { pingDatabase } from '../../db/client';
import { unavailable } from '../../core/error-answers';
import type { Api } from '../../lib/api';
import type { Services } from '../../services';

/** How long /readyz waits for the database before answering 503. */
const READY_TIMEOUT_MS = 2_000;

/**
 * /healthz: the process is up. /readyz: the database answers. Neither is ever shed nor waits
 * behind the queries queued for the pool (core/load-shedding.ts, db/client.ts pingDatabase): a
 * probe must tell a busy process from a dead one within its own timeout.
 */
export function registerHealthRoutes(app: Api, { db }: Services) {
  app.get('/healthz', { schema: { summary: 'Tiến trình đang chạy', response: { 200: z.object({ success: z.literal(true), status: z.literal('ok') }) } } }, async () => ({
    success: true as const,
    status: 'ok' as const,
  }));
  app.get('/readyz', { schema: { summary: 'Cơ sở dữ liệu trả lời (503 khi không)' } }, async (request, reply) => {
    try {
      await pingDatabase(db, READY_TIMEOUT_MS);
      return { success: true, status: 'ready' };
    } catch (error) {
      request.log.warn({ err: error }, 'database not reachable');
      return reply.send({ ...unavailable(request, reply), status: 'unavailable' });
    }
  });
}
