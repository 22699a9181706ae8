// Retention of personal data (issue 15). An account's data is kept until `retention_months` after
// the results date of the contest it was last active for (its last login, enrolment or exam; an
// account active after the latest results date counts from that activity), then erased like a
// deletion (erase.ts). Audit entries older than the current contest's limit are deleted, and
// prize records after the ten years accounting documents are kept.
// Run once a day by any app process (jobs.ts); two processes never run it at once.
import { sql } from 'kysely';
import { DEFAULT_RETENTION_MONTHS } from '../../../shared/privacy';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { eraseAccounts } from './erase';

/** Accounts erased per transaction: short transactions, locks held briefly. */
const BATCH = 500;
/** Prize records are accounting records: kept ten years (Law on Accounting 2015, art. 41). */
const PRIZE_RECORD_YEARS = 10;
/** The job runs at most once in this time, whichever process asks. */
const RUN_EVERY_MS = 20 * 3600_000;

export interface RetentionOutcome {
  accounts_erased: number;
  contestants_anonymised: number;
  contestants_deleted: number;
  audit_entries_deleted: number;
  prize_records_deleted: number;
}

/**
 * Parent accounts whose retention ended by `now`, with the date it ended; `limit` caps the list.
 * Deleted (anonymised) accounts hold no personal data any more and are left out.
 */
export function accountsPastRetention(db: Db, now: Date, limit: number) {
  return sql<{ id: number; phone: string; ends_at: Date }>`
    WITH activity AS (
      SELECT u.id, u.phone, greatest(
        u.created_at,
        u.last_login_at,
        (SELECT max(c.created_at) FROM contestants c WHERE c.user_id = u.id),
        (SELECT max(e.start_time) FROM exams e WHERE e.user_id = u.id)
      ) AS last_active
      FROM users u
      WHERE u.role = 'parent' AND u.deleted_at IS NULL
    ), ends AS (
      SELECT a.id, a.phone,
        coalesce(anchor.results_at, a.last_active) + make_interval(months => coalesce(anchor.retention_months, latest.retention_months, ${DEFAULT_RETENTION_MONTHS})) AS ends_at
      FROM activity a
      LEFT JOIN LATERAL (
        SELECT c.results_at, c.retention_months FROM contests c WHERE c.results_at >= a.last_active ORDER BY c.results_at LIMIT 1
      ) anchor ON true
      LEFT JOIN LATERAL (SELECT c.retention_months FROM contests c ORDER BY c.results_at DESC LIMIT 1) latest ON true
    )
    SELECT id, phone, ends_at FROM ends WHERE ends_at <= ${now} ORDER BY id LIMIT ${limit}
  `
    .execute(db)
    .then((result) => result.rows);
}

/** The current (latest) contest's retention setting and the date it ends for that contest. */
export async function currentRetention(db: Db) {
  const contest = await db.selectFrom('contests').select(['name', 'results_at', 'retention_months']).orderBy('id', 'desc').limit(1).executeTakeFirst();
  const months = contest?.retention_months ?? DEFAULT_RETENTION_MONTHS;
  const endsAt = contest ? new Date(contest.results_at) : undefined;
  endsAt?.setUTCMonth(endsAt.getUTCMonth() + months);
  return { months, contest: contest?.name ?? null, resultsAt: contest?.results_at ?? null, endsAt: endsAt ?? null };
}

/** Erases what is past the limit at the clock's now, and records the run (in `runId` when claimed). */
export async function applyRetention({ db, clock }: { db: Db; clock: Clock }, runId?: number): Promise<RetentionOutcome> {
  const now = clock.now();
  const outcome: RetentionOutcome = { accounts_erased: 0, contestants_anonymised: 0, contestants_deleted: 0, audit_entries_deleted: 0, prize_records_deleted: 0 };
  for (;;) {
    const erased = await db.transaction().execute(async (trx) => {
      const due = await accountsPastRetention(trx, now, BATCH);
      const counts = await eraseAccounts(trx, due, now);
      outcome.accounts_erased += counts.accounts;
      outcome.contestants_anonymised += counts.contestantsAnonymised;
      outcome.contestants_deleted += counts.contestantsDeleted;
      return due.length;
    });
    if (erased < BATCH) break;
  }
  await db.transaction().execute(async (trx) => {
    const { months } = await currentRetention(trx);
    const auditLimit = new Date(now);
    auditLimit.setUTCMonth(auditLimit.getUTCMonth() - months);
    const prizeLimit = new Date(now);
    prizeLimit.setUTCFullYear(prizeLimit.getUTCFullYear() - PRIZE_RECORD_YEARS);
    // The audit log refuses deletes except in a transaction that says it is this job (0012).
    await sql`SELECT set_config('contest.retention_purge', 'on', true)`.execute(trx);
    const audit = await trx.deleteFrom('audit_log').where('at', '<', auditLimit).executeTakeFirst();
    const prizes = await trx.deleteFrom('prize_records').where('recorded_at', '<', prizeLimit).executeTakeFirst();
    outcome.audit_entries_deleted = Number(audit.numDeletedRows);
    outcome.prize_records_deleted = Number(prizes.numDeletedRows);
    if (runId) await trx.updateTable('retention_runs').set(outcome).where('id', '=', runId).execute();
    else await trx.insertInto('retention_runs').values({ ran_at: now, ...outcome }).execute();
  });
  return outcome;
}

/**
 * The daily job: claims a run (a row in retention_runs) unless one was claimed in the last 20
 * hours, under a lock so that two processes never both claim, then applies the retention.
 */
export async function runRetentionJob(db: Db, clock: Clock): Promise<number> {
  const now = clock.now();
  const runId = await db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(731646, 1)`.execute(trx);
    const last = await trx.selectFrom('retention_runs').select('ran_at').orderBy('ran_at', 'desc').limit(1).executeTakeFirst();
    if (last && now.getTime() - last.ran_at.getTime() < RUN_EVERY_MS) return undefined;
    const empty = { accounts_erased: 0, contestants_anonymised: 0, contestants_deleted: 0, audit_entries_deleted: 0, prize_records_deleted: 0 };
    const row = await trx.insertInto('retention_runs').values({ ran_at: now, ...empty }).returning('id').executeTakeFirstOrThrow();
    return row.id;
  });
  if (!runId) return 0;
  const outcome = await applyRetention({ db, clock }, runId);
  return outcome.accounts_erased + outcome.audit_entries_deleted + outcome.prize_records_deleted;
}
