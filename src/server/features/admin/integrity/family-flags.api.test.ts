// Issue 42 (minor): siblings on one login give a flag per pair. The review names the family of a
// flag whose exams are all one parent account's, dismisses a family's open flags with one reason
// (all or none, one audit entry), and the results overview counts the flags still open for the
// publish dialog. The flags are written into the database as a screening would store them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IntegrityFlag } from '../../../../shared/schemas/admin-integrity';
import { bookForClassRoom, insertFinishedExams, insertPupils } from '../../../demo/finished-exams';
import { startTestServer, type TestServer } from '../../../test/harness';
import { createOrganiser, firstSchool, type CreatedUser } from '../../../test/factories';

let server: TestServer;
let organiser: CreatedUser;
/** Flags of the family of pupils 0-2 (one parent account), and the others. */
const family: number[] = [];
const others: number[] = [];
let parentPhone = '';

const api = (method: string, path: string, body?: unknown) => server.request(method, path, { token: organiser.token, body });
const flags = async () => (await api('GET', '/api/admin/integrity/flags')).body.data as IntegrityFlag[];

beforeAll(async () => {
  server = await startTestServer();
  organiser = await createOrganiser(server);
  const school = await firstSchool(server.db);
  // Three pupils per parent account: 0-2 are siblings, 3 is of another family.
  const pupils = await insertPupils(server.db, { schoolId: school.id, classRooms: ['5A1'], count: 4, fullname: (i) => ['Lê An', 'Lê Bình', 'Lê Chi', 'Trần Dũng'][i]! });
  parentPhone = (await server.db.selectFrom('users').select('phone').where('id', '=', pupils[0]!.userId).executeTakeFirstOrThrow()).phone;
  const book = await bookForClassRoom(server.db, '5A1');
  const at = server.clock.now().getTime() - 3_600_000;
  const exams = await insertFinishedExams(
    server.db,
    pupils.map((pupil) => ({ contestantId: pupil.id, bookId: book.id, attempt: 1, points: 80, durationSeconds: 600, submittedAt: new Date(at), prediction: null })),
  );
  const contest = await server.db.selectFrom('contests').select('id').where('is_current', '=', true).executeTakeFirstOrThrow();
  const flag = (kind: 'similarity' | 'speed' | 'lockstep', a: number, b: number | null, strength: number) =>
    server.db
      .insertInto('integrity_flags')
      .values({
        contest_id: contest.id,
        kind,
        exam_id: exams[a]!.id,
        other_exam_id: b === null ? null : exams[b]!.id,
        contestant_id: pupils[a]!.id,
        other_contestant_id: b === null ? null : pupils[b]!.id,
        strength,
        evidence: JSON.stringify({}),
        contact: b === null ? [] : ['class'],
        found_at: new Date(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
  for (const [kind, a, b, strength] of [
    ['similarity', 0, 1, 12],
    ['similarity', 0, 2, 11],
    ['lockstep', 1, 2, 9],
    ['speed', 0, null, 5],
  ] as const) family.push((await flag(kind, a, b, strength)).id);
  others.push((await flag('similarity', 2, 3, 10)).id, (await flag('speed', 3, null, 4)).id);
});
afterAll(() => server?.close());

describe("a family's flags", () => {
  it('name the family when every exam of the flag is one parent account’s', async () => {
    const list = await flags();
    const familyKeys = new Set(list.filter((f) => family.includes(f.id)).map((f) => f.group?.key));
    expect(familyKeys.size).toBe(1);
    const group = list.find((f) => f.id === family[0])!.group!;
    expect(group.label).toBe(`Cùng một gia đình (tài khoản ${parentPhone}: Lê An, Lê Bình)`);
    // Two families' pupils: no family; a pupil's own speed flag: that pupil's family.
    expect(list.find((f) => f.id === others[0])!.group).toBeNull();
    expect(list.find((f) => f.id === others[1])!.group?.key).not.toBe(group.key);
  });

  it('are dismissed with one reason, all or none, in one audit entry', async () => {
    const empty = await api('POST', '/api/admin/integrity/flags/dismiss', { flag_ids: family, reason: '' });
    expect(empty.status).toBe(400);
    expect(empty.body.errors.reason).toBe('Vui lòng nhập lý do (ít nhất 3 ký tự).');
    const twice = await api('POST', '/api/admin/integrity/flags/dismiss', { flag_ids: [family[0], family[0]], reason: 'Ba chị em làm chung' });
    expect(twice.status).toBe(400);
    const unknown = await api('POST', '/api/admin/integrity/flags/dismiss', { flag_ids: [...family, 999_999], reason: 'Ba chị em làm chung' });
    expect(unknown.status).toBe(404);

    const reason = 'Ba chị em thi cùng lúc trên một điện thoại, đã gọi xác minh';
    expect((await api('POST', '/api/admin/integrity/flags/dismiss', { flag_ids: family, reason })).status).toBe(200);
    const list = await flags();
    expect(list.filter((f) => family.includes(f.id)).map((f) => [f.status, f.reason])).toEqual(family.map(() => ['dismissed', reason]));
    expect(list.filter((f) => others.includes(f.id)).map((f) => f.status)).toEqual(['open', 'open']);
    const audit = await server.db.selectFrom('audit_log').select(['summary', 'details']).where('kind', '=', 'integrity.dismiss').execute();
    expect(audit).toHaveLength(1);
    expect(audit[0]!.summary).toBe(`Bỏ qua 4 cảnh báo cùng một lý do: số ${[...family].sort((a, b) => a - b).join(', ')}`);
    expect(audit[0]!.details).toMatchObject({ flag_ids: [...family].sort((a, b) => a - b), reason });

    // One of them decided already: nothing is dismissed.
    const again = await api('POST', '/api/admin/integrity/flags/dismiss', { flag_ids: [others[0], family[0]], reason });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(`Cảnh báo số ${family[0]} đã được xử lý. Hãy tải lại trang rồi chọn lại.`);
    expect((await flags()).find((f) => f.id === others[0])!.status).toBe('open');
  });

  it('still open are counted for the publish dialog', async () => {
    const overview = (await api('GET', '/api/admin/results')).body.data;
    expect(overview.open_flags).toBe(2);
  });
});
