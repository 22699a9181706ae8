// The contest's live counts: registrations, exams in progress, started and finished today and since
// the window opened, by unit, school and class group. The organiser's dashboard (features/admin/
// exam-days) counts the whole province with them; the education offices' viewers (features/viewers,
// decision 039) count their scope: `scope`, a list of units (district ids), adds a join to the
// exams' contestants and a filter on their unit, and leaves every other term as the dashboard's, so
// that a province viewer (no scope) runs the dashboard's very statements.
import { sql, type RawBuilder } from 'kysely';
import type { Db } from '../db/client';

/** Viet Nam keeps UTC+7 all year (no daylight saving time). */
const VIETNAM_OFFSET_MS = 7 * 3_600_000;
const DAY_MS = 86_400_000;

/** Midnight of `now`'s day in Asia/Ho_Chi_Minh: "today" of the counts. */
export function vietnamDayStart(now: Date): Date {
  const local = now.getTime() + VIETNAM_OFFSET_MS;
  return new Date(local - (local % DAY_MS) - VIETNAM_OFFSET_MS);
}

/** Units counted (district ids); undefined: the whole province. */
export type UnitScope = readonly number[] | undefined;

/** `AND <column> IN (scope)`, nothing for the whole province (an empty scope matches nothing). */
export const inScope = (scope: UnitScope, column: string) =>
  scope === undefined ? sql`` : scope.length === 0 ? sql`AND false` : sql`AND ${sql.ref(column)} IN (${sql.join(scope.map((id) => sql`${id}::int`))})`;

/** The exams counted, `e`: with their contestants `c` when a scope filters them by unit. */
const examsOf = (scope: UnitScope) => (scope === undefined ? sql`exams e` : sql`exams e JOIN contestants c ON c.id = e.contestant_id`);

/** Registrations and names: they change slowly on exam day, so the dashboard reads them only every minute. */
export interface Registrations {
  parents: number;
  contestants: number;
  /** Contestants per district, school and class group, with the line's name (and a school's district). */
  rows: { level: Level; id: number; contestants: number }[];
  names: { level: Level; id: number; name: string; district: string; former_province?: string }[];
}

/** Today's activity and the contest's exams, recounted at every refresh. */
export interface ActivityTotals {
  in_progress: number;
  started_today: number;
  finished_today: number;
  started_total: number;
  finished_total: number;
}

export type Level = 'district' | 'school' | 'class_group';
type Counted = { district_id: number | null; school_id: number | null; class_group_id: number | null };

const levelOf = (row: Counted): { level: Level; id: number } =>
  row.school_id !== null
    ? { level: 'school', id: row.school_id }
    : row.district_id !== null
      ? { level: 'district', id: row.district_id }
      : { level: 'class_group', id: row.class_group_id! };

/** The current season's contestants per district, school and class group (of the scope). */
export async function contestantsPerLine(db: Db, scope?: UnitScope): Promise<Registrations['rows']> {
  // The current season's contestants (0033_seasons.sql).
  const { rows } = await sql<Counted & { n: string | number }>`
    SELECT district_id, school_id, class_group_id, count(*) AS n
    FROM contestants WHERE contest_id = (SELECT id FROM contests WHERE is_current) ${inScope(scope, 'district_id')}
    GROUP BY GROUPING SETS ((district_id), (school_id), (class_group_id))`.execute(db);
  return rows.map((row) => ({ ...levelOf(row), contestants: Number(row.n) }));
}

/** One pass over the users and one over the contestants (index-only on their indexes when the visibility map allows). */
export async function registrations(db: Db): Promise<Registrations> {
  const { rows: totals } = await sql<{ parents: string | number; contestants: string | number }>`
    SELECT (SELECT count(*) FROM users WHERE role = 'parent') AS parents,
           (SELECT count(*) FROM contestants WHERE contest_id = (SELECT id FROM contests WHERE is_current)) AS contestants`.execute(db);
  const [rows, districts, schools, groups] = await Promise.all([
    contestantsPerLine(db),
    db.selectFrom('districts').select(['id', 'name', 'former_province']).execute(),
    db.selectFrom('schools').innerJoin('districts', 'districts.id', 'schools.district_id').select(['schools.id', 'schools.name', 'districts.name as district']).execute(),
    db.selectFrom('class_groups').select(['id', 'name']).execute(),
  ]);
  return {
    parents: Number(totals[0]!.parents),
    contestants: Number(totals[0]!.contestants),
    rows,
    names: [
      // A unit's former province (decision 038): the dashboard adds its units up under it.
      ...districts.map((d) => ({ level: 'district' as const, id: d.id, name: d.name, district: '', former_province: d.former_province })),
      ...schools.map((s) => ({ level: 'school' as const, id: s.id, name: s.name, district: s.district })),
      ...groups.map((g) => ({ level: 'class_group' as const, id: g.id, name: g.name, district: '' })),
    ],
  };
}

