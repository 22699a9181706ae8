// A school's certificates (or one class's) in one print-ready PDF, A4, one certificate a page
// (issue 37). The school administrator asks for it (POST); whichever app process's job claims it
// first builds it (FOR UPDATE SKIP LOCKED), writing its progress and a heartbeat as it goes, and
// keeps the file in the row. A build whose heartbeat stops (its process died) is claimed again, at
// most MAX_ATTEMPTS times, then marked failed with a message: never left "building". The reads
// (GET: progress, file) never write.
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../db/client';
import { printedClassSql } from '../../db/contestants';
import { appError, forbidden, notFound } from '../../lib/errors';
import type { Services } from '../../services';
import type { AuthUser } from '../../core/guard';
import { seasonOrCurrent } from '../../core/contest';
import { formatDateTime } from '../../../shared/format';
import { resultMessages } from '../../../shared/messages';
import { bundleMessages, type Bundle, type BundleRequest } from '../../../shared/schemas/certificate-printing';
import type { CertificateBundleTable } from '../../db/schema';
import type { Selectable } from 'kysely';
import type { CertificateContent } from './content';
import { currentCertificateImages, printImagesFor } from './images';
import { CertificatesPdfWriter } from './fast-pdf';
import { renderCertificatePdf } from './render';

export type BundleDeps = Pick<Services, 'db' | 'clock'>;

/** A build silent this long is taken as dead (its process wrote progress every second or so). */
export const BUNDLE_STALE_MS = 60_000;
export const MAX_BUNDLE_ATTEMPTS = 3;
/** Bundles are kept a day after they are built (the school downloads it again, or builds anew). */
const KEEP_MS = 24 * 3_600_000;
const PROGRESS_EVERY = 100;
const KIND_ORDER = { prize: 0, top30: 1, participation: 2, school: 3 } as const;

const byClassName = (a: string, b: string) => a.localeCompare(b, 'vi', { numeric: true });

function schoolOf(user: AuthUser): number {
  if (user.role !== 'school_admin' || user.schoolId === null) throw forbidden(resultMessages.schoolAdminOnly);
  return user.schoolId;
}

/**
 * The certificates in force of a school's pupils in a season (and the school's own, for the whole
 * school), in print order: by class, then name, then kind.
 */
async function bundleCertificates(db: Db, contestId: number, schoolId: number, className: string | null) {
  let query = db
    .selectFrom('certificates')
    .innerJoin('contestants', 'contestants.id', 'certificates.contestant_id')
    .leftJoin('class_rooms', 'class_rooms.id', 'contestants.class_room_id')
    .select(['certificates.id', 'certificates.kind', 'certificates.content', 'contestants.fullname', printedClassSql.as('class_name')])
    .where('certificates.contest_id', '=', contestId)
    .where('contestants.school_id', '=', schoolId)
    .where('certificates.revoked_at', 'is', null);
  if (className !== null) query = query.where(printedClassSql, '=', className);
  const pupils = await query.execute();
  pupils.sort((a, b) => byClassName(a.class_name, b.class_name) || a.fullname.localeCompare(b.fullname, 'vi') || KIND_ORDER[a.kind] - KIND_ORDER[b.kind] || a.id - b.id);
  const school =
    className === null
      ? await db.selectFrom('certificates').select(['id', 'content']).where('contest_id', '=', contestId).where('school_id', '=', schoolId).where('revoked_at', 'is', null).execute()
      : [];
  return [...school, ...pupils].map((row) => row.content as CertificateContent);
}

/** How many certificates a bundle of this scope prints (no content read). */
async function countCertificates(db: Db, contestId: number, schoolId: number, className: string | null): Promise<number> {
  let query = db
    .selectFrom('certificates')
    .innerJoin('contestants', 'contestants.id', 'certificates.contestant_id')
    .leftJoin('class_rooms', 'class_rooms.id', 'contestants.class_room_id')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('certificates.contest_id', '=', contestId)
    .where('contestants.school_id', '=', schoolId)
    .where('certificates.revoked_at', 'is', null);
  if (className !== null) query = query.where(printedClassSql, '=', className);
  let total = Number((await query.executeTakeFirstOrThrow()).n);
  if (className === null) {
    const school = await db.selectFrom('certificates').select((eb) => eb.fn.countAll<string>().as('n')).where('contest_id', '=', contestId).where('school_id', '=', schoolId).where('revoked_at', 'is', null).executeTakeFirstOrThrow();
    total += Number(school.n);
  }
  return total;
}

