// Certificates in the back office: after publishing, the background job issues and draws every
// certificate (run directly here, not on its timer); a failing drawing is retried and reported;
// revocation (permissions, reason required, audit), the public verification saying "revoked", the
// old code no longer downloading while the family keeps the prize under a new code; withdrawing a
// prize, after which every view agrees it is gone (decision 020).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import readExcelFile from 'read-excel-file/node';
import { startTestServer, type TestServer } from '../../../test/harness';
import { createContestant, createOrganiser, createParent, createSchoolAdmin, type CreatedUser } from '../../../test/factories';
import { computeResults, publishResults } from '../../results/compute';
import { insertFinishedExams, sessionAt } from '../../../demo/finished-exams';
import { issueCertificates, MAX_RENDER_ATTEMPTS, renderPendingCertificates } from '../../certificates/background';

let server: TestServer;
let organiser: CreatedUser;
let parent: CreatedUser;
let other: CreatedUser;
let admin: CreatedUser & { schoolId: number };
let child: { id: number; books: { id: number; name: string }[] };
let second: { id: number };
/** The first pupil's individual prize, as the family page first shows it. */
let prizeName = '';
let prizeAmount = 0;
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

  it('measures the drawing rate over the recent drawings, not a fixed window', async () => {
    const now = server.clock.now();
    const drawn = (await server.db.selectFrom('certificates').select('id').where('contest_id', '=', contest.id).execute()).map((row) => row.id);
    const drawnAt = (ms: number) => server.db.updateTable('certificates').set({ rendered_at: new Date(now.getTime() - ms) }).where('id', 'in', drawn).execute();
    const rate = async () => (await get('/api/admin/certificates/progress', organiser.token)).body.data.per_minute;
    // All drawn within the last 6 s: that many per 6 s, i.e. ten times as many a minute.
    await drawnAt(6_000);
    expect(await rate()).toBe(drawn.length * 10);
    // One second ago: counted over 5 s at least.
    await drawnAt(1_000);
    expect(await rate()).toBe(drawn.length * 12);
    // Two minutes ago: nothing is being drawn now.
    await drawnAt(120_000);
    expect(await rate()).toBe(0);
    await drawnAt(0);
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

  it("a school renamed in the back office: the job, not a family's read, redraws what its certificates print", async () => {
    const school = await server.db.selectFrom('schools').selectAll().where('id', '=', admin.schoolId).executeTakeFirstOrThrow();
    const printed = async () =>
      (await server.db.selectFrom('certificates').select(['content', 'content_hash', 'files_hash']).where('contestant_id', '=', child.id).where('kind', '=', 'participation').executeTakeFirstOrThrow());
    const before = await printed();
    const renamed = await server.request('PUT', `/api/admin/schools/${school.id}`, {
      token: organiser.token,
      body: { district_id: school.district_id, name: `${school.name} (cơ sở 2)`, address: school.address, pupil_count: school.pupil_count },
    });
    expect(renamed.status).toBe(200);
    // The rename's transaction marked the published results for the job; nothing was redrawn yet.
    expect(await printed()).toEqual(before);
    expect(await server.db.selectFrom('result_runs').select('certificates_synced_at').where('contest_id', '=', contest.id).executeTakeFirstOrThrow()).toEqual({ certificates_synced_at: null });
    await runJob();
    const after = await printed();
    expect((after.content as { lines: string[] }).lines[0]).toContain(`${school.name} (cơ sở 2)`);
    expect(after.files_hash).toBe(after.content_hash);
    expect(after.content_hash).not.toBe(before.content_hash);
  });
});

