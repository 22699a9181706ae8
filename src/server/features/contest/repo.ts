import type { Db } from '../../db/client';
import type { Contest } from '../../db/schema';

/** The contest the site runs: the most recently created one. */
export async function getCurrentContest(db: Db): Promise<Contest | undefined> {
  return db.selectFrom('contests').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirst();
}