/**
 * The top-line counts of exams. Each reads an index: exams in progress the partial index on
 * end_time, the contest's exams (contest_id, start_time), the finished ones (contest_id, submitted_at);
 * with a scope, joined to their contestants (one row each, by its key).
 */
export async function activityTotals(db: Db, contestId: number, dayStart: Date, inProgressSince: Date, scope?: UnitScope): Promise<ActivityTotals> {
  const count = (where: RawBuilder<unknown>) => sql`(SELECT count(*) FROM ${examsOf(scope)} WHERE ${where} ${inScope(scope, 'c.district_id')})`;
  const { rows } = await sql<Record<keyof ActivityTotals, string | number>>`
    SELECT
      ${count(sql`e.status = 2 AND e.end_time >= ${inProgressSince}`)} AS in_progress,
      ${count(sql`e.contest_id = ${contestId} AND e.start_time >= ${dayStart}`)} AS started_today,
      ${count(sql`e.status = 1 AND e.contest_id = ${contestId} AND e.submitted_at >= ${dayStart}`)} AS finished_today,
      ${count(sql`e.contest_id = ${contestId}`)} AS started_total,
      ${count(sql`e.status = 1 AND e.contest_id = ${contestId}`)} AS finished_total`.execute(db);
  const row = rows[0]!;
  return {
    in_progress: Number(row.in_progress),
    started_today: Number(row.started_today),
    finished_today: Number(row.finished_today),
    started_total: Number(row.started_total),
    finished_total: Number(row.finished_total),
  };
}

/** Exams started in each hour from dayStart (24 counts). */
export async function startedPerHour(db: Db, contestId: number, dayStart: Date, scope?: UnitScope): Promise<number[]> {
  const dayEnd = new Date(dayStart.getTime() + 86_400_000);
  const { rows } = await sql<{ hour: number; n: string | number }>`
    SELECT floor(extract(epoch FROM e.start_time - ${dayStart}::timestamptz) / 3600)::integer AS hour, count(*) AS n
    FROM ${examsOf(scope)}
    WHERE e.contest_id = ${contestId} AND e.start_time >= ${dayStart} AND e.start_time < ${dayEnd} ${inScope(scope, 'c.district_id')}
    GROUP BY 1`.execute(db);
  const hours = Array.from({ length: 24 }, () => 0);
  for (const row of rows) if (row.hour >= 0 && row.hour < 24) hours[row.hour] = Number(row.n);
  return hours;
}

export interface ActivityRow {
  level: Level;
  id: number;
  in_progress: number;
  started_today: number;
  finished_today: number;
}

/**
 * Today's activity per district, per school and per class group, in one pass over the exams of
 * today or in progress: the OR arms each match an index (a BitmapOr), so the exams of earlier days
 * are not read.
 */
export async function activityRows(db: Db, contestId: number, dayStart: Date, inProgressSince: Date, scope?: UnitScope): Promise<ActivityRow[]> {
  const { rows } = await sql<Counted & { in_progress: string | number; started_today: string | number; finished_today: string | number }>`
    SELECT c.district_id, c.school_id, c.class_group_id,
           count(*) FILTER (WHERE e.status = 2 AND e.end_time >= ${inProgressSince}) AS in_progress,
           count(*) FILTER (WHERE e.start_time >= ${dayStart}) AS started_today,
           count(*) FILTER (WHERE e.status = 1 AND e.submitted_at >= ${dayStart}) AS finished_today
    FROM exams e JOIN contestants c ON c.id = e.contestant_id
    WHERE e.contest_id = ${contestId}
      AND (e.start_time >= ${dayStart} OR e.status = 2 OR (e.status = 1 AND e.submitted_at >= ${dayStart}))
      ${inScope(scope, 'c.district_id')}
    GROUP BY GROUPING SETS ((c.district_id), (c.school_id), (c.class_group_id))`.execute(db);
  return rows.map((row) => ({
    ...levelOf(row),
    in_progress: Number(row.in_progress),
    started_today: Number(row.started_today),
    finished_today: Number(row.finished_today),
  }));
}

/**
 * The exams since the window opened per district and per school (of the scope): started and
 * finished. A pass over the season's exams of the scope (the viewers' lines; the dashboard has
 * only the province's totals, activityTotals).
 */
export async function examTotalsRows(db: Db, contestId: number, scope?: UnitScope): Promise<{ level: Level; id: number; started_total: number; finished_total: number }[]> {
  const { rows } = await sql<Counted & { started_total: string | number; finished_total: string | number }>`
    SELECT c.district_id, c.school_id, NULL::int AS class_group_id, count(*) AS started_total, count(*) FILTER (WHERE e.status = 1) AS finished_total
    FROM exams e JOIN contestants c ON c.id = e.contestant_id
    WHERE e.contest_id = ${contestId} ${inScope(scope, 'c.district_id')}
    GROUP BY GROUPING SETS ((c.district_id), (c.school_id))`.execute(db);
  return rows.map((row) => ({ ...levelOf(row), started_total: Number(row.started_total), finished_total: Number(row.finished_total) }));
}
