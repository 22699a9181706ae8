import { sql } from 'kysely';
import { messages } from '../../shared/messages';
import type { Db } from '../db/client';
import { examQuestionCount } from '../db/question-bank';
import type { Contest, PrizeTierTable } from '../db/schema';
import { seasonMessages } from '../../shared/messages/seasons';
import { appError, notFound } from '../lib/errors';

/**
 * The contest the site runs: the current season, chosen by the organiser's switch (0033_seasons.sql,
 * decision 025). Read per request: never cached, so a change in the back office holds at once on every process.
 */
export async function getCurrentContest(db: Db, { lock = false } = {}): Promise<Contest | undefined> {
  let query = db.selectFrom('contests').selectAll().where('is_current', '=', true);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

/**
 * The current contest, or 409 no_contest for every route that needs one (the web client shows the
 * message whatever the status; a 404 would send the exam screen to the not-found page).
 */
export async function requireCurrentContest(db: Db, options: { lock?: boolean } = {}): Promise<Contest> {
  const contest = await getCurrentContest(db, options);
  if (!contest) throw appError('no_contest', messages.noContest);
  return contest;
}

/** Every season, the latest exam first (the back office's and the reports' season selectors). */
export const listSeasons = (db: Db) =>
  db
    .selectFrom('contests')
    .select(['id', 'name', 'is_current', 'exam_starts_at', 'exam_ends_at', 'results_at'])
    .orderBy('exam_starts_at', 'desc')
    .orderBy('id', 'desc')
    .execute();

/** The season asked for (`?season=`), or the current one when none is asked; 404 for an unknown one. */
export async function seasonOrCurrent(db: Db, seasonId: number | undefined): Promise<Contest> {
  if (seasonId === undefined) return requireCurrentContest(db);
  const season = await db.selectFrom('contests').selectAll().where('id', '=', seasonId).executeTakeFirst();
  if (!season) throw notFound(seasonMessages.seasonNotFound);
  return season;
}

/** Refuses a write to a season that is not the current one: earlier seasons are read-only. */
export async function assertCurrentSeason(db: Db, seasonId: number): Promise<void> {
  const season = await db.selectFrom('contests').select(['name', 'is_current']).where('id', '=', seasonId).executeTakeFirst();
  if (season && !season.is_current) throw appError('season_read_only', seasonMessages.readOnly(season.name));
}

export type ContestValues = Pick<
  Contest,
  | 'name'
  | 'reading_starts_at'
  | 'reading_ends_at'
  | 'exam_starts_at'
  | 'exam_ends_at'
  | 'results_at'
  | 'ceremony_starts_at'
  | 'ceremony_ends_at'
  | 'exam_duration_seconds'
  | 'questions_per_exam'
  | 'attempts_per_contestant'
  | 'retention_months'
  | 'review_correct_answers'
  | 'unit_level'
>;

/** Writes every setting explicitly (the 0006 trigger's defaults never apply to the back office's writes). */
export async function updateContest(db: Db, id: number, values: ContestValues): Promise<void> {
  await db.updateTable('contests').set(values).where('id', '=', id).execute();
}

/** A prize tier as the contest's settings read and write it (a prize_tiers row without its keys). */
export type TierRow = Omit<PrizeTierTable, 'id' | 'contest_id'>;

export function prizeTiersOf(db: Db, contestId: number): Promise<TierRow[]> {
  return db
    .selectFrom('prize_tiers')
    .select(['kind', 'code', 'name', 'position', 'winners', 'amount'])
    .where('contest_id', '=', contestId)
    .orderBy(sql`array_position(array['individual','school','school_pupils','teacher']::text[], kind)`)
    .orderBy('position')
    .execute();
}

/** Replaces every tier of the contest (positions follow the list's order within each kind). */
export async function replacePrizeTiers(db: Db, contestId: number, tiers: TierRow[]): Promise<void> {
  await db.deleteFrom('prize_tiers').where('contest_id', '=', contestId).execute();
  if (tiers.length) await db.insertInto('prize_tiers').values(tiers.map((tier) => ({ contest_id: contestId, ...tier }))).execute();
}

export async function classMinParticipantsOf(db: Db, contestId: number): Promise<number | undefined> {
  const row = await db.selectFrom('result_settings').select('class_min_participants').where('contest_id', '=', contestId).executeTakeFirst();
  return row?.class_min_participants;
}

export async function saveClassMinParticipants(db: Db, contestId: number, value: number): Promise<void> {
  await db
    .insertInto('result_settings')
    .values({ contest_id: contestId, class_min_participants: value })
    .onConflict((oc) => oc.column('contest_id').doUpdateSet({ class_min_participants: value }))
    .execute();
}

export async function resultsComputedAt(db: Db, contestId: number): Promise<Date | undefined> {
  const row = await db.selectFrom('result_runs').select('computed_at').where('contest_id', '=', contestId).executeTakeFirst();
  return row?.computed_at;
}

/**
 * Books of the current season whose exam bank (db/question-bank.ts: counted as a start draws from
 * it) is smaller than `needed`, with their bank size and class group, in the books' order.
 */
export async function booksWithFewerQuestions(db: Db, needed: number) {
  return db
    .selectFrom('books')
    .innerJoin('class_groups as g', 'g.id', 'books.class_group_id')
    .where('books.contest_id', '=', (eb) => eb.selectFrom('contests').select('id').where('is_current', '=', true))
    .select(({ ref }) => ['books.id', 'books.name', 'g.name as class_group', examQuestionCount(ref('books.id')).as('questions')])
    .where(({ ref }) => sql<boolean>`${examQuestionCount(ref('books.id'))} < ${needed}`)
    .orderBy('g.position')
    .orderBy('books.position')
    .execute();
}
