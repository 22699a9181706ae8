// Certificates in the back office: after publishing, the background job issues and draws every
// certificate (run directly here, not on its timer); a failing drawing is retried and reported;
// revocation (permissions, reason required, audit), the public verification saying "revoked",
// the family no longer downloading it, and the job never issuing it again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../../test/harness';
import { createContestant, createOrganiser, createParent, createSchoolAdmin, type CreatedUser } from '../../../test/factories';
import { computeResults, publishResults } from '../../results/compute';
import { insertFinishedExams, sessionAt } from '../../../demo/finished-exams';
import { issueCertificates, MAX_RENDER_ATTEMPTS, renderPendingCertificates } from '../../certificates/background';

let server: TestServer;
let organiser: CreatedUser;
let parent: CreatedUser;
let other: CreatedUser;
let admin: CreatedUser;
let child: { id: number; books: { id: number; name: string }[] };
let second: { id: number };
let contest: { id: number; exam_starts_at: Date; exam_ends_at: Date; results_at: Date };

const get = (path: string, token?: string) => server.request('GET', path, { token });
const post = (path: string, body: unknown, token = organiser.token) => server.request('POST', path, { token, body });
const fetchFile = (path: string, token: string) => fetch(server.url + path, { headers: { authorization: `Bearer ${token}` } });

async function setClock(to: Date) {
  server.clock.set(to);
  for (const user of [organiser, parent, other, admin]) user.token = await sessionAt(server.db, user.id, to);
}

/** What the job does on its timer, until there is nothing left. */
async function runJob() {
  while ((await issueCertificates(server)) > 0);
  while ((await renderPendingCertificates(server)) > 0);
}

const certificatesOf = (contestantId: number) =>
  server.db.selectFrom('certificates').select(['id', 'code', 'kind', 'files_hash', 'content_hash', 'pdf', 'revoked_at']).where('contestant_id', '=', contestantId).orderBy('id').execute();

beforeAll(async () => {
  server = await startTestServer();
  contest = await server.db.selectFrom('contests').select(['id', 'exam_starts_at', 'exam_ends_at', 'results_at']).orderBy('id', 'desc').executeTakeFirstOrThrow();
  organiser = await createOrganiser(server);
  parent = await createParent(server);
  other = await createParent(server);
  admin = await createSchoolAdmin(server);
  child = await createContestant(server, parent, { fullname: 'Trần Thị Ngọc Ánh' });
  second = await createContestant(server, other, { fullname: 'Lê Quốc Việt' });
  const day = (n: number) => new Date(contest.exam_starts_at.getTime() + n * 86_400_000);
  await insertFinishedExams(server.db, [
    { contestantId: child.id, bookId: child.books[0]!.id, attempt: 1, points: 90, durationSeconds: 600, submittedAt: day(1), prediction: 2 },
    { contestantId: second.id, bookId: child.books[0]!.id, attempt: 1, points: 60, durationSeconds: 800, submittedAt: day(2), prediction: null },
  ]);
  await setClock(new Date(contest.exam_ends_at.getTime() + 60_000));
  await computeResults(server);
});
afterAll(() => server?.close());

describe('permissions', () => {
  it('401 without a session, 403 to a parent and a school administrator', async () => {
    expect((await get('/api/admin/certificates/progress')).status).toBe(401);
    expect((await get('/api/admin/certificates/progress', parent.token)).status).toBe(403);
    expect((await get('/api/admin/certificates?q=abc', admin.token)).status).toBe(403);
    expect((await post('/api/admin/certificates/ABCD-EFGH-JKLM/revoke', { reason: 'x' }, parent.token)).status).toBe(403);
  });
});

