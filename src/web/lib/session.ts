// The logged-in user: cookies `token` and `user` (1 day, path /) and the token in local
// storage, as the spec says; restored at start-up; observable from React with useSession().
import { useSyncExternalStore } from 'react';
import { COOKIE_MAX_AGE_SECONDS } from '../../shared/rules';
import type { UserRole } from '../../shared/schemas/auth';

export interface SessionUser {
  id: number;
  phone: string;
  name: string;
  /** 0 ordinary participant, 1 school administrator (the spec's flag). */
  is_admin_school: 0 | 1;
  /** Absent from a `user` cookie written before roles were sent. */
  role?: UserRole;
}

export interface Session {
  token: string;
  user: SessionUser;
}

const TOKEN_KEY = 'token';
const USER_KEY = 'user';

function readCookie(name: string): string | undefined {
  const prefix = `${name}=`;
  const found = document.cookie.split('; ').find((part) => part.startsWith(prefix));
  return found ? decodeURIComponent(found.slice(prefix.length)) : undefined;
}

function writeCookie(name: string, value: string, maxAgeSeconds: number) {
  const secure = location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${name}=${encodeURIComponent(value)}; Max-Age=${maxAgeSeconds}; Path=/; SameSite=Lax${secure}`;
}

function restore(): Session | null {
  try {
    const token = readCookie(TOKEN_KEY) ?? localStorage.getItem(TOKEN_KEY) ?? undefined;
    const userText = readCookie(USER_KEY);
    if (!token || !userText) return null;
    const user = JSON.parse(userText) as SessionUser;
    return typeof user?.id === 'number' ? { token, user } : null;
  } catch {
    return null;
  }
}

let current: Session | null = typeof document === 'undefined' ? null : restore();
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((listener) => listener());

export function getSession(): Session | null {
  return current;
}

export function setSession(token: string, user: SessionUser) {
  writeCookie(TOKEN_KEY, token, COOKIE_MAX_AGE_SECONDS);
  writeCookie(USER_KEY, JSON.stringify(user), COOKIE_MAX_AGE_SECONDS);
  try {
    localStorage.setItem(TOKEN_KEY, token);
  } catch {
    // private mode: the cookie is enough
  }
  current = { token, user };
  emit();
}

export function updateSessionUser(user: SessionUser) {
  if (current) setSession(current.token, user);
}

export function clearSession() {
  writeCookie(TOKEN_KEY, '', 0);
  writeCookie(USER_KEY, '', 0);
  try {
    localStorage.removeItem(TOKEN_KEY);
  } catch {
    // ignore
  }
  current = null;
  emit();
}

/** Set while a screen asks for the login in place when the session ends (the back office). */
let endedHandler: (() => void) | null = null;

/**
 * While the caller is mounted, a session that ends on the server (a 401) is its to handle: it asks
 * for the login again in place, over what was typed, instead of the app forgetting the session and
 * leaving the screen. Returns the release, for an effect's cleanup.
 */
export function holdSessionOnEnd(handler: () => void): () => void {
  endedHandler = handler;
  return () => {
    if (endedHandler === handler) endedHandler = null;
  };
}

/** The server said the session has ended (401): the holding screen asks again, or it is forgotten. */
export function sessionEnded() {
  if (endedHandler) endedHandler();
  else clearSession();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useSession(): Session | null {
  return useSyncExternalStore(subscribe, getSession, () => null);
}

export const isSchoolAdmin = (session: Session | null) => session?.user.is_admin_school === 1;

/** Who may take exams: a parent, or a visitor (whom /du-thi asks to log in or register). */
export const mayTakeExams = (session: Session | null) => !session || roleOf(session) === 'parent';

/** The education offices' read-only viewers (issue 41): no family, no account page of their own. */
export const isViewerRole = (role: UserRole | null | undefined) => role === 'province_viewer' || role === 'unit_viewer';

/** A user's own page: /tai-khoan, or the figures for a viewer (the profile is a family's, which they have not). */
export const accountPathOf = (role: UserRole | null | undefined) => (isViewerRole(role) ? '/so-giao-duc' : '/tai-khoan');

/** Where a user starts after logging in: the back office, or their own page. */
export const startPathOf = (role: UserRole | null | undefined) => (role === 'organiser' ? '/quan-tri' : accountPathOf(role));

/** The role of the logged-in user; an old cookie without it falls back on the spec's flag. */
export function roleOf(session: Session | null): UserRole | null {
  if (!session) return null;
  return session.user.role ?? (session.user.is_admin_school === 1 ? 'school_admin' : 'parent');
}
