// The few reads the metrics need, taken at scrape time (never per request).
import { sql } from 'kysely';
import type { Db } from '../../db/client';

/** Up to this many, exams in progress are counted; beyond, read from the statistics. */
export const EXACT_COUNT_UP_TO = 10_000;

/**
 * Exams in progress in every contest (status 2). Counting them reads every entry of the partial
 * index and, as saves keep their pages dirty, every row: about 200-350 ms of PostgreSQL at
 * 100,000 exams in progress, on each process, at every scrape (issue 20). So past
 * EXACT_COUNT_UP_TO the figure is the planner's count of that index's entries (pg_class.reltuples),
 * which autovacuum and autoanalyze keep within about a minute on exam day (every save is a change
 * of the table); a save is a HOT update, which adds no entry. Below it, and before the first
 * statistics, an exact count, which is cheap there.
 */
export async function countExamsInProgress(db: Db): Promise<number> {
  const estimate = await sql<{ n: number }>`SELECT reltuples::float8 AS n FROM pg_class WHERE oid = 'exams_in_progress_deadline_idx'::regclass`.execute(db);
  const estimated = Number(estimate.rows[0]?.n ?? -1);
  if (estimated >= EXACT_COUNT_UP_TO) return Math.round(estimated);
  const row = await db.selectFrom('exams').select((eb) => eb.fn.countAll<number>().as('count')).where('status', '=', 2).executeTakeFirstOrThrow();
  return Number(row.count);
}
