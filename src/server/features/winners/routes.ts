// GET /api/winners: the public winners' list (issue 37.2). Anyone may read it; it holds no id and
// no phone (the response schema strips anything else). Browsers and proxies keep it 30 s.
import { winnersQuerySchema, winnersResponseSchema } from '../../../shared/schemas/winners';
import type { Api } from '../../lib/api';
import type { Services } from '../../services';
import { listWinners } from './service';

export function registerWinnersRoutes(api: Api, services: Services) {
  api.get(
    '/winners',
    { schema: { summary: 'Danh sách đoạt giải đã công bố của mùa thi hiện tại, theo từng giải; tìm theo trường, phân trang', querystring: winnersQuerySchema, response: { 200: winnersResponseSchema } } },
    async (request, reply) => {
      reply.header('cache-control', 'public, max-age=30');
      return { success: true as const, data: await listWinners(services, request.query) };
    },
  );
}
