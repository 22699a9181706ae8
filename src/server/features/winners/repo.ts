// SQL of the public winners' list (issue 37.2): every prize of a contest's stored results, tier by
// tier, with only what the public page and the ceremony's list show. A pupil's name leaves the
// database only with the parent's consent (0049) and never for an erased child; a withheld or
// withdrawn prize has no prize code in the stored result (decisions 020, 027), so it is never here.
import { sql } from 'kysely';
import type { Db } from '../../db/client';
import { foldedContains, foldSql } from '../../db/fold';
import { inScope, type UnitScope } from '../../core/activity-counts';

export interface WinnerDbRow {
  tier: string;
  kind: 'pupil' | 'school' | 'teacher';
  /** A pupil's name with consent, a teacher's name, or null (the caller says who it is). */
  name: string | null;
  class_name: string | null;
  school: string;
  unit: string;
  prize: string;
}

const KIND_ORDER = { individual: 1, school: 2, school_pupils: 3, teacher: 4 } as const;

/** The winners' rows before the filter: a union of the four kinds of prize with their sort keys. */
function winnersUnion(contestId: number) {
  const consentedName = sql`CASE WHEN c.name_consented_at IS NOT NULL AND c.anonymised_at IS NULL THEN c.fullname END`;
  // The name a school report shows (the education offices' viewers, decision 039): never an erased child's.
  const fullName = sql`CASE WHEN c.anonymised_at IS NULL THEN c.fullname END`;
  return sql`
    SELECT ${sql.lit(KIND_ORDER.individual)} AS kind_order, coalesce(t.position, 0) AS tier_position, r.prize_name AS tier, 'pupil' AS kind,
           ${consentedName} AS name, r.class_name, s.name AS school, s.district_name AS unit, r.prize_name AS prize,
           '' AS group_key, r.rank AS place, r.contestant_id AS tiebreak,
           s.district_id, ${fullName} AS full_name, r.points::float8 AS points, r.duration_seconds
      FROM individual_results r
      JOIN contestants c ON c.id = r.contestant_id
      JOIN season_schools s ON s.id = r.school_id AND s.contest_id = r.contest_id
      LEFT JOIN prize_tiers t ON t.contest_id = r.contest_id AND t.kind = 'individual' AND t.code = r.prize_code
     WHERE r.contest_id = ${contestId} AND r.prize_code IS NOT NULL
    UNION ALL
    SELECT ${sql.lit(KIND_ORDER.school)}, coalesce(t.position, 0), r.prize_name, 'school',
           s.name, NULL, s.name, s.district_name, r.prize_name,
           '', r.rank, r.school_id,
           s.district_id, s.name, NULL::float8, NULL::int
      FROM school_results r
      JOIN season_schools s ON s.id = r.school_id AND s.contest_id = r.contest_id
      LEFT JOIN prize_tiers t ON t.contest_id = r.contest_id AND t.kind = 'school' AND t.code = r.prize_code
     WHERE r.contest_id = ${contestId} AND r.prize_code IS NOT NULL
    UNION ALL
    SELECT ${sql.lit(KIND_ORDER.school_pupils)}, 0, coalesce(t.name, 'Quà cho học sinh tiêu biểu của trường'), 'pupil',
           ${consentedName}, r.class_name, s.name, s.district_name, coalesce(t.name, 'Quà cho học sinh tiêu biểu của trường'),
           s.name, r.school_rank, r.contestant_id,
           s.district_id, ${fullName}, r.points::float8, r.duration_seconds
      FROM individual_results r
      JOIN contestants c ON c.id = r.contestant_id
      JOIN season_schools s ON s.id = r.school_id AND s.contest_id = r.contest_id
      LEFT JOIN prize_tiers t ON t.contest_id = r.contest_id AND t.kind = 'school_pupils'
     WHERE r.contest_id = ${contestId} AND r.school_top
    UNION ALL
    SELECT ${sql.lit(KIND_ORDER.teacher)}, coalesce(t.position, 0), r.prize_name, 'teacher',
           coalesce(r.teacher_name, ct.teacher_name), r.class_name, s.name, s.district_name, r.prize_name,
           '', r.rank, r.school_id,
           s.district_id, coalesce(r.teacher_name, ct.teacher_name), r.avg_points::float8, round(r.avg_duration_seconds)::int
      FROM class_results r
      JOIN season_schools s ON s.id = r.school_id AND s.contest_id = r.contest_id
      LEFT JOIN class_teachers ct ON ct.school_id = r.school_id AND ct.class_name = r.class_name
      LEFT JOIN prize_tiers t ON t.contest_id = r.contest_id AND t.kind = 'teacher' AND t.code = r.prize_code
     WHERE r.contest_id = ${contestId} AND r.prize_code IS NOT NULL`;
}

/** `WHERE` of a search by school: the folded needle anywhere in the folded school name. */
const schoolFilter = (school: string | undefined) => (school ? sql`WHERE ${foldSql(sql<string>`w.school`)} LIKE ${foldedContains(school)}` : sql``);

/** Winners in the list's order: tier by tier, then place (the 30 best pupils school by school). */
export async function winnerRows(db: Db, contestId: number, filter: { school?: string }, page?: { limit: number; offset: number }): Promise<WinnerDbRow[]> {
  const paging = page ? sql`LIMIT ${page.limit} OFFSET ${page.offset}` : sql``;
  const result = await sql<WinnerDbRow>`
    SELECT w.tier, w.kind, w.name, w.class_name, w.school, w.unit, w.prize
      FROM (${winnersUnion(contestId)}) w
      ${schoolFilter(filter.school)}
     ORDER BY w.kind_order, w.tier_position, w.tier, w.group_key, w.place, w.class_name, w.tiebreak
     ${paging}`.execute(db);
  return result.rows;
}

export async function countWinners(db: Db, contestId: number, filter: { school?: string }): Promise<number> {
  const result = await sql<{ n: string | number }>`SELECT count(*) AS n FROM (${winnersUnion(contestId)}) w ${schoolFilter(filter.school)}`.execute(db);
  return Number(result.rows[0]?.n ?? 0);
}

/** When the contest's results were published; undefined while they are not (or not computed). */
export async function publishedAt(db: Db, contestId: number): Promise<Date | undefined> {
  const run = await db.selectFrom('result_runs').select('published_at').where('contest_id', '=', contestId).executeTakeFirst();
  return run?.published_at ?? undefined;
}

/** A prize of the scope as the education offices see it (decision 039): the name a school report shows, the points and time; no id, no phone. */
export interface ScopedPrizeDbRow extends WinnerDbRow {
  full_name: string | null;
  points: number | null;
  duration_seconds: number | null;
}

/** Every prize of the units `districtIds` (every unit: undefined), in the winners' list's order. */
export async function scopedPrizeRows(db: Db, contestId: number, districtIds: UnitScope): Promise<ScopedPrizeDbRow[]> {
  const result = await sql<ScopedPrizeDbRow>`
    SELECT w.tier, w.kind, w.name, w.class_name, w.school, w.unit, w.prize, w.full_name, w.points, w.duration_seconds
      FROM (${winnersUnion(contestId)}) w
     WHERE true ${inScope(districtIds, 'w.district_id')}
     ORDER BY w.kind_order, w.tier_position, w.tier, w.group_key, w.place, w.class_name, w.tiebreak`.execute(db);
  return result.rows.map((row) => ({ ...row, points: row.points === null ? null : Number(row.points), duration_seconds: row.duration_seconds === null ? null : Number(row.duration_seconds) }));
}
