// Certificates ready to print (issue 37, part 3): the organiser's signature and seal uploaded in
// the settings (checked like every upload, printed on every certificate, redrawing them), and a
// school's certificates in one PDF built in the background, with its progress.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../test/harness';
import { createOrganiser, createParent, createSchoolAdmin, uploadForm, type CreatedUser } from '../../test/factories';
import { hugePng, opaquePng, sealPng, signaturePng } from '../../test/certificate-images';
import { computeResults, publishResults } from '../results/compute';
import { bookForClassRoom, insertFinishedExams, insertPupils, sessionAt } from '../../demo/finished-exams';
import { issueCertificates, renderPendingCertificates } from './background';
import { buildNextBundle, BUNDLE_STALE_MS, MAX_BUNDLE_ATTEMPTS } from './bundle';

let server: TestServer;
let organiser: CreatedUser;
let admin: CreatedUser & { schoolId: number };
let otherAdmin: CreatedUser & { schoolId: number };
let parent: CreatedUser;
const dir = mkdtempSync(join(tmpdir(), 'certificate-printing-'));

/** Pages of a PDF, by poppler's pdfinfo. */
function pageCount(pdf: Buffer): number {
  const file = join(dir, `count-${Math.random()}.pdf`);
  writeFileSync(file, pdf);
  return Number(/Pages:\s+(\d+)/.exec(execFileSync('/usr/bin/pdfinfo', [file], { encoding: 'utf8' }))![1]);
}

async function download(path: string, token: string) {
  const response = await fetch(server.url + path, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, type: response.headers.get('content-type'), disposition: response.headers.get('content-disposition'), body: Buffer.from(await response.arrayBuffer()) };
}

const upload = (kind: 'signature' | 'seal', fileName: string, bytes: Buffer, token = organiser.token) =>
  server.request('POST', `/api/admin/site/certificate-${kind}`, { token, body: uploadForm(fileName, bytes) });

beforeAll(async () => {
  server = await startTestServer();
  const db = server.db;
  const contest = await db.selectFrom('contests').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
  const school = await db.selectFrom('schools').select('id').where('name', '=', 'Trường Tiểu học Lê Lợi').executeTakeFirstOrThrow();
  const other = await db.selectFrom('schools').select('id').where('name', '=', 'Trường Tiểu học Nguyễn Trãi').executeTakeFirstOrThrow();
  organiser = await createOrganiser(server);
  admin = await createSchoolAdmin(server, school.id);
  otherAdmin = await createSchoolAdmin(server, other.id);
  parent = await createParent(server);
  const a1 = await insertPupils(db, { schoolId: school.id, classRooms: ['5A1'], count: 3, fullname: (i) => ['Trần Văn An', 'Lê Thị Bình', 'Phạm Minh Chi'][i]! });
  const a2 = await insertPupils(db, { schoolId: school.id, classRooms: ['2A1'], count: 2, fullname: (i) => ['Vũ Ngọc Em', 'Đặng Thu Hà'][i]! });
  const [giang] = await insertPupils(db, { schoolId: other.id, classRooms: ['3A2'], count: 1, fullname: () => 'Đỗ Hà Giang' });
  const g5 = await bookForClassRoom(db, '5A1', 0);
  const g2 = await bookForClassRoom(db, '2A1', 1);
  const g3 = await bookForClassRoom(db, '3A2', 2);
  const at = (hours: number) => new Date(contest.exam_starts_at.getTime() + hours * 3_600_000);
  await insertFinishedExams(db, [
    ...a1.map((pupil, i) => ({ contestantId: pupil.id, bookId: g5.id, attempt: 1, points: 90 - i * 10, durationSeconds: 600, submittedAt: at(1 + i), prediction: null })),
    ...a2.map((pupil, i) => ({ contestantId: pupil.id, bookId: g2.id, attempt: 1, points: 80 - i * 10, durationSeconds: 500, submittedAt: at(5 + i), prediction: null })),
    { contestantId: giang!.id, bookId: g3.id, attempt: 1, points: 70, durationSeconds: 500, submittedAt: at(8), prediction: null },
  ]);
  server.clock.set(contest.results_at);
  for (const user of [organiser, admin, otherAdmin, parent]) user.token = await sessionAt(db, user.id, contest.results_at);
  await computeResults(server);
  await publishResults(db, contest, contest.results_at, null);
  while ((await issueCertificates(server)) > 0);
  while ((await renderPendingCertificates(server)) > 0);
});

