// Loads the reference and demo content into an empty database, in one transaction.
import { sql } from 'kysely';
import type { Db } from '../client';
import type { Clock } from '../../lib/clock';
import { hashPassword } from '../../lib/password';
import { sanitizeNewsHtml } from '../../lib/sanitize-html';
import { TIME_ZONE } from '../../../shared/rules';
import { districts } from './data/catalog';
import { classGroups } from './data/books';
import { newsPosts } from './data/news';
import { demoAccounts } from './demo-accounts';
import { seedResultSettings } from './result-settings';
import { contestYear } from '../../../shared/schemas/site';
import { PRIVACY_NOTICE_VERSION } from '../../../shared/privacy';

export interface SeedOptions {
  clock: Clock;
  /** Open the exam window from today for 30 days (the demo) instead of the spec's dates. */
  demoWindow: boolean;
  /** Also create the demo accounts. */
  demoAccounts?: boolean;
}

const DAY_MS = 86_400_000;
/** Demo practice questions per book: 6 per class group, more than a practice round draws (5). */
const PRACTICE_QUESTIONS_PER_BOOK = 2;

/** The spec's contest dates (section 9), in Asia/Ho_Chi_Minh (UTC+7, no daylight saving). */
export const SPEC_CONTEST = {
  name: 'Cuộc thi Đại sứ Văn hoá đọc 2025',
  reading_starts_at: new Date('2025-03-03T00:00:00+07:00'),
  reading_ends_at: new Date('2025-04-01T23:59:00+07:00'),
  exam_starts_at: new Date('2025-04-02T08:00:00+07:00'),
  exam_ends_at: new Date('2025-04-13T23:59:00+07:00'),
  results_at: new Date('2025-04-15T00:00:00+07:00'),
  ceremony_starts_at: new Date('2025-04-16T00:00:00+07:00'),
  ceremony_ends_at: new Date('2025-04-21T23:59:00+07:00'),
};

/** Midnight today in Vietnam. */
function startOfTodayInVietnam(now: Date): Date {
  const local = new Date(now.toLocaleString('en-US', { timeZone: TIME_ZONE }));
  const offsetMs = local.getTime() - now.getTime();
  const midnightLocal = new Date(local.getFullYear(), local.getMonth(), local.getDate()).getTime();
  return new Date(midnightLocal - offsetMs);
}

/**
 * The demo: the spec's timeline moved so that the exam opens today and lasts 30 days; reading
 * in the 30 days before, results 2 days after the exam, the ceremony over the 6 days after.
 * The name carries the year the exam opens in.
 */
export function demoContestWindow(now: Date) {
  const start = startOfTodayInVietnam(now);
  const day = (days: number, minutes = 0) => new Date(start.getTime() + days * DAY_MS + minutes * 60_000);
  const contest = {
    reading_starts_at: day(-30),
    reading_ends_at: day(0, -1),
    exam_starts_at: start,
    exam_ends_at: day(30, -1),
    results_at: day(32),
    ceremony_starts_at: day(33),
    ceremony_ends_at: day(39, -1),
  };
  return { name: `Cuộc thi Đại sứ Văn hoá đọc ${contestYear(contest)}`, ...contest };
}

/** Seeds when the database has no district yet. Returns whether it seeded. */
export async function seedIfEmpty(db: Db, options: SeedOptions): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    // Two processes starting on an empty database: the second waits here, then sees the data.
    await sql`LOCK TABLE districts IN EXCLUSIVE MODE`.execute(trx);
    const existing = await trx.selectFrom('districts').select('id').limit(1).executeTakeFirst();
    if (existing) return false;
    await seed(trx, options);
    return true;
  });
}

