// Rules of the accounts feature: one-time codes, register, login, logout, forgotten and changed
// passwords. Routes stay thin; SQL is in repo.ts.
import { setTimeout as delay } from 'node:timers/promises';
import type { ErrorCode } from '../../../shared/error-codes';
import { accountMessages, inputMessages, messages } from '../../../shared/messages';
import { adminAccountMessages } from '../../../shared/schemas/admin-accounts';
import { needsPrivacyConsent, PRIVACY_NOTICE_VERSION } from '../../../shared/privacy';
import type { ApiUser, LiveSession } from '../../../shared/schemas/auth';
import type { Services } from '../../services';
import { AppError, badRequest, tooManyRequests, unauthorized } from '../../lib/errors';
import { DUMMY_PASSWORD_HASH, passwordHasherOf, type PasswordWork } from '../../lib/password';
import { hashToken } from '../../lib/tokens';
import type { SessionClient } from '../../core/guard';
import { issueDeviceCookie, readDeviceCookie } from './device-cookie';
import { checkOtp, issueOtp } from './otp';
import * as repo from './repo';
import { toApiUser } from './user-view';

export type AccountDeps = Pick<Services, 'db' | 'clock' | 'config' | 'sms' | 'auth'>;

export interface SessionResult {
  access_token: string;
  user: ApiUser;
  /** Login: the parent must agree to the current privacy notice before going on. */
  consent_required?: boolean;
}

const phoneError = (message: string, code: ErrorCode) => new AppError(code, message, { phone: message });

/** A locked account (back office) cannot log in or get in through a code or a link. */
const accountLocked = () => new AppError('account_locked', adminAccountMessages.locked);

/** A hash that can be compared: an account made by the back office has none until its link is used. */
const comparableHash = (hash: string | undefined) => (hash?.startsWith('scrypt$') ? hash : undefined);

/**
 * Register sends a code only to a phone without an account, forgot password only to one with
 * an account. This tells a caller whether a phone is registered; the spec's flows need it (the
 * register screen must say the phone is taken), and the cooldown and daily caps bound how
 * fast anyone can ask.
 */
/** The message to show and the seconds before another code may be asked for. */
export async function sendOtp(deps: AccountDeps, input: { phone: string; is_register: boolean }, ip: string): Promise<{ message: string; resendAfter: number }> {
  const { db } = deps;
  const user = await repo.findUserByPhone(db, input.phone);
  if (input.is_register && user) throw phoneError(accountMessages.phoneTaken, 'phone_taken');
  if (!input.is_register && !user) throw phoneError(accountMessages.phoneNotRegistered, 'phone_not_registered');
  if (!input.is_register && user?.locked_at) throw accountLocked();
  const resendAfter = await issueOtp(deps, input.phone, input.is_register ? 'register' : 'forgot_password', ip);
  return { message: accountMessages.otpSent, resendAfter };
}

/** `consent` is checked by the schema (a ticked box); the notice's version and the time are stored. */
export async function register(
  deps: AccountDeps,
  input: { phone: string; password: string; otp: string; consent: boolean },
  client?: SessionClient,
): Promise<SessionResult & { deviceCookie: string }> {
  const { db, clock, auth, config } = deps;
  if (await repo.phoneExists(db, input.phone)) throw phoneError(accountMessages.phoneTaken, 'phone_taken');
  // Both hashes (the code's, the new password's) admitted before the code is tried: a refusal (503)
  // costs no try of the code.
  const hashing = passwordHasherOf(config).admit(2);
  let otpId: number;
  let passwordHash: string;
  try {
    otpId = await checkOtp(deps, input.phone, 'register', input.otp, hashing);
    passwordHash = await hashing.hash(input.password);
  } finally {
    hashing.release();
  }
  const user = await db.transaction().execute(async (trx) => {
    const now = clock.now();
    if (!(await repo.consumeOtp(trx, otpId, now))) {
      throw badRequest(accountMessages.otpUsed, { otp: accountMessages.otpUsed }, 'otp_invalid');
    }
    const created = await repo.insertParent(trx, input.phone, passwordHash, now, PRIVACY_NOTICE_VERSION);
    // Registered meanwhile by a concurrent request: the code stays unused (rolled back).
    if (!created) throw phoneError(accountMessages.phoneTaken, 'phone_taken');
    return created;
  });
  // The SMS code proves the phone as a login proves the password: this browser is a known device (decision 012).
  return { access_token: await auth.createSession(user.id, { client }), user: toApiUser(user), deviceCookie: issueDeviceCookie(config.deviceCookieSecret, user.id, clock.now()) };
}

