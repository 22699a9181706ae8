// Back office, certificates: how far the background drawing is, finding a certificate, revoking one.
import { sql } from 'kysely';
import { formatDate } from '../../../../shared/format';
import { CERTIFICATE_CODE, normaliseCertificateCode } from '../../../../shared/certificate-code';
import { certificateAdminMessages as m } from '../../../../shared/messages';
import { revokeCertificateSchema, type AdminCertificate, type CertificateProgress } from '../../../../shared/schemas/admin-certificates';
import type { Db } from '../../../db/client';
import { placedContestants } from '../../../db/contestants';
import { foldSql, foldedContains } from '../../../db/fold';
import { appError, notFound } from '../../../lib/errors';
import type { Services } from '../../../services';
import type { AuthUser } from '../../../core/guard';
import { requireCurrentContest } from '../../../core/contest';
import { resultsPublished } from '../../results';
import { reissueCertificate } from '../../certificates';
import { getResultRun } from '../../../core/ranking/repo';
import { MAX_RENDER_ATTEMPTS, type CertificateContent } from '../../certificates';
import { recordAudit } from '../kit/audit';

type Deps = Pick<Services, 'db' | 'clock'>;
/** The drawing rate is measured over the drawings of the last minute... */
const RATE_WINDOW_MS = 60_000;
/** ...from the first of them to now, at least this long (one drawing just now is not 60 a minute). */
const RATE_MIN_SPAN_MS = 5_000;


const holderName = sql<string>`coalesce(contestants.fullname, schools.name, '')`;

/** GET /api/admin/certificates/progress */
export async function certificateProgress(deps: Deps): Promise<CertificateProgress> {
  const contestId = (await requireCurrentContest(deps.db)).id;
  const run = await getResultRun(deps.db, contestId);
  const now = deps.clock.now();
  const since = new Date(now.getTime() - RATE_WINDOW_MS);
  const counts = await deps.db
    .selectFrom('certificates')
    .select([
      sql<string>`count(*) FILTER (WHERE revoked_at IS NULL)`.as('total'),
      sql<string>`count(*) FILTER (WHERE revoked_at IS NULL AND files_hash = content_hash)`.as('ready'),
      sql<string>`count(*) FILTER (WHERE revoked_at IS NULL AND files_hash IS DISTINCT FROM content_hash AND render_error IS NOT NULL)`.as('failed'),
      sql<string>`count(*) FILTER (WHERE revoked_at IS NOT NULL)`.as('revoked'),
      sql<string>`count(*) FILTER (WHERE rendered_at >= ${since})`.as('recent'),
      sql<Date | null>`min(rendered_at) FILTER (WHERE rendered_at >= ${since})`.as('recent_from'),
    ])
    .where('contest_id', '=', contestId)
    .executeTakeFirstOrThrow();
  const total = Number(counts.total);
  const ready = Number(counts.ready);
  const failed = Number(counts.failed);
  const pending = total - ready - failed;
  // Over the recent drawings only, from the first of them (268 drawn in 6 s is ~2,700 a minute, not
  // 268 spread over a fixed window).
  const span = counts.recent_from ? Math.max(now.getTime() - new Date(counts.recent_from).getTime(), RATE_MIN_SPAN_MS) : RATE_WINDOW_MS;
  const perMinute = Math.round(((Number(counts.recent) * 60_000) / span) * 10) / 10;
  const failures = await deps.db
    .selectFrom('certificates')
    .leftJoin('contestants', 'contestants.id', 'certificates.contestant_id')
    // The school as the certificate's season names it (season_schools, decision 038).
    .leftJoin('season_schools as schools', (join) => join.onRef('schools.id', '=', 'certificates.school_id').onRef('schools.contest_id', '=', 'certificates.contest_id'))
    .select(['certificates.code', 'certificates.kind', holderName.as('holder'), 'certificates.render_failures', 'certificates.render_error'])
    .where('certificates.contest_id', '=', contestId)
    .where('certificates.revoked_at', 'is', null)
    .where('certificates.render_error', 'is not', null)
    .where(sql<boolean>`certificates.files_hash IS DISTINCT FROM certificates.content_hash`)
    .orderBy('certificates.id')
    .limit(50)
    .execute();
  return {
    published: resultsPublished(run),
    issued: Boolean(run?.certificates_synced_at && run.certificates_synced_at.getTime() === run.computed_at.getTime()),
    total,
    ready,
    pending,
    failed,
    revoked: Number(counts.revoked),
    per_minute: perMinute,
    seconds_left: pending > 0 && perMinute > 0 ? Math.ceil((pending / perMinute) * 60) : null,
    failures: failures.map((row) => ({
      code: row.code,
      kind: row.kind,
      holder: row.holder,
      attempts: row.render_failures,
      error: row.render_error ?? '',
      retrying: row.render_failures < MAX_RENDER_ATTEMPTS,
    })),
  };
}

