// Consent to the privacy notice, the parent's copy of their data (JSON and a readable page) and
// the deletion of the account confirmed by an SMS code (issue 15).
import { privacyMessages } from '../../../shared/messages';
import { messageResponseSchema, sendOtpResponseSchema } from '../../../shared/schemas/auth';
import { consentRequestSchema, consentResponseSchema, deleteAccountRequestSchema, myDataResponseSchema } from '../../../shared/schemas/privacy';
import type { Services } from '../../services';
import type { Api } from '../../lib/api';
import { myDataHtml } from './my-data-html';
import * as privacy from './service';
import { getCurrentContest } from '../../core/contest';

const NO_STORE = 'no-store';

export function registerPrivacyRoutes(api: Api, services: Services) {
  const { auth } = services;

  api.post(
    '/privacy/consent',
    { preHandler: auth.requireUser, schema: { summary: 'Đồng ý với thông báo về dữ liệu cá nhân (phiên bản hiện tại)', body: consentRequestSchema, response: { 200: consentResponseSchema } } },
    async (request) => ({ success: true as const, message: privacyMessages.consentSaved, ...(await privacy.recordConsent(services, auth.userOf(request))) }),
  );

  api.get('/customer/my-data', { preHandler: auth.requireUser, schema: { summary: 'Dữ liệu cá nhân của tài khoản đang đăng nhập (JSON)', response: { 200: myDataResponseSchema } } }, async (request, reply) => {
    reply.header('cache-control', NO_STORE);
    return { success: true as const, data: await privacy.loadMyData(services, auth.userOf(request).id) };
  });

  // A page, not JSON: no response schema.
  api.get('/customer/my-data.html', { schema: { summary: 'Dữ liệu cá nhân của tài khoản đang đăng nhập (trang HTML để in hoặc lưu)' }, preHandler: auth.requireUser }, async (request, reply) => {
    const html = myDataHtml(await privacy.loadMyData(services, auth.userOf(request).id), (await getCurrentContest(services.db))?.unit_level);
    return reply.header('cache-control', NO_STORE).header('content-disposition', 'attachment; filename="du-lieu-cua-toi.html"').type('text/html; charset=utf-8').send(html);
  });

  api.post(
    '/customer/delete-account/send-otp',
    { preHandler: auth.requireUser, schema: { summary: 'Gửi mã xác nhận xoá tài khoản đến số điện thoại của tài khoản', response: { 200: sendOtpResponseSchema } } },
    async (request) => {
      const resendAfter = await privacy.sendDeleteCode(services, auth.userOf(request), request.ip);
      return { success: true as const, message: privacyMessages.deleteOtpSent, resend_after: resendAfter };
    },
  );

  api.post(
    '/customer/delete-account',
    { preHandler: auth.requireUser, schema: { summary: 'Xoá tài khoản (với mã xác nhận); bài thi đã có được giữ ẩn danh', body: deleteAccountRequestSchema, response: { 200: messageResponseSchema } } },
    async (request) => {
      await privacy.deleteAccount(services, auth.userOf(request), request.body.otp);
      return { success: true as const, message: privacyMessages.accountDeleted };
    },
  );
}