/** Who is trying: the client's address and the device cookie its browser sent, if any. */
export interface LoginClient extends SessionClient {
  deviceCookie?: string;
}

/**
 * The three counters of docs/decisions/012-login-throttling.md, in one place:
 * - per phone, exact: under the phone's lock a try is counted (as a pending row) before its
 *   password is checked, so concurrent guesses in any number of processes never get more than the
 *   cap checked; a right password deletes its row, so a success never counts;
 * - per address, for unknown devices: only finished failures count, so a school's storm of right
 *   passwords is never refused; past half the cap failures are answered slowly, at the cap refused;
 * - per device: a browser that logged in to this account before (signed cookie) skips the address's
 *   limit, and its failures count against the cookie (past its cap it is an unknown device again).
 * No lock is held while the password is hashed or during the delay. The hash is admitted to the
 * hashing queue (decision 031) after the counters refused nothing and before the try is recorded,
 * in the same transaction: a login refused by a full queue (503) leaves no try and counts for nothing.
 */
export async function login(deps: AccountDeps, input: { phone: string; password: string }, client: LoginClient): Promise<SessionResult & { deviceCookie: string }> {
  const admitted: { hashing?: PasswordWork } = {};
  try {
    return await checkLogin(deps, input, client, admitted);
  } finally {
    admitted.hashing?.release();
  }
}

async function checkLogin(
  deps: AccountDeps,
  input: { phone: string; password: string },
  client: LoginClient,
  admitted: { hashing?: PasswordWork },
): Promise<SessionResult & { deviceCookie: string }> {
  const { db, clock, config, auth } = deps;
  const limits = config.limits;
  const minutes = Math.max(1, Math.ceil(limits.loginFailureWindowSeconds / 60));
  const user = await repo.findUserByPhone(db, input.phone);
  const cookieDevice = readDeviceCookie(config.deviceCookieSecret, client.deviceCookie, clock.now());
  const knownDevice = user && cookieDevice?.userId === user.id ? cookieDevice.nonce : undefined;

  const attempt = await db.transaction().execute(async (trx) => {
    const now = clock.now();
    const since = new Date(now.getTime() - limits.loginFailureWindowSeconds * 1000);
    await repo.lockLoginPhone(trx, input.phone);
    const tries = await repo.countPhoneTries(trx, input.phone, since, knownDevice);
    if (tries.phone >= limits.loginMaxFailuresPerPhone) throw tooManyRequests(accountMessages.loginTooManyForPhone(minutes));
    const device = knownDevice !== undefined && tries.device < limits.loginMaxFailuresPerDevice ? knownDevice : null;
    // Read without a lock: the address's count may run over by the tries checked at the same time.
    const addressFailures = device ? 0 : await repo.countAddressFailures(trx, client.ip, since);
    if (addressFailures >= limits.loginMaxFailuresPerIp) throw tooManyRequests(accountMessages.loginTooManyForIp(minutes));
    // A refusal here rolls the transaction back: no pending try is left.
    admitted.hashing = passwordHasherOf(config).admit(1);
    const id = await repo.insertPendingTry(trx, { phone: input.phone, ip: client.ip, device, now });
    return { id, device, addressFailures };
  });

  const valid = await admitted.hashing!.verify(input.password, comparableHash(user?.password_hash) ?? DUMMY_PASSWORD_HASH);
  if (!user || !valid || !comparableHash(user.password_hash)) {
    await repo.markTryFailed(db, attempt.id);
    if (!attempt.device) await delay(failureDelayMs(limits, attempt.addressFailures + 1));
    throw new AppError('invalid_credentials', accountMessages.loginWrong);
  }
  // Said only to whoever knows the password: the lock is no oracle for strangers. Counted as a failure.
  if (user.locked_at) {
    await repo.markTryFailed(db, attempt.id);
    throw accountLocked();
  }
  await repo.forgiveTriesOfPhone(db, input.phone, attempt.id);
  return {
    access_token: await auth.createSession(user.id, { client }),
    user: toApiUser(user),
    consent_required: needsPrivacyConsent(user),
    // A new cookie at each login (OWASP): the device's failures start again from nothing.
    deviceCookie: issueDeviceCookie(config.deviceCookieSecret, user.id, clock.now()),
  };
}

