// The education offices' read-only area (issue 41, decision 039): a province viewer sees the whole
// province, a unit viewer its units. Every figure is of the scope: the live participation counted
// for the scope by the dashboard's statements (core/activity-counts.ts) on a replica when one is
// usable, and the published prizes and results' lines. Nothing here carries a parent's phone, a
// contestant's id or a withheld prize. A view is written to the audit log on the primary after
// the read (routes.ts); a failed audit write is logged and the read still answers.
import { formatDate } from '../../../shared/format';
import { SAVE_GRACE_SECONDS } from '../../../shared/rules';
import { compareVietnamese, foldText } from '../../../shared/vietnamese';
import { unitLevelLabels } from '../../../shared/unit-level';
import {
  VIEWER_SCHOOLS_PER_PAGE,
  viewerMessages,
  type ParticipationRow,
  type ResultSummaryRow,
  type ViewerKind,
  type ViewerParticipation,
  type ViewerParticipationQuery,
  type ViewerPrizeRow,
  type ViewerResults,
  type ViewerScope,
} from '../../../shared/schemas/viewers';
import type { Contest } from '../../db/schema';
import type { Db } from '../../db/client';
import { readFromReplica } from '../../db/replicas';
import { getCurrentContest } from '../../core/contest';
import type { AuthUser } from '../../core/guard';
import { activityRows, activityTotals, contestantsPerLine, examTotalsRows, startedPerHour, vietnamDayStart, type UnitScope } from '../../core/activity-counts';
import { appError, forbidden } from '../../lib/errors';
import type { Services } from '../../services';
import { publishedAt, scopedPrizeRows, shownName } from '../winners';
import * as repo from './repo';

type Deps = Pick<Services, 'db' | 'clock' | 'reads'>;

/** Who looks at what: the viewer's units (every unit for a province viewer). */
export interface Viewer {
  user: Pick<AuthUser, 'id' | 'phone' | 'role'>;
  kind: ViewerKind;
  /** Sorted in Vietnamese order. */
  units: { id: number; name: string }[];
  /** The units counted: undefined for the whole province. */
  scope: UnitScope;
  label: string;
}

/**
 * The viewer's scope, read on the primary (a unit taken away from a viewer a moment ago is not
 * seen on a replica a few seconds behind).
 */
export async function viewerOf(db: Db, user: Pick<AuthUser, 'id' | 'phone' | 'role'>): Promise<Viewer> {
  const kind: ViewerKind = user.role === 'province_viewer' ? 'province' : 'unit';
  const units = (await repo.unitsOf(db, user)).sort((a, b) => compareVietnamese(a.name, b.name) || a.id - b.id);
  return {
    user,
    kind,
    units,
    scope: kind === 'province' ? undefined : units.map((u) => u.id),
    label: kind === 'province' ? viewerMessages.wholeProvince : viewerMessages.scopeOf(units.map((u) => u.name)),
  };
}

/** The units a ?district_id= narrows to: one of the viewer's, else 403 (an unknown id answers the same). */
function narrowed(viewer: Viewer, districtId: number | undefined): { units: Viewer['units']; scope: UnitScope } {
  if (districtId === undefined) return { units: viewer.units, scope: viewer.scope };
  const unit = viewer.units.find((u) => u.id === districtId);
  if (!unit) throw forbidden(viewerMessages.outOfScope);
  return { units: [unit], scope: [unit.id] };
}

async function publishedOf(db: Db, contest: Contest | undefined) {
  return contest ? publishedAt(db, contest.id) : undefined;
}

export async function getScope(deps: Deps, viewer: Viewer): Promise<ViewerScope> {
  return readFromReplica(deps, async (db) => {
    const contest = await getCurrentContest(db);
    return {
      kind: viewer.kind,
      label: viewer.label,
      unit_label: unitLevelLabels(contest?.unit_level).long,
      units: viewer.units,
      season: contest?.name ?? '',
      results_published: (await publishedOf(db, contest)) !== undefined,
    };
  });
}

// Participation ---------------------------------------------------------------------------------

const ratio = (contestants: number, pupils: number) => (pupils > 0 ? contestants / pupils : null);

/** The lagging first: the lowest participation, lines without pupils last, then by name. */
const lagging = (a: ParticipationRow, b: ParticipationRow) =>
  (a.participation === null ? 1 : 0) - (b.participation === null ? 1 : 0) ||
  (a.participation ?? 0) - (b.participation ?? 0) ||
  compareVietnamese(a.name, b.name) ||
  a.id - b.id;

type Counts = Omit<ParticipationRow, 'id' | 'name' | 'unit' | 'pupils' | 'participation'>;
const noCounts = (): Counts => ({ contestants: 0, in_progress: 0, started_today: 0, finished_today: 0, started_total: 0, finished_total: 0 });

