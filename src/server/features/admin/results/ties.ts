// The ties of the stored results that cross a prize boundary, as the organiser sees them, and the
// organiser's decisions on them (written to the audit log in their transaction).
import { adminResultsMessages, resultMessages } from '../../../../shared/messages';
import { tieScopeLabels, type TieDecisionRequest, type TieView } from '../../../../shared/schemas/admin-results';
import type { Db } from '../../../db/client';
import { appError } from '../../../lib/errors';
import type { Services } from '../../../services';
import { requireCurrentContest } from '../../../core/contest';
import { tierAtPlace, type Tier } from '../../../core/ranking/ranking';
import { getResultRun } from '../../../core/ranking/repo';
import { loadPrizeSettings, type PrizeSettings } from '../../../core/ranking/settings';
import { tieGroupKey, type StoredTie } from '../../../core/ranking/standings';
import { storedTies } from '../../results';
import { recordAudit, type Actor } from '../kit/audit';
import * as repo from './repo';

function tiersOfScope(settings: PrizeSettings, scope: StoredTie['scope']): Tier[] {
  if (scope === 'individual') return settings.tiers.individual;
  if (scope === 'schools') return settings.tiers.school;
  if (scope === 'classes') return settings.tiers.teacher;
  return settings.tiers.school_pupils.slice(0, 1);
}

/** Prize money of a tie when its members share the first place's prize, beyond giving the places one by one. */
function extraAmount(tie: StoredTie, tiers: Tier[]): number {
  const shared = tierAtPlace(tiers, tie.rank)?.amount ?? 0;
  let extra = 0;
  for (let place = tie.rank; place < tie.rank + tie.size; place += 1) extra += shared - (tierAtPlace(tiers, place)?.amount ?? 0);
  return extra;
}

export async function describeTies(
  db: Db,
  contestId: number,
  ties: StoredTie[],
  settings: PrizeSettings,
  decisionState: (tie: StoredTie) => Pick<TieView, 'decision' | 'decision_state'>,
): Promise<TieView[]> {
  const pupilIds = ties.filter((tie) => tie.scope === 'individual' || tie.scope === 'school_pupils').flatMap((tie) => tie.ids.map(Number));
  const schoolIds = ties.filter((tie) => tie.scope === 'schools').flatMap((tie) => tie.ids.map(Number));
  const classSchoolIds = ties.filter((tie) => tie.scope === 'classes').flatMap((tie) => tie.ids.map((id) => Number(String(id).split(':')[0])));
  const pupilSchools = ties.flatMap((tie) => (tie.school_id ? [tie.school_id] : []));
  const [pupils, schools, classes] = await Promise.all([
    repo.pupilsOfResults(db, contestId, [...new Set(pupilIds)]),
    repo.schoolsOfResults(db, contestId, [...new Set([...schoolIds, ...pupilSchools])]),
    repo.classesOfResults(db, contestId, [...new Set(classSchoolIds)]),
  ]);
  const pupilById = new Map(pupils.map((row) => [row.contestant_id, row]));
  const schoolById = new Map(schools.map((row) => [row.id, row]));
  const classById = new Map(classes.map((row) => [`${row.school_id}:${row.class_name}`, row]));
  return ties.map((tie) => {
    const tiers = tiersOfScope(settings, tie.scope);
    const members = tie.ids.map((id) => {
      if (tie.scope === 'schools') {
        const school = schoolById.get(Number(id));
        return {
          id,
          name: school?.name ?? `#${id}`,
          school: null,
          class_name: null,
          points: null,
          duration_seconds: null,
          submitted_at: null,
          prediction: null,
          detail: school?.participants != null ? `${school.participants} học sinh dự thi / ${school.pupil_count} học sinh; điểm ${school.score!.toFixed(4)}` : null,
        };
      }
      if (tie.scope === 'classes') {
        const row = classById.get(String(id));
        return {
          id,
          name: `Lớp ${row?.class_name ?? String(id).split(':')[1]}${row?.teacher_name ? ` — GV ${row.teacher_name}` : ''}`,
          school: row?.school ?? null,
          class_name: row?.class_name ?? null,
          points: row ? Math.round(row.avg_points * 100) / 100 : null,
          duration_seconds: row ? Math.round(row.avg_duration_seconds) : null,
          submitted_at: null,
          prediction: null,
          detail: row ? `${row.participants} học sinh dự thi` : null,
        };
      }
      const pupil = pupilById.get(Number(id));
      return {
        id,
        name: pupil?.fullname ?? `#${id}`,
        school: pupil?.school ?? null,
        class_name: pupil?.class_name ?? null,
        points: pupil?.points ?? null,
        duration_seconds: pupil?.duration_seconds ?? null,
        submitted_at: pupil?.submitted_at.toISOString() ?? null,
        prediction: pupil?.prediction ?? null,
        detail: null,
      };
    });
    return {
      key: tieGroupKey(tie),
      scope: tie.scope,
      school_id: tie.school_id ?? null,
      school_name: tie.school_id ? (schoolById.get(tie.school_id)?.name ?? null) : null,
      rank: tie.rank,
      size: tie.size,
      crosses_prize: tie.crosses_prize,
      shared_prize: tierAtPlace(tiers, tie.rank)?.name ?? null,
      extra_amount: extraAmount(tie, tiers),
      ...decisionState(tie),
      members,
    };
  });
}

