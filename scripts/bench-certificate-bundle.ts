// A school's certificates in one PDF (issue 37): the time the background job takes to build a
// bundle of 2,000 certificates (target: 60 s on the 2-core machine), with the organiser's
// signature and seal on every page.
//
//   npm run bench:bundle -- [--certificates 2000] [--rare]
//
// --rare names one pupil with letters the shared fonts lack ("Zoë Łukasz"): the whole bundle is
// then drawn by pdfkit (decision 033's fallback), the slow case.
//
// In a fresh embedded database (PGlite, a temporary folder, removed at the end): the demo
// catalogue, one school's pupils with their participation certificates written straight into the
// database (the content the issuing job would write), the signature and seal uploaded, then one
// bundle asked for and built by the job's own function (buildNextBundle), timed; the file is
// checked with poppler's pdfinfo (its pages) and its size printed.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openDatabase } from '../src/server/db/client';
import { migrate } from '../src/server/db/migrate';
import { seedIfEmpty } from '../src/server/db/seed/seed';
import { systemClock } from '../src/server/lib/clock';
import { insertPupils } from '../src/server/demo/finished-exams';
import { participationContent, contentHash } from '../src/server/features/certificates/content';
import { currentCertificateImages, saveCertificateImage } from '../src/server/features/certificates/images';
import { buildNextBundle } from '../src/server/features/certificates/bundle';
import { newCertificateCode } from '../src/server/features/certificates/service';
import { sealPng, signaturePng } from '../src/server/test/certificate-images';

const { values } = parseArgs({ options: { certificates: { type: 'string', default: '2000' }, rare: { type: 'boolean', default: false } } });
const count = Number(values.certificates);
const dir = mkdtempSync(join(tmpdir(), 'bench-bundle-'));
const database = await openDatabase({ dataDir: join(dir, 'db') });
const db = database.db;
try {
  await migrate(db);
  await seedIfEmpty(db, { clock: systemClock, demoWindow: true, demoAccounts: true });
  const contest = await db.selectFrom('contests').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
  const school = await db.selectFrom('schools').select(['id', 'name']).orderBy('id').executeTakeFirstOrThrow();
  const now = new Date();
  await saveCertificateImage(db, 'signature', { fileName: 'chu-ky.png', bytes: await signaturePng() }, 1, now);
  await saveCertificateImage(db, 'seal', { fileName: 'con-dau.png', bytes: await sealPng() }, 1, now);
  const images = await currentCertificateImages(db);

  const family = ['Nguyễn', 'Trần', 'Lê', 'Phạm', 'Hoàng', 'Huỳnh', 'Phan', 'Vũ', 'Võ', 'Đặng'];
  const middle = ['Thị', 'Văn', 'Minh', 'Ngọc', 'Đức', 'Thu', 'Gia', 'Bảo'];
  const given = ['An', 'Bình', 'Châu', 'Dũng', 'Hương', 'Khánh', 'Linh', 'Quỳnh', 'Trường', 'Yến', 'Ánh', 'Hải'];
  const fullname = (i: number) => values.rare && i === 0 ? 'Zoë Łukasz' : `${family[i % family.length]} ${middle[Math.floor(i / 10) % middle.length]} ${given[Math.floor(i / 80) % given.length]}`;
  const pupils = await insertPupils(db, { schoolId: school.id, classRooms: ['1A1', '2A1', '3A1', '4A1', '5A1'], count, fullname });
  const rows = pupils.map((pupil) => {
    const code = newCertificateCode();
    const content = participationContent(
      { organiser: 'Sở Giáo dục và Đào tạo', contest: contest.name, year: '2026', code, verifyUrl: `https://vanhoadoc.example.vn/xac-minh/${code}`, ...images },
      { fullname: pupil.fullname, className: pupil.classRoom, school: school.name, book: 'Dế Mèn phiêu lưu ký' },
      '30/06/2026',
    );
    return { code, contest_id: contest.id, kind: 'participation' as const, contestant_id: pupil.id, content: JSON.stringify(content), content_hash: contentHash(content), issued_at: now, updated_at: now };
  });
  for (let start = 0; start < rows.length; start += 500) await db.insertInto('certificates').values(rows.slice(start, start + 500)).execute();
  const bundle = await db
    .insertInto('certificate_bundles')
    .values({ contest_id: contest.id, school_id: school.id, class_name: null, total: count, created_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();

  const started = performance.now();
  const built = await buildNextBundle({ db, clock: systemClock });
  const seconds = (performance.now() - started) / 1000;
  const row = await db.selectFrom('certificate_bundles').select(['status', 'error', 'pdf', 'byte_size']).where('id', '=', bundle.id).executeTakeFirstOrThrow();
  if (built !== 1 || row.status !== 'ready') throw new Error(`the bundle was not built: ${row.status} ${row.error ?? ''}`);
  const file = join(dir, 'bundle.pdf');
  writeFileSync(file, row.pdf!);
  const pages = /Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [file], { encoding: 'utf8' }))![1];
  console.log(`${count} certificates: built in ${seconds.toFixed(1)} s (${((seconds * 1000) / count).toFixed(1)} ms a page), ${pages} pages, ${(row.byte_size! / 1024 / 1024).toFixed(1)} MB`);
} finally {
  await database.close();
  rmSync(dir, { recursive: true, force: true });
}