describe('drawing in the background', () => {
  it('issues nothing before the results are published', async () => {
    expect(await issueCertificates(server)).toBe(0);
    const { body } = await get('/api/admin/certificates/progress', organiser.token);
    expect(body.data).toMatchObject({ published: false, issued: false, total: 0 });
  });

  it('after publishing, issues and draws every certificate each holder is entitled to', async () => {
    await setClock(contest.results_at);
    const row = await server.db.selectFrom('contests').selectAll().where('id', '=', contest.id).executeTakeFirstOrThrow();
    await publishResults(server.db, row, contest.results_at, organiser.id);
    await runJob();

    // The winner: participation, prize, top 30 of the school; the other: participation, prize (second).
    const mine = await certificatesOf(child.id);
    expect(mine.map((c) => c.kind).sort()).toEqual(['participation', 'prize', 'top30']);
    const theirs = await certificatesOf(second.id);
    expect(theirs.map((c) => c.kind)).toContain('participation');
    for (const certificate of [...mine, ...theirs]) {
      expect(certificate.files_hash).toBe(certificate.content_hash);
      expect(Buffer.from(certificate.pdf!).subarray(0, 5).toString()).toBe('%PDF-');
    }
    const { body } = await get('/api/admin/certificates/progress', organiser.token);
    const total = mine.length + theirs.length + (await server.db.selectFrom('certificates').select('id').where('school_id', 'is not', null).execute()).length;
    expect(body.data).toMatchObject({ published: true, issued: true, total, ready: total, pending: 0, failed: 0, failures: [] });
    expect(body.data.per_minute).toBeGreaterThan(0);
  });

  it('the family gets the file drawn in the background, byte for byte', async () => {
    const { body } = await get(`/api/chilren-certificate?child_id=${child.id}`, parent.token);
    const prize = body.data.certificates.find((c: { kind: string }) => c.kind === 'prize');
    const stored = (await certificatesOf(child.id)).find((c) => c.kind === 'prize')!;
    const file = await fetchFile(prize.pdf_url, parent.token);
    expect(file.status).toBe(200);
    expect(Buffer.from(await file.arrayBuffer()).equals(Buffer.from(stored.pdf!))).toBe(true);
  });

  it('a failing drawing is retried later, reported, and drawn once it works', async () => {
    const participation = (await certificatesOf(second.id)).find((c) => c.kind === 'participation')!;
    // Its file is stale (as after a change of content).
    await server.db.updateTable('certificates').set({ files_hash: null }).where('id', '=', participation.id).execute();
    const broken = async () => {
      throw new Error('hết bộ nhớ khi vẽ');
    };
    expect(await renderPendingCertificates(server, { render: broken })).toBe(1);
    // Not tried again before its retry time.
    expect(await renderPendingCertificates(server, { render: broken })).toBe(0);
    const { body } = await get('/api/admin/certificates/progress', organiser.token);
    expect(body.data).toMatchObject({ failed: 1, failures: [{ code: participation.code, kind: 'participation', holder: 'Lê Quốc Việt', attempts: 1, error: 'hết bộ nhớ khi vẽ', retrying: true }] });

    // Each retry waits longer; after MAX_RENDER_ATTEMPTS it stops and stays reported.
    for (let attempt = 2; attempt <= MAX_RENDER_ATTEMPTS; attempt++) {
      await setClock(new Date(server.clock.now().getTime() + 60 * 60_000));
      expect(await renderPendingCertificates(server, { render: broken })).toBe(1);
    }
    await setClock(new Date(server.clock.now().getTime() + 24 * 60 * 60_000));
    expect(await renderPendingCertificates(server, { render: broken })).toBe(0);
    const stopped = (await get('/api/admin/certificates/progress', organiser.token)).body.data;
    expect(stopped.failures[0]).toMatchObject({ attempts: MAX_RENDER_ATTEMPTS, retrying: false });

    // The family still gets it, drawn on demand; the report clears.
    const { body: child2 } = await get(`/api/chilren-certificate?child_id=${second.id}`, other.token);
    const file = await fetchFile(child2.data.certificates[0].pdf_url, other.token);
    expect(file.status).toBe(200);
    const after = (await get('/api/admin/certificates/progress', organiser.token)).body.data;
    expect(after).toMatchObject({ failed: 0, failures: [], pending: 0 });
  });
});

