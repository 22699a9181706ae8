// A family's opt-out: the link at the end of each message opens /tu-choi/:token, whose button
// records it; every later send skips the family (at queueing and again when its message is due).
import type { Services } from '../../../services';
import type { Db } from '../../../db/client';
import { notFound } from '../../../lib/errors';
import { maskPhone } from '../../../../shared/privacy';
import { familyMessageTexts } from '../../../../shared/messages/family-messages';

async function familyOf(db: Db, token: string) {
  const row = await db
    .selectFrom('message_opt_outs as o')
    .innerJoin('users as u', 'u.id', 'o.user_id')
    .select(['o.user_id', 'o.opted_out_at', 'u.phone'])
    .where('o.token', '=', token)
    .executeTakeFirst();
  if (!row) throw notFound(familyMessageTexts.optOutNotFound);
  return row;
}

export async function optOutState(db: Db, token: string) {
  const family = await familyOf(db, token);
  return { opted_out: family.opted_out_at !== null, masked_phone: maskPhone(family.phone) };
}

export async function optOut({ db, clock }: Pick<Services, 'db' | 'clock'>, token: string) {
  const family = await familyOf(db, token);
  await db.updateTable('message_opt_outs').set({ opted_out_at: clock.now() }).where('user_id', '=', family.user_id).where('opted_out_at', 'is', null).execute();
  return { opted_out: true, masked_phone: maskPhone(family.phone) };
}
