// Who a message goes to: the parents of the season's children, narrowed to a unit, a school, the
// children who still have attempts left, or the prize winners. One row per family (user).
import { sql } from 'kysely';
import type { Db } from '../../../db/client';
import type { Contest } from '../../../db/schema';
import { audienceLabels, familyMessageTexts, parentsOf } from '../../../../shared/messages/family-messages';
import type { Audience } from '../../../../shared/schemas/admin-messages';
import { contestAttemptsOf } from '../../../../shared/rules';
import { appError } from '../../../lib/errors';

export interface Family {
  user_id: number;
  phone: string;
  opted_out: boolean;
}

/** The families of an audience, with whether each opted out; refuses a unit or school that is not there. */
export async function familiesOf(db: Db, contest: Contest, audience: Audience): Promise<{ families: Family[]; label: string }> {
  let label: string = audienceLabels.season;
  let query = db
    .selectFrom('contestants as c')
    .innerJoin('users as u', 'u.id', 'c.user_id')
    .leftJoin('message_opt_outs as o', 'o.user_id', 'u.id')
    .where('c.contest_id', '=', contest.id)
    .where('c.anonymised_at', 'is', null)
    .where('u.deleted_at', 'is', null)
    .where('u.role', '=', 'parent');
  if (audience.kind === 'district') {
    if (!audience.district_id) throw appError('invalid_input', familyMessageTexts.districtRequired, { 'audience.district_id': familyMessageTexts.districtRequired });
    const district = await db.selectFrom('districts').select('name').where('id', '=', audience.district_id).executeTakeFirst();
    if (!district) throw appError('input_refused', familyMessageTexts.districtRequired, { 'audience.district_id': familyMessageTexts.districtRequired });
    label = parentsOf(district.name);
    query = query.where('c.district_id', '=', audience.district_id);
  } else if (audience.kind === 'school') {
    if (!audience.school_id) throw appError('invalid_input', familyMessageTexts.schoolRequired, { 'audience.school_id': familyMessageTexts.schoolRequired });
    const school = await db.selectFrom('schools').select('name').where('id', '=', audience.school_id).executeTakeFirst();
    if (!school) throw appError('input_refused', familyMessageTexts.schoolRequired, { 'audience.school_id': familyMessageTexts.schoolRequired });
    label = parentsOf(school.name);
    query = query.where('c.school_id', '=', audience.school_id);
  } else if (audience.kind === 'attempts_left') {
    label = audienceLabels.attempts_left;
    const allowed = contestAttemptsOf(contest.attempts_per_contestant);
    query = query.where(
      sql<boolean>`(SELECT count(*) FROM exams e WHERE e.contestant_id = c.id AND e.contest_id = ${contest.id})
        < ${allowed} + (SELECT count(*) FROM extra_attempts x WHERE x.contestant_id = c.id AND x.contest_id = ${contest.id})`,
    );
  } else if (audience.kind === 'winners') {
    label = audienceLabels.winners;
    query = query.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('individual_results as r')
          .select('r.contestant_id')
          .whereRef('r.contestant_id', '=', 'c.id')
          .where('r.contest_id', '=', contest.id)
          .where('r.prize_code', 'is not', null)
          .where('r.held', '=', false),
      ),
    );
  }
  const families = await query
    .select(['u.id as user_id', 'u.phone', sql<boolean>`o.opted_out_at IS NOT NULL`.as('opted_out')])
    .distinct()
    .orderBy('u.id')
    .execute();
  return { families, label };
}
