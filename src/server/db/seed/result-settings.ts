// The result settings the seed writes: the spec's prize tiers and class minimum for every contest,
// and with the demo content the demo school's teachers.
import { sql } from 'kysely';
import { PRIZE_TIERS } from '../../../shared/prizes';
import { DEFAULT_CLASS_MIN_PARTICIPANTS } from '../../../shared/ranking-rules';
import { classKeyOf } from '../class-key';
import type { Db } from '../client';
import { demoAccounts } from './demo-accounts';

/** The spec's prize tiers (src/shared/prizes.ts) as rows of one contest; positions by list order. */
export function specPrizeTierRows(contestId: number) {
  const positions = new Map<string, number>();
  return PRIZE_TIERS.map((tier) => {
    const position = (positions.get(tier.kind) ?? 0) + 1;
    positions.set(tier.kind, position);
    return { contest_id: contestId, kind: tier.kind, code: tier.code, name: tier.name, position, winners: tier.count, amount: tier.amount };
  });
}

/** Gives every contest without prize settings the spec's settings. Safe to run again. */
export async function ensurePrizeSettings(db: Db): Promise<void> {
  const contests = await db.selectFrom('contests').select('id').execute();
  for (const { id } of contests) {
    await db
      .insertInto('prize_tiers')
      .values(specPrizeTierRows(id))
      .onConflict((oc) => oc.columns(['contest_id', 'code']).doNothing())
      .execute();
    await db
      .insertInto('result_settings')
      .values({ contest_id: id, class_min_participants: DEFAULT_CLASS_MIN_PARTICIPANTS })
      .onConflict((oc) => oc.column('contest_id').doNothing())
      .execute();
  }
}

const TEACHER_FAMILY_NAMES = ['Nguyễn Thị', 'Trần Thị', 'Lê Thị', 'Phạm Thị', 'Hoàng Văn', 'Vũ Thị', 'Đặng Văn', 'Bùi Thị', 'Đỗ Thị', 'Ngô Văn'];
const TEACHER_GIVEN_NAMES = ['Hoa', 'Lan', 'Hương', 'Minh', 'Thảo', 'Dũng', 'Hạnh', 'Phương', 'Tuấn', 'Ngọc', 'Yến', 'Quang', 'Mai', 'Hải', 'Thu'];

/** Demo teachers for every class room of the demo school (names are invented). */
export async function seedDemoTeachers(db: Db): Promise<void> {
  const school = await db.selectFrom('schools').select('id').where('name', '=', demoAccounts.schoolAdmin.school).executeTakeFirst();
  if (!school) return;
  const rooms = await db
    .selectFrom('class_rooms')
    .select(classKeyOf(sql.ref<string>('name')).as('key'))
    .orderBy('class_group_id')
    .orderBy('position')
    .execute();
  if (rooms.length === 0) return;
  await db
    .insertInto('class_teachers')
    .values(
      rooms.map((room, i) => ({
        school_id: school.id,
        class_name: room.key,
        teacher_name: `${TEACHER_FAMILY_NAMES[i % TEACHER_FAMILY_NAMES.length]} ${TEACHER_GIVEN_NAMES[(i * 7) % TEACHER_GIVEN_NAMES.length]}`,
      })),
    )
    .onConflict((oc) => oc.columns(['school_id', 'class_name']).doNothing())
    .execute();
}

/**
 * Called by the seed after it created the contest (and the catalogue): the prize settings of
 * the spec, and with the demo content the demo school's teachers.
 */
export async function seedResultSettings(db: Db, options: { demo: boolean }): Promise<void> {
  await ensurePrizeSettings(db);
  if (options.demo) await seedDemoTeachers(db);
}
