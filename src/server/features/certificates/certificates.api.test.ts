// Certificates: owner-only access, participation then prizes from the results date, files drawn
// once and again when their content changes, and the public verification.
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness';
import { createContestant, createParent, createSchoolAdmin } from '../../test/factories';
import { computeResults, publishResults } from '../results/compute';
import { insertFinishedExams, sessionAt } from '../../demo/finished-exams';
import { issueCertificates } from './background';

let server: TestServer;
let owner: { id: number; token: string };
let stranger: { id: number; token: string };
let admin: { id: number; token: string };
let child: { id: number; books: { id: number; name: string }[] };
let other: { id: number };
let contest: { id: number; exam_starts_at: Date; exam_ends_at: Date; results_at: Date };

const get = (path: string, token?: string) => server.request('GET', path, { token });
const fetchFile = (path: string, token?: string, headers: Record<string, string> = {}) =>
  fetch(server.url + path, { headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } });

async function setClock(to: Date) {
  server.clock.set(to);
  for (const user of [owner, stranger, admin]) user.token = await sessionAt(server.db, user.id, to);
}

beforeAll(async () => {
  server = await startTestServer();
  contest = await server.db.selectFrom('contests').select(['id', 'exam_starts_at', 'exam_ends_at', 'results_at']).orderBy('id', 'desc').executeTakeFirstOrThrow();
  owner = await createParent(server);
  stranger = await createParent(server);
  admin = await createSchoolAdmin(server);
  child = await createContestant(server, owner, { fullname: 'Nguyễn Đức Trường', groupPosition: 3 });
  other = await createContestant(server, stranger, { fullname: 'Phạm Thị Ánh' });
});

afterAll(async () => {
  await server?.close();
});

describe('GET /api/chilren-certificate: access', () => {
  it('401 without a token, 403 for a school administrator, 404 for another family', async () => {
    expect((await get(`/api/chilren-certificate?child_id=${child.id}`)).status).toBe(401);
    const asAdmin = await get(`/api/chilren-certificate?child_id=${child.id}`, admin.token);
    expect(asAdmin.status).toBe(403);
    const asStranger = await get(`/api/chilren-certificate?child_id=${child.id}`, stranger.token);
    expect(asStranger.status).toBe(404);
    expect(asStranger.body).toMatchObject({ success: false, message: 'Không tìm thấy thí sinh.' });
    expect((await get('/api/chilren-certificate?child_id=999999', owner.token)).status).toBe(404);
  });

  it('400 with a clear message for a missing or bad child_id', async () => {
    const response = await get('/api/chilren-certificate?child_id=abc', owner.token);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ success: false, code: 'invalid_input', message: 'Thiếu hoặc sai tham số child_id.' });
  });
});

