// Erasing parents' accounts: one set of statements for the parent's own deletion, the organiser's
// deletion on request and the retention job, run inside the caller's transaction.
// - Contestants without exams are deleted.
// - Contestants with exams keep their school, class and scores under a placeholder name, so that
//   the ranking and the schools' statistics do not change; their certificates (which print the
//   name) are deleted, their codes kept verifiable without it (erased_certificates); a prize of published results is copied to prize_records first (who
//   received what stays on record with the organiser, nothing else).
// - The account row is deleted, or kept anonymised while such contestants need it (placeholder
//   phone, no name, no usable password); every session and reset link ends.
import { sql } from 'kysely';
import type { Db } from '../../db/client';

/** 'Thí sinh đã xoá #123': the name an anonymised contestant keeps. */
export const ERASED_CONTESTANT_PREFIX = 'Thí sinh đã xoá #';

export interface ErasedCounts {
  accounts: number;
  contestantsDeleted: number;
  contestantsAnonymised: number;
}

export async function eraseAccounts(trx: Db, accounts: { id: number; phone: string }[], now: Date): Promise<ErasedCounts> {
  if (accounts.length === 0) return { accounts: 0, contestantsDeleted: 0, contestantsAnonymised: 0 };
  const userIds = accounts.map((account) => account.id);
  const contestants = await trx
    .selectFrom('contestants')
    .select((eb) => [
      'contestants.id',
      'contestants.user_id',
      eb.exists(eb.selectFrom('exams').select('exams.id').whereRef('exams.contestant_id', '=', 'contestants.id')).as('has_exams'),
    ])
    .where('contestants.user_id', 'in', userIds)
    .forUpdate()
    .execute();
  const kept = contestants.filter((c) => c.has_exams);
  const keptIds = kept.map((c) => c.id);
  const droppedIds = contestants.filter((c) => !c.has_exams).map((c) => c.id);

  if (droppedIds.length) await trx.deleteFrom('contestants').where('id', 'in', droppedIds).execute();
  if (keptIds.length) {
    await recordPrizes(trx, keptIds, now);
    await trx
      .updateTable('contestants')
      .set({ fullname: sql`${ERASED_CONTESTANT_PREFIX} || contestants.id::text`, anonymised_at: now, name_consent_version: null, name_consented_at: null })
      .where('id', 'in', keptIds)
      .execute();
    // Their codes stay verifiable without the name (0023_erased_certificates.sql).
    await sql`
      INSERT INTO erased_certificates (code, kind, title, contest, date, revoked_at, erased_at)
      SELECT code, kind, content->>'title', content->>'contest', content->>'date', revoked_at, ${now}
      FROM certificates WHERE contestant_id IN (${sql.join(keptIds)})
      ON CONFLICT (code) DO NOTHING
    `.execute(trx);
    await trx.deleteFrom('certificates').where('contestant_id', 'in', keptIds).execute();
  }

  // Everything about the phones that is not an account row: codes, failed logins.
  const phones = accounts.map((account) => account.phone);
  await trx.deleteFrom('otp_codes').where('phone', 'in', phones).execute();
  await trx.deleteFrom('login_failures').where('phone', 'in', phones).execute();
  await trx.deleteFrom('sessions').where('user_id', 'in', userIds).execute();
  await trx.deleteFrom('password_reset_tokens').where('user_id', 'in', userIds).execute();
  // Practice rounds (0017_practice.sql) count for nothing: they go at once, anonymised children's too.
  await trx.deleteFrom('practice_exams').where('user_id', 'in', userIds).execute();

  const stillNeeded = [...new Set(kept.map((c) => c.user_id))];
  const gone = userIds.filter((id) => !stillNeeded.includes(id));
  if (gone.length) await trx.deleteFrom('users').where('id', 'in', gone).execute();
  if (stillNeeded.length) {
    // '00' + the id: 11 digits no Vietnamese number starts with, unique because the id is.
    await trx
      .updateTable('users')
      .set({
        phone: sql`'00' || lpad(users.id::text, 9, '0')`,
        name: '',
        password_hash: 'deleted',
        privacy_version: null,
        privacy_consented_at: null,
        last_login_at: null,
        deleted_at: now,
      })
      .where('id', 'in', stillNeeded)
      .execute();
  }
  return { accounts: accounts.length, contestantsDeleted: droppedIds.length, contestantsAnonymised: keptIds.length };
}

/** Copies the prizes of published results of these contestants to prize_records. */
async function recordPrizes(trx: Db, contestantIds: number[], now: Date) {
  const ids = sql.join(contestantIds);
  await sql`
    INSERT INTO prize_records (contest_id, contestant_id, fullname, school_name, class_name, prize_name, amount, recorded_at)
    SELECT ir.contest_id, ir.contestant_id, c.fullname, s.name, ir.class_name, prize.name, prize.amount, ${now}
    FROM individual_results ir
    JOIN result_runs rr ON rr.contest_id = ir.contest_id AND rr.published_at IS NOT NULL
    JOIN contestants c ON c.id = ir.contestant_id
    JOIN schools s ON s.id = ir.school_id
    CROSS JOIN LATERAL (
      SELECT ir.prize_name AS name, coalesce(ir.prize_amount, 0) AS amount WHERE ir.prize_name IS NOT NULL
      UNION ALL
      SELECT pt.name, coalesce(ir.school_top_amount, pt.amount)
      FROM prize_tiers pt WHERE ir.school_top AND pt.contest_id = ir.contest_id AND pt.kind = 'school_pupils'
    ) prize
    WHERE ir.contestant_id IN (${ids})
    ON CONFLICT DO NOTHING
  `.execute(trx);
}