describe('revocation', () => {
  let prizeCode = '';
  let replacementCode = '';
  let prizePdfUrl = '';

  beforeAll(async () => {
    const { body } = await get(`/api/chilren-certificate?child_id=${child.id}`, parent.token);
    const prize = body.data.certificates.find((c: { kind: string }) => c.kind === 'prize');
    prizeCode = prize.code;
    prizePdfUrl = prize.pdf_url;
    prizeName = body.data.prize_personal.prize_name;
    prizeAmount = body.data.prize_personal.money;
  });

  it('finds a certificate by its code (any case, with or without dashes) or its holder', async () => {
    const byCode = await get(`/api/admin/certificates?q=${prizeCode.toLowerCase().replace(/-/g, '')}`, organiser.token);
    expect(byCode.status).toBe(200);
    expect(byCode.body.data).toEqual([expect.objectContaining({ code: prizeCode, kind: 'prize', holder: 'Trần Thị Ngọc Ánh', ready: true, revoked_at: null })]);
    const byName = await get(`/api/admin/certificates?q=${encodeURIComponent('Ngọc Ánh')}`, organiser.token);
    expect(byName.body.data.map((c: { kind: string }) => c.kind).sort()).toEqual(['participation', 'prize', 'top30']);
    // Without accents, in any case, with spaces; the code with spaces instead of dashes.
    for (const q of ['ngoc anh', 'TRAN THI NGOC ANH', '  Ngoc   ÁNH ']) {
      const found = await get(`/api/admin/certificates?q=${encodeURIComponent(q)}`, organiser.token);
      expect([q, found.body.data.map((c: { kind: string }) => c.kind).sort()]).toEqual([q, ['participation', 'prize', 'top30']]);
    }
    const spaced = await get(`/api/admin/certificates?q=${encodeURIComponent(` ${prizeCode.toLowerCase().replace(/-/g, ' ')} `)}`, organiser.token);
    expect(spaced.body.data).toEqual([expect.objectContaining({ code: prizeCode })]);
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
    const response = await post(`/api/admin/certificates/${prizeCode}/revoke`, { reason: 'In sai tên trường trên giấy' });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ code: prizeCode, revoked_reason: 'In sai tên trường trên giấy', revoked_at: expect.stringMatching(/^\d\d\/\d\d\/\d{4}$/) });
    replacementCode = response.body.data.replaced_by;
    expect(replacementCode).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    expect(replacementCode).not.toBe(prizeCode);
    const audit = await server.db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ kind: 'certificate.revoke', actor_id: organiser.id, summary: `Thu hồi giấy chứng nhận ${prizeCode} của Trần Thị Ngọc Ánh` });
    expect(audit.details).toMatchObject({ code: prizeCode, reason: 'In sai tên trường trên giấy', replaced_by: replacementCode });
    const again = await post(`/api/admin/certificates/${prizeCode}/revoke`, { reason: 'Lần nữa' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('certificate_already_revoked');
  });

  it('issues the replacement at once, before the family opens its page: the progress counts it to draw, the next tick of the job draws it, the search shows its code', async () => {
    // Not "every certificate ready" while the replacement has no file.
    const before = (await get('/api/admin/certificates/progress', organiser.token)).body.data;
    expect(before).toMatchObject({ issued: true, pending: 1, revoked: 1 });
    const prizes = (await certificatesOf(child.id)).filter((c) => c.kind === 'prize');
    expect(prizes.map((c) => [c.code, c.revoked_at !== null, c.files_hash === c.content_hash])).toEqual([
      [prizeCode, true, true],
      [replacementCode, false, false],
    ]);
    // One tick of the job's drawing, no walk over every holder.
    expect(await renderPendingCertificates(server)).toBe(1);
    const after = (await get('/api/admin/certificates/progress', organiser.token)).body.data;
    expect(after).toMatchObject({ issued: true, pending: 0, ready: after.total, revoked: 1 });
    const replacement = (await certificatesOf(child.id)).find((c) => c.code === replacementCode)!;
    expect(replacement.files_hash).toBe(replacement.content_hash);
    expect(Buffer.from(replacement.pdf!).subarray(0, 5).toString()).toBe('%PDF-');

    const found = (await get(`/api/admin/certificates?q=${encodeURIComponent('Ngọc Ánh')}`, organiser.token)).body.data as { code: string; kind: string; ready: boolean; replaced_by: string | null }[];
    expect(found.filter((c) => c.kind === 'prize')).toEqual([
      expect.objectContaining({ code: prizeCode, replaced_by: replacementCode }),
      expect.objectContaining({ code: replacementCode, ready: true, replaced_by: null }),
    ]);
  });

  it('the public verification says it was revoked, without the reason', async () => {
    const { status, body } = await get(`/api/certificates/verify/${prizeCode}`);
    expect(status).toBe(200);
    expect(body.data).toMatchObject({
      code: prizeCode,
      kind: 'prize',
      revoked: { date: expect.stringMatching(/^\d\d\/\d\d\/\d{4}$/), message: 'Giấy chứng nhận này đã bị Ban tổ chức thu hồi và không còn giá trị.' },
    });
    expect(JSON.stringify(body)).not.toContain('sai tên');
  });

  it('a revoked certificate is a void paper, not a withdrawn prize: the family keeps the prize and gets a new code; the old link answers 410', async () => {
    const { body } = await get(`/api/chilren-certificate?child_id=${child.id}`, parent.token);
    expect(body.data).toMatchObject({ is_top_personal: 1, prize_personal: { prize_name: prizeName, money: prizeAmount }, withdrawn_prizes: [] });
    expect(body.data.certificates.map((c: { kind: string }) => c.kind)).toEqual(['participation', 'prize', 'top30']);
    const reissued = body.data.certificates.find((c: { kind: string }) => c.kind === 'prize');
    expect(reissued.code).not.toBe(prizeCode);
    // The one issued when it was revoked.
    expect(reissued.code).toBe(replacementCode);
    expect(body.data.revoked_certificates).toEqual([{ kind: 'prize', title: expect.stringContaining(prizeName), code: prizeCode, revoked_date: expect.any(String), reissued: true }]);
    expect((await get(`/api/certificates/verify/${reissued.code}`)).body.data.revoked).toBeUndefined();
    const file = await fetchFile(prizePdfUrl, parent.token);
    expect(file.status).toBe(410);
    expect(await file.json()).toMatchObject({ code: 'certificate_revoked', message: 'Giấy chứng nhận này đã bị Ban tổ chức thu hồi nên không tải được nữa. Vui lòng liên hệ Ban tổ chức nếu cần.' });
    expect((await fetchFile(reissued.pdf_url, parent.token)).status).toBe(200);
    await expectViews(child.id, 'Trần Thị Ngọc Ánh', { prize: prizeName, amount: prizeAmount });
  });

  it('the job keeps the old code void and the new one in force, even after a recomputation', async () => {
    await computeResults(server);
    await runJob();
    const prizes = (await certificatesOf(child.id)).filter((c) => c.kind === 'prize');
    expect(prizes.map((c) => [c.code === prizeCode, c.revoked_at !== null])).toEqual([
      [true, true],
      [false, false],
    ]);
    const { body } = await get('/api/admin/certificates/progress', organiser.token);
    expect(body.data).toMatchObject({ issued: true, revoked: 1, pending: 0 });
    await expectViews(child.id, 'Trần Thị Ngọc Ánh', { prize: prizeName, amount: prizeAmount });
  });
});