/** Whether the school has a pupil of this class (as the report names it) in the season. */
async function schoolHasClass(db: Db, contestId: number, schoolId: number, className: string): Promise<boolean> {
  const row = await db
    .selectFrom('contestants')
    .leftJoin('class_rooms', 'class_rooms.id', 'contestants.class_room_id')
    .select('contestants.id')
    .where('contestants.contest_id', '=', contestId)
    .where('contestants.school_id', '=', schoolId)
    .where(printedClassSql, '=', className)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

type BundleRow = Omit<Selectable<CertificateBundleTable>, 'pdf'>;
const bundleColumns = ['id', 'contest_id', 'school_id', 'class_name', 'requested_by', 'status', 'total', 'done', 'attempts', 'claim', 'heartbeat_at', 'error', 'byte_size', 'created_at', 'finished_at'] as const;

function bundleView(row: BundleRow): Bundle {
  return {
    id: row.id,
    class: row.class_name,
    status: row.status,
    total: row.total,
    done: row.done,
    error: row.error,
    pdf_url: row.status === 'ready' ? `/api/report-school/certificates/${row.id}/pdf` : null,
    created: formatDateTime(row.created_at),
  };
}

/** POST /api/report-school/certificates: starts building the school's (or a class's) bundle, or joins the build under way. */
export async function requestBundle(deps: BundleDeps, user: AuthUser, request: BundleRequest): Promise<Bundle> {
  const schoolId = schoolOf(user);
  const contest = await seasonOrCurrent(deps.db, request.season);
  const className = request.class ? request.class : null;
  if (className !== null && !(await schoolHasClass(deps.db, contest.id, schoolId, className))) throw notFound(bundleMessages.classNotFound);
  const total = await countCertificates(deps.db, contest.id, schoolId, className);
  if (total === 0) throw appError('no_certificates', bundleMessages.noCertificates);
  const now = deps.clock.now();
  // The unique index of the builds under way (0048): a second request joins the first.
  const inserted = await deps.db
    .insertInto('certificate_bundles')
    .values({ contest_id: contest.id, school_id: schoolId, class_name: className, requested_by: user.id, total, created_at: now })
    .onConflict((oc) => oc.doNothing())
    .returning([...bundleColumns])
    .executeTakeFirst();
  const row =
    inserted ??
    (await deps.db
      .selectFrom('certificate_bundles')
      .select([...bundleColumns])
      .where('school_id', '=', schoolId)
      .where('contest_id', '=', contest.id)
      .where(sql<boolean>`class_name IS NOT DISTINCT FROM ${className}`)
      .where('status', 'in', ['queued', 'building'])
      .executeTakeFirstOrThrow());
  return bundleView(row);
}

/** GET /api/report-school/certificates/:id: a bundle's progress (the school's own only). */
export async function getBundle(deps: Pick<Services, 'db'>, user: AuthUser, id: number): Promise<Bundle> {
  const schoolId = schoolOf(user);
  const row = await deps.db.selectFrom('certificate_bundles').select([...bundleColumns]).where('id', '=', id).where('school_id', '=', schoolId).executeTakeFirst();
  if (!row) throw notFound(bundleMessages.bundleNotFound);
  return bundleView(row);
}

/** GET /api/report-school/certificates: the school's bundles of a season, newest first. */
export async function listBundles(deps: Pick<Services, 'db'>, user: AuthUser, seasonId?: number): Promise<Bundle[]> {
  const schoolId = schoolOf(user);
  const contest = await seasonOrCurrent(deps.db, seasonId);
  const rows = await deps.db
    .selectFrom('certificate_bundles')
    .select([...bundleColumns])
    .where('school_id', '=', schoolId)
    .where('contest_id', '=', contest.id)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(20)
    .execute();
  return rows.map(bundleView);
}

/** GET /api/report-school/certificates/:id/pdf: the built file. */
export async function bundleFile(deps: Pick<Services, 'db'>, user: AuthUser, id: number) {
  const schoolId = schoolOf(user);
  const row = await deps.db.selectFrom('certificate_bundles').select(['id', 'status', 'class_name', 'pdf']).where('id', '=', id).where('school_id', '=', schoolId).executeTakeFirst();
  if (!row) throw notFound(bundleMessages.bundleNotFound);
  if (row.status !== 'ready' || !row.pdf) throw appError('bundle_not_ready', bundleMessages.notReady);
  const scope = row.class_name === null ? 'ca-truong' : `lop-${row.class_name.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/đ/gi, 'd').replace(/[^A-Za-z0-9]+/g, '-')}`;
  return { body: Buffer.from(row.pdf.buffer, row.pdf.byteOffset, row.pdf.byteLength), fileName: `giay-chung-nhan-${scope}-${row.id}.pdf` };
}

type Claimed = { id: number; claim: string; contest_id: number; school_id: number; class_name: string | null };

/** Claims the oldest bundle to build (queued, or building with a silent process); gives up on one tried too often. */
async function claimBundle(deps: BundleDeps): Promise<Claimed | undefined> {
  return deps.db.transaction().execute(async (trx) => {
    const now = deps.clock.now();
    const row = await trx
      .selectFrom('certificate_bundles')
      .select(['id', 'attempts', 'contest_id', 'school_id', 'class_name'])
      .where((eb) => eb.or([eb('status', '=', 'queued'), eb.and([eb('status', '=', 'building'), eb('heartbeat_at', '<', new Date(now.getTime() - BUNDLE_STALE_MS))])]))
      .orderBy('id')
      .limit(1)
      .forUpdate()
      .skipLocked()
      .executeTakeFirst();
    if (!row) return undefined;
    if (row.attempts >= MAX_BUNDLE_ATTEMPTS) {
      await trx.updateTable('certificate_bundles').set({ status: 'failed', error: bundleMessages.gaveUp, claim: null, finished_at: now }).where('id', '=', row.id).execute();
      return undefined;
    }
    const claim = randomUUID();
    await trx.updateTable('certificate_bundles').set({ status: 'building', claim, heartbeat_at: now, attempts: row.attempts + 1, done: 0 }).where('id', '=', row.id).execute();
    return { ...row, claim };
  });
}

/** Lets requests in between pages: drawing is CPU work on the event loop. */
const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve));