/**
 * The wait before a wrong password is answered, once the address has more than half its cap of
 * failures: growing linearly to the longest delay at the cap. Slows a guesser down long before
 * it refuses anyone; a right password is never delayed.
 */
export function failureDelayMs(limits: { loginMaxFailuresPerIp: number; loginFailureDelayMaxMs: number }, addressFailures: number): number {
  const soft = Math.floor(limits.loginMaxFailuresPerIp / 2);
  if (addressFailures <= soft) return 0;
  const share = Math.min(1, (addressFailures - soft) / Math.max(1, limits.loginMaxFailuresPerIp - soft));
  return Math.round(share * limits.loginFailureDelayMaxMs);
}

export async function logout(deps: AccountDeps, sessionId: number): Promise<void> {
  const { db, clock } = deps;
  await repo.revokeSession(db, sessionId, clock.now());
}

/** The account's live sessions, newest first, the caller's own marked. */
export async function liveSessions(deps: AccountDeps, user: { id: number; sessionId: number }): Promise<LiveSession[]> {
  const rows = await repo.liveSessionsOf(deps.db, user.id, deps.clock.now());
  return rows.map((row) => ({
    id: row.id,
    created_at: row.created_at.toISOString(),
    expires_at: row.expires_at.toISOString(),
    user_agent: row.user_agent,
    ip: row.ip,
    current: row.id === user.sessionId,
  }));
}

/** Ends one live session of the caller's account (another browser); 404 when there is none such. */
export async function endSession(deps: AccountDeps, user: { id: number }, sessionId: number): Promise<void> {
  const ended = await repo.revokeSessionOf(deps.db, user.id, sessionId, deps.clock.now());
  if (!ended) throw new AppError('not_found', accountMessages.sessionNotFound);
}

/** The code proves the phone: the user is logged in and then sets a new password. */
export async function forgotPassword(deps: AccountDeps, input: { phone: string; otp: string }, client?: SessionClient): Promise<SessionResult & { deviceCookie: string }> {
  const { db, clock, auth, config } = deps;
  const user = await repo.findUserByPhone(db, input.phone);
  if (!user) throw phoneError(accountMessages.phoneNotRegistered, 'phone_not_registered');
  if (user.locked_at) throw accountLocked();
  const otpId = await checkOtp(deps, input.phone, 'forgot_password', input.otp);
  if (!(await repo.consumeOtp(db, otpId, clock.now()))) {
    throw badRequest(accountMessages.otpUsed, { otp: accountMessages.otpUsed }, 'otp_invalid');
  }
  // Like a password change: whoever held the forgotten password is logged out everywhere.
  return {
    access_token: await auth.createSession(user.id, { endOthers: true, passwordResetUntil: resetWindowEnd(clock), client }),
    user: toApiUser(user),
    deviceCookie: issueDeviceCookie(config.deviceCookieSecret, user.id, clock.now()),
  };
}

