// Lists people read are in Vietnamese alphabetical order (issue 23.14), the same order in SQL
// (vi_sort_key, 0026) as in the browser (compareVietnamese), on PGlite and on PostgreSQL.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareVietnamese } from '../../../shared/vietnamese';
import { vietnameseOrder } from '../../db/vietnamese-order';
import { startTestServer, type TestServer } from '../../test/harness';

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
});
