// Rules of the privacy feature (issue 15): consent to the notice, the parent's copy of what is
// stored about them and their children, and the deletion of the account after an SMS code.
import { winnersMessages } from '../../../shared/messages/winners';
import { formatDate } from '../../../shared/format';
import { accountMessages, privacyMessages } from '../../../shared/messages';
import { PRIVACY_NOTICE_VERSION } from '../../../shared/privacy';
import type { MyData } from '../../../shared/schemas/privacy';
import type { Services } from '../../services';
import { appError, forbidden, notFound } from '../../lib/errors';
import type { AuthUser } from '../../core/guard';
import { checkOtp, issueOtp, consumeOtp } from '../auth';
import { eraseAccounts } from './erase';
import * as repo from './repo';

export type PrivacyDeps = Pick<Services, 'db' | 'clock'>;

export async function recordConsent(deps: PrivacyDeps, user: AuthUser): Promise<{ version: string; consented_at: string }> {
  const now = deps.clock.now();
  await repo.recordConsent(deps.db, user.id, PRIVACY_NOTICE_VERSION, now);
  return { version: PRIVACY_NOTICE_VERSION, consented_at: now.toISOString() };
}

interface ShownQuestion {
  id: number;
  value: string;
  answers: { id: number; value: string }[];
}

/** What an exam and a practice round both hold, as the copy shows it. */
function paperOf(paper: {
  status: number;
  start_time: Date;
  end_time: Date;
  submitted_at: Date | null;
  correct_count: number | null;
  duration_seconds: number | null;
  prediction: number | null;
  questions: unknown;
  answers: unknown;
}) {
  const chosen = (paper.answers ?? {}) as Record<string, number>;
  return {
    status: paper.status === 1 ? 'Đã nộp' : 'Đang làm',
    start_time: paper.start_time.toISOString(),
    end_time: paper.end_time.toISOString(),
    submitted_at: paper.submitted_at?.toISOString() ?? null,
    correct_count: paper.correct_count,
    duration_seconds: paper.duration_seconds,
    prediction: paper.prediction,
    // The answers given, never the answer key (the contest may still be running).
    questions: (paper.questions as ShownQuestion[]).map((q) => ({
      question: q.value,
      answers: q.answers.map((a) => a.value),
      chosen_answer: q.answers.find((a) => a.id === chosen[String(q.id)])?.value ?? null,
    })),
  };
}

/** Everything stored about the account and its contestants; nothing of anyone else. */
export async function loadMyData(deps: PrivacyDeps, userId: number): Promise<MyData> {
  const { db, clock } = deps;
  const account = await repo.findAccount(db, userId);
  if (!account) throw notFound(privacyMessages.downloadFailed);
  const contestants = await repo.listContestants(db, userId);
  const ids = contestants.map((c) => c.id);
  const [exams, practiceRounds, results, certificates, logins] = await Promise.all([
    repo.listExams(db, userId),
    repo.listPracticeRounds(db, userId),
    repo.listResults(db, ids),
    repo.listCertificates(db, ids),
    repo.loginsByDay(db, userId),
  ]);
  const consents: MyData['consents'] = [];
  if (account.privacy_version && account.privacy_consented_at) {
    consents.push({ subject: 'Phụ huynh (tài khoản)', version: account.privacy_version, consented_at: account.privacy_consented_at.toISOString() });
  }
  for (const c of contestants) {
    if (c.consent_version && c.consented_at) consents.push({ subject: `Thí sinh ${c.fullname}`, version: c.consent_version, consented_at: c.consented_at.toISOString() });
    if (c.name_consent_version && c.name_consented_at) {
      consents.push({ subject: winnersMessages.consentSubject(c.fullname), version: c.name_consent_version, consented_at: c.name_consented_at.toISOString() });
    }
  }
  return {
    exported_at: clock.now().toISOString(),
    privacy_notice_version: PRIVACY_NOTICE_VERSION,
    account: { id: account.id, phone: account.phone, name: account.name, role: account.role, created_at: account.created_at.toISOString() },
    consents,
    contestants: contestants.map((c) => ({
      id: c.id,
      position: c.position,
      fullname: c.fullname,
      district: c.district,
      school: c.school,
      class_group: c.class_group,
      class: c.class ?? '',
      created_at: c.created_at.toISOString(),
      exams: exams
        .filter((e) => e.contestant_id === c.id)
        .map((e) => ({ id: e.id, book: e.book, attempt: e.attempt, ...paperOf(e), points: e.points })),
      practice_rounds: practiceRounds.filter((p) => p.contestant_id === c.id).map((p) => ({ id: p.id, ...paperOf(p) })),
      results: results
        .filter((r) => r.contestant_id === c.id)
        .map((r) => ({ contest: r.contest, points: r.points, rank: r.rank, school_rank: r.school_rank, prize: r.prize_name })),
      certificates: certificates
        .filter((r) => r.contestant_id === c.id)
        .map((r) => ({ code: r.code, kind: r.kind, issued_at: r.issued_at.toISOString() })),
    })),
    logins: logins.map((l) => ({ date: formatDate(`${l.day}T12:00:00+07:00`), count: Number(l.count) })),
  };
}

function requireParent(user: AuthUser) {
  // School administrators and organisers are managed by the organiser, not closed by themselves.
  if (user.role !== 'parent') throw forbidden(privacyMessages.familyOnly);
}

/** Sends the code that confirms the deletion to the account's own phone. */
export async function sendDeleteCode(deps: Pick<Services, 'db' | 'clock' | 'config' | 'sms'>, user: AuthUser, ip: string): Promise<number> {
  requireParent(user);
  return issueOtp(deps, user.phone, 'delete_account', ip);
}

/**
 * Deletes the account (erase.ts says what goes and what stays), with every session, in one
 * transaction with the use of the code.
 */
export async function deleteAccount(deps: PrivacyDeps & Pick<Services, 'config'>, user: AuthUser, otp: string): Promise<void> {
  const { db, clock } = deps;
  requireParent(user);
  const otpId = await checkOtp(deps, user.phone, 'delete_account', otp);
  await db.transaction().execute(async (trx) => {
    const now = clock.now();
    if (!(await consumeOtp(trx, otpId, now))) throw appError('otp_invalid', accountMessages.otpUsed, { otp: accountMessages.otpUsed });
    await eraseAccounts(trx, [{ id: user.id, phone: user.phone }], now);
  });
}
