// Decision 038: do the readers of a season stay fast when they read its schools through the view
// season_schools (an ended season's snapshot, else today's catalogue) instead of the tables?
// A province of 3,300 units and 3,000 schools, five ended seasons kept, 100,000 pupils of the oldest
// season: the pupils' places (placedContestants) and one school's pupils, read both ways.
// `npx tsx scripts/bench-season-schools.ts` (PostgreSQL at TEST_DATABASE_URL, else the embedded one).
import { performance } from 'node:perf_hooks';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from '../src/server/db/client';
import { migrate } from '../src/server/db/migrate';
import { seed } from '../src/server/db/seed/seed';

const handle = await openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL, dataDir: mkdtempSync(join(tmpdir(), 'bench-ss-')), schema: `bench_ss_${process.pid}` });
const db = handle.db;
await migrate(db);
await seed(db, { clock: { now: () => new Date() } as never, demoWindow: false });
// Five ended seasons, copies of the seeded one.
const columns = (await sql<{ column_name: string }>`SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'contests' AND column_name NOT IN ('id', 'name', 'is_current')`.execute(db)).rows.map((r) => r.column_name);
const list = sql.raw(columns.join(', '));
await sql`INSERT INTO contests (name, is_current, ${list}) SELECT name || ' ' || g, false, ${list} FROM contests, generate_series(1, 5) g`.execute(db);
const contests = await db.selectFrom('contests').select('id').orderBy('id').execute();
console.log('seasons', contests.length);
await sql`INSERT INTO districts (name) SELECT 'Xã số ' || g FROM generate_series(1, 3300) g`.execute(db);
await sql`INSERT INTO schools (district_id, name) SELECT (SELECT min(id) FROM districts) + (g % 3300), 'Trường số ' || g FROM generate_series(1, 3000) g`.execute(db);
await sql`INSERT INTO school_snapshots SELECT c.id, s.id, s.name, s.address, s.district_id, d.name, d.former_province FROM contests c CROSS JOIN schools s JOIN districts d ON d.id = s.district_id ON CONFLICT DO NOTHING`.execute(db);
console.log('snapshots', (await sql<{ n: string }>`SELECT count(*) AS n FROM school_snapshots`.execute(db)).rows[0]!.n);
await sql`ANALYZE`.execute(db);
const time = async (label: string, run: () => Promise<unknown>) => {
  await run();
  const start = performance.now();
  for (let i = 0; i < 20; i += 1) await run();
  console.log(label, ((performance.now() - start) / 20).toFixed(2), 'ms');
};
const school = await db.selectFrom('schools').select('id').orderBy('id').limit(1).executeTakeFirstOrThrow();
const season = contests[0]!.id;
await time('one school of a season, through season_schools', () => db.selectFrom('season_schools').selectAll().where('id', '=', school.id).where('contest_id', '=', season).execute());
await time('one school, the table', () => db.selectFrom('schools').innerJoin('districts', 'districts.id', 'schools.district_id').selectAll().where('schools.id', '=', school.id).execute());
await time('200 schools of a season, through season_schools', () => db.selectFrom('season_schools').selectAll().where('contest_id', '=', season).where('id', '<', school.id + 200).execute());
console.log((await sql<{ 'QUERY PLAN': string }>`EXPLAIN SELECT * FROM season_schools WHERE contest_id = ${season} AND id = ${school.id}`.execute(db)).rows.map((r) => r['QUERY PLAN']).join('\n'));

await handle.close();
