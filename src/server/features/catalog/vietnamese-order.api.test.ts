// Lists people read are in Vietnamese alphabetical order (issue 23.14), the same order in SQL
// (vi_sort_key, 0026) as in the browser (compareVietnamese), on PGlite and on PostgreSQL.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareVietnamese } from '../../../shared/vietnamese';
import { naturalVietnameseOrder, vietnameseOrder } from '../../db/vietnamese-order';
import { startTestServer, type TestServer } from '../../test/harness';
import { createOrganiser } from '../../test/factories';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server?.close());

const NAMES = ['Yên Thành', 'Đông Hòa', 'Dung Quất', 'Ân Thi', 'An Lão', 'Ba Vì', 'Ông Ích Khiêm', 'Ơn Nghĩa', 'Oanh Liệt', 'ăn Khê', 'Ứng Hòa', 'Uông Bí', 'Vĩnh Phúc', 'êm đềm', 'Em Bé', 'Quỳnh Lưu', 'Hồng Lĩnh', 'Hà Tĩnh'];

describe('Vietnamese order', () => {
  it('in SQL is the order of compareVietnamese', async () => {
    const { rows } = await sql<{ name: string }>`SELECT name FROM unnest(${NAMES}::text[]) AS t(name) ORDER BY vi_sort_key(name), name`.execute(server.db);
    expect(rows.map((row) => row.name)).toEqual([...NAMES].sort(compareVietnamese));
    expect(rows.map((row) => row.name).slice(0, 4)).toEqual(['An Lão', 'ăn Khê', 'Ân Thi', 'Ba Vì']);
  });

  it('orders the districts of the registration form: Đ after D, Ô and Ơ after O', async () => {
    const names = ['Đông Hòa', 'Dung Quất', 'Ông Ích Khiêm', 'Oanh Liệt', 'Ơn Nghĩa', 'Zeta'];
    const added = await server.db.insertInto('districts').values(names.map((name) => ({ name }))).returning('id').execute();
    // The form lists districts that have a school.
    await server.db.insertInto('schools').values(added.map(({ id }) => ({ district_id: id, name: 'Trường Tiểu học Thứ Tự', address: '', pupil_count: 100 }))).execute();
    const { body } = await server.request('GET', '/api/districts');
    const listed = (body.data as { name: string }[]).map((d) => d.name);
    expect(listed).toEqual([...listed].sort(compareVietnamese));
    expect(listed.filter((name) => names.includes(name))).toEqual(['Dung Quất', 'Đông Hòa', 'Oanh Liệt', 'Ông Ích Khiêm', 'Ơn Nghĩa', 'Zeta']);
    // The helper the repositories use gives the same.
    const viaHelper = await server.db
      .selectFrom('districts')
      .select('name')
      .where(({ exists, selectFrom }) => exists(selectFrom('schools').select('schools.id').whereRef('schools.district_id', '=', 'districts.id')))
      .orderBy(vietnameseOrder('name'))
      .orderBy('name')
      .execute();
    expect(viaHelper.map((d) => d.name)).toEqual(listed);
  });

  it('lists classes in natural order, in SQL as compareVietnamese: the public list and the back office alike, whatever order they were added in', async () => {
    const CLASSES = ['3A10', '3B', '3A1', '3A', '3A2', '3Đ', '3D', '3E', '3/2', '12A'];
    const { rows } = await sql<{ name: string }>`SELECT name FROM unnest(${CLASSES}::text[]) AS t(name) ORDER BY ${naturalVietnameseOrder('name')}, name`.execute(server.db);
    expect(rows.map((row) => row.name)).toEqual([...CLASSES].sort(compareVietnamese));

    // A group of its own, its classes added as an import adds them: "3A1…" first, then "3A", "3B".
    const { id: groupId } = await server.db.insertInto('class_groups').values({ name: 'Nhóm Thứ Tự', grades: '3', position: 9 }).returning('id').executeTakeFirstOrThrow();
    const added = ['3A1', '3A2', '3A10', '4A6', '3A', '3B', '3Đ', '3D'];
    await server.db.insertInto('class_rooms').values(added.map((name, i) => ({ class_group_id: groupId, name, position: i + 1 }))).execute();
    const natural = ['3A', '3A1', '3A2', '3A10', '3B', '3D', '3Đ', '4A6'];
    const listed = await server.request('GET', `/api/class-rooms?class_group_id=${groupId}`);
    expect(listed.body.data.map((room: { name: string }) => room.name)).toEqual(natural);
    const { token } = await createOrganiser(server);
    const admin = await server.request('GET', `/api/admin/class-rooms?class_group_id=${groupId}&per_page=50`, { token });
    expect(admin.body.data.items.map((room: { name: string }) => room.name)).toEqual(natural);
    const byName = await server.request('GET', `/api/admin/class-rooms?class_group_id=${groupId}&per_page=50&sort=name&dir=desc`, { token });
    expect(byName.body.data.items.map((room: { name: string }) => room.name)).toEqual([...natural].reverse());
  });
});
