// Certificates: who is entitled to which, what each says, its public code, and its files (drawn
// once, drawn again when what they show changes). What a certificate says is always derived
// from the current data, so a recomputed result never leaves a stale certificate behind.
import { integrityMessages } from '../../../shared/schemas/admin-integrity';
import { loadFooter } from '../site';
import { randomInt } from 'node:crypto';
import { formatDate, formatMoney } from '../../../shared/format';
import { certificateAdminMessages, resultMessages } from '../../../shared/messages';
import type { CertificateView, ChildCertificateResponse, VerifyResponse } from '../../../shared/schemas/certificates';
import { printedClass } from '../../db/contestants';
import type { CertificateKind, Contest, ResultRun } from '../../db/schema';
import { appError, forbidden, notFound } from '../../lib/errors';
import type { Services } from '../../services';
import type { AuthUser } from '../../core/guard';
import { seasonOrCurrent } from '../../core/contest';
import { contestYear } from '../../../shared/schemas/site';
import { bestAttempts } from '../../core/ranking/ranking';
import { countExamPapers, getResultRun, loadFinishedAttempts } from '../../core/ranking/repo';
import { resultsPublished } from '../results';
import {
  contentHash,
  participationContent,
  prizeContent,
  schoolContent,
  top30Content,
  type CertificateContent,
  type CommonFacts,
  type PupilFacts,
} from './content';
import { renderCertificatePdf, renderCertificatePng } from './render';
import { currentCertificateImages, printImagesFor } from './images';
import {
  bookNames,
  findCertificate,
  findErasedCertificate,
  findCertificateByCode,
  findContestant,
  findContestantCertificates,
  findPrizeWithdrawals,
  findRevokedCertificates,
  findSchool,
  individualResults,
  insertCertificate,
  latestFinishedExam,
  readCertificateFile,
  schoolResult,
  storeCertificatePdf,
  storeCertificatePng,
  updateCertificateContent,
  type CertificateRow,
  type ContestantRow,
  type Holder,
  type IndividualResultRow,
} from './repo';

export type CertificateDeps = Pick<Services, 'db' | 'clock' | 'config'>;