describe('certificates of a child', () => {
  it('none before a finished exam', async () => {
    const { status, body } = await get(`/api/chilren-certificate?child_id=${child.id}`, owner.token);
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ id: child.id, fullname: 'Nguyễn Đức Trường', path_certificate: null, path_top_30: null, is_top_personal: 0, is_top_30: 0, prize_personal: null, certificates: [] });
    expect(body.exam_lastest).toBeNull();
    expect(body.results_published).toBe(false);
    expect(body.results_date).toMatch(/^\d\d\/\d\d\/\d{4}$/);
  });

  let code = '';
  let pdfUrl = '';
  let imageUrl = '';

  it('a participation certificate after one', async () => {
    const book = child.books[1]!;
    await insertFinishedExams(server.db, [
      { contestantId: child.id, bookId: book.id, attempt: 1, points: 85, durationSeconds: 640, submittedAt: new Date(contest.exam_starts_at.getTime() + 86_400_000), prediction: 42 },
    ]);
    const { body } = await get(`/api/chilren-certificate?child_id=${child.id}`, owner.token);
    expect(body.data.certificates).toHaveLength(1);
    const [certificate] = body.data.certificates;
    expect(certificate).toMatchObject({ kind: 'participation', title: 'Giấy chứng nhận tham gia cuộc thi' });
    expect(certificate.code).toMatch(/^[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/);
    expect(certificate.verify_url).toBe(`${server.config.publicUrl}/xac-minh/${certificate.code}`);
    expect(body.data.path_certificate).toBe(certificate.pdf_url);
    expect(body.exam_lastest).toMatchObject({ book_id: book.id });
    code = certificate.code;
    pdfUrl = certificate.pdf_url;
    imageUrl = certificate.image_url;
    // Asking again keeps the same certificate.
    const again = await get(`/api/chilren-certificate?child_id=${child.id}`, owner.token);
    expect(again.body.data.certificates[0].code).toBe(code);
  });

  it('the PDF and the PNG preview, for the owner only', async () => {
    const pdf = await fetchFile(pdfUrl, owner.token);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toBe(`attachment; filename="giay-chung-nhan-${code}.pdf"`);
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
    // A4 landscape, fonts embedded.
    expect(bytes.toString('latin1')).toMatch(/\/MediaBox \[0 0 841\.89 595\.28\]/);
    expect(bytes.toString('latin1')).toContain('BeVietnamPro-Bold');

    const png = await fetchFile(imageUrl, owner.token);
    expect(png.headers.get('content-type')).toBe('image/png');
    const meta = await sharp(Buffer.from(await png.arrayBuffer())).metadata();
    expect([meta.width, meta.height]).toEqual([1400, 990]);

    expect((await fetchFile(pdfUrl)).status).toBe(401);
    expect((await fetchFile(pdfUrl, stranger.token)).status).toBe(404);
    expect((await fetchFile(pdfUrl, admin.token)).status).toBe(404);
    expect((await fetchFile('/api/certificates/ABCD-EFGH-JKLM/pdf', owner.token)).status).toBe(404);
    expect((await fetchFile(`/api/certificates/${code}/gif`, owner.token)).status).toBe(400);
  });

  it('draws the files once, and again when what they show changes', async () => {
    const first = await fetchFile(pdfUrl, owner.token);
    const etag = first.headers.get('etag')!;
    const stored = await server.db.selectFrom('certificates').select(['files_hash', 'content_hash']).where('code', '=', code).executeTakeFirstOrThrow();
    expect(stored.files_hash).toBe(stored.content_hash);
    expect((await fetchFile(pdfUrl, owner.token, { 'if-none-match': etag })).status).toBe(304);

    // A better attempt on another book: the certificate shows that book now, same code.
    const book = child.books[2]!;
    await insertFinishedExams(server.db, [
      { contestantId: child.id, bookId: book.id, attempt: 2, points: 95, durationSeconds: 600, submittedAt: new Date(contest.exam_starts_at.getTime() + 2 * 86_400_000), prediction: 42 },
    ]);
    const second = await fetchFile(pdfUrl, owner.token);
    expect(second.status).toBe(200);
    expect(second.headers.get('etag')).not.toBe(etag);
    const row = await server.db.selectFrom('certificates').select(['code', 'content', 'files_hash', 'content_hash']).where('code', '=', code).executeTakeFirstOrThrow();
    expect((row.content as { lines: string[] }).lines.join(' ')).toContain(`“${book.name}”`);
    expect(row.files_hash).toBe(row.content_hash);
  });

  it('the public verification confirms the certificate and nothing else', async () => {
    const { status, body } = await get(`/api/certificates/verify/${code.toLowerCase()}`);
    expect(status).toBe(200);
    expect(body).toEqual({
      success: true,
      data: { code, kind: 'participation', title: 'Giấy chứng nhận tham gia cuộc thi', name: 'Nguyễn Đức Trường', contest: expect.any(String), date: expect.stringMatching(/^\d\d\/\d\d\/\d{4}$/), season: { name: expect.any(String), current: true } },
    });
    // Typed in lower case with spaces (or none), as printed: the same certificate.
    for (const typed of [code.toLowerCase().replace(/-/g, ' '), ` ${code.replace(/-/g, '').toLowerCase()} `]) {
      const again = await get(`/api/certificates/verify/${encodeURIComponent(typed)}`);
      expect([typed, again.status, again.body.data?.code]).toEqual([typed, 200, code]);
    }
    const unknown = await get('/api/certificates/verify/ABCD-EFGH-JKLM');
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Không tìm thấy giấy chứng nhận với mã này. Vui lòng kiểm tra lại mã.');
    expect((await get('/api/certificates/verify/x')).status).toBe(400);
  });
});