export async function seed(db: Db, options: SeedOptions): Promise<void> {
  const now = options.clock.now();
  const contest = options.demoWindow ? demoContestWindow(now) : SPEC_CONTEST;
  await db.insertInto('contests').values({ ...contest, is_current: true }).execute();

  const schoolIds = new Map<string, number>();
  for (const district of districts) {
    const { id: districtId } = await db.insertInto('districts').values({ name: district.name }).returning('id').executeTakeFirstOrThrow();
    const schools = await db
      .insertInto('schools')
      .values(district.schools.map((s) => ({ district_id: districtId, name: s.name, address: s.address, pupil_count: s.pupilCount })))
      .returning(['id', 'name'])
      .execute();
    for (const school of schools) schoolIds.set(school.name, school.id);
  }

  let bookPosition = 0;
  for (const [groupIndex, group] of classGroups.entries()) {
    const { id: groupId } = await db
      .insertInto('class_groups')
      .values({ name: group.name, grades: group.grades, position: groupIndex + 1 })
      .returning('id')
      .executeTakeFirstOrThrow();
    await db
      .insertInto('class_rooms')
      .values(group.classRooms.map((name, i) => ({ class_group_id: groupId, name, position: i + 1 })))
      .execute();
    for (const book of group.books) {
      bookPosition += 1;
      const { id: bookId } = await db
        .insertInto('books')
        .values({ class_group_id: groupId, name: book.name, author: book.author, image: book.image, position: bookPosition })
        .returning('id')
        .executeTakeFirstOrThrow();
      const questionIds = await db
        .insertInto('questions')
        // The last questions of each bank make the group's practice round ("Thi thử"), never drawn
        // in a real exam; each bank keeps well over the 20 questions an exam draws.
        .values(book.questions.map((q, qi) => ({ book_id: bookId, value: q.value, is_practice: qi >= book.questions.length - PRACTICE_QUESTIONS_PER_BOOK })))
        .returning('id')
        .execute();
      await db
        .insertInto('answers')
        .values(
          book.questions.flatMap((q, qi) =>
            q.answers.map((value, ai) => ({ question_id: questionIds[qi]!.id, value, is_correct: ai === q.correct })),
          ),
        )
        .execute();
    }
  }

  for (const { publishedAt, ...post } of newsPosts(contest)) {
    await insertNewsPost(db, { ...post, createdAt: publishedAt });
  }

  if (options.demoAccounts ?? options.demoWindow) {
    const admin = demoAccounts.schoolAdmin;
    await db
      .insertInto('users')
      .values([
        {
          phone: admin.phone,
          name: admin.name,
          password_hash: await hashPassword(admin.password),
          role: 'school_admin',
          school_id: schoolIds.get(admin.school)!,
        },
        {
          phone: demoAccounts.organiser.phone,
          name: demoAccounts.organiser.name,
          password_hash: await hashPassword(demoAccounts.organiser.password),
          role: 'organiser',
          school_id: null,
        },
      ])
      .execute();
    await seedDemoViewers(db);
    await seedDemoParent(db, schoolIds);
  }
  // Prize settings of the contest created above (and the demo school's teachers).
  await seedResultSettings(db, { demo: options.demoAccounts ?? options.demoWindow });
}

/**
 * The education offices' demo viewers (0051): the unit viewer and its units in one transaction
 * (checked at the commit), the seed's own when it runs in one (the server's start seeds in its
 * migration's transaction).
 */
async function seedDemoViewers(db: Db) {
  const { provinceViewer, unitViewer } = demoAccounts;
  const inTransaction = (work: (trx: Db) => Promise<void>) => (db.isTransaction ? work(db) : db.transaction().execute(work));
  await inTransaction(async (trx) => {
    const [, unit] = await trx
      .insertInto('users')
      .values([
        { phone: provinceViewer.phone, name: provinceViewer.name, password_hash: await hashPassword(provinceViewer.password), role: 'province_viewer', school_id: null },
        { phone: unitViewer.phone, name: unitViewer.name, password_hash: await hashPassword(unitViewer.password), role: 'unit_viewer', school_id: null },
      ])
      .returning('id')
      .execute();
    const units = await trx.selectFrom('districts').select('id').where('name', 'in', [...unitViewer.units]).execute();
    await trx.insertInto('viewer_units').values(units.map((u) => ({ user_id: unit!.id, district_id: u.id }))).execute();
  });
}

/** The demo parent with two children (grade 2 and grade 5), ready to take exams. */
async function seedDemoParent(db: Db, schoolIds: Map<string, number>) {
  const { parent } = demoAccounts;
  const { id: userId } = await db
    .insertInto('users')
    // Registered through the form: agreed to the current privacy notice (issue 15).
    .values({
      phone: parent.phone,
      password_hash: await hashPassword(parent.password),
      role: 'parent',
      school_id: null,
      privacy_version: PRIVACY_NOTICE_VERSION,
      privacy_consented_at: new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const [index, child] of parent.children.entries()) {
    const school = await db
      .selectFrom('schools')
      .select(['id', 'district_id'])
      .where('id', '=', schoolIds.get(child.school)!)
      .executeTakeFirstOrThrow();
    const room = await db
      .selectFrom('class_rooms')
      .innerJoin('class_groups', 'class_groups.id', 'class_rooms.class_group_id')
      .select(['class_rooms.id', 'class_rooms.class_group_id'])
      .where('class_rooms.name', '=', child.classRoom)
      .executeTakeFirstOrThrow();
    await db
      .insertInto('contestants')
      .values({
        user_id: userId,
        position: index + 1,
        fullname: child.fullname,
        district_id: school.district_id,
        school_id: school.id,
        class_group_id: room.class_group_id,
        class_room_id: room.id,
        class_room_other: null,
      })
      .execute();
  }
}

export interface NewNewsPost {
  slug: string;
  name: string;
  image: string;
  bodyHtml: string;
  createdAt?: Date;
}

/** Stores a post with its body sanitised. */
export async function insertNewsPost(db: Db, post: NewNewsPost) {
  await db
    .insertInto('news_posts')
    .values({
      slug: post.slug,
      name: post.name,
      image: post.image,
      body_html: sanitizeNewsHtml(post.bodyHtml),
      ...(post.createdAt ? { created_at: post.createdAt } : {}),
    })
    .execute();
}