const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** 12 random characters in 3 groups (60 bits): not guessable, easy to type from paper. */
export function newCertificateCode(): string {
  const groups = Array.from({ length: 3 }, () => Array.from({ length: 4 }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join(''));
  return groups.join('-');
}

export const certificateUrls = (code: string, publicUrl: string) => ({
  pdf_url: `/api/certificates/${code}/pdf`,
  image_url: `/api/certificates/${code}/png`,
  verify_url: `${publicUrl}/xac-minh/${code}`,
});



/** The facts a contestant's certificates are drawn from (undefined entries: not entitled). */
export interface ContestantFacts {
  contestant: ContestantRow;
  participation?: { book: string; date: Date };
  result?: IndividualResultRow & { book: string };
  visible: boolean;
  /** The signature and seal printed now (the site settings). */
  images: PrintedImages;
}

type PrintedImages = Awaited<ReturnType<typeof currentCertificateImages>>;

/** The facts of several contestants at once (the background job's batches; one for a request). */
export async function contestantsFacts(
  deps: Pick<Services, 'db'>,
  contest: Contest,
  contestants: readonly ContestantRow[],
  visible: boolean,
  run?: Pick<ResultRun, 'exam_papers' | 'forced'>,
): Promise<ContestantFacts[]> {
  const ids = contestants.map((contestant) => contestant.id);
  const attempts = await loadFinishedAttempts(deps.db, contest.id, { contestantIds: ids });
  // The best attempt by the one ranking rule: its book and its day. Once results are computed
  // after the window, with the ranking's number of exam papers (and no count of every exam on
  // each family's request).
  const examPapers = !attempts.length ? 0 : run && !run.forced ? run.exam_papers : await countExamPapers(deps.db, contest.id);
  const best = new Map(bestAttempts(attempts, examPapers).map((attempt) => [attempt.contestantId, attempt]));
  const results = visible ? await individualResults(deps.db, contest.id, ids) : [];
  const books = await bookNames(deps.db, [...[...best.values()].map((attempt) => attempt.bookId), ...results.map((result) => result.book_id)]);
  const resultOf = new Map(results.map((result) => [result.contestant_id, result]));
  const images = await currentCertificateImages(deps.db);
  return contestants.map((contestant) => {
    const attempt = best.get(contestant.id);
    const result = resultOf.get(contestant.id);
    return {
      contestant,
      visible,
      images,
      participation: attempt && { book: books.get(attempt.bookId) ?? '', date: attempt.submittedAt },
      result: result && { ...result, book: books.get(result.book_id) ?? '' },
    };
  });
}

async function contestantFacts(deps: CertificateDeps, contest: Contest, contestant: ContestantRow): Promise<ContestantFacts> {
  const run = await getResultRun(deps.db, contest.id);
  return (await contestantsFacts(deps, contest, [contestant], resultsPublished(run), run))[0]!;
}

function commonFacts(deps: Pick<Services, 'config'>, contest: Contest, code: string, images: PrintedImages): CommonFacts {
  return {
    organiser: deps.config.site.organiserName,
    contest: contest.name,
    year: String(contestYear(contest)),
    code,
    verifyUrl: certificateUrls(code, deps.config.publicUrl).verify_url,
    signature: images.signature,
    seal: images.seal,
  };
}

/** What a contestant's certificate of `kind` says, or undefined when not entitled to it. */
export function contestantContent(deps: Pick<Services, 'config'>, contest: Contest, facts: ContestantFacts, kind: CertificateKind, code: string): CertificateContent | undefined {
  const common = commonFacts(deps, contest, code, facts.images);
  const pupil = (book: string): PupilFacts => ({
    fullname: facts.contestant.fullname.trim(),
    className: printedClass(facts.contestant),
    school: facts.contestant.school_name,
    book,
  });
  const resultsDate = formatDate(contest.results_at);
  switch (kind) {
    case 'participation':
      return facts.participation && participationContent(common, pupil(facts.participation.book), formatDate(facts.participation.date));
    case 'prize':
      return facts.result?.prize_name ? prizeContent(common, pupil(facts.result.book), facts.result.prize_name, resultsDate) : undefined;
    case 'top30':
      return facts.result?.school_top ? top30Content(common, pupil(facts.result.book), resultsDate) : undefined;
    case 'school':
      return undefined;
  }
}

/**
 * The certificate row of a holder and kind, created (with a new code) or brought up to date.
 * `describe` gives the content for a code, or undefined when the holder is not entitled.
 */
async function ensureCertificate(
  deps: CertificateDeps,
  contest: Contest,
  holder: Holder,
  kind: CertificateKind,
  describe: (code: string) => CertificateContent | undefined,
  /** The holder's row of this kind when the caller has read it already (null: none). */
  known?: CertificateRow | null,
): Promise<{ row: CertificateRow; content: CertificateContent } | undefined> {
  const now = deps.clock.now();
  let row = known === undefined ? await findCertificate(deps.db, contest.id, holder, kind) : (known ?? undefined);
  if (!row) {
    const code = newCertificateCode();
    const content = describe(code);
    if (!content) return undefined;
    row = await insertCertificate(deps.db, { code, contestId: contest.id, holder, kind, content, contentHash: contentHash(content), now });
    // Lost a race with another request: use the row it made.
    row ??= await findCertificate(deps.db, contest.id, holder, kind);
    if (!row) return undefined;
  }
  return keepUpToDate(deps, row, asItIsNow(row, describe));
}

/** Stores what a stored certificate says now (`current`, from asItIsNow) when it has changed. */
async function keepUpToDate(deps: CertificateDeps, stored: CertificateRow, current: ReturnType<typeof asItIsNow>) {
  if (current && current.row.content_hash !== stored.content_hash) {
    await updateCertificateContent(deps.db, stored.id, current.content, current.row.content_hash, deps.clock.now());
  }
  return current;
}

/**
 * What a stored certificate says now, without storing it: its row with the current content, or
 * undefined when its holder is no longer entitled. A revoked certificate stays as it was revoked.
 */
function asItIsNow(row: CertificateRow, describe: (code: string) => CertificateContent | undefined): { row: CertificateRow; content: CertificateContent } | undefined {
  if (row.revoked_at) return { row, content: row.content as CertificateContent };
  const content = describe(row.code);
  if (!content) return undefined;
  const hash = contentHash(content);
  return { row: hash === row.content_hash ? row : { ...row, content, content_hash: hash }, content };
}

function view(deps: CertificateDeps, row: CertificateRow, content: CertificateContent): CertificateView {
  return { kind: row.kind, title: content.title, code: row.code, ...certificateUrls(row.code, deps.config.publicUrl) };
}

const CONTESTANT_KINDS: CertificateKind[] = ['participation', 'prize', 'top30'];

/** A contestant's certificates in force (created or redrawn as needed) and the facts they say. */
export async function contestantCertificates(deps: CertificateDeps, contest: Contest, contestant: ContestantRow) {
  const facts = await contestantFacts(deps, contest, contestant);
  const certificates = new Map<CertificateKind, CertificateView>();
  const rows = new Map((await findContestantCertificates(deps.db, contest.id, [contestant.id])).map((row) => [row.kind, row]));
  for (const kind of CONTESTANT_KINDS) {
    const describe = (code: string) => contestantContent(deps, contest, facts, kind, code);
    const row = rows.get(kind);
    // One issued is read as it is now (its stored content is brought up to date by the job, after
    // the change that marked it); one the child is entitled to and has not yet is issued now.
    const ensured = row ? asItIsNow(row, describe) : await ensureCertificate(deps, contest, { contestantId: contestant.id }, kind, describe, null);
    // The certificate in force: a revoked one is void, and a new one is issued while entitled.
    if (ensured && !ensured.row.revoked_at) certificates.set(kind, view(deps, ensured.row, ensured.content));
  }
  return { facts, certificates };
}

/** The neutral message of a result under review (decision 027), or null. */
export async function resultsHeldMessage(deps: CertificateDeps, facts: ContestantFacts): Promise<string | null> {
  return facts.visible && facts.result?.held ? integrityMessages.heldForFamily((await loadFooter(deps.db, deps.config.site)).footer.hotline) : null;
}

/** GET /api/chilren-certificate: a parent's child with its certificates and prize. */
export async function childCertificates(deps: CertificateDeps, user: AuthUser, childId: number): Promise<ChildCertificateResponse> {
  if (user.role !== 'parent') throw forbidden(resultMessages.parentOnly);
  const contestant = await findContestant(deps.db, childId);
  // Another family's child is "not found": nothing tells whether it exists.
  if (!contestant || contestant.user_id !== user.id) throw notFound(resultMessages.childNotFound);
  // The child's row of an earlier season (issue 26) shows that season's certificates.
  const contest = await seasonOrCurrent(deps.db, contestant.contest_id);
  const { facts, certificates } = await contestantCertificates(deps, contest, contestant);
  const prize = certificates.get('prize');
  const latest = await latestFinishedExam(deps.db, contest.id, contestant.id);
  // The prize is the stored result's (a withdrawn one is no longer there), whatever became of its
  // certificate: a revoked certificate is a void paper, not a withdrawn prize (decision 020).
  const prizeName = facts.visible ? facts.result?.prize_name : undefined;
  const [withdrawn, revoked] = await Promise.all([
    facts.visible ? findPrizeWithdrawals(deps.db, contest.id, contestant.id) : [],
    findRevokedCertificates(deps.db, contest.id, contestant.id),
  ]);
  return {
    success: true,
    data: {
      id: contestant.id,
      fullname: contestant.fullname,
      class: printedClass(contestant),
      school: { name: contestant.school_name, address: contestant.school_address },
      class_room: contestant.class_room_name ? { name: contestant.class_room_name } : null,
      path_certificate: certificates.get('participation')?.pdf_url ?? null,
      path_top_30: certificates.get('top30')?.pdf_url ?? null,
      is_top_personal: prizeName ? 1 : 0,
      is_top_30: facts.visible && facts.result?.school_top ? 1 : 0,
      prize_personal:
        facts.result && prizeName
          ? {
              prize_name: prizeName,
              money: facts.result.prize_amount ?? 0,
              desc: `${prizeName} cá nhân, trị giá ${formatMoney(facts.result.prize_amount ?? 0)} (hạng ${facts.result.rank}).`,
              image: prize?.image_url ?? '',
            }
          : null,
      certificates: [...certificates.values()],
      withdrawn_prizes: withdrawn,
      // A prize withheld after an integrity review (decision 027): a neutral message, never the reason.
      results_held: await resultsHeldMessage(deps, facts),
      revoked_certificates: revoked.map((row) => ({
        kind: row.kind,
        title: (row.content as CertificateContent).title,
        code: row.code,
        revoked_date: formatDate(row.revoked_at!),
        reissued: certificates.has(row.kind),
      })),
    },
    exam_lastest: latest ?? null,
    results_at: contest.results_at.toISOString(),
    results_date: formatDate(contest.results_at),
    results_published: facts.visible,
    season: { name: contest.name, is_current: contest.is_current },
  };
}

/** What a school's prize certificate says, or undefined when not entitled (results published). */
export async function schoolCertificateContent(deps: CertificateDeps, contest: Contest, schoolId: number) {
  const result = await schoolResult(deps.db, contest.id, schoolId);
  const school = await findSchool(deps.db, schoolId, contest.id);
  const prizeName = result?.prize_name;
  if (!result || !prizeName || !school) return undefined;
  const images = await currentCertificateImages(deps.db);
  return {
    result: { ...result, prize_name: prizeName },
    describe: (code: string) =>
      schoolContent(commonFacts(deps, contest, code, images), { name: school.name, address: school.address, participants: result.participants }, prizeName, formatDate(contest.results_at)),
  };
}

/** The school's prize certificate content, once the results are published (undefined before, or without a prize). */
async function publishedSchoolContent(deps: CertificateDeps, contest: Contest, schoolId: number) {
  if (!resultsPublished(await getResultRun(deps.db, contest.id))) return undefined;
  return schoolCertificateContent(deps, contest, schoolId);
}

export async function ensureSchoolCertificate(deps: CertificateDeps, contest: Contest, schoolId: number) {
  const entitled = await publishedSchoolContent(deps, contest, schoolId);
  if (!entitled) return undefined;
  const ensured = await ensureCertificate(deps, contest, { schoolId }, 'school', entitled.describe);
  return ensured && { ensured, result: entitled.result };
}

/**
 * The school's prize and its certificate in force, for the school report once the results are
 * published. Only reads (the report may be read on a replica): the certificate is issued, and
 * brought up to date after a rename, by the background job (background.ts); until it has been, the
 * prize shows without its files.
 */
export async function schoolPrizeCertificate(deps: Pick<Services, 'db' | 'config'>, contest: Contest, schoolId: number) {
  const result = await schoolResult(deps.db, contest.id, schoolId);
  if (!result?.prize_name) return undefined;
  const row = await findCertificate(deps.db, contest.id, { schoolId }, 'school');
  const files = row ? certificateUrls(row.code, deps.config.publicUrl) : { pdf_url: null, image_url: null };
  return { pdf_url: files.pdf_url, image_url: files.image_url, prizeName: result.prize_name, amount: result.prize_amount ?? 0, participants: result.participants, rank: result.rank };
}

/**
 * What a stored certificate should say now; undefined when no longer valid. With `store`, the new
 * content is stored (the file download, whose drawn file is kept under the content's hash);
 * without, nothing is written (the public verification only reads).
 */
async function currentContent(deps: CertificateDeps, row: CertificateRow, { holder, store }: { holder?: ContestantRow; store: boolean }) {
  const contest = await deps.db.selectFrom('contests').selectAll().where('id', '=', row.contest_id).executeTakeFirst();
  const describe = contest && (await describerOf(deps, contest, row, holder));
  if (!describe) return undefined;
  const current = asItIsNow(row, describe);
  return store ? keepUpToDate(deps, row, current) : current;
}

/**
 * The replacement of a certificate just revoked, when its holder is still entitled (decision 020:
 * a void paper, not a withdrawn prize): a new row with a new code, in the caller's transaction,
 * whose file the background job draws at its next tick (renderPendingCertificates). Undefined when
 * the holder is entitled to nothing of that kind any more.
 */
export async function reissueCertificate(deps: CertificateDeps, revoked: CertificateRow): Promise<CertificateRow | undefined> {
  const contest = await deps.db.selectFrom('contests').selectAll().where('id', '=', revoked.contest_id).executeTakeFirstOrThrow();
  const describe = await describerOf(deps, contest, revoked);
  if (!describe) return undefined;
  const holder: Holder = revoked.contestant_id !== null ? { contestantId: revoked.contestant_id } : { schoolId: revoked.school_id! };
  return (await ensureCertificate(deps, contest, holder, revoked.kind, describe))?.row;
}

/** What the stored certificate's holder is entitled to now, as a content for a code; undefined when nothing. */
async function describerOf(deps: CertificateDeps, contest: Contest, row: CertificateRow, holder?: ContestantRow) {
  if (row.contestant_id !== null) {
    const contestant = holder?.id === row.contestant_id ? holder : await findContestant(deps.db, row.contestant_id);
    if (!contestant) return undefined;
    const facts = await contestantFacts(deps, contest, contestant);
    return (code: string) => contestantContent(deps, contest, facts, row.kind, code);
  }
  if (row.school_id === null) return undefined;
  return (await publishedSchoolContent(deps, contest, row.school_id))?.describe;
}

function ownsCertificate(user: AuthUser, row: CertificateRow, contestantOwner: number | undefined): boolean {
  if (row.school_id !== null) return user.role === 'school_admin' && user.schoolId === row.school_id;
  return user.role === 'parent' && contestantOwner === user.id;
}

const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/**
 * The PDF or PNG of a certificate, for its owner only (anyone else: not found). The PDF drawn in
 * the background is served when it matches the content; otherwise (and for the preview, on its
 * first request) it is drawn now and kept.
 */
export async function certificateFile(deps: CertificateDeps, user: AuthUser, code: string, format: 'pdf' | 'png') {
  const row = await findCertificateByCode(deps.db, code);
  const holder = row?.contestant_id != null ? await findContestant(deps.db, row.contestant_id) : undefined;
  if (!row || !ownsCertificate(user, row, holder?.user_id)) throw notFound(resultMessages.certificateNotFound);
  if (row.revoked_at) throw appError('certificate_revoked', certificateAdminMessages.revokedDownload);
  const current = await currentContent(deps, row, { holder, store: true });
  if (!current) throw notFound(resultMessages.certificateNotFound);
  const { content } = current;
  const hash = current.row.content_hash;
  const stored = await readCertificateFile(deps.db, row.id, format);
  let body = stored?.file && stored.hash === hash ? asBuffer(stored.file) : undefined;
  if (!body) {
    const images = await printImagesFor(deps.db, [content]);
    if (format === 'pdf') {
      body = await renderCertificatePdf(content, images);
      await storeCertificatePdf(deps.db, row.id, hash, body, deps.clock.now());
    } else {
      body = await renderCertificatePng(content, images);
      await storeCertificatePng(deps.db, row.id, hash, body);
    }
  }
  return {
    body,
    contentType: format === 'pdf' ? 'application/pdf' : 'image/png',
    fileName: `giay-chung-nhan-${row.code}.${format}`,
    etag: `"${hash.slice(0, 32)}-${format}"`,
  };
}

/** GET /api/certificates/verify/:code: what the certificate is, and nothing else of its holder. */
export async function verifyCertificate(deps: CertificateDeps, code: string): Promise<VerifyResponse> {
  const row = await findCertificateByCode(deps.db, code);
  if (row?.revoked_at) {
    // What it was, that it was revoked and when; never the organisers' reason.
    const content = row.content as CertificateContent;
    return {
      success: true,
      data: {
        code: row.code,
        kind: row.kind,
        title: content.title,
        name: content.name,
        contest: content.contest,
        date: content.date,
        revoked: { date: formatDate(row.revoked_at), message: certificateAdminMessages.revokedPublic },
      },
    };
  }
  const current = row && (await currentContent(deps, row, { store: false }));
  if (!current) {
    const erased = row ? undefined : await findErasedCertificate(deps.db, code);
    if (!erased) throw appError('certificate_not_found', resultMessages.verifyNotFound);
    // Issued, then its holder's family had their data erased: what it was, never whose.
    const { title, contest, date } = erased;
    return {
      success: true,
      data: {
        code: erased.code,
        kind: erased.kind,
        title,
        name: '',
        contest,
        date,
        erased: { date: formatDate(erased.erased_at), message: certificateAdminMessages.erasedPublic },
        ...(erased.revoked_at ? { revoked: { date: formatDate(erased.revoked_at), message: certificateAdminMessages.revokedPublic } } : {}),
      },
    };
  }
  const { content } = current;
  // Which season it is of (issue 26): a certificate of an earlier season stays valid.
  const season = await deps.db.selectFrom('contests').select(['name', 'is_current']).where('id', '=', current.row.contest_id).executeTakeFirst();
  return {
    success: true,
    data: {
      code: current.row.code,
      kind: current.row.kind,
      title: content.title,
      name: content.name,
      contest: content.contest,
      date: content.date,
      ...(season ? { season: { name: season.name, current: season.is_current } } : {}),
    },
  };
}
