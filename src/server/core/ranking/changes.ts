// Results out of date (issue 42.1): one mechanism for every back-office change that can move a
// prize once results are computed. The change marks the current contest in its own transaction
// (through its audit entry: recordAudit's `movesResults`); a computation notes the contest's count
// before it reads anything; the results are out of date while the count is above the one noted,
// and the changes since are the audit entries listed past it (0043_result_changes.sql).
import { sql } from 'kysely';
import type { Db } from '../../db/client';

/** Marks the current contest's results as out of date by the change of audit entry `auditId`. */
export async function markResultsChanged(trx: Db, auditId: string): Promise<void> {
  await sql`
    WITH bumped AS (
      UPDATE contests SET result_changes = result_changes + 1 WHERE is_current RETURNING id, result_changes
    )
    INSERT INTO result_changes (contest_id, seq, audit_id) SELECT id, result_changes, ${auditId} FROM bumped
  `.execute(trx);
}

/**
 * The contest's count of changes now. `lock`: waits for a change being made to commit, and holds
 * further changes off until the caller's transaction ends (publishing reads it so).
 */
export async function resultChangeCount(db: Db, contestId: number, lock = false): Promise<number> {
  let query = db.selectFrom('contests').select('result_changes').where('id', '=', contestId);
  if (lock) query = query.forShare();
  const row = await query.executeTakeFirstOrThrow();
  return row.result_changes;
}

export interface ResultChange {
  at: string;
  kind: string;
  summary: string;
  actor_phone: string;
}

/** The changes made after the computation that saw `seen` of them: their number and the newest `limit`. */
export async function changesSince(db: Db, contestId: number, seen: number, limit = 20): Promise<{ count: number; items: ResultChange[] }> {
  const since = db.selectFrom('result_changes').where('result_changes.contest_id', '=', contestId).where('result_changes.seq', '>', seen);
  const [rows, total] = await Promise.all([
    since
      .innerJoin('audit_log', 'audit_log.id', 'result_changes.audit_id')
      .select(['audit_log.at', 'audit_log.kind', 'audit_log.summary', 'audit_log.actor_phone'])
      .orderBy('result_changes.seq', 'desc')
      .limit(limit)
      .execute(),
    since.select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow(),
  ]);
  return { count: Number(total.n), items: rows.map((row) => ({ ...row, at: row.at.toISOString() })) };
}