function certificatesQuery(db: Db) {
  return db
    .selectFrom('certificates')
    // Named `contestants`, as the table is in holderName.
    .leftJoin(placedContestants(db).as('contestants'), 'contestants.id', 'certificates.contestant_id')
    // The school as the certificate's season names it (season_schools, decision 038).
    .leftJoin('season_schools as schools', (join) => join.onRef('schools.id', '=', 'certificates.school_id').onRef('schools.contest_id', '=', 'certificates.contest_id'))
    .select([
      'certificates.id',
      'certificates.code',
      'certificates.kind',
      'certificates.content',
      'certificates.issued_at',
      'certificates.files_hash',
      'certificates.content_hash',
      'certificates.revoked_at',
      'certificates.revoked_reason',
      holderName.as('holder'),
      sql<string>`coalesce(contestants.school, '')`.as('school'),
      // A revoked one: its holder's certificate of the same kind in force now.
      sql<string | null>`(
        SELECT n.code FROM certificates n
        WHERE certificates.revoked_at IS NOT NULL AND n.contest_id = certificates.contest_id AND n.kind = certificates.kind AND n.revoked_at IS NULL
          AND (n.contestant_id = certificates.contestant_id OR n.school_id = certificates.school_id)
        LIMIT 1
      )`.as('replaced_by'),
    ]);
}

function toAdmin(row: Awaited<ReturnType<ReturnType<typeof certificatesQuery>['executeTakeFirstOrThrow']>>): AdminCertificate {
  return {
    code: row.code,
    kind: row.kind,
    title: (row.content as CertificateContent).title,
    holder: row.holder,
    school: row.school,
    issued_at: formatDate(row.issued_at),
    ready: row.files_hash === row.content_hash,
    revoked_at: row.revoked_at ? formatDate(row.revoked_at) : null,
    revoked_reason: row.revoked_reason,
    replaced_by: row.replaced_by,
  };
}

/**
 * GET /api/admin/certificates?q=: by code (exact, any case, with or without spaces and dashes) or
 * by holder or school name, without accents and in any case.
 */
export async function searchCertificates(deps: Deps, query: string): Promise<AdminCertificate[]> {
  const contestId = (await requireCurrentContest(deps.db)).id;
  const code = normaliseCertificateCode(query);
  if (CERTIFICATE_CODE.test(code)) {
    const row = await certificatesQuery(deps.db).where('certificates.code', '=', code).executeTakeFirst();
    if (row) return [toAdmin(row)];
  }
  const pattern = foldedContains(query.replace(/\s+/g, ' ').trim());
  const rows = await certificatesQuery(deps.db)
    .where('certificates.contest_id', '=', contestId)
    .where((eb) => eb.or([eb(foldSql(sql.ref('contestants.fullname')), 'like', pattern), eb(foldSql(sql.ref('schools.name')), 'like', pattern)]))
    .orderBy('certificates.id')
    .limit(30)
    .execute();
  return rows.map(toAdmin);
}

/** POST /api/admin/certificates/:code/revoke: with the reason, in the audit log. */
export async function revokeCertificate(deps: Pick<Services, 'db' | 'clock' | 'config'>, actor: AuthUser, code: string, input: { reason?: string }): Promise<AdminCertificate> {
  const parsed = revokeCertificateSchema.safeParse({ reason: input.reason ?? '' });
  if (!parsed.success) {
    const message = parsed.error.issues[0]?.message ?? m.reasonRequired;
    throw appError('input_refused', message, { reason: message });
  }
  const { reason } = parsed.data;
  return deps.db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('certificates')
      .select(['id', 'code', 'contest_id', 'kind', 'contestant_id', 'school_id', 'content', 'content_hash', 'files_hash', 'revoked_at'])
      .where('code', '=', code)
      .forUpdate()
      .executeTakeFirst();
    if (!row) throw notFound(m.notFound);
    if (row.revoked_at) throw appError('certificate_already_revoked', m.alreadyRevoked);
    const now = deps.clock.now();
    await trx.updateTable('certificates').set({ revoked_at: now, revoked_by: actor.id, revoked_reason: reason }).where('id', '=', row.id).execute();
    // A holder still entitled gets the new certificate now, under a new code; the background job
    // draws its file at its next tick, and the progress counts it pending until then.
    const replacement = await reissueCertificate({ ...deps, db: trx }, { ...row, revoked_at: now });
    const revoked = toAdmin(await certificatesQuery(trx).where('certificates.id', '=', row.id).executeTakeFirstOrThrow());
    await recordAudit(trx, actor, {
      kind: 'certificate.revoke',
      summary: `Thu hồi giấy chứng nhận ${code} của ${revoked.holder}`,
      details: { code, kind: revoked.kind, title: revoked.title, holder: revoked.holder, reason, replaced_by: replacement?.code ?? null },
    });
    return revoked;
  });
}
