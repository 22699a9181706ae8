// SQL of the accounts feature: users, one-time codes, login failures, sessions, reset links.
import { sql } from 'kysely';
import type { Db } from '../../db/client';
import type { OtpPurpose } from '../../db/schema';

const USER_COLUMNS = ['id', 'phone', 'name', 'role', 'school_id', 'password_hash', 'locked_at', 'privacy_version'] as const;

export const findUserByPhone = (db: Db, phone: string) =>
  db.selectFrom('users').select(USER_COLUMNS).where('phone', '=', phone).executeTakeFirst();

export const findUserById = (db: Db, id: number) =>
  db.selectFrom('users').select(USER_COLUMNS).where('id', '=', id).executeTakeFirst();

export const phoneExists = async (db: Db, phone: string) =>
  Boolean(await db.selectFrom('users').select('id').where('phone', '=', phone).executeTakeFirst());

/** A new parent, with the privacy notice version they agreed to at registration. */
export const insertParent = (db: Db, phone: string, passwordHash: string, now: Date, privacyVersion: string) =>
  db
    .insertInto('users')
    .values({
      phone,
      password_hash: passwordHash,
      role: 'parent',
      school_id: null,
      created_at: now,
      privacy_version: privacyVersion,
      privacy_consented_at: now,
    })
    .onConflict((oc) => oc.column('phone').doNothing())
    .returning(USER_COLUMNS)
    .executeTakeFirst();

export const updatePasswordHash = (db: Db, userId: number, passwordHash: string) =>
  db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();

// Sessions -----------------------------------------------------------------------------------

export const revokeSession = (db: Db, sessionId: number, now: Date) =>
  db.updateTable('sessions').set({ revoked_at: now }).where('id', '=', sessionId).where('revoked_at', 'is', null).execute();

/** The user's live sessions (not ended, not expired), newest first. */
export const liveSessionsOf = (db: Db, userId: number, now: Date) =>
  db
    .selectFrom('sessions')
    .select(['id', 'created_at', 'expires_at', 'user_agent', 'ip'])
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('id', 'desc')
    .execute();

/** Ends a live session of this user; false when the user has no such live session. */
export const revokeSessionOf = async (db: Db, userId: number, sessionId: number, now: Date) =>
  Boolean(
    await db
      .updateTable('sessions')
      .set({ revoked_at: now })
      .where('id', '=', sessionId)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('id')
      .executeTakeFirst(),
  );

/** Every live session of the user except `keepSessionId` (a password change). */
export const revokeOtherSessions = (db: Db, userId: number, keepSessionId: number, now: Date) =>
  db
    .updateTable('sessions')
    .set({ revoked_at: now })
    .where('user_id', '=', userId)
    .where('id', '!=', keepSessionId)
    .where('revoked_at', 'is', null)
    .execute();

/** One more wrong current password in a password change of the session; the count so far. */
export const countWrongPassword = async (db: Db, sessionId: number) =>
  (
    await db
      .updateTable('sessions')
      .set((eb) => ({ wrong_password_tries: eb('wrong_password_tries', '+', 1) }))
      .where('id', '=', sessionId)
      .returning('wrong_password_tries')
      .executeTakeFirstOrThrow()
  ).wrong_password_tries;

/** Until when the session may set the password without the current one (null: it may not). */
export const passwordResetUntilOf = async (db: Db, sessionId: number) =>
  (await db.selectFrom('sessions').select('password_reset_until').where('id', '=', sessionId).executeTakeFirst())?.password_reset_until ?? null;

/**
 * The password change of a session opened by a link or an SMS code takes its one reset: true for
 * the first caller only (a concurrent one waits for the row's lock, then finds it taken).
 */
export const claimPasswordReset = async (db: Db, sessionId: number, now: Date) =>
  Boolean(
    await db
      .updateTable('sessions')
      .set({ password_reset_until: null, wrong_password_tries: 0 })
      .where('id', '=', sessionId)
      .where('password_reset_until', '>', now)
      .returning('id')
      .executeTakeFirst(),
  );

/** After a password change: the session's one reset is used and its wrong tries forgotten. */
export const endPasswordReset = (db: Db, sessionId: number) =>
  db.updateTable('sessions').set({ password_reset_until: null, wrong_password_tries: 0 }).where('id', '=', sessionId).execute();

// One-time codes -------------------------------------------------------------------------------

/**
 * Serialises the sends of one phone and of one client address across app processes for the rest
 * of the transaction (the cooldown and cap checks then see each other's rows). Phone first, then
 * address, always in that order, so two transactions never wait on each other in a cycle.
 */
export async function lockOtpSenders(db: Db, phone: string, ip: string) {
  await sql`SELECT pg_advisory_xact_lock(7316452, hashtext(${'otp-phone:' + phone}))`.execute(db);
  await sql`SELECT pg_advisory_xact_lock(7316452, hashtext(${'otp-ip:' + ip}))`.execute(db);
}

/** The newest send to `phone` for `purpose` (delivered or under way), for the cooldown. */
export const lastOtpSend = (db: Db, phone: string, purpose: OtpPurpose) =>
  db
    .selectFrom('otp_codes')
    .select(['created_at'])
    .where('phone', '=', phone)
    .where('purpose', '=', purpose)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();

