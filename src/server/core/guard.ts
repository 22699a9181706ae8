// Bearer-token sessions: who is calling, and route guards for the roles.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { messages } from '../../shared/messages';
import { viewerMessages } from '../../shared/messages/admin';
import { viewerRoles } from '../../shared/schemas/viewers';
import { MAX_LIVE_SESSIONS_PER_USER, SESSION_TTL_SECONDS } from '../../shared/rules';
import type { Db } from '../db/client';
import type { Role } from '../db/schema';
import type { Clock } from '../lib/clock';
import { forbidden, unauthorized } from '../lib/errors';
import { hashToken, newToken } from '../lib/tokens';

export interface AuthUser {
  id: number;
  phone: string;
  name: string;
  role: Role;
  schoolId: number | null;
  sessionId: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the auth guards: the caller, once authenticated. */
    authUser?: AuthUser;
  }
}

/** The browser and the address a session was opened from. */
export interface SessionClient {
  ip: string;
  userAgent?: string;
}

const USER_AGENT_MAX_LENGTH = 300;
/** A User-Agent is ASCII; anything else in it (controls, stray bytes) is dropped before it is stored. */
const printableAscii = (text: string) => text.replace(/[^\x20-\x7e]/g, '').trim();

export function readBearerToken(request: FastifyRequest): string | undefined {
  return bearerTokenOf(request.headers.authorization);
}

/** The token of an Authorization header `Bearer <token>` (none for "undefined" or "null", a client's slip). */
export function bearerTokenOf(header: string | undefined): string | undefined {
  const match = header && /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] && match[1] !== 'undefined' && match[1] !== 'null' ? match[1] : undefined;
}

/** The education offices' viewers (issue 41): read-only, no family, no school. */
export const isViewerRole = (role: string) => (viewerRoles as readonly string[]).includes(role);

/** preHandler after requireUser of a family's routes (the profile): an education office's viewer has no family (403). */
export const refuseViewers = (auth: { userOf(request: FastifyRequest): AuthUser }) => async (request: FastifyRequest) => {
  if (isViewerRole(auth.userOf(request).role)) throw forbidden(viewerMessages.noFamily);
};

export function createAuth(db: Db, clock: Clock) {
  async function findUserByToken(token: string): Promise<AuthUser | undefined> {
    const row = await db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select(['users.id', 'users.phone', 'users.name', 'users.role', 'users.school_id', 'sessions.id as session_id'])
      .where('sessions.token_hash', '=', hashToken(token))
      .where('sessions.revoked_at', 'is', null)
      .where('sessions.expires_at', '>', clock.now())
      // Locking revokes the sessions too; this also covers one started while the lock was written.
      .where('users.locked_at', 'is', null)
      .executeTakeFirst();
    return row && {
      id: row.id,
      phone: row.phone,
      name: row.name,
      role: row.role,
      schoolId: row.school_id,
      sessionId: row.session_id,
    };
  }

  /** The caller, or undefined when the request carries no valid token. */
  async function authenticate(request: FastifyRequest): Promise<AuthUser | undefined> {
    if (request.authUser) return request.authUser;
    const token = readBearerToken(request);
    const user = token ? await findUserByToken(token) : undefined;
    if (user) request.authUser = user;
    return user;
  }

  /** preHandler: 401 unless the request carries a valid session token. */
  async function requireUser(request: FastifyRequest, _reply: FastifyReply) {
    if (!(await authenticate(request))) throw unauthorized(messages.unauthorized);
  }

  /** preHandler: 401 without a session, 403 when the caller's role is not one of `roles`. */
  function requireRole(...roles: Role[]) {
    return async (request: FastifyRequest, _reply: FastifyReply) => {
      const user = await authenticate(request);
      if (!user) throw unauthorized(messages.unauthorized);
      if (!roles.includes(user.role)) throw forbidden(messages.forbidden);
    };
  }

  /**
   * Starts a session; returns the bearer token (shown once, stored hashed). The account keeps
   * MAX_LIVE_SESSIONS_PER_USER live sessions at most: the oldest end. `endOthers` ends every other
   * session first (a login that proves the phone or a link: whoever held the old password is out).
   * `passwordResetUntil`: the session may set the password once without the current one until then.
   * `client`: the browser and address, shown in the account's list of sessions.
   */
  async function createSession(
    userId: number,
    options: { endOthers?: boolean; passwordResetUntil?: Date; client?: SessionClient } = {},
  ): Promise<string> {
    const token = newToken();
    const now = clock.now();
    await db.transaction().execute(async (trx) => {
      const live = trx.updateTable('sessions').set({ revoked_at: now }).where('user_id', '=', userId).where('revoked_at', 'is', null);
      if (options.endOthers) await live.execute();
      await trx
        .insertInto('sessions')
        .values({
          user_id: userId,
          token_hash: hashToken(token),
          expires_at: new Date(now.getTime() + SESSION_TTL_SECONDS * 1000),
          password_reset_until: options.passwordResetUntil ?? null,
          user_agent: options.client?.userAgent ? printableAscii(options.client.userAgent).slice(0, USER_AGENT_MAX_LENGTH) || null : null,
          ip: options.client?.ip.slice(0, 64) ?? null,
        })
        .execute();
      // The account's last activity, from which the retention of its data runs.
      await trx.updateTable('users').set({ last_login_at: now }).where('id', '=', userId).execute();
      await live
        .where('id', 'in', (eb) =>
          eb
            .selectFrom('sessions')
            .select('id')
            .where('user_id', '=', userId)
            .where('revoked_at', 'is', null)
            .where('expires_at', '>', now)
            .orderBy('id', 'desc')
            .offset(MAX_LIVE_SESSIONS_PER_USER),
        )
        .execute();
    });
    return token;
  }

  /** The user of a guarded route (after requireUser / requireRole). */
  function userOf(request: FastifyRequest): AuthUser {
    if (!request.authUser) throw unauthorized(messages.unauthorized);
    return request.authUser;
  }

  return { authenticate, requireUser, requireRole, createSession, userOf, findUserByToken };
}

export type Auth = ReturnType<typeof createAuth>;