class LostClaim extends Error {}

/** Draws a claimed bundle, writing its progress; false when another process took it over meanwhile. */
async function buildBundle(deps: BundleDeps, job: Claimed): Promise<boolean> {
  const owned = (db: Db) => db.updateTable('certificate_bundles').where('id', '=', job.id).where('claim', '=', job.claim);
  // Printed now: with the signature and seal of now, even before the job has brought every stored content up to date.
  const printed = await currentCertificateImages(deps.db);
  const contents = (await bundleCertificates(deps.db, job.contest_id, job.school_id, job.class_name)).map((content) => ({ ...content, ...printed }));
  if (contents.length === 0) {
    await owned(deps.db).set({ status: 'failed', error: bundleMessages.noCertificates, claim: null, finished_at: deps.clock.now() }).execute();
    return true;
  }
  const progress = async (done: number) => {
    const { numUpdatedRows } = await owned(deps.db).set({ done, total: contents.length, heartbeat_at: deps.clock.now() }).executeTakeFirst();
    if (numUpdatedRows === 0n) throw new LostClaim();
  };
  await progress(0);
  const images = await printImagesFor(deps.db, contents);
  const meta = { title: job.class_name === null ? 'Giấy chứng nhận của trường' : `Giấy chứng nhận lớp ${job.class_name}`, code: `${contents.length} giấy chứng nhận` };
  const writer = new CertificatesPdfWriter(meta, images);
  try {
    for (const [index, content] of contents.entries()) {
      // A text the shared fonts lack (decision 033): that page drawn by pdfkit, taken into the file.
      if (!writer.add(content)) writer.addPdfPage(await renderCertificatePdf(content, images));
      if ((index + 1) % PROGRESS_EVERY === 0) await progress(index + 1);
      await yieldToRequests();
    }
  } catch (error) {
    if (error instanceof LostClaim) return false;
    throw error;
  }
  const pdf = writer.finish();
  const now = deps.clock.now();
  const stored = await owned(deps.db).set({ status: 'ready', pdf, byte_size: pdf.length, done: contents.length, total: contents.length, claim: null, finished_at: now }).executeTakeFirst();
  if (stored.numUpdatedRows === 0n) return false;
  // The school's earlier bundles of the same scope are superseded.
  await deps.db
    .deleteFrom('certificate_bundles')
    .where('school_id', '=', job.school_id)
    .where('contest_id', '=', job.contest_id)
    .where(sql<boolean>`class_name IS NOT DISTINCT FROM ${job.class_name}`)
    .where('status', 'in', ['ready', 'failed'])
    .where('id', '<>', job.id)
    .execute();
  return true;
}

/**
 * The background job (jobs.ts): removes the bundles older than a day or built before a family's
 * erasure, then builds the next
 * one waiting, if any. Returns the bundles built (0 or 1). A failure is kept on the bundle with a
 * message for the school, and logged.
 */
export async function buildNextBundle(deps: BundleDeps & { logger?: { error: (o: object, m: string) => void } }): Promise<number> {
  // A build that outlasts the interval is not doubled in the same process.
  if (building) return 0;
  building = true;
  try {
    return await cleanAndBuild(deps);
  } finally {
    building = false;
  }
}

let building = false;

async function cleanAndBuild(deps: BundleDeps & { logger?: { error: (o: object, m: string) => void } }): Promise<number> {
  const now = deps.clock.now();
  await deps.db.deleteFrom('certificate_bundles').where('created_at', '<', new Date(now.getTime() - KEEP_MS)).where('status', 'in', ['ready', 'failed']).execute();
  // A family erased after a file was built (decision 008): the files that may print its child go.
  await deps.db
    .deleteFrom('certificate_bundles')
    .where('status', '=', 'ready')
    .where((eb) => eb.exists(eb.selectFrom('erased_certificates').select('erased_certificates.code').whereRef('erased_certificates.erased_at', '>=', 'certificate_bundles.finished_at')))
    .execute();
  const job = await claimBundle(deps);
  if (!job) return 0;
  try {
    return (await buildBundle(deps, job)) ? 1 : 0;
  } catch (error) {
    deps.logger?.error({ err: error, bundle: job.id }, 'certificate bundle failed');
    await deps.db
      .updateTable('certificate_bundles')
      .set({ status: 'failed', error: bundleMessages.failed, claim: null, finished_at: deps.clock.now() })
      .where('id', '=', job.id)
      .where('claim', '=', job.claim)
      .execute();
    return 0;
  }
}