describe('withdrawing a prize', () => {
  const withdraw = (body: unknown, token = organiser.token) => post('/api/admin/results/withdrawals', body, token);

  it('is for the organiser, with a reason, of a prize the results give', async () => {
    expect((await withdraw({ contestant_id: child.id, kind: 'individual', reason: 'Phát hiện gian lận' }, parent.token)).status).toBe(403);
    const noReason = await withdraw({ contestant_id: child.id, kind: 'individual', reason: ' ' });
    expect(noReason.status).toBe(400);
    expect(noReason.body.errors).toMatchObject({ reason: 'Vui lòng nhập lý do (ít nhất 3 ký tự).' });
    const none = await withdraw({ contestant_id: 999_999, kind: 'individual', reason: 'Phát hiện gian lận' });
    expect(none.status).toBe(409);
    expect(none.body).toMatchObject({ code: 'no_prize_to_withdraw', message: expect.stringContaining('không có giải này') });
    await expectViews(child.id, 'Trần Thị Ngọc Ánh', { prize: prizeName, amount: prizeAmount });
  });

  it('removes it from the prize list, the money, the exports and the family page at once; revokes its certificate; audited', async () => {
    const before = (await get('/api/admin/results', organiser.token)).body.data.ceremony;
    const response = await withdraw({ contestant_id: child.id, kind: 'individual', reason: 'Phát hiện gian lận khi làm bài' });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ contestant_id: child.id, fullname: 'Trần Thị Ngọc Ánh', kind: 'individual', prize_name: prizeName, amount: prizeAmount, reason: 'Phát hiện gian lận khi làm bài' });
    const audit = await server.db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ kind: 'prize.withdraw', actor_id: organiser.id });
    expect(audit.summary).toContain(`Rút ${prizeName}`);
    expect(audit.summary).toContain('Trần Thị Ngọc Ánh');
    expect(audit.details).toMatchObject({ reason: 'Phát hiện gian lận khi làm bài', amount: prizeAmount, certificates_revoked: [expect.any(String)] });

    await expectViews(child.id, 'Trần Thị Ngọc Ánh', null);
    const after = (await get('/api/admin/results', organiser.token)).body.data;
    expect(after.ceremony.total).toBe(before.total - prizeAmount);
    expect(after.withdrawals).toEqual([expect.objectContaining({ contestant_id: child.id, prize_name: prizeName, withdrawn_by: expect.any(String) })]);
    // The rank stays; nobody inherits the prize (the second pupil's prize is unchanged).
    const stored = await server.db.selectFrom('individual_results').select(['rank', 'prize_name']).where('contestant_id', 'in', [child.id, second.id]).orderBy('rank').execute();
    expect(stored[0]).toEqual({ rank: 1, prize_name: null });
    expect(stored[1]!.prize_name).not.toBeNull();
    // The family is told, the prize certificate is void, the top 30 gift stays.
    const { body } = await get(`/api/chilren-certificate?child_id=${child.id}`, parent.token);
    expect(body.data).toMatchObject({ is_top_personal: 0, prize_personal: null, is_top_30: 1, withdrawn_prizes: [{ kind: 'individual', prize_name: prizeName }] });
    expect(body.data.certificates.map((c: { kind: string }) => c.kind)).toEqual(['participation', 'top30']);
    expect(body.data.revoked_certificates.map((c: { reissued: boolean }) => c.reissued)).toEqual([false, false]);
    const again = await withdraw({ contestant_id: child.id, kind: 'individual', reason: 'Lần nữa' });
    expect(again.status).toBe(409);
  });

  it('stays withdrawn after a recomputation, and the job issues no prize certificate again', async () => {
    await computeResults(server);
    await runJob();
    await expectViews(child.id, 'Trần Thị Ngọc Ánh', null);
    expect((await certificatesOf(child.id)).filter((c) => c.kind === 'prize' && c.revoked_at === null)).toEqual([]);
  });
});

