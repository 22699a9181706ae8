import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listMigrations, migrate } from './migrate';
import { openDatabase } from './client';
import { startTestServer, usingPostgres, type TestServer } from '../test/harness';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ seed: false });
});
afterAll(() => server?.close());

describe('migrations', () => {
  it('are applied once, and a second run (or a concurrent one) applies nothing', async () => {
    const [first, second] = await Promise.all([migrate(server.db), migrate(server.db)]);
    expect(first).toEqual([]);
    expect(second).toEqual([]);
    const rows = await sql<{ version: string }>`SELECT version FROM schema_migrations ORDER BY version`.execute(server.db);
    expect(rows.rows.map((r) => r.version)).toEqual(listMigrations().map((m) => m.version));
  });

  it.runIf(usingPostgres())('applied by two processes starting together on an empty database: each file once', async () => {
    const schema = `t_migrate_${process.pid}_${Date.now()}`;
    const open = () => openDatabase({ databaseUrl: process.env.TEST_DATABASE_URL, dataDir: 'memory://unused', schema, poolSize: 2 });
    const a = await open();
    const b = await open();
    try {
      const [first, second] = await Promise.all([migrate(a.db), migrate(b.db)]);
      expect([...first, ...second].sort()).toEqual(listMigrations().map((m) => m.version));
      const rows = await sql<{ count: string }>`SELECT count(*) FROM schema_migrations`.execute(a.db);
      expect(Number(rows.rows[0]!.count)).toBe(listMigrations().length);
    } finally {
      await sql`DROP SCHEMA ${sql.id(schema)} CASCADE`.execute(a.db);
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('enforce the contest rules the database can hold', async () => {
    const db = server.db;
    const { id: districtId } = await db.insertInto('districts').values({ name: 'Huyện Thử' }).returning('id').executeTakeFirstOrThrow();
    const { id: otherDistrict } = await db.insertInto('districts').values({ name: 'Huyện Khác' }).returning('id').executeTakeFirstOrThrow();
    const { id: schoolId } = await db.insertInto('schools').values({ district_id: districtId, name: 'Trường Thử' }).returning('id').executeTakeFirstOrThrow();
    const { id: groupId } = await db.insertInto('class_groups').values({ name: 'Nhóm Thử', grades: '1-2', position: 9 }).returning('id').executeTakeFirstOrThrow();
    const { id: userId } = await db.insertInto('users').values({ phone: '0911111111', password_hash: 'x', role: 'parent', school_id: null }).returning('id').executeTakeFirstOrThrow();
    const contestant = (position: number, district = districtId, other: string | null = '1A') =>
      db.insertInto('contestants').values({
        user_id: userId,
        position,
        fullname: 'Bé Thử',
        district_id: district,
        school_id: schoolId,
        class_group_id: groupId,
        class_room_id: null,
        class_room_other: other,
      }).execute();

    await contestant(1);
    await expect(contestant(1)).rejects.toThrow(); // same position twice
    await expect(contestant(4)).rejects.toThrow(); // a fourth contestant
    await expect(contestant(2, otherDistrict)).rejects.toThrow(); // school outside the district
    await expect(contestant(2, districtId, '123456')).rejects.toThrow(); // free-text class over 5 characters
    await expect(contestant(2, districtId, null)).rejects.toThrow(); // neither class room nor free text
    await expect(
      db.insertInto('users').values({ phone: '0922222222', password_hash: 'x', role: 'school_admin', school_id: null }).execute(),
    ).rejects.toThrow(); // a school administrator without a school
  });
});