describe('prize certificates once the results are published', () => {
  beforeAll(async () => {
    // The other child finishes too (lower), so there are two participants.
    await insertFinishedExams(server.db, [
      { contestantId: other.id, bookId: child.books[0]!.id, attempt: 1, points: 50, durationSeconds: 900, submittedAt: new Date(contest.exam_starts_at.getTime() + 3_600_000), prediction: null },
    ]);
    await setClock(new Date(contest.exam_ends_at.getTime() + 60_000));
    await computeResults(server);
  });

  it('are not shown before they are published', async () => {
    const { body } = await get(`/api/chilren-certificate?child_id=${child.id}`, owner.token);
    expect(body.results_published).toBe(false);
    expect(body.data.prize_personal).toBeNull();
    expect(body.data.certificates.map((c: { kind: string }) => c.kind)).toEqual(['participation']);
  });

  let prizeCode = '';

  it('show the prize, the prize certificate and the top-30 certificate once published', async () => {
    await setClock(contest.results_at);
    await publishResults(server.db, await server.db.selectFrom('contests').selectAll().where('id', '=', contest.id).executeTakeFirstOrThrow(), contest.results_at, null);
    const { body } = await get(`/api/chilren-certificate?child_id=${child.id}`, owner.token);
    expect(body.results_published).toBe(true);
    expect(body.data.is_top_personal).toBe(1);
    expect(body.data.is_top_30).toBe(1);
    expect(body.data.prize_personal).toMatchObject({ prize_name: 'Giải Đặc biệt', money: 10_000_000, desc: 'Giải Đặc biệt cá nhân, trị giá 10.000.000 đ (hạng 1).' });
    expect(body.data.certificates.map((c: { kind: string }) => c.kind)).toEqual(['participation', 'prize', 'top30']);
    const prize = body.data.certificates[1];
    expect(body.data.prize_personal.image).toBe(prize.image_url);
    expect(body.data.path_top_30).toBe(body.data.certificates[2].pdf_url);
    prizeCode = prize.code;
    expect((await fetchFile(prize.pdf_url, owner.token)).status).toBe(200);
    const verified = await get(`/api/certificates/verify/${prizeCode}`);
    expect(verified.body.data).toMatchObject({ kind: 'prize', title: 'Giấy chứng nhận đạt Giải Đặc biệt', name: 'Nguyễn Đức Trường', date: body.results_date });

    const second = await get(`/api/chilren-certificate?child_id=${other.id}`, stranger.token);
    expect(second.body.data.prize_personal).toMatchObject({ prize_name: 'Giải Nhất', money: 5_000_000 });
  });

  it('a prize lost on recomputation is no longer confirmed', async () => {
    // A data correction: the winning exam is cancelled, results computed again.
    await server.db.deleteFrom('individual_results').execute();
    await server.db.deleteFrom('exams').where('contestant_id', '=', child.id).execute();
    await computeResults(server);
    expect((await get(`/api/certificates/verify/${prizeCode}`)).status).toBe(404);
    const { body } = await get(`/api/chilren-certificate?child_id=${child.id}`, owner.token);
    expect(body.data.certificates).toEqual([]);
    expect(body.data.path_certificate).toBeNull();
  });
});

describe('after the family had their data erased', () => {
  it("keeps the child's certificate codes verifiable without the name, and issues no new ones", async () => {
    const before = await get(`/api/chilren-certificate?child_id=${other.id}`, stranger.token);
    const codes: string[] = before.body.data.certificates.map((c: { code: string }) => c.code);
    expect(codes.length).toBeGreaterThan(0);

    const phone = (await server.db.selectFrom('users').select('phone').where('id', '=', stranger.id).executeTakeFirstOrThrow()).phone;
    await server.request('POST', '/api/customer/delete-account/send-otp', { token: stranger.token });
    const otp = server.outbox().filter((sms) => sms.phone === phone).at(-1)!.message.match(/\b(\d{6})\b/)![1];
    expect((await server.request('POST', '/api/customer/delete-account', { token: stranger.token, body: { otp } })).status).toBe(200);

    for (const code of codes) {
      const verified = await get(`/api/certificates/verify/${code}`);
      expect(verified.status).toBe(200);
      expect(verified.body.data).toMatchObject({
        code,
        name: '',
        erased: { date: expect.stringMatching(/^\d\d\/\d\d\/\d{4}$/), message: 'Giấy chứng nhận này do Ban tổ chức cấp. Thông tin của người nhận đã được xoá theo yêu cầu của gia đình.' },
      });
      expect(verified.body.data.title).toMatch(/^Giấy chứng nhận/);
      expect(JSON.stringify(verified.body)).not.toContain('Ánh');
    }
    expect((await get('/api/certificates/verify/ABCD-EFGH-JKLM')).status).toBe(404);

    // Results computed again: the anonymised child keeps its score and gets no certificate.
    await computeResults(server);
    while ((await issueCertificates(server)) > 0);
    expect(await server.db.selectFrom('certificates').select('id').where('contestant_id', '=', other.id).execute()).toEqual([]);
  });
});