/**
 * Every view of a pupil's individual prize says the same: the prize list, the ceremony's money
 * (its tier's winners), the winners export, the full results export and the family page.
 */
async function expectViews(contestantId: number, name: string, expected: { prize: string; amount: number } | null) {
  const list = (await get('/api/admin/results/prizes?kind=individual&per_page=100', organiser.token)).body.data.items;
  const row = list.find((item: { contestant_id: number }) => item.contestant_id === contestantId);
  expect(row ? { prize: row.prize, amount: row.amount } : null).toEqual(expected);

  const { ceremony } = (await get('/api/admin/results', organiser.token)).body.data;
  const awarded = (await server.db.selectFrom('individual_results').select(['prize_code', 'prize_amount']).where('prize_code', 'is not', null).execute()).reduce(
    (sum, r) => sum + (r.prize_amount ?? 0),
    0,
  );
  const individualTotal = ceremony.tiers.filter((tier: { kind: string }) => tier.kind === 'individual').reduce((sum: number, tier: { total: number }) => sum + tier.total, 0);
  expect(individualTotal).toBe(awarded);

  const winners = await exportSheets('winners.xlsx');
  const exported = winners[0]!.data.find((cells) => cells[2] === name);
  expect(exported ? { prize: exported[9], amount: exported[10] } : null).toEqual(expected);
  const contestants = await exportSheets('contestants.xlsx');
  const header = contestants[0]!.data[0]!;
  const line = contestants[0]!.data.find((cells) => cells.includes(name))!;
  expect(line[header.indexOf('Giải')] ?? null).toBe(expected?.prize ?? null);

  const family = (await get(`/api/chilren-certificate?child_id=${contestantId}`, parent.token)).body.data;
  expect(family.prize_personal ? { prize: family.prize_personal.prize_name, amount: family.prize_personal.money } : null).toEqual(expected);
}

async function exportSheets(file: string) {
  const response = await fetch(`${server.url}/api/admin/results/exports/${file}`, { headers: { authorization: `Bearer ${organiser.token}` } });
  expect(response.status).toBe(200);
  return readExcelFile(Buffer.from(await response.arrayBuffer()));
}