afterAll(async () => {
  await server?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('POST /api/admin/site/certificate-signature and -seal', () => {
  it('refuses anyone but the organiser', async () => {
    const png = await signaturePng();
    const anonymous = await server.request('POST', '/api/admin/site/certificate-signature', { body: uploadForm('chu-ky.png', png) });
    expect(anonymous.status).toBe(401);
    for (const token of [parent.token, admin.token]) {
      const response = await upload('signature', 'chu-ky.png', png, token);
      expect(response.status).toBe(403);
      expect(response.body.success).toBe(false);
    }
    expect(await server.db.selectFrom('certificate_images').select('kind').execute()).toEqual([]);
  });

  it('refuses a file that is not a PNG, whatever its name', async () => {
    const response = await upload('signature', 'chu-ky.png', Buffer.from('GIF89a not a png at all'));
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({ success: false, code: 'file_not_accepted', message: 'Tệp không phải ảnh PNG. Hãy chọn ảnh PNG có nền trong suốt.' });
    const jpeg = await upload('seal', 'con-dau.png', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0]));
    expect(jpeg.status).toBe(422);
  });

  it('refuses a PNG without transparency', async () => {
    const response = await upload('seal', 'con-dau.png', await opaquePng());
    expect(response.status).toBe(422);
    expect(response.body.message).toBe('Ảnh cần có nền trong suốt (PNG có kênh alpha), để in chồng lên giấy chứng nhận.');
  });

  it('refuses a file over 1 MB', async () => {
    const big = Buffer.concat([await signaturePng(), Buffer.alloc(1024 * 1024 + 10)]);
    const response = await upload('signature', 'chu-ky.png', big);
    expect(response.status).toBe(422);
    expect(response.body.success).toBe(false);
    expect(response.body.message).toMatch(/1 MB/);
  });

  it('refuses an image of more than 2000 x 2000 pixels', async () => {
    const response = await upload('signature', 'chu-ky.png', await hugePng(2400, 300));
    expect(response.status).toBe(422);
    expect(response.body.message).toBe('Ảnh có kích thước 2400 × 300 điểm ảnh: tối đa 2000 × 2000.');
  });

  it('stores a signature and a seal, prints them on every certificate, and redraws those already drawn', async () => {
    const before = await server.db.selectFrom('certificates').select(['id', 'content_hash', 'files_hash']).where('revoked_at', 'is', null).execute();
    expect(before.length).toBeGreaterThan(5);
    expect(before.every((row) => row.files_hash === row.content_hash)).toBe(true);

    const signature = await upload('signature', 'chu-ky.png', await signaturePng());
    expect(signature.status).toBe(200);
    expect(signature.body.data.signature).toMatchObject({ kind: 'signature', width: 600, height: 200, file_name: 'chu-ky.png', url: expect.stringMatching(/^\/api\/media\/[0-9a-f]{64}\.png$/) });
    expect(signature.body.data.seal).toBeNull();
    const seal = await upload('seal', 'con-dau.png', await sealPng());
    expect(seal.status).toBe(200);
    const listed = await server.request('GET', '/api/admin/site/certificate-images', { token: organiser.token });
    expect(listed.body.data).toEqual(seal.body.data);
    const audit = await server.db.selectFrom('audit_log').select('kind').where('kind', 'like', 'site.certificate_%').execute();
    expect(audit.map((row) => row.kind).sort()).toEqual(['site.certificate_seal', 'site.certificate_signature']);

    // As after a rename: the job brings every content up to date and draws the files again.
    while ((await issueCertificates(server)) > 0);
    const changed = await server.db.selectFrom('certificates').select(['id', 'content_hash', 'files_hash', 'content']).where('revoked_at', 'is', null).execute();
    expect(changed.every((row) => row.files_hash !== row.content_hash)).toBe(true);
    expect((changed[0]!.content as { signature: { width: number } }).signature.width).toBe(600);
    while ((await renderPendingCertificates(server)) > 0);

    // A family's download: the PDF embeds the signature (600 x 200 px) and the seal, each with its alpha.
    const child = await server.db.selectFrom('certificates').select('code').where('kind', '=', 'participation').where('revoked_at', 'is', null).executeTakeFirstOrThrow();
    const row = await server.db.selectFrom('certificates').select('pdf').where('code', '=', child.code).executeTakeFirstOrThrow();
    const file = join(dir, 'signed.pdf');
    writeFileSync(file, row.pdf!);
    const images = execFileSync('/usr/bin/pdfimages', ['-list', file], { encoding: 'utf8' });
    expect(images).toMatch(/\s600\s+200\s+rgb\s/);
    expect(images).toMatch(/\s400\s+400\s+rgb\s/);
    expect(images.match(/smask/g)).toHaveLength(2);
  });

  it("prints a QR code that zbar reads as the certificate's verification address", async () => {
    const row = await server.db.selectFrom('certificates').select(['code', 'pdf']).where('kind', '=', 'participation').where('revoked_at', 'is', null).executeTakeFirstOrThrow();
    const file = join(dir, 'qr.pdf');
    writeFileSync(file, row.pdf!);
    execFileSync('/usr/bin/pdftoppm', ['-r', '150', '-png', '-singlefile', file, join(dir, 'qr')]);
    const read = execFileSync('/usr/bin/zbarimg', ['-q', '--raw', join(dir, 'qr.png')], { encoding: 'utf8' }).trim();
    expect(read).toBe(`${server.config.publicUrl}/xac-minh/${row.code}`);
  });
});

