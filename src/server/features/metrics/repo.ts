// The few reads the metrics need, taken at scrape time (never per request).
import type { Db } from '../../db/client';

/** Exams in progress in every contest (status 2); read from the partial index of those exams. */
export async function countExamsInProgress(db: Db): Promise<number> {
  const row = await db.selectFrom('exams').select((eb) => eb.fn.countAll<number>().as('count')).where('status', '=', 2).executeTakeFirstOrThrow();
  return Number(row.count);
}