/** A one-time link from the organisers, exchanged for a session of its user. */
export async function exchangeResetToken(deps: AccountDeps, token: string, client?: SessionClient): Promise<{ token: string; user: ApiUser }> {
  const { db, clock, auth } = deps;
  const userId = await repo.consumeResetToken(db, hashToken(token), clock.now());
  const user = userId === undefined ? undefined : await repo.findUserById(db, userId);
  if (!user) throw badRequest(accountMessages.resetLinkInvalid, undefined, 'reset_link_invalid');
  if (user.locked_at) throw accountLocked();
  return { token: await auth.createSession(user.id, { endOthers: true, passwordResetUntil: resetWindowEnd(clock), client }), user: toApiUser(user) };
}

/** How long a session opened by a one-time link or an SMS code may set the password without the current one. */
const PASSWORD_RESET_WINDOW_MS = 30 * 60_000;
const resetWindowEnd = (clock: AccountDeps['clock']) => new Date(clock.now().getTime() + PASSWORD_RESET_WINDOW_MS);
/** Wrong current passwords a session may give before it is ended (a stolen session cannot keep guessing). */
const MAX_WRONG_CURRENT_PASSWORDS = 5;

/**
 * New password; every other session of the user ends (a stolen one included). A session must
 * give the current password, unless a one-time link or an SMS code opened it less than 30 minutes
 * ago and it has not set one yet (the spec's reset flows). That one reset is claimed in the
 * transaction that sets the password (a conditional update of the session), so that of concurrent
 * changes through it exactly one sets the password and the others are asked for the current one.
 * Each wrong current password is counted on the session first, then checked, so concurrent guesses
 * are counted too; the fifth ends the session.
 */
export async function changePassword(
  deps: AccountDeps,
  user: { id: number; sessionId: number },
  input: { password: string; current_password?: string | undefined },
): Promise<void> {
  const { db, clock, config } = deps;
  const resetUntil = await repo.passwordResetUntilOf(db, user.sessionId);
  const byReset = resetUntil !== null && resetUntil > clock.now();
  if (!byReset && !input.current_password) throw currentPasswordError(inputMessages.currentPasswordRequired);
  // Admitted before a wrong try is counted: a refusal (503) costs the session nothing.
  const hashing = passwordHasherOf(config).admit(byReset ? 1 : 2);
  let passwordHash: string;
  try {
    if (!byReset) await checkCurrentPassword(deps, user, input.current_password!, hashing);
    passwordHash = await hashing.hash(input.password);
  } finally {
    hashing.release();
  }
  await db.transaction().execute(async (trx) => {
    const now = clock.now();
    if (byReset) {
      // Taken by a concurrent change through the same reset (its row lock waited for): used up.
      if (!(await repo.claimPasswordReset(trx, user.sessionId, now))) throw currentPasswordError(inputMessages.currentPasswordRequired);
    } else {
      await repo.endPasswordReset(trx, user.sessionId);
    }
    await repo.updatePasswordHash(trx, user.id, passwordHash);
    await repo.revokeOtherSessions(trx, user.id, user.sessionId, now);
  });
}

async function checkCurrentPassword(deps: AccountDeps, user: { id: number; sessionId: number }, currentPassword: string, hashing: PasswordWork) {
  const { db, clock } = deps;
  const tries = await repo.countWrongPassword(db, user.sessionId);
  if (tries > MAX_WRONG_CURRENT_PASSWORDS) {
    await repo.revokeSession(db, user.sessionId, clock.now());
    throw unauthorized(messages.unauthorized);
  }
  const account = await repo.findUserById(db, user.id);
  const valid = await hashing.verify(currentPassword, comparableHash(account?.password_hash) ?? DUMMY_PASSWORD_HASH);
  if (!valid || !comparableHash(account?.password_hash)) {
    if (tries === MAX_WRONG_CURRENT_PASSWORDS) {
      await repo.revokeSession(db, user.sessionId, clock.now());
      throw unauthorized(messages.unauthorized);
    }
    throw currentPasswordError(inputMessages.currentPasswordWrong);
  }
}

const currentPasswordError = (message: string) => new AppError('invalid_input', message, { current_password: message });
