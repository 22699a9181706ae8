import { describe, expect, it } from 'vitest';
import { cookieValue, deviceCookieHeader, issueDeviceCookie, readDeviceCookie } from './device-cookie';
import { failureDelayMs } from './service';

const SECRET = 'a-secret-of-at-least-thirty-two-characters';
const now = new Date('2026-11-25T08:00:00Z');
const later = (days: number) => new Date(now.getTime() + days * 86_400_000);

describe('device cookie', () => {
  it('names the account it was issued for, with a nonce of its own', () => {
    const first = issueDeviceCookie(SECRET, 42, now);
    const second = issueDeviceCookie(SECRET, 42, now);
    expect(readDeviceCookie(SECRET, first, now)).toEqual({ userId: 42, nonce: expect.stringMatching(/^[\w-]{22}$/) });
    expect(readDeviceCookie(SECRET, first, now)!.nonce).not.toBe(readDeviceCookie(SECRET, second, now)!.nonce);
  });

  it('is refused when forged, signed with another key, malformed or older than a year', () => {
    const value = issueDeviceCookie(SECRET, 42, now);
    const [userId, issuedAt, nonce, signature] = value.split('.');
    expect(readDeviceCookie(SECRET, [43, issuedAt, nonce, signature].join('.'), now)).toBeUndefined();
    expect(readDeviceCookie(SECRET, [userId, Number(issuedAt) + 1, nonce, signature].join('.'), now)).toBeUndefined();
    expect(readDeviceCookie('another-secret-of-thirty-two-characters!', value, now)).toBeUndefined();
    for (const bad of [undefined, '', 'abc', `${value}.x`, value.replace(/\.[^.]+$/, '.short')]) expect(readDeviceCookie(SECRET, bad, now)).toBeUndefined();
    expect(readDeviceCookie(SECRET, value, later(364))).toBeDefined();
    expect(readDeviceCookie(SECRET, value, later(366))).toBeUndefined();
  });

  it('is read from a Cookie header among others and set for the API only', () => {
    expect(cookieValue('a=1; login_device=x.y ; b=2', 'login_device')).toBe('x.y');
    expect(cookieValue('a=1; my_login_device=z', 'login_device')).toBeUndefined();
    expect(cookieValue(undefined, 'login_device')).toBeUndefined();
    expect(deviceCookieHeader('v', false)).toBe('login_device=v; Max-Age=31536000; Path=/api; HttpOnly; SameSite=Lax');
    expect(deviceCookieHeader('v', true)).toMatch(/; Secure$/);
  });
});

describe('progressive delay of wrong passwords from one address', () => {
  const limits = { loginMaxFailuresPerIp: 100, loginFailureDelayMaxMs: 2000 };
  it('is none up to half the cap, then grows to the ceiling at the cap', () => {
    expect([1, 50, 51, 75, 100, 150].map((failures) => failureDelayMs(limits, failures))).toEqual([0, 0, 40, 1000, 2000, 2000]);
    expect(failureDelayMs({ loginMaxFailuresPerIp: 1, loginFailureDelayMaxMs: 2000 }, 1)).toBe(2000);
  });
});
