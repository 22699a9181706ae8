// What the server log may hold (issue 15): never a full phone number, a password, a one-time code
// or a token. Used by main.ts and the API test harness, so the log scan test sees production's rules.
import pino, { type LoggerOptions } from 'pino';
import { maskPhonesIn } from '../../../shared/privacy';

/** Fields dropped wherever they appear in a log entry (top level or one level down). */
const SECRET_KEYS = ['password', 'otp', 'token', 'access_token', 'sms', 'authorization', 'cookie'];
const REDACT_PATHS = ['req.headers.authorization', 'req.headers.cookie', ...SECRET_KEYS, ...SECRET_KEYS.map((key) => `*.${key}`)];

/** A URL with its query values that could be secrets (reset tokens) hidden and phones masked. */
export function maskUrl(url: string): string {
  return maskPhonesIn(url.replace(/([?&](?:token|otp|code|password)=)[^&#]*/gi, '$1[hidden]')).replace(/\/doi-mat-khau\/[^/?#]+/, '/doi-mat-khau/[hidden]');
}

/** Masks phones in every string of a plain log object (depth-limited: log objects are small). */
function maskDeep(value: unknown, depth = 0): unknown {
  if (typeof value === 'string') return maskPhonesIn(value);
  if (depth > 4 || value === null || typeof value !== 'object' || value instanceof Error || Array.isArray(value) && value.length > 50) return value;
  if (Array.isArray(value)) return value.map((item) => maskDeep(item, depth + 1));
  if (Object.getPrototypeOf(value) !== Object.prototype) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, maskDeep(item, depth + 1)]));
}

export function privateLogOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: '[hidden]' },
    serializers: {
      req: (req: { method?: string; url?: string; ip?: string; socket?: { remoteAddress?: string } }) => ({
        method: req.method,
        url: req.url === undefined ? undefined : maskUrl(req.url),
        remoteAddress: req.ip ?? req.socket?.remoteAddress,
      }),
      err: (error: Error) => {
        const serialised = pino.stdSerializers.err(error);
        return { ...serialised, message: maskPhonesIn(serialised.message), stack: maskPhonesIn(serialised.stack ?? '') };
      },
    },
    formatters: { log: (object) => maskDeep(object) as Record<string, unknown> },
    hooks: {
      // The message text itself (and printf arguments).
      logMethod(args, method) {
        method.apply(this, args.map((arg) => (typeof arg === 'string' ? maskPhonesIn(arg) : arg)) as Parameters<typeof method>);
      },
    },
  };
}