export async function countOtpSendsSince(db: Db, column: 'phone' | 'ip', value: string, since: Date): Promise<number> {
  const row = await db
    .selectFrom('otp_codes')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where(column, '=', value)
    .where('created_at', '>', since)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export const insertOtp = (
  db: Db,
  values: { phone: string; purpose: OtpPurpose; codeHash: string; ip: string; createdAt: Date; expiresAt: Date },
) =>
  db
    .insertInto('otp_codes')
    .values({
      phone: values.phone,
      purpose: values.purpose,
      code_hash: values.codeHash,
      ip: values.ip,
      created_at: values.createdAt,
      expires_at: values.expiresAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();

/** Marks the code delivered and retires the earlier codes of the same phone and purpose. */
export async function markOtpSent(db: Db, id: number, phone: string, purpose: OtpPurpose, now: Date) {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('otp_codes').set({ status: 'sent' }).where('id', '=', id).execute();
    await trx
      .updateTable('otp_codes')
      .set({ superseded_at: now })
      .where('phone', '=', phone)
      .where('purpose', '=', purpose)
      .where('id', '<', id)
      .where('superseded_at', 'is', null)
      .execute();
  });
}

/** A send the gateway refused is forgotten: it does not count for the cooldown or the caps. */
export const deleteOtp = (db: Db, id: number) => db.deleteFrom('otp_codes').where('id', '=', id).execute();

/** The code a user can be holding now: the newest delivered one, not replaced by a newer one. */
export const currentOtp = (db: Db, phone: string, purpose: OtpPurpose) =>
  db
    .selectFrom('otp_codes')
    .select(['id', 'code_hash', 'attempts', 'expires_at', 'used_at'])
    .where('phone', '=', phone)
    .where('purpose', '=', purpose)
    .where('status', '=', 'sent')
    .where('superseded_at', 'is', null)
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();

/**
 * Reserves one verification of the code before its hash is compared: concurrent guesses cannot
 * get more than `maxAttempts` comparisons between them. Returns the attempts used, or undefined
 * when the code is used up or out of tries.
 */
export async function reserveOtpAttempt(db: Db, id: number, maxAttempts: number): Promise<number | undefined> {
  const row = await db
    .updateTable('otp_codes')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .where('attempts', '<', maxAttempts)
    .where('used_at', 'is', null)
    .returning('attempts')
    .executeTakeFirst();
  return row?.attempts;
}

/** Single use: only the first caller gets true. */
export async function consumeOtp(db: Db, id: number, now: Date): Promise<boolean> {
  const row = await db
    .updateTable('otp_codes')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('id')
    .executeTakeFirst();
  return Boolean(row);
}

// Login tries and failures ----------------------------------------------------------------------

/**
 * Serialises the login tries of one phone across app processes for the transaction (its count and
 * its pending row then see each other). Only the phone: the tries of one address never wait for
 * each other, a school's storm of logins runs in parallel.
 */
export async function lockLoginPhone(db: Db, phone: string) {
  await sql`SELECT pg_advisory_xact_lock(7316453, hashtext(${'login-phone:' + phone}))`.execute(db);
}

/** The phone's failures and tries under way since `since`; of them, those of `device` (when given). */
export async function countPhoneTries(db: Db, phone: string, since: Date, device: string | undefined): Promise<{ phone: number; device: number }> {
  const row = await db
    .selectFrom('login_failures')
    .select((eb) => [
      eb.fn.countAll<number>().as('phone'),
      // No device: a condition that is never true (the column is null or a nonce, never '').
      eb.fn.countAll<number>().filterWhere('device', '=', device ?? '').as('device'),
    ])
    .where('phone', '=', phone)
    .where('created_at', '>', since)
    .executeTakeFirstOrThrow();
  return { phone: Number(row.phone), device: Number(row.device) };
}

/** The address's finished failures of unknown devices since `since` (what its limit counts). */
export async function countAddressFailures(db: Db, ip: string, since: Date): Promise<number> {
  const row = await db
    .selectFrom('login_failures')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('ip', '=', ip)
    .where('created_at', '>', since)
    .where('pending', '=', false)
    .where('device', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** A try under way: counted for its phone (and device) until it ends. */
export async function insertPendingTry(db: Db, values: { phone: string; ip: string; device: string | null; now: Date }): Promise<number> {
  const row = await db
    .insertInto('login_failures')
    .values({ phone: values.phone, ip: values.ip, device: values.device, created_at: values.now, pending: true })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The try failed: from now on it also counts for its address (when from an unknown device). */
export const markTryFailed = (db: Db, id: number) => db.updateTable('login_failures').set({ pending: false }).where('id', '=', id).execute();

/**
 * The phone's owner is back: this try and the phone's earlier failures are forgiven (a parent's
 * typos then weigh on neither the phone nor the school's address). Other tries still under way
 * stay counted until they end.
 */
export const forgiveTriesOfPhone = (db: Db, phone: string, tryId: number) =>
  db
    .deleteFrom('login_failures')
    .where('phone', '=', phone)
    .where((eb) => eb.or([eb('pending', '=', false), eb('id', '=', tryId)]))
    .execute();

// Password reset links -------------------------------------------------------------------------

/** One live link per user: a new link retires the earlier ones. Run it inside a transaction. */
export async function insertResetTokens(db: Db, links: { userId: number; tokenHash: string }[], now: Date, expiresAt: Date) {
  const userIds = links.map((link) => link.userId);
  await db.deleteFrom('password_reset_tokens').where('user_id', 'in', userIds).where('used_at', 'is', null).execute();
  await db
    .insertInto('password_reset_tokens')
    .values(links.map((link) => ({ user_id: link.userId, token_hash: link.tokenHash, created_at: now, expires_at: expiresAt })))
    .execute();
}

/** Single use: marks the link used and returns its user, or undefined when unknown, used or expired. */
export async function consumeResetToken(db: Db, tokenHash: string, now: Date): Promise<number | undefined> {
  const row = await db
    .updateTable('password_reset_tokens')
    .set({ used_at: now })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .returning('user_id')
    .executeTakeFirst();
  return row?.user_id;
}
