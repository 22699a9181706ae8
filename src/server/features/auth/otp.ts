// One-time codes sent by SMS: issue (cooldown, daily caps, delivery) and verify (expiry, single
// use, 5 tries). Codes are stored only as their scrypt hash with a per-code salt.
import { accountMessages } from '../../../shared/messages';
import { OTP_LENGTH, OTP_MAX_WRONG_TRIES, OTP_VALID_SECONDS } from '../../../shared/rules';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { OtpPurpose } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { AppError, badRequest, tooManyRequests } from '../../lib/errors';
import { passwordHasherOf, type PasswordWork } from '../../lib/password';
import type { SmsSender } from '../../lib/sms';
import { randomDigits } from '../../lib/tokens';
import * as repo from './repo';

const DAY_MS = 86_400_000;

/**
 * The text of the SMS. Without diacritics on purpose: Vietnamese carriers register brand-name
 * templates in unaccented form and reject other text, and an accented message is sent as UCS-2
 * (70 characters a segment instead of 160), doubling the price of every code.
 */
export const otpSmsText = (code: string) =>
  `Ma xac thuc cuoc thi Dai su Van hoa doc: ${code}. Ma co hieu luc 10 phut. Khong chia se ma nay cho nguoi khac.`;

export interface OtpDeps {
  db: Db;
  clock: Clock;
  config: Config;
  sms: SmsSender;
}

/** Sends a new code; returns the cooldown in seconds before the next one may be asked for. */
export async function issueOtp(deps: OtpDeps, phone: string, purpose: OtpPurpose, ip: string): Promise<number> {
  const { db, clock, config, sms } = deps;
  const code = randomDigits(OTP_LENGTH);
  // Hashed before the transaction: scrypt takes tens of milliseconds and PGlite serialises
  // transactions. Through the hashing queue (decision 031): a refusal (503) has changed nothing.
  const codeHash = await passwordHasherOf(config).hash(code);
  const limits = config.limits;

  const { id } = await db.transaction().execute(async (trx) => {
    await repo.lockOtpSenders(trx, phone, ip);
    const now = clock.now();
    const last = await repo.lastOtpSend(trx, phone, purpose);
    if (last) {
      const waitMs = last.created_at.getTime() + limits.otpResendCooldownSeconds * 1000 - now.getTime();
      if (waitMs > 0) {
        // resend_after: the screen counts the wait down on its button (seconds).
        const seconds = Math.ceil(waitMs / 1000);
        const message = accountMessages.otpCooldown(seconds);
        throw new AppError('too_many_requests', message, { phone: message }, { resend_after: seconds });
      }
    }
    const dayAgo = new Date(now.getTime() - DAY_MS);
    if ((await repo.countOtpSendsSince(trx, 'phone', phone, dayAgo)) >= limits.otpDailyCapPerPhone) {
      throw tooManyRequests(accountMessages.otpDailyCapPhone, { phone: accountMessages.otpDailyCapPhone });
    }
    if ((await repo.countOtpSendsSince(trx, 'ip', ip, dayAgo)) >= limits.otpDailyCapPerIp) {
      throw tooManyRequests(accountMessages.otpDailyCapIp, { phone: accountMessages.otpDailyCapIp });
    }
    return repo.insertOtp(trx, {
      phone,
      purpose,
      codeHash,
      ip,
      createdAt: now,
      expiresAt: new Date(now.getTime() + OTP_VALID_SECONDS * 1000),
    });
  });

  try {
    await sms.send(phone, otpSmsText(code), { otpCode: code });
  } catch {
    // Not delivered: forget this send (no cooldown, no cap) and keep the previous code valid.
    await repo.deleteOtp(db, id);
    throw new AppError('sms_failed', accountMessages.smsFailed, { phone: accountMessages.smsFailed });
  }
  await repo.markOtpSent(db, id, phone, purpose, clock.now());
  return limits.otpResendCooldownSeconds;
}

/**
 * Checks `code` against the current code of the phone and purpose. Returns the code's id, to be
 * consumed (repo.consumeOtp) in the same transaction as what it authorises. Throws a 400 with
 * errors.otp otherwise. The comparison is a hash: one admitted by the caller (`hashing`), or else
 * admitted here once the code is known to be current, before its try is counted (a refusal, 503,
 * costs no try).
 */
export async function checkOtp(
  deps: Pick<OtpDeps, 'db' | 'clock' | 'config'>,
  phone: string,
  purpose: OtpPurpose,
  code: string,
  hashing?: PasswordWork,
): Promise<number> {
  const { db, clock } = deps;
  const fail = (message: string) => badRequest(message, { otp: message }, 'otp_invalid');
  const current = await repo.currentOtp(db, phone, purpose);
  if (!current) throw fail(accountMessages.otpMissing);
  if (current.used_at) throw fail(accountMessages.otpUsed);
  if (current.attempts >= OTP_MAX_WRONG_TRIES) throw fail(accountMessages.otpTooManyTries);
  if (current.expires_at.getTime() <= clock.now().getTime()) throw fail(accountMessages.otpExpired);

  const own = hashing ? undefined : passwordHasherOf(deps.config).admit(1);
  try {
    const attempts = await repo.reserveOtpAttempt(db, current.id, OTP_MAX_WRONG_TRIES);
    if (attempts === undefined) throw fail(accountMessages.otpTooManyTries);
    if (!(await (hashing ?? own)!.verify(code, current.code_hash))) throw fail(accountMessages.otpWrong(OTP_MAX_WRONG_TRIES - attempts));
    return current.id;
  } finally {
    own?.release();
  }
}
