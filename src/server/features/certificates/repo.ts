// SQL of the certificates: holders' facts and the certificate rows.
import { sql } from 'kysely';
import type { Db } from '../../db/client';
import { selectPrintedContestants } from '../../db/contestants';
import type { CertificateKind } from '../../db/schema';

export type Holder = { contestantId: number; schoolId?: undefined } | { schoolId: number; contestantId?: undefined };

/** A contestant as printed: name, class (class room or typed class), school. */
export const findContestant = (db: Db, contestantId: number) =>
  selectPrintedContestants(db).where('contestants.id', '=', contestantId).executeTakeFirst();

export type { PrintedContestant as ContestantRow } from '../../db/contestants';

/** The school as the season `contestId` names it (season_schools, 0046: last season's name after a move). */
export async function findSchool(db: Db, schoolId: number, contestId: number) {
  return db.selectFrom('season_schools').select(['id', 'name', 'address', 'district_name']).where('id', '=', schoolId).where('contest_id', '=', contestId).executeTakeFirst();
}

/** Printed contestants by id, in id order. */
export const findContestants = (db: Db, contestantIds: readonly number[]) =>
  contestantIds.length ? selectPrintedContestants(db).where('contestants.id', 'in', [...contestantIds]).orderBy('contestants.id').execute() : Promise.resolve([]);

