// Issue 42: the exports and the prize list say why a row looks wrong. A pupil whose prize is
// withheld (integrity hold) is ranked after everyone with 100 points: the all-results export says
// "Tạm giữ giải: <reason>"; a withdrawn prize says so with its reason; a prize holder whose
// family's data was erased ("Thí sinh đã xoá #68") keeps the prize, and the export and the prize
// list say that the data was erased (no placeholder phone is given as the parent's).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import readExcelFile from 'read-excel-file/node';
import { startTestServer, type TestServer } from '../../../test/harness';
import { computeResultsTask, createOrganiser, type CreatedUser } from '../../../test/factories';
import { bookForClassRoom, insertFinishedExams, insertPupils, sessionAt } from '../../../demo/finished-exams';
import type { Contest } from '../../../db/schema';

let server: TestServer;
let organiser: CreatedUser;
let contest: Contest;
let held: number;
let erased: { id: number; userId: number };
let withdrawn: number;

const api = (method: string, path: string, body?: unknown) => server.request(method, path, { token: organiser.token, body });

const compute = () => computeResultsTask(server, organiser.token);

async function download(file: string) {
  const response = await fetch(`${server.url}/api/admin/results/exports/${file}`, { headers: { authorization: `Bearer ${organiser.token}` } });
  expect(response.status).toBe(200);
  return readExcelFile(Buffer.from(await response.arrayBuffer()));
}

beforeAll(async () => {
  server = await startTestServer();
  organiser = await createOrganiser(server);
  contest = await server.db.selectFrom('contests').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
  const school = await server.db.selectFrom('schools').select('id').where('name', '=', 'Trường Tiểu học Lê Lợi').executeTakeFirstOrThrow();
  const fullname = (name: string) => () => name;
  // Each with a family of its own: erasing one family erases that pupil alone.
  const [heldPupil] = await insertPupils(server.db, { schoolId: school.id, classRooms: ['5A1'], count: 1, fullname: fullname('Giữ Giải') });
  const [erasedPupil] = await insertPupils(server.db, { schoolId: school.id, classRooms: ['5A1'], count: 1, fullname: fullname('Sẽ Xoá') });
  const [withdrawnPupil] = await insertPupils(server.db, { schoolId: school.id, classRooms: ['5A1'], count: 1, fullname: fullname('Rút Giải') });
  const others = await insertPupils(server.db, { schoolId: school.id, classRooms: ['5A1'], count: 6, fullname: (i) => `Bạn ${i + 1}` });
  held = heldPupil!.id;
  erased = erasedPupil!;
  withdrawn = withdrawnPupil!.id;
  const book = (await bookForClassRoom(server.db, '5A1')).id;
  const at = contest.exam_starts_at.getTime() + 3_600_000;
  const pupils = [heldPupil!, erasedPupil!, withdrawnPupil!, ...others];
  await insertFinishedExams(
    server.db,
    pupils.map((pupil, i) => ({ contestantId: pupil.id, bookId: book, attempt: 1, points: i === 0 ? 100 : 95 - i, durationSeconds: 300 + i, submittedAt: new Date(at + i * 1000), prediction: 9 })),
  );
  const now = new Date(contest.results_at.getTime() + 60_000);
  server.clock.set(now);
  organiser = { ...organiser, token: await sessionAt(server.db, organiser.id, now) };
  // The integrity review's decision (integrity/service.ts withholdPrize writes this row).
  await server.db.insertInto('prize_holds').values({ contest_id: contest.id, contestant_id: held, flag_id: null, reason: 'Bài làm giống hệt bài số 12', held_by: organiser.id, held_at: now }).execute();
  await compute();
  const withdrawal = await api('POST', '/api/admin/results/withdrawals', { contestant_id: withdrawn, kind: 'individual', reason: 'Gia đình từ chối nhận giải' });
  expect(withdrawal.status, JSON.stringify(withdrawal.body)).toBe(200);
  const erasure = await api('POST', `/api/admin/privacy/accounts/${erased.userId}/erase`, { reason: 'Phụ huynh yêu cầu xoá qua điện thoại' });
  expect(erasure.status, JSON.stringify(erasure.body)).toBe(200);
});
afterAll(() => server?.close());

const NOTE_ERASED = 'Dữ liệu cá nhân của thí sinh đã được xoá theo yêu cầu (hoặc hết thời hạn lưu giữ)';

describe('notes on results', () => {
  it('the all-results export says why the 100-point pupil is last, why a prize is gone, and that a holder was erased', async () => {
    const [sheet] = await download('contestants.xlsx');
    const heading = sheet!.data[0]!;
    expect(heading.at(-1)).toBe('Ghi chú');
    const rows = sheet!.data.slice(1);
    const col = (title: string) => heading.indexOf(title);
    const heldRow = rows.find((row) => row[col('Họ và tên')] === 'Giữ Giải')!;
    expect(heldRow[col('Điểm')]).toBe(100);
    expect(heldRow[col('Hạng')]).toBe(rows.length);
    expect(heldRow[col('Giải')]).toBeNull();
    expect(heldRow[col('Ghi chú')]).toBe('Tạm giữ giải: Bài làm giống hệt bài số 12 (xếp sau mọi thí sinh khác)');

    const withdrawnRow = rows.find((row) => row[col('Họ và tên')] === 'Rút Giải')!;
    expect(withdrawnRow[col('Giải')]).toBeNull();
    expect(withdrawnRow[col('Ghi chú')]).toMatch(/^Đã rút Giải .+: Gia đình từ chối nhận giải$/);

    const erasedRow = rows.find((row) => row[col('Họ và tên')] === `Thí sinh đã xoá #${erased.id}`)!;
    expect(erasedRow[col('Giải')]).not.toBeNull();
    expect(erasedRow[col('Ghi chú')]).toBe(NOTE_ERASED);
    // The others have nothing to explain.
    expect(rows.filter((row) => row[col('Ghi chú')] !== null)).toHaveLength(3);
  });

  it('the winners export and the prize list say that the holder’s data was erased, with no placeholder phone', async () => {
    const sheets = await download('winners.xlsx');
    for (const name of ['Giải cá nhân', 'Học sinh tiêu biểu']) {
      const sheet = sheets.find((s) => s.sheet === name)!.data;
      const heading = sheet[0]!;
      const row = sheet.find((r) => r[heading.indexOf('Họ và tên')] === `Thí sinh đã xoá #${erased.id}`)!;
      expect(row, name).toBeDefined();
      expect(row[heading.indexOf('Ghi chú')], name).toBe(NOTE_ERASED);
      expect(row[heading.indexOf('SĐT phụ huynh')], name).toBeNull();
      expect(sheet.slice(1).filter((r) => r[heading.indexOf('Ghi chú')] !== null), name).toHaveLength(1);
    }
    for (const kind of ['individual', 'school_pupils']) {
      const items = (await api('GET', `/api/admin/results/prizes?kind=${kind}&per_page=50`)).body.data.items as { contestant_id: number; note: string | null }[];
      expect(items.find((item) => item.contestant_id === erased.id)?.note, kind).toBe(NOTE_ERASED);
      expect(items.filter((item) => item.note !== null), kind).toHaveLength(1);
    }
    const schools = (await api('GET', '/api/admin/results/prizes?kind=school')).body.data.items as { note: string | null }[];
    expect(schools.every((item) => item.note === null)).toBe(true);
  });
});