describe('revocation', () => {
  let prizeCode = '';
  let prizePdfUrl = '';

  beforeAll(async () => {
    const { body } = await get(`/api/chilren-certificate?child_id=${child.id}`, parent.token);
    const prize = body.data.certificates.find((c: { kind: string }) => c.kind === 'prize');
    prizeCode = prize.code;
    prizePdfUrl = prize.pdf_url;
  });

  it('finds a certificate by its code (any case, with or without dashes) or its holder', async () => {
    const byCode = await get(`/api/admin/certificates?q=${prizeCode.toLowerCase().replace(/-/g, '')}`, organiser.token);
    expect(byCode.status).toBe(200);
    expect(byCode.body.data).toEqual([expect.objectContaining({ code: prizeCode, kind: 'prize', holder: 'Trần Thị Ngọc Ánh', ready: true, revoked_at: null })]);
    const byName = await get(`/api/admin/certificates?q=${encodeURIComponent('Ngọc Ánh')}`, organiser.token);
    expect(byName.body.data.map((c: { kind: string }) => c.kind).sort()).toEqual(['participation', 'prize', 'top30']);
    expect((await get('/api/admin/certificates?q=', organiser.token)).status).toBe(400);
  });

  it('requires a reason, and an existing certificate', async () => {
    for (const body of [{}, { reason: '' }, { reason: '   ' }]) {
      const response = await post(`/api/admin/certificates/${prizeCode}/revoke`, body);
      expect(response.status).toBe(422);
      expect(response.body.errors).toMatchObject({ reason: 'Vui lòng nhập lý do thu hồi.' });
    }
    expect((await post(`/api/admin/certificates/${prizeCode}/revoke`, { reason: 'x'.repeat(501) })).status).toBe(422);
    const unknown = await post('/api/admin/certificates/ABCD-EFGH-JKLM/revoke', { reason: 'Sai tên' });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Không tìm thấy giấy chứng nhận với mã này.');
  });

  it('revokes with the reason in the audit log, once', async () => {
    const response = await post(`/api/admin/certificates/${prizeCode}/revoke`, { reason: 'Phát hiện gian lận khi làm bài' });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ code: prizeCode, revoked_reason: 'Phát hiện gian lận khi làm bài', revoked_at: expect.stringMatching(/^\d\d\/\d\d\/\d{4}$/) });
    const audit = await server.db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ kind: 'certificate.revoke', actor_id: organiser.id, summary: `Thu hồi giấy chứng nhận ${prizeCode} của Trần Thị Ngọc Ánh` });
    expect(audit.details).toMatchObject({ code: prizeCode, reason: 'Phát hiện gian lận khi làm bài' });
    const again = await post(`/api/admin/certificates/${prizeCode}/revoke`, { reason: 'Lần nữa' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('certificate_already_revoked');
  });

  it('the public verification says it was revoked, without the reason', async () => {
    const { status, body } = await get(`/api/certificates/verify/${prizeCode}`);
    expect(status).toBe(200);
    expect(body.data).toMatchObject({
      code: prizeCode,
      kind: 'prize',
      revoked: { date: expect.stringMatching(/^\d\d\/\d\d\/\d{4}$/), message: 'Giấy chứng nhận này đã bị Ban tổ chức thu hồi và không còn giá trị.' },
    });
    expect(JSON.stringify(body)).not.toContain('gian lận');
  });

  it('the family no longer gets it: not listed, and its link answers 410 with a message', async () => {
    const { body } = await get(`/api/chilren-certificate?child_id=${child.id}`, parent.token);
    expect(body.data.certificates.map((c: { kind: string }) => c.kind)).toEqual(['participation', 'top30']);
    const file = await fetchFile(prizePdfUrl, parent.token);
    expect(file.status).toBe(410);
    expect(await file.json()).toMatchObject({ code: 'certificate_revoked', message: 'Giấy chứng nhận này đã bị Ban tổ chức thu hồi nên không tải được nữa. Vui lòng liên hệ Ban tổ chức nếu cần.' });
  });

  it('the job never issues it again, even after a recomputation', async () => {
    await computeResults(server);
    await runJob();
    const prizes = (await certificatesOf(child.id)).filter((c) => c.kind === 'prize');
    expect(prizes).toHaveLength(1);
    expect(prizes[0]).toMatchObject({ code: prizeCode, revoked_at: expect.any(Date) });
    const { body } = await get('/api/admin/certificates/progress', organiser.token);
    expect(body.data).toMatchObject({ issued: true, revoked: 1, pending: 0 });
  });
});
