// One-time password reset links /doi-mat-khau/{token}: issued by the organisers (command line
// and the back office), exchanged once for a session by GET /api/customer/change-password.
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
  return deps.db.transaction().execute((trx) => createResetLink(trx, deps, user.id, validHours));
}

/** A new link for `userId`, written with `db` (the caller's transaction: the link exists exactly when its change does). */
export async function createResetLink(
  db: Db,
  deps: { clock: Clock; publicUrl: string },
  userId: number,
  validHours = RESET_LINK_DEFAULT_HOURS,
): Promise<{ url: string; expiresAt: Date }> {
  const [link] = await createResetLinks(db, deps, [userId], validHours);
  return link!;
}

/** One new link per user, in two statements whatever the number (an import of 600 accounts). */
export async function createResetLinks(
  db: Db,
  deps: { clock: Clock; publicUrl: string },
  userIds: number[],
  validHours = RESET_LINK_DEFAULT_HOURS,
): Promise<{ userId: number; url: string; expiresAt: Date }[]> {
  if (userIds.length === 0) return [];
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + validHours * 3_600_000);
  const links = userIds.map((userId) => ({ userId, token: newToken() }));
  await repo.insertResetTokens(
    db,
    links.map(({ userId, token }) => ({ userId, tokenHash: hashToken(token) })),
    now,
    expiresAt,
  );
  return links.map(({ userId, token }) => ({ userId, url: `${deps.publicUrl}/doi-mat-khau/${token}`, expiresAt }));
}
