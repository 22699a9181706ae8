// Register, login, one-time codes and passwords: the forms and the routes use these schemas.
import { z } from 'zod';
import { idParam } from './common';
import { accountMessages, inputMessages, messages, privacyMessages } from '../messages';
import { LOGIN_PHONE_PATTERN, MOBILE_PHONE_PATTERN, OTP_LENGTH, PASSWORD_MIN_LENGTH } from '../rules';

const PASSWORD_MAX_LENGTH = 100;

/** People type "0912 345 678", "0912.345.678" or "+84912345678": keep the digits of the local form. */
export function normalisePhone(value: string): string {
  const compact = value.replace(/[\s.\-()]/g, '');
  return compact.startsWith('+84') ? `0${compact.slice(3)}` : compact;
}

const phoneWith = (pattern: RegExp) =>
  z
    .string({ error: messages.phoneInvalid })
    .transform(normalisePhone)
    .pipe(z.string().regex(pattern, { error: messages.phoneInvalid }));

/** Register and forgot password: 10 digits starting 03, 05, 07, 08 or 09. */
export const mobilePhoneSchema = phoneWith(MOBILE_PHONE_PATTERN);
/** Login also accepts an 11-digit number starting 02. */
export const loginPhoneSchema = phoneWith(LOGIN_PHONE_PATTERN);

/** A new password (register, change). */
export const newPasswordSchema = z
  .string({ error: messages.passwordTooShort })
  .min(PASSWORD_MIN_LENGTH, { error: messages.passwordTooShort })
  .max(PASSWORD_MAX_LENGTH, { error: accountMessages.passwordTooLong });

export const otpSchema = z
  .string({ error: accountMessages.otpFormat })
  .trim()
  .regex(new RegExp(`^[0-9]{${OTP_LENGTH}}$`), { error: accountMessages.otpFormat });

/** A checkbox that must be ticked (consent): anything but true is refused with `message`. */
export const requiredConsent = (message: string) => z.boolean({ error: message }).refine((value) => value, { error: message });

// Requests -----------------------------------------------------------------------------------

/** The spec's flag is the number 1; forms and other clients also send "1" or true. */
const registerFlag = z
  .union([z.literal(1), z.literal(0), z.literal('1'), z.literal('0'), z.boolean()])
  .optional()
  .transform((value) => value === 1 || value === '1' || value === true);

/** POST /api/send-otp. Registration sends is_register 1 and its password, checked before any SMS. */
export const sendOtpRequestSchema = z
  .object({
    phone: mobilePhoneSchema,
    is_register: registerFlag,
    password: z.string().optional(),
  })
  .superRefine((value, ctx) => {
    if (!value.is_register) return;
    const password = newPasswordSchema.safeParse(value.password);
    if (!password.success) ctx.addIssue({ code: 'custom', path: ['password'], message: password.error.issues[0]!.message });
  });

export const registerRequestSchema = z.object({
  phone: mobilePhoneSchema,
  password: newPasswordSchema,
  otp: otpSchema,
  /** The privacy notice agreed to (an unticked box, never pre-ticked): required. */
  consent: requiredConsent(privacyMessages.consentRequired),
});

export const loginRequestSchema = z.object({
  phone: loginPhoneSchema,
  password: z
    .string({ error: accountMessages.passwordRequired })
    .min(1, { error: accountMessages.passwordRequired })
    .max(PASSWORD_MAX_LENGTH, { error: accountMessages.passwordTooLong }),
});

export const forgotPasswordRequestSchema = z.object({ phone: mobilePhoneSchema, otp: otpSchema });

/** The current password, asked before a change from an ordinary session. */
export const currentPasswordSchema = z
  .string({ error: inputMessages.currentPasswordRequired })
  .min(1, { error: inputMessages.currentPasswordRequired })
  .max(PASSWORD_MAX_LENGTH, { error: accountMessages.passwordTooLong });

/**
 * POST /api/customer/change-password. `current_password` is required unless the session was just
 * opened by a one-time link or an SMS code (the server decides; the spec's reset sends `password` only).
 */
export const changePasswordRequestSchema = z.object({ password: newPasswordSchema, current_password: currentPasswordSchema.optional() });

export const resetTokenQuerySchema = z.object({
  token: z.string({ error: accountMessages.resetLinkInvalid }).min(16, { error: accountMessages.resetLinkInvalid }).max(200, { error: accountMessages.resetLinkInvalid }),
});

// Responses ----------------------------------------------------------------------------------

export const roleSchema = z.enum(['parent', 'school_admin', 'organiser', 'province_viewer', 'unit_viewer']);

/** The user object of every answer and of the `user` cookie. */
export const sessionUserSchema = z.object({
  id: z.number().int(),
  phone: z.string(),
  name: z.string(),
  /** The spec's flag: 1 for a school administrator, 0 for everyone else. */
  is_admin_school: z.union([z.literal(0), z.literal(1)]),
  role: roleSchema,
});

export const messageResponseSchema = z.object({ success: z.literal(true), message: z.string() });
/**
 * POST /api/send-otp: resend_after is the server's cooldown in seconds before another code may be
 * asked for (a refusal during the cooldown carries the seconds left the same way).
 */
export const sendOtpResponseSchema = messageResponseSchema.extend({ resend_after: z.number().int().nonnegative() });

/** Login, register and forgot password: the session token and the user. */
export const authResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  access_token: z.string(),
  user: sessionUserSchema,
  /** Login: true when the parent has not agreed to the current privacy notice (ask before going on). */
  consent_required: z.boolean().optional(),
});

/** GET /api/customer/change-password: the reset link exchanged for a session token. */
export const resetTokenResponseSchema = z.object({ success: z.literal(true), token: z.string(), user: sessionUserSchema });

/** GET /api/sessions: the account's live sessions (which browser, from where, since when). */
export const liveSessionSchema = z.object({
  id: z.number().int(),
  created_at: z.string(),
  expires_at: z.string(),
  /** The browser's User-Agent as sent at login (null: a session from before it was kept). */
  user_agent: z.string().nullable(),
  ip: z.string().nullable(),
  /** The session of this request. */
  current: z.boolean(),
});
export const liveSessionsResponseSchema = z.object({ success: z.literal(true), data: z.array(liveSessionSchema) });
export const sessionIdParamsSchema = z.object({ id: idParam('id') });

export type LiveSession = z.infer<typeof liveSessionSchema>;
export type LiveSessionsResponse = z.infer<typeof liveSessionsResponseSchema>;
export type SendOtpRequest = z.input<typeof sendOtpRequestSchema>;
export type RegisterRequest = z.input<typeof registerRequestSchema>;
export type LoginRequest = z.input<typeof loginRequestSchema>;
export type ForgotPasswordRequest = z.input<typeof forgotPasswordRequestSchema>;
export type ChangePasswordRequest = z.input<typeof changePasswordRequestSchema>;
export type UserRole = z.infer<typeof roleSchema>;
export type ApiUser = z.infer<typeof sessionUserSchema>;
export type AuthResponse = z.infer<typeof authResponseSchema>;
export type MessageResponse = z.infer<typeof messageResponseSchema>;
export type SendOtpResponse = z.infer<typeof sendOtpResponseSchema>;
export type ResetTokenResponse = z.infer<typeof resetTokenResponseSchema>;
