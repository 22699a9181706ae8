import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listMigrations, migrate } from './migrate';
import { startTestServer, type TestServer } from '../test/harness';

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
