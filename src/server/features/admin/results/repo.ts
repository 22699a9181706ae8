// SQL of the back office's results: the task rows, the stored prize lists with names, the tie
// decisions, and the rows of the exports.
import { sql } from 'kysely';
import type { PrizeListQuery } from '../../../../shared/schemas/admin-results';
import type { Db } from '../../../db/client';
import type { Database, ResultTaskStage, TieDecisionTable } from '../../../db/schema';
import type { Insertable, SelectQueryBuilder } from 'kysely';

// Tasks -----------------------------------------------------------------------------------------

export async function latestTask(db: Db, contestId: number) {
  return db.selectFrom('result_tasks').selectAll().where('contest_id', '=', contestId).where('kind', '=', 'compute').orderBy('id', 'desc').limit(1).executeTakeFirst();
}

/** Marks failed the running tasks whose process stopped beating before `staleBefore`. */
export async function failStaleTasks(db: Db, contestId: number, staleBefore: Date, now: Date, error: string) {
  await db
    .updateTable('result_tasks')
    .set({ status: 'failed', error, finished_at: now })
    .where('contest_id', '=', contestId)
    .where('status', '=', 'running')
    .where('heartbeat_at', '<', staleBefore)
    .execute();
}

export async function insertTask(db: Db, task: { contestId: number; forced: boolean; startedBy: number; now: Date }) {
  return db
    .insertInto('result_tasks')
    .values({ contest_id: task.contestId, kind: 'compute', forced: task.forced, started_by: task.startedBy, started_at: task.now, heartbeat_at: task.now })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Progress and heartbeat of a running task (no effect once it has finished). */
export async function updateTask(db: Db, id: number, values: { stage?: ResultTaskStage; done?: number; total?: number; heartbeat_at: Date }) {
  await db.updateTable('result_tasks').set(values).where('id', '=', id).where('status', '=', 'running').execute();
}

export async function finishTask(
  db: Db,
  id: number,
  values: { status: 'done' | 'failed'; now: Date; progress?: { done: number; total: number }; summary?: unknown; error?: string },
) {
  await db
    .updateTable('result_tasks')
    .set({
      ...values.progress,
      status: values.status,
      finished_at: values.now,
      heartbeat_at: values.now,
      ...(values.status === 'done' ? { stage: 'done' as const } : {}),
      summary: values.summary === undefined ? null : JSON.stringify(values.summary),
      error: values.error ?? null,
    })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .execute();
}

// Tie decisions ---------------------------------------------------------------------------------

export async function listTieDecisions(db: Db, contestId: number) {
  return db.selectFrom('tie_decisions').selectAll().where('contest_id', '=', contestId).orderBy('decided_at', 'desc').orderBy('id', 'desc').execute();
}

export async function findTieDecision(db: Db, contestId: number, groupKey: string) {
  return db.selectFrom('tie_decisions').selectAll().where('contest_id', '=', contestId).where('group_key', '=', groupKey).executeTakeFirst();
}

export async function saveTieDecision(db: Db, row: Insertable<TieDecisionTable>) {
  const { contest_id: _contest, group_key: _key, ...changes } = row;
  return db
    .insertInto('tie_decisions')
    .values(row)
    .onConflict((oc) => oc.columns(['contest_id', 'group_key']).doUpdateSet(changes))
    .returningAll()
    .executeTakeFirstOrThrow();
}

// Names of tied entries -------------------------------------------------------------------------

export async function pupilsOfResults(db: Db, contestId: number, contestantIds: number[]) {
  if (contestantIds.length === 0) return [];
  return db
    .selectFrom('individual_results as r')
    .innerJoin('contestants as c', 'c.id', 'r.contestant_id')
    .innerJoin('season_schools as s', (join) => join.onRef('s.id', '=', 'r.school_id').onRef('s.contest_id', '=', 'r.contest_id'))
    .select(['r.contestant_id', 'c.fullname', 's.name as school', 'r.class_name', 'r.points', 'r.duration_seconds', 'r.submitted_at', 'r.prediction'])
    .where('r.contest_id', '=', contestId)
    .where('r.contestant_id', 'in', contestantIds)
    .execute();
}

export async function schoolsOfResults(db: Db, contestId: number, schoolIds: number[]) {
  if (schoolIds.length === 0) return [];
  return db
    .selectFrom('season_schools as s')
    .leftJoin('school_results as r', (join) => join.onRef('r.school_id', '=', 's.id').on('r.contest_id', '=', contestId))
    .select(['s.id', 's.name', 'r.participants', 'r.pupil_count', 'r.score'])
    .where('s.id', 'in', schoolIds)
    .where('s.contest_id', '=', contestId)
    .execute();
}

export async function classesOfResults(db: Db, contestId: number, schoolIds: number[]) {
  if (schoolIds.length === 0) return [];
  return db
    .selectFrom('class_results as r')
    .innerJoin('season_schools as s', (join) => join.onRef('s.id', '=', 'r.school_id').onRef('s.contest_id', '=', 'r.contest_id'))
    .leftJoin('class_teachers as t', (join) => join.onRef('t.school_id', '=', 'r.school_id').onRef('t.class_name', '=', 'r.class_name'))
    .select(['r.school_id', 'r.class_name', 's.name as school', 'r.participants', 'r.avg_points', 'r.avg_duration_seconds', sql<string | null>`coalesce(r.teacher_name, t.teacher_name)`.as('teacher_name')])
    .where('r.contest_id', '=', contestId)
    .where('r.school_id', 'in', schoolIds)
    .execute();
}

// Prize lists -----------------------------------------------------------------------------------

type Filter = Pick<PrizeListQuery, 'district_id' | 'school_id'>;

export interface PrizeDbRow {
  contestant_id: number | null;
  rank: number | null;
  tied: boolean;
  name: string;
  school: string | null;
  district: string;
  class_name: string | null;
  points: number | null;
  duration_seconds: number | null;
  detail: string | null;
  prediction: number | null;
  prize: string;
  amount: number;
  parent_phone: string | null;
  /** Pupils only (undefined for schools and classes): the ranking's values and those of the pupil above. */
  submitted_at?: Date;
  prediction_distance?: string | number | null;
  rank_tied?: boolean;
  above_points?: number | null;
  above_duration_seconds?: number | null;
  above_submitted_at?: Date | null;
  above_prediction_distance?: string | number | null;
  /** Pupils: when the holder's personal data was erased (the name is a placeholder). */
  anonymised_at?: Date | null;
}

/** Prize winners of one kind in prize order, a page of them (`limit`, `offset`) or all. */
export async function prizeRows(db: Db, contestId: number, kind: PrizeListQuery['kind'], filter: Filter, page?: { limit: number; offset: number }): Promise<PrizeDbRow[]> {
  let query = prizeRowsQuery(db, contestId, kind, filter) as unknown as SelectQueryBuilder<Database, never, PrizeDbRow>;
  if (page) query = query.limit(page.limit).offset(page.offset);
  return query.execute();
}

export async function countPrizeRows(db: Db, contestId: number, kind: PrizeListQuery['kind'], filter: Filter): Promise<number> {
  const query = prizeRowsQuery(db, contestId, kind, filter) as unknown as SelectQueryBuilder<Database, never, PrizeDbRow>;
  const row = await db
    .selectFrom(query.clearOrderBy().as('rows'))
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Prize winners of one kind, in prize order, with what the review and the exports show. */
function prizeRowsQuery(db: Db, contestId: number, kind: PrizeListQuery['kind'], filter: Filter) {
  if (kind === 'school') {
    let query = db
      .selectFrom('school_results as r')
      .innerJoin('season_schools as s', (join) => join.onRef('s.id', '=', 'r.school_id').onRef('s.contest_id', '=', 'r.contest_id'))
      .select([
        sql<number | null>`NULL::int`.as('contestant_id'),
        'r.rank',
        'r.tied',
        's.name as name',
        sql<string | null>`NULL`.as('school'),
        's.district_name as district',
        sql<string | null>`NULL`.as('class_name'),
        sql<number | null>`NULL`.as('points'),
        sql<number | null>`NULL`.as('duration_seconds'),
        sql<string>`r.participants::text || ' học sinh dự thi / ' || r.pupil_count::text || ' học sinh; điểm ' || round(r.score::numeric, 4)::text`.as('detail'),
        sql<number | null>`NULL::int`.as('prediction'),
        sql<string>`r.prize_name`.as('prize'),
        sql<number>`r.prize_amount`.as('amount'),
        sql<string | null>`NULL`.as('parent_phone'),
      ])
      .where('r.contest_id', '=', contestId)
      .where('r.prize_code', 'is not', null);
    if (filter.school_id) query = query.where('s.id', '=', filter.school_id);
    if (filter.district_id) query = query.where('s.district_id', '=', filter.district_id);
    return query.orderBy('r.rank').orderBy('s.id');
  }
  if (kind === 'teacher') {
    let query = db
      .selectFrom('class_results as r')
      .innerJoin('season_schools as s', (join) => join.onRef('s.id', '=', 'r.school_id').onRef('s.contest_id', '=', 'r.contest_id'))
      .leftJoin('class_teachers as t', (join) => join.onRef('t.school_id', '=', 'r.school_id').onRef('t.class_name', '=', 'r.class_name'))
      .select([
        sql<number | null>`NULL::int`.as('contestant_id'),
        'r.rank',
        'r.tied',
        sql<string>`coalesce(r.teacher_name, t.teacher_name, '(chưa có tên giáo viên)')`.as('name'),
        's.name as school',
        's.district_name as district',
        'r.class_name',
        sql<number | null>`round(r.avg_points::numeric, 2)::float8`.as('points'),
        sql<number | null>`round(r.avg_duration_seconds)::int`.as('duration_seconds'),
        sql<string>`r.participants::text || ' học sinh dự thi'`.as('detail'),
        sql<number | null>`NULL::int`.as('prediction'),
        sql<string>`r.prize_name`.as('prize'),
        sql<number>`r.prize_amount`.as('amount'),
        sql<string | null>`NULL`.as('parent_phone'),
      ])
      .where('r.contest_id', '=', contestId)
      .where('r.prize_code', 'is not', null);
    if (filter.school_id) query = query.where('s.id', '=', filter.school_id);
    if (filter.district_id) query = query.where('s.district_id', '=', filter.district_id);
    return query.orderBy('r.rank').orderBy('s.id').orderBy('r.class_name');
  }
  const pupils = kind === 'school_pupils';
  const window = pupils ? sql`PARTITION BY r.school_id ORDER BY r.school_rank, r.contestant_id` : sql`ORDER BY r.rank, r.contestant_id`;
  let query = db
    .selectFrom('individual_results as r')
    .innerJoin('contestants as c', 'c.id', 'r.contestant_id')
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .innerJoin('season_schools as s', (join) => join.onRef('s.id', '=', 'r.school_id').onRef('s.contest_id', '=', 'r.contest_id'))
    .select([
      sql<number | null>`r.contestant_id`.as('contestant_id'),
      sql<number>`${sql.ref(pupils ? 'r.school_rank' : 'r.rank')}`.as('rank'),
      sql<boolean>`${sql.ref(pupils ? 'r.school_tied' : 'r.tied')}`.as('tied'),
      'c.fullname as name',
      's.name as school',
      's.district_name as district',
      'r.class_name',
      'r.points',
      'r.duration_seconds',
      sql<string | null>`NULL`.as('detail'),
      'r.prediction',
      sql<string>`${pupils ? sql`'Học sinh tiêu biểu của trường'` : sql`r.prize_name`}`.as('prize'),
      sql<number>`${sql.ref(pupils ? 'r.school_top_amount' : 'r.prize_amount')}`.as('amount'),
      // An erased family's account keeps a placeholder number, not one to call.
      sql<string | null>`CASE WHEN c.anonymised_at IS NULL THEN u.phone END`.as('parent_phone'),
      'c.anonymised_at',
      'r.submitted_at',
      'r.prediction_distance',
      'r.tied as rank_tied',
      // The pupil just above in this list, to tell what decided between them (deciding()).
      sql<number | null>`lag(r.points) over (${window})`.as('above_points'),
      sql<number | null>`lag(r.duration_seconds) over (${window})`.as('above_duration_seconds'),
      sql<Date | null>`lag(r.submitted_at) over (${window})`.as('above_submitted_at'),
      sql<string | null>`lag(r.prediction_distance) over (${window})`.as('above_prediction_distance'),
    ])
    .where('r.contest_id', '=', contestId)
    .where(pupils ? 'r.school_top' : 'r.prize_code', pupils ? '=' : 'is not', pupils ? true : null);
  if (filter.school_id) query = query.where('r.school_id', '=', filter.school_id);
  if (filter.district_id) query = query.where('s.district_id', '=', filter.district_id);
  return pupils ? query.orderBy('s.district_name').orderBy('s.name').orderBy('r.school_rank').orderBy('c.id') : query.orderBy('r.rank').orderBy('c.id');
}

/**
 * Every contestant's best result in rank order (the full export), read by rank ranges of `size`
 * through individual_results_rank_idx: each range is an index scan, never a scan of the contest.
 */
export async function* bestResults(db: Db, contestId: number, filter: Filter, size = 5000) {
  const last = await db.selectFrom('individual_results').select((eb) => eb.fn.max('rank').as('rank')).where('contest_id', '=', contestId).executeTakeFirst();
  const maxRank = Number(last?.rank ?? 0);
  for (let from = 1; from <= maxRank; from += size) {
    let query = db
      .selectFrom('individual_results as r')
      .innerJoin('contestants as c', 'c.id', 'r.contestant_id')
      .innerJoin('season_schools as s', (join) => join.onRef('s.id', '=', 'r.school_id').onRef('s.contest_id', '=', 'r.contest_id'))
      .innerJoin('exams as e', 'e.id', 'r.exam_id')
      .innerJoin('books as b', 'b.id', 'e.book_id')
      .select([
        'r.rank',
        'r.tied',
        'r.contestant_id',
        'c.fullname',
        's.district_name as district',
        's.name as school',
        // "Tỉnh cũ" of the season's unit (decision 038): a merged province's office groups by it.
        's.former_province',
        'r.class_name',
        'b.name as book',
        'r.points',
        'r.duration_seconds',
        'r.submitted_at',
        'r.prediction',
        'r.prize_name',
        'r.prize_amount',
        'r.school_rank',
        'r.school_top',
        // Why a pupil is ranked last or has no prize, and an erased holder (resultNote).
        'r.held',
        sql<string | null>`(SELECT h.reason FROM prize_holds h WHERE h.contest_id = r.contest_id AND h.contestant_id = r.contestant_id)`.as('held_reason'),
        sql<string | null>`(SELECT string_agg(w.prize_name || ': ' || w.reason, '; ' ORDER BY w.kind) FROM prize_withdrawals w WHERE w.contest_id = r.contest_id AND w.contestant_id = r.contestant_id)`.as('withdrawn_reasons'),
        'c.anonymised_at',
      ])
      .where('r.contest_id', '=', contestId)
      .where('r.rank', '>=', from)
      .where('r.rank', '<', from + size);
    if (filter.school_id) query = query.where('r.school_id', '=', filter.school_id);
    if (filter.district_id) query = query.where('s.district_id', '=', filter.district_id);
    const rows = await query.orderBy('r.rank').orderBy('r.contestant_id').execute();
    if (rows.length) yield rows;
  }
}

/** Prizes the stored results give, per tier code (the ceremony's numbers). */
export async function awardedCounts(db: Db, contestId: number): Promise<{ byCode: Map<string, number>; schoolTop: number; prizedSchools: number; participatingSchools: number }> {
  const [individual, schools, classes, top, participating] = await Promise.all([
    db.selectFrom('individual_results').select(['prize_code', (eb) => eb.fn.countAll<string>().as('n')]).where('contest_id', '=', contestId).where('prize_code', 'is not', null).groupBy('prize_code').execute(),
    db.selectFrom('school_results').select(['prize_code', (eb) => eb.fn.countAll<string>().as('n')]).where('contest_id', '=', contestId).where('prize_code', 'is not', null).groupBy('prize_code').execute(),
    db.selectFrom('class_results').select(['prize_code', (eb) => eb.fn.countAll<string>().as('n')]).where('contest_id', '=', contestId).where('prize_code', 'is not', null).groupBy('prize_code').execute(),
    db.selectFrom('individual_results').select((eb) => eb.fn.countAll<string>().as('n')).where('contest_id', '=', contestId).where('school_top', '=', true).executeTakeFirstOrThrow(),
    db.selectFrom('school_results').select((eb) => eb.fn.countAll<string>().as('n')).where('contest_id', '=', contestId).executeTakeFirstOrThrow(),
  ]);
  const byCode = new Map<string, number>();
  for (const row of [...individual, ...schools, ...classes]) byCode.set(row.prize_code!, Number(row.n));
  const prizedSchools = schools.reduce((sum, row) => sum + Number(row.n), 0);
  return { byCode, schoolTop: Number(top.n), prizedSchools, participatingSchools: Number(participating.n) };
}

/** The contest's integrity flags still open (not dismissed, no prize withheld). */
export async function countOpenFlags(db: Db, contestId: number): Promise<number> {
  const row = await db
    .selectFrom('integrity_flags')
    .select(sql<string>`count(*)`.as('n'))
    .where('contest_id', '=', contestId)
    .where('status', '=', 'open')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
