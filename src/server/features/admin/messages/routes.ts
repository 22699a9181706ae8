// /api/admin/messages: messages to families (organiser only: the admin scope checks it), and the
// public opt-out of /tu-choi/:token (registered at the API's root by registerOptOutRoutes).
import { z } from 'zod';
import {
  campaignIdParamsSchema,
  campaignListResponseSchema,
  campaignResponseSchema,
  messageDraftSchema,
  messageOverviewResponseSchema,
  messagePreviewResponseSchema,
  messageSettingsInputSchema,
  messageSettingsResponseSchema,
  optOutParamsSchema,
  optOutResponseSchema,
} from '../../../../shared/schemas/admin-messages';
import type { Services } from '../../../services';
import type { Api } from '../../../lib/api';
import * as messages from './service';
import { closeMessageQueue } from './queue';
import { optOut, optOutState } from './opt-out';

const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

export function registerAdminMessagesRoutes(admin: Api, services: Services) {
  const { auth } = services;
  admin.addHook('onClose', () => closeMessageQueue(services.db));

  admin.get('/messages', { schema: { summary: 'Tin nhắn cho phụ huynh: mẫu có sẵn, giá, hạn mức, kênh ZNS', response: { 200: messageOverviewResponseSchema } } }, async () => ({
    success: true as const,
    data: await messages.overview(services),
  }));

  admin.post('/messages/preview', { schema: { summary: 'Xem trước: số người nhận, số tin SMS và chi phí (không gửi)', body: messageDraftSchema, response: { 200: messagePreviewResponseSchema } } }, async (request) => ({
    success: true as const,
    data: await messages.preview(services, request.body),
  }));

  admin.post('/messages', { schema: { summary: 'Gửi tin nhắn tới phụ huynh (xếp vào hàng đợi gửi)', body: messageDraftSchema, response: { 200: campaignResponseSchema } } }, async (request) => ({
    success: true as const,
    data: await messages.send(services, auth.userOf(request), request.body),
  }));

  admin.get('/messages/campaigns', { schema: { summary: 'Các đợt gửi tin nhắn, mới nhất trước, với số đã gửi, lỗi, bỏ qua', response: { 200: campaignListResponseSchema } } }, async () => ({
    success: true as const,
    data: await messages.listCampaigns(services.db),
  }));

  admin.get('/messages/campaigns/:id', { schema: { summary: 'Báo cáo một đợt gửi tin nhắn', params: campaignIdParamsSchema, response: { 200: campaignResponseSchema } } }, async (request) => ({
    success: true as const,
    data: await messages.getCampaign(services.db, request.params.id),
  }));

  admin.get('/messages/campaigns/:id/recipients.xlsx', { schema: { summary: 'Tải danh sách người nhận của một đợt gửi (.xlsx)', params: campaignIdParamsSchema } }, async (request, reply) => {
    const file = await messages.campaignXlsx(services.db, request.params.id);
    return reply.header('content-type', XLSX_TYPE).header('content-disposition', `attachment; filename="${file.fileName}"`).send(file.bytes);
  });

  admin.put('/messages/settings', { schema: { summary: 'Sửa giá mỗi tin SMS, mỗi tin ZNS và hạn mức mỗi ngày', body: messageSettingsInputSchema, response: { 200: messageSettingsResponseSchema } } }, async (request) => ({
    success: true as const,
    data: await messages.updateSettings(services.db, auth.userOf(request), request.body),
  }));
}

/** /api/opt-out/:token: what the page /tu-choi/:token shows (GET, no write) and its button (POST). */
export function registerOptOutRoutes(api: Api, services: Services) {
  api.get('/opt-out/:token', { schema: { summary: 'Trạng thái nhận tin nhắn của một gia đình (đường dẫn trong tin nhắn)', params: optOutParamsSchema, response: { 200: optOutResponseSchema } } }, async (request) => ({
    success: true as const,
    data: await optOutState(services.db, request.params.token),
  }));
  api.post('/opt-out/:token', { schema: { summary: 'Từ chối nhận tin nhắn từ ban tổ chức', params: optOutParamsSchema, body: z.object({}), response: { 200: optOutResponseSchema } } }, async (request) => ({
    success: true as const,
    data: await optOut(services, request.params.token),
  }));
}
