// POST /api/send-otp, /register, /login, /logout, /forgot-password and the password change of
// a logged-in customer or of a one-time link (spec section 7); the account's live sessions.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { accountMessages, messages } from '../../../shared/messages';
import {
  authResponseSchema,
  changePasswordRequestSchema,
  forgotPasswordRequestSchema,
  liveSessionsResponseSchema,
  sessionIdParamsSchema,
  loginRequestSchema,
  messageResponseSchema,
  registerRequestSchema,
  resetTokenQuerySchema,
  resetTokenResponseSchema,
  sendOtpRequestSchema,
  sendOtpResponseSchema,
} from '../../../shared/schemas/auth';
import type { Services } from '../../services';
import type { Api } from '../../lib/api';
import { AppError } from '../../lib/errors';
import { cookieValue, DEVICE_COOKIE, deviceCookieHeader } from './device-cookie';
import * as accounts from './service';

// Answers that carry a session token must never be stored by a cache on the way.
const NO_STORE = 'no-store';

/** The browser and address a new session is opened from (shown in the account's list of sessions). */
const clientOf = (request: FastifyRequest) => ({ ip: request.ip, userAgent: request.headers['user-agent'] });

export function registerAuthRoutes(api: Api, services: Services) {
  const { auth } = services;
  /** The login device cookie (decision 012) a login, a registration or a reset by SMS code set. */
  const setDeviceCookie = (reply: FastifyReply, cookie: string) => reply.header('set-cookie', deviceCookieHeader(cookie, services.config.production));

  api.post('/send-otp', { schema: { summary: 'Gửi mã OTP qua SMS (đăng ký hoặc quên mật khẩu)', body: sendOtpRequestSchema, response: { 200: sendOtpResponseSchema } } }, async (request) => {
    const { message, resendAfter } = await accounts.sendOtp(services, request.body, request.ip);
    return { success: true as const, message, resend_after: resendAfter };
  });

  api.post('/register', { schema: { summary: 'Đăng ký tài khoản phụ huynh bằng mã OTP; trả về mã phiên', body: registerRequestSchema, response: { 200: authResponseSchema } } }, async (request, reply) => {
    const { deviceCookie, ...session } = await accounts.register(services, request.body, clientOf(request));
    reply.header('cache-control', NO_STORE);
    setDeviceCookie(reply, deviceCookie);
    return { success: true as const, message: accountMessages.registerSuccess, ...session };
  });

  api.post('/login', { schema: { summary: 'Đăng nhập bằng số điện thoại và mật khẩu; trả về mã phiên (access_token)', body: loginRequestSchema, response: { 200: authResponseSchema } } }, async (request, reply) => {
    const client = { ...clientOf(request), deviceCookie: cookieValue(request.headers.cookie, DEVICE_COOKIE) };
    const { deviceCookie, ...session } = await accounts.login(services, request.body, client).catch((error: unknown) => {
      // A refusal says when to come back: the window the message names.
      if (error instanceof AppError && error.status === 429) reply.header('retry-after', String(services.config.limits.loginFailureWindowSeconds));
      throw error;
    });
    reply.header('cache-control', NO_STORE);
    setDeviceCookie(reply, deviceCookie);
    return { success: true as const, message: accountMessages.loginSuccess, ...session };
  });

  api.post('/logout', { preHandler: auth.requireUser, schema: { summary: 'Đăng xuất (kết thúc phiên hiện tại)', response: { 200: messageResponseSchema } } }, async (request) => {
    await accounts.logout(services, auth.userOf(request).sessionId);
    return { success: true as const, message: messages.logoutSuccess };
  });

  api.post(
    '/forgot-password',
    { schema: { summary: 'Đặt lại mật khẩu bằng mã OTP; trả về mã phiên', body: forgotPasswordRequestSchema, response: { 200: authResponseSchema } } },
    async (request, reply) => {
      const { deviceCookie, ...session } = await accounts.forgotPassword(services, request.body, clientOf(request));
      reply.header('cache-control', NO_STORE);
      setDeviceCookie(reply, deviceCookie);
      return { success: true as const, message: accountMessages.forgotPasswordSuccess, ...session };
    },
  );

  api.get(
    '/customer/change-password',
    { schema: { summary: 'Đổi liên kết đặt mật khẩu một lần (/doi-mat-khau/{token}) lấy mã phiên', querystring: resetTokenQuerySchema, response: { 200: resetTokenResponseSchema } } },
    async (request, reply) => {
      const result = await accounts.exchangeResetToken(services, request.query.token, clientOf(request));
      reply.header('cache-control', NO_STORE);
      return { success: true as const, ...result };
    },
  );

  api.post(
    '/customer/change-password',
    { preHandler: auth.requireUser, schema: { summary: 'Đổi mật khẩu của tài khoản đang đăng nhập (cần mật khẩu hiện tại, trừ phiên vừa mở bằng liên kết hoặc mã OTP)', body: changePasswordRequestSchema, response: { 200: messageResponseSchema } } },
    async (request) => {
      const user = auth.userOf(request);
      await accounts.changePassword(services, user, request.body);
      return { success: true as const, message: messages.changePasswordSuccess };
    },
  );

  api.get('/sessions', { preHandler: auth.requireUser, schema: { summary: 'Các phiên đăng nhập còn hiệu lực của tài khoản (trình duyệt, địa chỉ, thời điểm)', response: { 200: liveSessionsResponseSchema } } }, async (request) => ({
    success: true as const,
    data: await accounts.liveSessions(services, auth.userOf(request)),
  }));

  api.post(
    '/sessions/:id/end',
    { preHandler: auth.requireUser, schema: { summary: 'Kết thúc một phiên đăng nhập khác của tài khoản', params: sessionIdParamsSchema, response: { 200: messageResponseSchema } } },
    async (request) => {
      await accounts.endSession(services, auth.userOf(request), request.params.id);
      return { success: true as const, message: accountMessages.sessionEnded };
    },
  );
}
