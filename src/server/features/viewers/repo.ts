// SQL of the education offices' read-only area (decision 039): a viewer's units, the schools of a
// scope with their pupils, and the results' per-school lines. The live counts are core's
// (core/activity-counts.ts, the dashboard's own statements with a unit filter).
import { sql } from 'kysely';
import type { Db } from '../../db/client';
import { inScope, type UnitScope } from '../../core/activity-counts';

/** A unit viewer's units (0051); a province viewer's: every unit of the catalogue. */
export function unitsOf(db: Db, user: { id: number; role: string }) {
  if (user.role === 'province_viewer') return db.selectFrom('districts').select(['id', 'name']).execute();
  return db
    .selectFrom('viewer_units')
    .innerJoin('districts', 'districts.id', 'viewer_units.district_id')
    .select(['districts.id', 'districts.name'])
    .where('viewer_units.user_id', '=', user.id)
    .execute();
}


export interface ScopeSchool {
  id: number;
  name: string;
  district_id: number;
  unit: string;
  pupil_count: number;
  /** Closed for the current season (0046): listed only when it still has a line. */
  closed: boolean;
}

/** The schools of the scope's units, as the current season names them. */
export async function schoolsOf(db: Db, contestId: number, scope: UnitScope): Promise<ScopeSchool[]> {
  const { rows } = await sql<ScopeSchool>`
    SELECT s.id, s.name, s.district_id, d.name AS unit, coalesce(s.pupil_count, 0)::int AS pupil_count,
           (s.closed_from_contest_id IS NOT NULL AND s.closed_from_contest_id <= ${contestId}) AS closed
      FROM schools s JOIN districts d ON d.id = s.district_id
     WHERE true ${inScope(scope, 's.district_id')}`.execute(db);
  return rows;
}

/** The results' lines per school of the scope: finished contestants and the sum of their best points (a mean per school or unit). */
export async function finishedPerSchool(db: Db, contestId: number, scope: UnitScope) {
  const { rows } = await sql<{ school_id: number; finished: string | number; sum_points: number | null }>`
    SELECT r.school_id, count(*) AS finished, sum(r.points)::float8 AS sum_points
      FROM individual_results r JOIN schools s ON s.id = r.school_id
     WHERE r.contest_id = ${contestId} ${inScope(scope, 's.district_id')}
     GROUP BY r.school_id`.execute(db);
  return rows.map((row) => ({ school_id: row.school_id, finished: Number(row.finished), sum_points: Number(row.sum_points ?? 0) }));
}

/** A screen's own refresh (every 30 s) is the same view: one line per page and account in this many minutes. */
export const VIEW_REPEAT_MINUTES = 10;

/**
 * A viewer's view in the audit log (viewer.view), unless the same account saw the same page (its
 * path and query) within VIEW_REPEAT_MINUTES: an open tab would otherwise write 120 lines an hour.
 */
export async function recordView(db: Db, actor: { id: number; phone: string }, summary: string, details: { path: string } & Record<string, unknown>) {
  await sql`
    INSERT INTO audit_log (actor_id, actor_phone, kind, summary, details)
    SELECT ${actor.id}, ${actor.phone}, 'viewer.view', ${summary.slice(0, 1000)}, ${JSON.stringify(details)}::jsonb
     WHERE NOT EXISTS (
       SELECT 1 FROM audit_log
        WHERE actor_phone = ${actor.phone} AND kind = 'viewer.view' AND at > now() - make_interval(mins => ${VIEW_REPEAT_MINUTES})
          AND details->>'path' = ${details.path})`.execute(db);
}