/** Every line of the scope (units and schools, all of them), counted now. */
async function countScope(db: Db, now: Date, units: Viewer['units'], scope: UnitScope) {
  const contest = await getCurrentContest(db);
  const contestId = contest?.id ?? 0;
  const dayStart = vietnamDayStart(now);
  // An exam past its deadline and grace is over, even before the sweep scores it (as the dashboard).
  const inProgressSince = new Date(now.getTime() - SAVE_GRACE_SECONDS * 1000);
  // One after the other: a viewer's request holds one connection at a time.
  const totals = await activityTotals(db, contestId, dayStart, inProgressSince, scope);
  const hours = await startedPerHour(db, contestId, dayStart, scope);
  const registered = await contestantsPerLine(db, scope);
  const today = await activityRows(db, contestId, dayStart, inProgressSince, scope);
  const sinceOpen = await examTotalsRows(db, contestId, scope);
  const schools = await repo.schoolsOf(db, contestId, scope);

  const lines = new Map<string, Counts>();
  const line = (level: string, id: number) => {
    const key = `${level}:${id}`;
    let counts = lines.get(key);
    if (!counts) lines.set(key, (counts = noCounts()));
    return counts;
  };
  for (const row of registered) if (row.level !== 'class_group') line(row.level, row.id).contestants = row.contestants;
  for (const row of today) if (row.level !== 'class_group') Object.assign(line(row.level, row.id), { in_progress: row.in_progress, started_today: row.started_today, finished_today: row.finished_today });
  for (const row of sinceOpen) if (row.level !== 'class_group') Object.assign(line(row.level, row.id), { started_total: row.started_total, finished_total: row.finished_total });

  const unitNames = new Map(units.map((u) => [u.id, u.name]));
  const listed = schools.filter((s) => unitNames.has(s.district_id) && (!s.closed || lines.has(`school:${s.id}`)));
  const schoolRows: ParticipationRow[] = listed.map((s) => {
    const counts = lines.get(`school:${s.id}`) ?? noCounts();
    return { id: s.id, name: s.name, unit: s.unit, pupils: s.pupil_count, ...counts, participation: ratio(counts.contestants, s.pupil_count) };
  });
  // A unit's pupils: the sum of its schools listed.
  const pupilsOf = new Map<number, number>();
  for (const s of listed) pupilsOf.set(s.district_id, (pupilsOf.get(s.district_id) ?? 0) + s.pupil_count);
  const unitRows: ParticipationRow[] = units.map((u) => {
    const counts = lines.get(`district:${u.id}`) ?? noCounts();
    const pupils = pupilsOf.get(u.id) ?? 0;
    return { id: u.id, name: u.name, unit: '', pupils, ...counts, participation: ratio(counts.contestants, pupils) };
  });
  const contestants = unitRows.reduce((sum, u) => sum + u.contestants, 0);
  const pupils = unitRows.reduce((sum, u) => sum + u.pupils, 0);
  return {
    contest,
    totals: { contestants, ...totals, pupils, participation: ratio(contestants, pupils) },
    hours,
    units: unitRows.sort(lagging),
    schools: schoolRows.sort(lagging),
  };
}

/** A scope's counts, kept this long per process (ms): as fresh as the dashboard's (DASHBOARD_MAX_AGE_MS). */
export const VIEWER_COUNTS_MAX_AGE_MS = 5_000;
const counted = new WeakMap<object, Map<string, { at: number; value: Promise<Awaited<ReturnType<typeof countScope>>> }>>();

/**
 * The scope's lines, counted at most every VIEWER_COUNTS_MAX_AGE_MS per scope and process (a
 * viewer's screen polls; the counts are of its scope, on a replica when one is usable).
 */
function scopeCounts(deps: Deps, units: Viewer['units'], scope: UnitScope) {
  const now = deps.clock.now();
  const key = scope === undefined ? '*' : scope.join(',');
  let cache = counted.get(deps.db);
  if (!cache) counted.set(deps.db, (cache = new Map()));
  const kept = cache.get(key);
  if (kept && now.getTime() - kept.at < VIEWER_COUNTS_MAX_AGE_MS && now.getTime() >= kept.at) return kept.value.then((value) => ({ value, at: kept.at }));
  for (const [other, entry] of cache) if (now.getTime() - entry.at >= VIEWER_COUNTS_MAX_AGE_MS) cache.delete(other);
  const value = readFromReplica(deps, (db) => countScope(db, now, units, scope));
  cache.set(key, { at: now.getTime(), value });
  // A failed count is not kept (unless a newer one took its place meanwhile).
  value.catch(() => {
    if (cache.get(key)?.value === value) cache.delete(key);
  });
  return value.then((v) => ({ value: v, at: now.getTime() }));
}

