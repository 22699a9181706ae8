import { sql } from 'kysely';
import { unavailable } from '../../lib/error-answers';
import type { Api } from '../../lib/api';
import type { Services } from '../../services';

/** /healthz: the process is up. /readyz: the database answers. */
export function registerHealthRoutes(app: Api, { db }: Services) {
  app.get('/healthz', async () => ({ success: true, status: 'ok' }));
  app.get('/readyz', async (request, reply) => {
    try {
      await sql`SELECT 1`.execute(db);
      return { success: true, status: 'ready' };
    } catch (error) {
      request.log.warn({ err: error }, 'database not reachable');
      return reply.send({ ...unavailable(request, reply), status: 'unavailable' });
    }
  });
}
