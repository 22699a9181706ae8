// POST /api/send-otp, /register, /login, /logout, /forgot-password and the password change of
import type { FastifyReply } from 'fastify';
// a logged-in customer or of a one-time link (spec section 7).
import { accountMessages, messages } from '../../../shared/messages';
import {
  authResponseSchema,
  changePasswordRequestSchema,
  forgotPasswordRequestSchema,
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

export function registerAuthRoutes(api: Api, services: Services) {
  const { auth } = services;
  /** The login device cookie (decision 012) a login, a registration or a reset by SMS code set. */
  const setDeviceCookie = (reply: FastifyReply, cookie: string) => reply.header('set-cookie', deviceCookieHeader(cookie, services.config.production));

  api.post('/send-otp', { schema: { summary: 'Gửi mã OTP qua SMS (đăng ký hoặc quên mật khẩu)', body: sendOtpRequestSchema, response: { 200: sendOtpResponseSchema } } }, async (request) => {
    const { message, resendAfter } = await accounts.sendOtp(services, request.body, request.ip);
    return { success: true as const, message, resend_after: resendAfter };
  });

  api.post('/register', { schema: { summary: 'Đăng ký tài khoản phụ huynh bằng mã OTP; trả về mã phiên', body: registerRequestSchema, response: { 200: authResponseSchema } } }, async (request, reply) => {
    const { deviceCookie, ...session } = await accounts.register(services, request.body);
    reply.header('cache-control', NO_STORE);
    setDeviceCookie(reply, deviceCookie);
    return { success: true as const, message: accountMessages.registerSuccess, ...session };
  });

  api.post('/login', { schema: { summary: 'Đăng nhập bằng số điện thoại và mật khẩu; trả về mã phiên (access_token)', body: loginRequestSchema, response: { 200: authResponseSchema } } }, async (request, reply) => {
    const client = { ip: request.ip, deviceCookie: cookieValue(request.headers.cookie, DEVICE_COOKIE) };
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
      const { deviceCookie, ...session } = await accounts.forgotPassword(services, request.body);
      reply.header('cache-control', NO_STORE);
      setDeviceCookie(reply, deviceCookie);
      return { success: true as const, message: accountMessages.forgotPasswordSuccess, ...session };
    },
  );

  api.get(
    '/customer/change-password',
    { schema: { summary: 'Đổi liên kết đặt mật khẩu một lần (/doi-mat-khau/{token}) lấy mã phiên', querystring: resetTokenQuerySchema, response: { 200: resetTokenResponseSchema } } },
    async (request, reply) => {
      const result = await accounts.exchangeResetToken(services, request.query.token);
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
}