describe("a school's certificates in one PDF", () => {
  const start = (body: object, token = admin.token) => server.request('POST', '/api/report-school/certificates', { token, body });
  const buildAll = async () => {
    while ((await buildNextBundle(server)) > 0);
  };

  it('is for school administrators only', async () => {
    for (const token of [parent.token, organiser.token]) {
      const response = await start({}, token);
      expect(response.status).toBe(403);
      expect(response.body.success).toBe(false);
    }
    expect((await server.request('POST', '/api/report-school/certificates', { body: {} })).status).toBe(401);
  });

  it("refuses a class of another school, and never shows another school's bundle", async () => {
    const response = await start({ class: '3A2' });
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ success: false, code: 'not_found', message: 'Lớp này không có ở trường của bạn.' });
    const theirs = await start({ class: '3A2' }, otherAdmin.token);
    expect(theirs.status).toBe(202);
    expect((await server.request('GET', `/api/report-school/certificates/${theirs.body.data.id}`, { token: admin.token })).status).toBe(404);
    expect((await download(`/api/report-school/certificates/${theirs.body.data.id}/pdf`, admin.token)).status).toBe(404);
  });

  it('builds the whole school in the background: progress, then one A4 page per certificate', async () => {
    const expected = await server.db
      .selectFrom('certificates')
      .leftJoin('contestants', 'contestants.id', 'certificates.contestant_id')
      .select('certificates.id')
      .where('certificates.revoked_at', 'is', null)
      .where((eb) => eb.or([eb('contestants.school_id', '=', admin.schoolId), eb('certificates.school_id', '=', admin.schoolId)]))
      .execute();
    const started = await start({});
    expect(started.status).toBe(202);
    expect(started.body.data).toMatchObject({ class: null, status: 'queued', done: 0, total: expected.length, pdf_url: null });
    // Asking again while it waits joins the same build.
    expect((await start({})).body.data.id).toBe(started.body.data.id);
    // Not ready: no file yet.
    const early = await download(`/api/report-school/certificates/${started.body.data.id}/pdf`, admin.token);
    expect(early.status).toBe(409);

    await buildAll();
    const status = await server.request('GET', `/api/report-school/certificates/${started.body.data.id}`, { token: admin.token });
    expect(status.body.data).toMatchObject({ status: 'ready', done: expected.length, total: expected.length, pdf_url: `/api/report-school/certificates/${started.body.data.id}/pdf` });
    const file = await download(status.body.data.pdf_url, admin.token);
    expect(file.status).toBe(200);
    expect(file.type).toBe('application/pdf');
    expect(file.disposition).toMatch(/attachment; filename="giay-chung-nhan-ca-truong-\d+\.pdf"/);
    expect(pageCount(file.body)).toBe(expected.length);
    const path = join(dir, 'school.pdf');
    writeFileSync(path, file.body);
    expect(execFileSync('/usr/bin/pdfinfo', [path], { encoding: 'utf8' })).toMatch(/Page size:\s+841\.89 x 595\.28 pts/);
    const text = execFileSync('/usr/bin/pdftotext', [path, '-'], { encoding: 'utf8' });
    for (const name of ['Trần Văn An', 'Vũ Ngọc Em', 'Trường Tiểu học Lê Lợi']) expect(text).toContain(name);
    expect(text).not.toContain('Đỗ Hà Giang');
    expect((await download(status.body.data.pdf_url, otherAdmin.token)).status).toBe(404);
  });

  it("builds one class's certificates only", async () => {
    const started = await start({ class: '2A1' });
    expect(started.status).toBe(202);
    await buildAll();
    const status = await server.request('GET', `/api/report-school/certificates/${started.body.data.id}`, { token: admin.token });
    expect(status.body.data).toMatchObject({ class: '2A1', status: 'ready' });
    const file = await download(status.body.data.pdf_url, admin.token);
    expect(file.disposition).toMatch(/giay-chung-nhan-lop-2A1-\d+\.pdf/);
    const path = join(dir, 'class.pdf');
    writeFileSync(path, file.body);
    const text = execFileSync('/usr/bin/pdftotext', [path, '-'], { encoding: 'utf8' });
    expect(text).toContain('Vũ Ngọc Em');
    expect(text).toContain('Đặng Thu Hà');
    expect(text).not.toContain('Trần Văn An');
    const certificates = await server.db
      .selectFrom('certificates')
      .innerJoin('contestants', 'contestants.id', 'certificates.contestant_id')
      .leftJoin('class_rooms', 'class_rooms.id', 'contestants.class_room_id')
      .select('certificates.id')
      .where('class_rooms.name', '=', '2A1')
      .where('contestants.school_id', '=', admin.schoolId)
      .where('certificates.revoked_at', 'is', null)
      .execute();
    expect(pageCount(file.body)).toBe(certificates.length);
    const list = await server.request('GET', '/api/report-school/certificates', { token: admin.token });
    expect(list.body.data.map((bundle: { class: string | null }) => bundle.class)).toEqual(['2A1', null]);
  });

  it("removes the files built before a family's erasure", async () => {
    const started = await start({ class: '2A1' });
    await buildAll();
    const path = `/api/report-school/certificates/${started.body.data.id}`;
    expect((await server.request('GET', path, { token: admin.token })).body.data.status).toBe('ready');
    // A family of the school erased its data (features/privacy keeps its certificates' printed facts there).
    await server.db.insertInto('erased_certificates').values({ code: 'ERAS-ED00-0001', kind: 'participation', title: 'Giấy chứng nhận tham gia cuộc thi', contest: 'Cuộc thi', date: '30/06/2026', erased_at: server.clock.now() }).execute();
    await buildAll();
    expect((await server.request('GET', path, { token: admin.token })).status).toBe(404);
    expect((await download(`${path}/pdf`, admin.token)).status).toBe(404);
    await server.db.deleteFrom('erased_certificates').where('code', '=', 'ERAS-ED00-0001').execute();
  });

  it('refuses a class name too long with a clear message', async () => {
    const long = await start({ class: 'x'.repeat(101) });
    expect(long.status).toBe(400);
    expect(long.body.success).toBe(false);
  });

  it("picks up a build whose process died, and gives up with a message after the last attempt", async () => {
    const started = await start({ class: '5A1' });
    // A process claimed it and died: its heartbeat stopped.
    const stale = new Date(server.clock.now().getTime() - BUNDLE_STALE_MS - 1000);
    await server.db.updateTable('certificate_bundles').set({ status: 'building', claim: 'dead-process', heartbeat_at: stale, attempts: 1 }).where('id', '=', started.body.data.id).execute();
    await buildAll();
    const status = await server.request('GET', `/api/report-school/certificates/${started.body.data.id}`, { token: admin.token });
    expect(status.body.data.status).toBe('ready');

    const again = await start({ class: '5A1' });
    await server.db.updateTable('certificate_bundles').set({ status: 'building', claim: 'dead-process', heartbeat_at: stale, attempts: MAX_BUNDLE_ATTEMPTS }).where('id', '=', again.body.data.id).execute();
    await buildAll();
    const failed = await server.request('GET', `/api/report-school/certificates/${again.body.data.id}`, { token: admin.token });
    expect(failed.body.data).toMatchObject({ status: 'failed', error: 'Không tạo được tệp sau nhiều lần thử. Hãy bấm tạo lại; nếu vẫn lỗi, hãy báo ban tổ chức.', pdf_url: null });
    // Failed: a new request starts a new build.
    const retried = await start({ class: '5A1' });
    expect(retried.body.data.id).not.toBe(again.body.data.id);
    expect(retried.body.data.status).toBe('queued');
  });
});
