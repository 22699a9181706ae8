// SQL of the certificates: holders' facts and the certificate rows.
import type { Db } from '../../db/client';
import { selectPrintedContestants } from '../../db/contestants';
import type { CertificateKind } from '../../db/schema';

export type Holder = { contestantId: number; schoolId?: undefined } | { schoolId: number; contestantId?: undefined };

/** A contestant as printed: name, class (class room or typed class), school. */
export const findContestant = (db: Db, contestantId: number) =>
  selectPrintedContestants(db).where('contestants.id', '=', contestantId).executeTakeFirst();

export type { PrintedContestant as ContestantRow } from '../../db/contestants';

export async function findSchool(db: Db, schoolId: number) {
  return db.selectFrom('schools').select(['id', 'name', 'address']).where('id', '=', schoolId).executeTakeFirst();
}

export async function bookName(db: Db, bookId: number): Promise<string> {
  const row = await db.selectFrom('books').select('name').where('id', '=', bookId).executeTakeFirst();
  return row?.name ?? '';
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

export async function individualResult(db: Db, contestId: number, contestantId: number) {
  return db
    .selectFrom('individual_results')
    .select(['exam_id', 'points', 'duration_seconds', 'rank', 'prize_code', 'prize_name', 'prize_amount', 'school_top', 'school_top_amount'])
    .where('contest_id', '=', contestId)
    .where('contestant_id', '=', contestantId)
    .executeTakeFirst();
}

export async function schoolResult(db: Db, contestId: number, schoolId: number) {
  return db
    .selectFrom('school_results')
    .select(['participants', 'rank', 'prize_code', 'prize_name', 'prize_amount'])
    .where('contest_id', '=', contestId)
    .where('school_id', '=', schoolId)
    .executeTakeFirst();
}

const certificateColumns = ['id', 'code', 'contest_id', 'kind', 'contestant_id', 'school_id', 'content', 'content_hash', 'files_hash'] as const;

export async function findCertificateByCode(db: Db, code: string) {
  return db.selectFrom('certificates').select([...certificateColumns]).where('code', '=', code).executeTakeFirst();
}
export type CertificateRow = NonNullable<Awaited<ReturnType<typeof findCertificateByCode>>>;

export async function findCertificate(db: Db, contestId: number, holder: Holder, kind: CertificateKind) {
  let query = db.selectFrom('certificates').select([...certificateColumns]).where('contest_id', '=', contestId).where('kind', '=', kind);
  query = holder.contestantId !== undefined ? query.where('contestant_id', '=', holder.contestantId) : query.where('school_id', '=', holder.schoolId);
  return query.executeTakeFirst();
}

/** Inserts a certificate unless its holder already has one of this kind (then returns nothing). */
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
      ? insert.onConflict((oc) => oc.columns(['contest_id', 'contestant_id', 'kind']).where('contestant_id', 'is not', null).doNothing())
      : insert.onConflict((oc) => oc.columns(['contest_id', 'school_id', 'kind']).where('school_id', 'is not', null).doNothing());
  return guarded.returning([...certificateColumns]).executeTakeFirst();
}

export async function updateCertificateContent(db: Db, id: number, content: unknown, contentHash: string, now: Date) {
  await db.updateTable('certificates').set({ content: JSON.stringify(content), content_hash: contentHash, updated_at: now }).where('id', '=', id).execute();
}

export async function readCertificateFiles(db: Db, id: number) {
  return db.selectFrom('certificates').select(['pdf', 'png', 'files_hash']).where('id', '=', id).executeTakeFirst();
}

/** Stores drawn files, unless the content changed meanwhile (a newer drawing will follow). */
export async function storeCertificateFiles(db: Db, id: number, contentHash: string, pdf: Uint8Array, png: Uint8Array) {
  await db.updateTable('certificates').set({ pdf, png, files_hash: contentHash }).where('id', '=', id).where('content_hash', '=', contentHash).execute();
}