/**
 * Records the organiser's decision on a tie of the last computation (deciding again replaces it).
 * It takes effect at the next computation, and keeps applying while that group is found again.
 */
export async function decideTie({ db, clock }: Pick<Services, 'db' | 'clock'>, actor: Actor, input: TieDecisionRequest) {
  const now = clock.now();
  return db.transaction().execute(async (trx) => {
    const contest = await requireCurrentContest(trx);
    const run = await getResultRun(trx, contest.id);
    if (!run) throw appError('results_not_computed', resultMessages.notComputed);
    const groupKey = tieGroupKey({ scope: input.scope, school_id: input.school_id, ids: input.ids });
    const tie = storedTies(run).find((candidate) => tieGroupKey(candidate) === groupKey);
    if (!tie) throw appError('tie_not_found', adminResultsMessages.tieNotFound);
    let ordered: (number | string)[] | null = null;
    if (input.decision === 'order') {
      const members = tie.ids.map(String).sort();
      const given = (input.order ?? []).map(String);
      if (given.length !== members.length || [...given].sort().some((id, index) => id !== members[index])) {
        throw appError('input_refused', adminResultsMessages.orderMustListMembers, { order: adminResultsMessages.orderMustListMembers });
      }
      // Kept with the members' own types (contestant ids are numbers, classes "schoolId:CLASS").
      const byText = new Map(tie.ids.map((id) => [String(id), id]));
      ordered = given.map((id) => byText.get(id)!);
    }
    const before = await repo.findTieDecision(trx, contest.id, groupKey);
    const saved = await repo.saveTieDecision(trx, {
      contest_id: contest.id,
      scope: tie.scope,
      school_id: tie.school_id ?? null,
      group_key: groupKey,
      member_ids: JSON.stringify(tie.ids),
      decision: input.decision,
      ordered_ids: ordered ? JSON.stringify(ordered) : null,
      reason: input.reason,
      decided_by: actor.id,
      decided_at: now,
    });
    // Members by name (a pupil, a school, a class and its school), never by internal id ("375:5E").
    const [described] = await describeTies(trx, contest.id, [tie], await loadPrizeSettings(trx, contest.id), () => ({ decision: null, decision_state: 'none' }));
    const nameOf = new Map((described?.members ?? []).map((member) => [String(member.id), member.school && tie.scope !== 'individual' && tie.scope !== 'school_pupils' ? `${member.name} (${member.school})` : member.name]));
    const named = (ids: (number | string)[]) => ids.map((id) => nameOf.get(String(id)) ?? String(id));
    const what = input.decision === 'share' ? `cùng nhận giải cao hơn: ${named(tie.ids).join(', ')}` : `xếp thứ tự ${named(ordered!).join(', ')}`;
    await recordAudit(trx, actor, {
      kind: 'results.tie_decision',
      summary: `Quyết định nhóm đồng hạng ${tie.rank} (${tieScopeLabels[tie.scope].toLowerCase()}, ${tie.size} bên): ${what}. Lý do: ${input.reason}`,
      details: {
        scope: tie.scope,
        school_id: tie.school_id ?? null,
        rank: tie.rank,
        members: tie.ids,
        member_names: named(tie.ids),
        before: before ? { decision: before.decision, order: before.ordered_ids, reason: before.reason } : null,
        after: { decision: input.decision, order: ordered, reason: input.reason },
      },
    });
    return {
      id: saved.id,
      key: saved.group_key,
      scope: saved.scope,
      decision: saved.decision,
      ordered_ids: saved.ordered_ids,
      member_ids: saved.member_ids,
      reason: saved.reason,
      decided_at: saved.decided_at.toISOString(),
      applicable: true,
    };
  });
}

/** Crossing ties without a decision in the stored results, or with one taken after them. */
export function undecidedTies(ties: StoredTie[], decisions: Awaited<ReturnType<typeof repo.listTieDecisions>>, computedAt: Date) {
  const byKey = new Map(decisions.map((decision) => [decision.group_key, decision]));
  return ties.filter((tie) => {
    if (!tie.crosses_prize) return false;
    const decision = byKey.get(tieGroupKey(tie));
    return !tie.decision || !decision || decision.decided_at > computedAt;
  });
}
