// Prize settings: the migration seeds the contests that exist before it, the seed those it
// creates, both from the spec's table (src/shared/prizes.ts).
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openDatabase, type DatabaseHandle } from '../../db/client';
import { listMigrations } from '../../db/migrate';
import { startTestServer, type TestServer } from '../../test/harness';
import { specPrizeTierRows } from '../../db/seed/result-settings';

const handles: { handle: DatabaseHandle; schema: string }[] = [];
let server: TestServer | undefined;

afterAll(async () => {
  for (const { handle, schema } of handles) {
    await sql`DROP SCHEMA ${sql.id(schema)} CASCADE`.execute(handle.db);
    if (handle.kind === 'pglite') await sql`SET search_path TO public`.execute(handle.db);
    await handle.close();
  }
  await server?.close();
});

const tierColumns = ['kind', 'code', 'name', 'position', 'winners', 'amount'] as const;
const withoutContest = (rows: ReturnType<typeof specPrizeTierRows>) => rows.map(({ contest_id: _, ...rest }) => rest);

describe('prize settings', () => {
  it('the migration gives every existing contest the spec prize tiers', async () => {
    const schema = `t_${process.pid}_${randomBytes(4).toString('hex')}`;
    const handle = await openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL, dataDir: 'memory://test', schema, poolSize: 2 });
    handles.push({ handle, schema });
    const migrations = listMigrations();
    const index = migrations.findIndex((m) => m.version === '0004_results');
    for (const migration of migrations.slice(0, index)) await sql.raw(migration.sql).execute(handle.db);
    const { id } = await handle.db
      .insertInto('contests')
      .values({ name: 'Cũ', exam_starts_at: new Date('2024-04-01'), exam_ends_at: new Date('2024-04-10'), results_at: new Date('2024-04-12') })
      .returning('id')
      .executeTakeFirstOrThrow();
    await sql.raw(migrations[index]!.sql).execute(handle.db);
    const rows = await handle.db.selectFrom('prize_tiers').select([...tierColumns]).where('contest_id', '=', id).orderBy('id').execute();
    expect(rows).toEqual(withoutContest(specPrizeTierRows(id)));
    const settings = await handle.db.selectFrom('result_settings').selectAll().executeTakeFirstOrThrow();
    expect(settings).toEqual({ contest_id: id, class_min_participants: 10, school_pupils_prized_schools_only: true });
  });

  it('the seed gives the contest it creates the same tiers, and the demo school its teachers', async () => {
    server = await startTestServer();
    const contest = await server.db.selectFrom('contests').select('id').executeTakeFirstOrThrow();
    const rows = await server.db.selectFrom('prize_tiers').select([...tierColumns]).where('contest_id', '=', contest.id).orderBy('id').execute();
    expect(rows).toEqual(withoutContest(specPrizeTierRows(contest.id)));
    const individualTotal = rows.filter((r) => r.kind === 'individual').reduce((sum, r) => sum + r.winners * r.amount, 0);
    expect(individualTotal).toBe(41_000_000);
    const teachers = await server.db
      .selectFrom('class_teachers')
      .innerJoin('schools', 'schools.id', 'class_teachers.school_id')
      .select(['schools.name', 'class_teachers.class_name', 'class_teachers.teacher_name'])
      .execute();
    expect(teachers).toHaveLength(30);
    expect(teachers.every((t) => t.name === 'Trường Tiểu học Lê Lợi' && t.teacher_name.length > 3)).toBe(true);
    expect(teachers.map((t) => t.class_name)).toContain('5A3');
  });
});