export async function bookNames(db: Db, bookIds: readonly number[]): Promise<Map<number, string>> {
  if (bookIds.length === 0) return new Map();
  const rows = await db.selectFrom('books').select(['id', 'name']).where('id', 'in', [...new Set(bookIds)]).execute();
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** The latest finished exam of a contestant in a contest (the spec's exam_lastest). */
export async function latestFinishedExam(db: Db, contestId: number, contestantId: number) {
  return db
    .selectFrom('exams')
    .select(['book_id', 'slug'])
    .where('contest_id', '=', contestId)
    .where('contestant_id', '=', contestantId)
    .where('status', '=', 1)
    .orderBy('submitted_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

/** The stored results of contestants, with the book of the ranked exam. */
export async function individualResults(db: Db, contestId: number, contestantIds: readonly number[]) {
  if (contestantIds.length === 0) return [];
  return db
    .selectFrom('individual_results')
    .innerJoin('exams', 'exams.id', 'individual_results.exam_id')
    .select([
      'individual_results.contestant_id',
      'individual_results.exam_id',
      'exams.book_id',
      'individual_results.points',
      'individual_results.duration_seconds',
      'individual_results.rank',
      'individual_results.prize_code',
      'individual_results.held',
      'individual_results.prize_name',
      'individual_results.prize_amount',
      'individual_results.school_top',
      'individual_results.school_top_amount',
    ])
    .where('individual_results.contest_id', '=', contestId)
    .where('individual_results.contestant_id', 'in', [...contestantIds])
    .execute();
}
export type IndividualResultRow = Awaited<ReturnType<typeof individualResults>>[number];

export async function schoolResult(db: Db, contestId: number, schoolId: number) {
  return db
    .selectFrom('school_results')
    .select(['participants', 'rank', 'prize_code', 'prize_name', 'prize_amount'])
    .where('contest_id', '=', contestId)
    .where('school_id', '=', schoolId)
    .executeTakeFirst();
}

const certificateColumns = ['id', 'code', 'contest_id', 'kind', 'contestant_id', 'school_id', 'content', 'content_hash', 'files_hash', 'revoked_at'] as const;

export const findErasedCertificate = (db: Db, code: string) => db.selectFrom('erased_certificates').selectAll().where('code', '=', code).executeTakeFirst();

export async function findCertificateByCode(db: Db, code: string) {
  return db.selectFrom('certificates').select([...certificateColumns]).where('code', '=', code).executeTakeFirst();
}
export type CertificateRow = NonNullable<Awaited<ReturnType<typeof findCertificateByCode>>>;

/** The certificates in force (not revoked) of these contestants in a contest: one per kind at most. */
export async function findContestantCertificates(db: Db, contestId: number, contestantIds: readonly number[]) {
  if (contestantIds.length === 0) return [];
  return db
    .selectFrom('certificates')
    .select([...certificateColumns])
    .where('contest_id', '=', contestId)
    .where('contestant_id', 'in', [...contestantIds])
    .where('revoked_at', 'is', null)
    .execute();
}

/** A contestant's revoked certificates, newest first (the family is told which codes are void). */
export async function findRevokedCertificates(db: Db, contestId: number, contestantId: number) {
  return db
    .selectFrom('certificates')
    .select(['code', 'kind', 'content', 'revoked_at'])
    .where('contest_id', '=', contestId)
    .where('contestant_id', '=', contestantId)
    .where('revoked_at', 'is not', null)
    .orderBy('revoked_at', 'desc')
    .execute();
}

/** A contestant's withdrawn prizes in a contest (prize_withdrawals). */
export async function findPrizeWithdrawals(db: Db, contestId: number, contestantId: number) {
  return db.selectFrom('prize_withdrawals').select(['kind', 'prize_name']).where('contest_id', '=', contestId).where('contestant_id', '=', contestantId).execute();
}

/** The holder's certificate in force (not revoked) of this kind. */
export async function findCertificate(db: Db, contestId: number, holder: Holder, kind: CertificateKind) {
  let query = db.selectFrom('certificates').select([...certificateColumns]).where('contest_id', '=', contestId).where('kind', '=', kind).where('revoked_at', 'is', null);
  query = holder.contestantId !== undefined ? query.where('contestant_id', '=', holder.contestantId) : query.where('school_id', '=', holder.schoolId);
  return query.executeTakeFirst();
}

/** Inserts a certificate unless its holder already has one in force of this kind (then returns nothing). */
export async function insertCertificate(
  db: Db,
  row: { code: string; contestId: number; holder: Holder; kind: CertificateKind; content: unknown; contentHash: string; now: Date },
) {
  const values = {
    code: row.code,
    contest_id: row.contestId,
    kind: row.kind,
    contestant_id: row.holder.contestantId ?? null,
    school_id: row.holder.schoolId ?? null,
    content: JSON.stringify(row.content),
    content_hash: row.contentHash,
    issued_at: row.now,
    updated_at: row.now,
  };
  const insert = db.insertInto('certificates').values(values);
  const guarded =
    row.holder.contestantId !== undefined
      ? insert.onConflict((oc) => oc.columns(['contest_id', 'contestant_id', 'kind']).where('contestant_id', 'is not', null).where('revoked_at', 'is', null).doNothing())
      : insert.onConflict((oc) => oc.columns(['contest_id', 'school_id', 'kind']).where('school_id', 'is not', null).where('revoked_at', 'is', null).doNothing());
  return guarded.returning([...certificateColumns]).executeTakeFirst();
}

/** New content: the PDF is drawn again (a failed drawing gets its tries back). */
export async function updateCertificateContent(db: Db, id: number, content: unknown, contentHash: string, now: Date) {
  await db
    .updateTable('certificates')
    .set({ content: JSON.stringify(content), content_hash: contentHash, updated_at: now, render_failures: 0, render_error: null, render_after: null })
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .execute();
}

export async function readCertificateFile(db: Db, id: number, format: 'pdf' | 'png') {
  const row =
    format === 'pdf'
      ? await db.selectFrom('certificates').select(['pdf as file', 'files_hash as hash']).where('id', '=', id).executeTakeFirst()
      : await db.selectFrom('certificates').select(['png as file', 'png_hash as hash']).where('id', '=', id).executeTakeFirst();
  return row;
}

/** Stores a drawn PDF, unless the content changed meanwhile (a newer drawing will follow). */
export async function storeCertificatePdf(db: Db, id: number, contentHash: string, pdf: Uint8Array, now: Date) {
  await db
    .updateTable('certificates')
    .set({ pdf, files_hash: contentHash, rendered_at: now, render_failures: 0, render_error: null, render_after: null })
    .where('id', '=', id)
    .where('content_hash', '=', contentHash)
    .execute();
}

/** Stores a batch of drawn PDFs in one statement (each unless its content changed meanwhile). */
export async function storeCertificatePdfs(db: Db, files: readonly { id: number; contentHash: string; pdf: Uint8Array }[], now: Date) {
  if (files.length === 0) return;
  await sql`
    UPDATE certificates c
    SET pdf = f.pdf, files_hash = f.content_hash, rendered_at = ${now}, render_failures = 0, render_error = NULL, render_after = NULL
    FROM unnest(${files.map((f) => f.id)}::int[], ${files.map((f) => f.contentHash)}::text[], ${files.map((f) => f.pdf)}::bytea[]) AS f(id, content_hash, pdf)
    WHERE c.id = f.id AND c.content_hash = f.content_hash`.execute(db);
}

export async function storeCertificatePng(db: Db, id: number, contentHash: string, png: Uint8Array) {
  await db.updateTable('certificates').set({ png, png_hash: contentHash }).where('id', '=', id).where('content_hash', '=', contentHash).execute();
}

/** Inserts new certificates; a holder that got one meanwhile (or a taken code) is skipped. */
export async function insertCertificates(
  db: Db,
  rows: readonly { code: string; contestId: number; contestantId: number; kind: CertificateKind; content: unknown; contentHash: string; now: Date }[],
) {
  for (let start = 0; start < rows.length; start += 1000) {
    const slice = rows.slice(start, start + 1000);
    await db
      .insertInto('certificates')
      .values(
        slice.map((row) => ({
          code: row.code,
          contest_id: row.contestId,
          kind: row.kind,
          contestant_id: row.contestantId,
          content: JSON.stringify(row.content),
          content_hash: row.contentHash,
          issued_at: row.now,
          updated_at: row.now,
        })),
      )
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}

/** The next contestants (by id, after `afterId`) with a finished exam in the contest. */
export async function nextParticipants(db: Db, contestId: number, afterId: number, limit: number): Promise<number[]> {
  const rows = await db
    .selectFrom('exams')
    .select('contestant_id')
    .distinct()
    .where('contest_id', '=', contestId)
    .where('status', '=', 1)
    .where('contestant_id', '>', afterId)
    // An erased family's child keeps its scores under a placeholder name, and no certificate.
    .where((eb) => eb.not(eb.exists(eb.selectFrom('contestants').select('contestants.id').whereRef('contestants.id', '=', 'exams.contestant_id').where('contestants.anonymised_at', 'is not', null))))
    .orderBy('contestant_id')
    .limit(limit)
    .execute();
  return rows.map((row) => row.contestant_id);
}

export async function prizedSchoolIds(db: Db, contestId: number): Promise<number[]> {
  const rows = await db.selectFrom('school_results').select('school_id').where('contest_id', '=', contestId).where('prize_name', 'is not', null).orderBy('school_id').execute();
  return rows.map((row) => row.school_id);
}
