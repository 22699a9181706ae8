// The device cookie of OWASP's "Slow down online guessing attacks with device cookies": a browser
// that logged in to an account before carries a signed cookie naming that account, and with it
// logs in even while its network address is throttled (many families behind one carrier address
// or a school's Wi-Fi). It is no session and opens nothing by itself; it only changes which
// counter a login try is charged to (docs/decisions/012-login-throttling.md).
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const DEVICE_COOKIE = 'login_device';
/** A year: a family's phone stays known from one contest season to the next. */
export const DEVICE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

export interface Device {
  userId: number;
  /** Random, unique per cookie: the failures of this device are counted under it. */
  nonce: string;
}

const sign = (secret: string, payload: string) => createHmac('sha256', secret).update(`login-device.v1.${payload}`).digest('base64url');

/** `<user id>.<issued at, s>.<nonce>.<signature>` */
export function issueDeviceCookie(secret: string, userId: number, now: Date): string {
  const payload = `${userId}.${Math.floor(now.getTime() / 1000)}.${randomBytes(16).toString('base64url')}`;
  return `${payload}.${sign(secret, payload)}`;
}

/** The device a cookie value names, or undefined when it is missing, forged, malformed or older than a year. */
export function readDeviceCookie(secret: string, value: string | undefined, now: Date): Device | undefined {
  const match = value?.match(/^(\d{1,15})\.(\d{1,12})\.([\w-]{22})\.([\w-]{43})$/);
  if (!match) return undefined;
  const [, userId, issuedAt, nonce, signature] = match as unknown as [string, string, string, string, string];
  const expected = Buffer.from(sign(secret, `${userId}.${issuedAt}.${nonce}`));
  if (!timingSafeEqual(Buffer.from(signature), expected)) return undefined;
  const ageSeconds = now.getTime() / 1000 - Number(issuedAt);
  if (ageSeconds > DEVICE_COOKIE_MAX_AGE_SECONDS) return undefined;
  return { userId: Number(userId), nonce };
}

/** The value of one cookie in a Cookie request header (the first of that name). */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}

/**
 * The Set-Cookie header: HttpOnly (no script reads it), sent only to the API, SameSite=Lax (not
 * on other sites' requests), Secure in production (HTTPS only).
 */
export const deviceCookieHeader = (value: string, secure: boolean) =>
  `${DEVICE_COOKIE}=${value}; Max-Age=${DEVICE_COOKIE_MAX_AGE_SECONDS}; Path=/api; HttpOnly; SameSite=Lax${secure ? '; Secure' : ''}`;
