// The back office's seasons (issue 26), under /api/admin (organiser only: the scope checks it).
import { seasonMessages } from '../../../../shared/messages/seasons';
import { newSeasonSchema, seasonListResponseSchema, seasonPreviewResponseSchema, seasonSwitchResponseSchema } from '../../../../shared/schemas/admin-seasons';
import type { Services } from '../../../services';
import type { Api } from '../../../lib/api';
import * as service from './service';

export function registerAdminSeasonRoutes(admin: Api, services: Services) {
  const { auth } = services;

  admin.get('/seasons', { schema: { summary: 'Các mùa thi, mới nhất trước', response: { 200: seasonListResponseSchema } } }, async () => ({
    success: true as const,
    data: await service.listSeasons(services),
  }));

  admin.post(
    '/seasons/preview',
    { schema: { summary: 'Xem trước những gì mùa thi mới sẽ thay đổi', body: newSeasonSchema, response: { 200: seasonPreviewResponseSchema } } },
    async (request) => ({ success: true as const, data: await service.previewSeason(services, request.body) }),
  );

  admin.post(
    '/seasons',
    { schema: { summary: 'Mở mùa thi mới: mùa hiện tại chỉ còn để xem', body: newSeasonSchema, response: { 200: seasonSwitchResponseSchema } } },
    async (request) => {
      const data = await service.openSeason(services, auth.userOf(request), request.body);
      return { success: true as const, data, message: seasonMessages.switched(data.name) };
    },
  );
}
