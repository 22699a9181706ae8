// Each ended season's school names and units as they were (0046, decision 038): written by the
// write paths only (the season switch, the catalogue's move), never by a read. The readers of a
// season join the view season_schools, which takes the snapshot of an ended season and today's
// catalogue otherwise.
import { sql } from 'kysely';
import type { Db } from './client';

/**
 * Keeps the catalogue as it is now for the season `contestId` (the one ending), or for every season
 * that is not current when none is named. A school already kept for a season is left as it was: a
 * snapshot is taken once.
 */
export async function snapshotSchools(db: Db, contestId?: number): Promise<void> {
  await sql`
    INSERT INTO school_snapshots (contest_id, school_id, name, address, district_id, district_name, former_province)
    SELECT c.id, s.id, s.name, s.address, s.district_id, d.name, d.former_province
    FROM contests c CROSS JOIN schools s JOIN districts d ON d.id = s.district_id
    WHERE ${contestId === undefined ? sql`NOT c.is_current` : sql`c.id = ${contestId}`}
    ON CONFLICT (contest_id, school_id) DO NOTHING`.execute(db);
}
