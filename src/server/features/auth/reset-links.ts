// One-time password reset links /doi-mat-khau/{token}: issued by the organisers (command line
// now, back office later), exchanged once for a session by GET /api/customer/change-password.
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { notFound } from '../../lib/errors';
import { hashToken, newToken } from '../../lib/tokens';
import { accountMessages } from '../../../shared/messages';
import * as repo from './repo';

/** Long enough for a school administrator to find the message, short enough to go stale. */
export const RESET_LINK_DEFAULT_HOURS = 72;

export async function issueResetLink(
  deps: { db: Db; clock: Clock; publicUrl: string },
  phone: string,
  validHours = RESET_LINK_DEFAULT_HOURS,
): Promise<{ url: string; expiresAt: Date }> {
  const user = await repo.findUserByPhone(deps.db, phone);
  if (!user) throw notFound(accountMessages.phoneNotRegistered);
  const token = newToken();
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + validHours * 3_600_000);
  await repo.replaceResetToken(deps.db, user.id, hashToken(token), now, expiresAt);
  return { url: `${deps.publicUrl}/doi-mat-khau/${token}`, expiresAt };
}