export async function getParticipation(deps: Deps, viewer: Viewer, query: ViewerParticipationQuery): Promise<ViewerParticipation> {
  const { units, scope } = narrowed(viewer, query.district_id);
  const { value, at } = await scopeCounts(deps, units, scope);
  const computedAt = new Date(at);
  const needle = query.school_q ? foldText(query.school_q) : '';
  const schools = needle ? value.schools.filter((s) => foldText(s.name).includes(needle)) : value.schools;
  const page = Math.max(1, Math.min(query.page, Math.ceil(schools.length / VIEWER_SCHOOLS_PER_PAGE) || 1));
  const contest = value.contest;
  return {
    computed_at: computedAt.toISOString(),
    today: formatDate(computedAt),
    window: contest
      ? { starts_at: contest.exam_starts_at.toISOString(), ends_at: contest.exam_ends_at.toISOString(), open: contest.exam_starts_at <= computedAt && computedAt < contest.exam_ends_at }
      : null,
    totals: value.totals,
    started_per_hour: value.hours,
    units: value.units,
    schools: { items: schools.slice((page - 1) * VIEWER_SCHOOLS_PER_PAGE, page * VIEWER_SCHOOLS_PER_PAGE), total: schools.length, page, per_page: VIEWER_SCHOOLS_PER_PAGE },
  };
}

/** Every school line of the scope (the export): the same lines, not paged. */
export async function participationLines(deps: Deps, viewer: Viewer, query: ViewerParticipationQuery) {
  const { units, scope } = narrowed(viewer, query.district_id);
  const { value, at } = await scopeCounts(deps, units, scope);
  const needle = query.school_q ? foldText(query.school_q) : '';
  return { ...value, at: new Date(at), schools: needle ? value.schools.filter((s) => foldText(s.name).includes(needle)) : value.schools };
}

// Results ---------------------------------------------------------------------------------------

const mean = (sum: number, n: number) => (n > 0 ? Math.round((sum / n) * 10) / 10 : null);

/** The published results of the scope, or `published: false` before the organiser publishes. */
export function getResults(deps: Deps, viewer: Viewer): Promise<ViewerResults & { contest?: Contest }> {
  return readFromReplica(deps, async (db) => {
    const contest = await getCurrentContest(db);
    const published = await publishedOf(db, contest);
    if (!contest || !published) return { published: false as const, message: viewerMessages.resultsNotPublished };
    const prizeRows = await scopedPrizeRows(db, contest.id, viewer.scope);
    const prizes: ViewerPrizeRow[] = prizeRows.map((row) => ({
      tier: row.tier,
      // The name a school report shows; an erased child as the public list says it (class and school).
      name: row.kind === 'pupil' ? (row.full_name ?? shownName({ ...row, name: null })) : shownName(row),
      class_name: row.class_name,
      school: row.school,
      unit: row.unit,
      points: row.points === null ? null : Math.round(row.points * 100) / 100,
      duration_seconds: row.duration_seconds,
      prize: row.prize,
    }));
    const schools = await repo.schoolsOf(db, contest.id, viewer.scope);
    const registered = await contestantsPerLine(db, viewer.scope);
    const finished = new Map((await repo.finishedPerSchool(db, contest.id, viewer.scope)).map((row) => [row.school_id, row]));
    const contestantsOf = new Map(registered.filter((r) => r.level === 'school').map((r) => [r.id, r.contestants]));
    const prizesOf = new Map<string, number>();
    for (const prize of prizes) prizesOf.set(`${prize.unit}\u0000${prize.school}`, (prizesOf.get(`${prize.unit}\u0000${prize.school}`) ?? 0) + 1);
    const unitNames = new Map(viewer.units.map((u) => [u.id, u.name]));
    const schoolLines = schools
      .filter((s) => unitNames.has(s.district_id) && (!s.closed || contestantsOf.has(s.id)))
      .map((s) => {
        const done = finished.get(s.id);
        return {
          districtId: s.district_id,
          sum: done?.sum_points ?? 0,
          line: {
            name: s.name,
            unit: s.unit,
            pupils: s.pupil_count,
            contestants: contestantsOf.get(s.id) ?? 0,
            finished: done?.finished ?? 0,
            mean_points: mean(done?.sum_points ?? 0, done?.finished ?? 0),
            prizes: prizesOf.get(`${s.unit}\u0000${s.name}`) ?? 0,
          } satisfies ResultSummaryRow,
        };
      });
    const units: ResultSummaryRow[] = viewer.units.map((u) => {
      const own = schoolLines.filter((s) => s.districtId === u.id);
      const finishedHere = own.reduce((n, s) => n + s.line.finished, 0);
      return {
        name: u.name,
        unit: '',
        pupils: own.reduce((n, s) => n + s.line.pupils, 0),
        contestants: own.reduce((n, s) => n + s.line.contestants, 0),
        finished: finishedHere,
        mean_points: mean(own.reduce((n, s) => n + s.sum, 0), finishedHere),
        prizes: own.reduce((n, s) => n + s.line.prizes, 0),
      };
    });
    const byUnitThenName = (a: ResultSummaryRow, b: ResultSummaryRow) => compareVietnamese(a.unit, b.unit) || compareVietnamese(a.name, b.name);
    return {
      published: true as const,
      published_on: formatDate(published),
      prizes,
      schools: schoolLines.map((s) => s.line).sort(byUnitThenName),
      units,
      contest,
    };
  });
}

/** The results for the export: 409 before publication. */
export async function publishedResults(deps: Deps, viewer: Viewer) {
  const results = await getResults(deps, viewer);
  if (!results.published) throw appError('results_not_published', viewerMessages.resultsNotPublished);
  return results;
}
