// Deletes account rows that no rule reads any more, so the tables stay small over a contest.
// Safe with several app processes: plain DELETEs of rows past their use.
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';

const DAY_MS = 86_400_000;
/** Codes count towards the daily caps for 24 h; keep two days for support questions. */
const OTP_KEEP_MS = 2 * DAY_MS;
/** Longer than any login-failure window the configuration allows in practice. */
const LOGIN_FAILURE_KEEP_MS = DAY_MS;
/** Expired or revoked sessions and used or expired reset links: a week for audits. */
const EXPIRED_KEEP_MS = 7 * DAY_MS;

export async function purgeExpiredAuthRows(db: Db, clock: Clock): Promise<number> {
  const now = clock.now().getTime();
  const results = await Promise.all([
    db.deleteFrom('otp_codes').where('created_at', '<', new Date(now - OTP_KEEP_MS)).executeTakeFirst(),
    db.deleteFrom('login_failures').where('created_at', '<', new Date(now - LOGIN_FAILURE_KEEP_MS)).executeTakeFirst(),
    db
      .deleteFrom('sessions')
      .where((eb) => eb.or([eb('expires_at', '<', new Date(now - EXPIRED_KEEP_MS)), eb('revoked_at', '<', new Date(now - EXPIRED_KEEP_MS))]))
      .executeTakeFirst(),
    db.deleteFrom('password_reset_tokens').where('expires_at', '<', new Date(now - EXPIRED_KEEP_MS)).executeTakeFirst(),
  ]);
  return results.reduce((sum, result) => sum + Number(result.numDeletedRows), 0);
}
