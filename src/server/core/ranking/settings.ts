// Prize settings of a contest (tiers, class minimum) and the teachers of the classes. The seed
// writes the spec's settings (db/seed/result-settings.ts).
import { DEFAULT_CLASS_MIN_PARTICIPANTS } from '../../../shared/ranking-rules';
import type { Db } from '../../db/client';
import type { PrizeTierKind } from '../../db/schema';
import type { Tier } from './ranking';

export interface PrizeSettings {
  tiers: Record<PrizeTierKind, Tier[]>;
  classMinParticipants: number;
  prizedSchoolsOnly: boolean;
}

export async function loadPrizeSettings(db: Db, contestId: number): Promise<PrizeSettings> {
  const rows = await db
    .selectFrom('prize_tiers')
    .select(['kind', 'code', 'name', 'position', 'winners', 'amount'])
    .where('contest_id', '=', contestId)
    .orderBy('kind')
    .orderBy('position')
    .execute();
  const settings = await db
    .selectFrom('result_settings')
    .select(['class_min_participants', 'school_pupils_prized_schools_only'])
    .where('contest_id', '=', contestId)
    .executeTakeFirst();
  const tiers: Record<PrizeTierKind, Tier[]> = { individual: [], school: [], school_pupils: [], teacher: [] };
  for (const row of rows) tiers[row.kind].push({ code: row.code, name: row.name, position: row.position, winners: row.winners, amount: row.amount });
  return {
    tiers,
    classMinParticipants: settings?.class_min_participants ?? DEFAULT_CLASS_MIN_PARTICIPANTS,
    prizedSchoolsOnly: settings?.school_pupils_prized_schools_only ?? true,
  };
}
