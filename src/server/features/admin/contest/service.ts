// Contest settings and the site's footer, as the organiser edits them. Every save locks the
// contest row, checks the whole resulting set of settings (not just the fields sent), writes and
// records the audit entry in one transaction.
import {
  contestDateFields,
  contestFieldLabels,
  contestMessages,
  contestProblems,
  prizeKinds,
  type ContestSettings,
  type ContestUpdate,
  type PrizeTierInput,
} from '../../../../shared/schemas/admin-contest';
import type { SiteFooter } from '../../../../shared/schemas/site';
import type { Db } from '../../../db/client';
import type { Contest } from '../../../db/schema';
import { appError, type FieldErrors } from '../../../lib/errors';
import type { Services } from '../../../services';
import type { AuthUser } from '../../../core/guard';
import * as contests from '../../../core/contest';
import { storeImage } from '../../media';
import { loadFooter, saveFooter } from '../../site';
import { recordAudit } from '../kit/audit';
import { recheckCertificates, saveCertificateImage } from '../../certificates';
import { certificateImageLabels, type CertificateImageKind } from '../../../../shared/schemas/certificate-printing';
import { resultsPublished } from '../../results';
import { getResultRun } from '../../../core/ranking/repo';

type Actor = Pick<AuthUser, 'id' | 'phone'>;


async function settingsOf(db: Db, contest: Contest): Promise<ContestSettings> {
  const [tiers, classMin, computedAt] = await Promise.all([
    contests.prizeTiersOf(db, contest.id),
    contests.classMinParticipantsOf(db, contest.id),
    contests.resultsComputedAt(db, contest.id),
  ]);
  return {
    name: contest.name,
    reading_starts_at: contest.reading_starts_at.toISOString(),
    reading_ends_at: contest.reading_ends_at.toISOString(),
    exam_starts_at: contest.exam_starts_at.toISOString(),
    exam_ends_at: contest.exam_ends_at.toISOString(),
    results_at: contest.results_at.toISOString(),
    ceremony_starts_at: contest.ceremony_starts_at.toISOString(),
    ceremony_ends_at: contest.ceremony_ends_at.toISOString(),
    exam_duration_seconds: contest.exam_duration_seconds,
    questions_per_exam: contest.questions_per_exam,
    attempts_per_contestant: contest.attempts_per_contestant,
    retention_months: contest.retention_months,
    review_correct_answers: contest.review_correct_answers,
    unit_level: contest.unit_level,
    class_min_participants: classMin ?? 10,
    prize_tiers: tiers.map(({ kind, code, name, winners, amount }) => ({ kind, code, name, winners, amount })),
    results_computed_at: computedAt?.toISOString() ?? null,
  };
}

export async function getContestSettings({ db }: Pick<Services, 'db'>): Promise<ContestSettings> {
  return settingsOf(db, await contests.requireCurrentContest(db));
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** Positions within each kind follow the list; new tiers get a code of their own. */
function tierRows(tiers: PrizeTierInput[]): contests.TierRow[] {
  const taken = new Set(tiers.map((tier) => tier.code).filter(Boolean));
  const positions = new Map<string, number>();
  const ordered = prizeKinds.flatMap((kind) => tiers.filter((tier) => tier.kind === kind));
  return ordered.map((tier) => {
    const position = (positions.get(tier.kind) ?? 0) + 1;
    positions.set(tier.kind, position);
    let code = tier.code;
    for (let n = position; !code; n += 1) if (!taken.has(`${tier.kind}_${n}`)) code = `${tier.kind}_${n}`;
    taken.add(code);
    return { kind: tier.kind, code, name: tier.name.trim(), position, winners: tier.winners, amount: tier.amount };
  });
}

/**
 * Saves any subset of the settings. 422 invalid_settings with errors by field when the result
 * breaks a rule. A bank smaller than an exam draws is refused while the window is open, and only
 * warned about when it opens later (the organiser still has time to add questions). Prize changes
 * are refused once the results are public (families have seen them) and only warned about when
 * results were computed but not yet published (they must be computed again).
 */
export async function updateContestSettings(
  { db, clock }: Pick<Services, 'db' | 'clock'>,
  actor: Actor,
  input: ContestUpdate,
): Promise<{ settings: ContestSettings; warnings: string[] }> {
  const now = clock.now();
  return db.transaction().execute(async (trx) => {
    const contest = await contests.requireCurrentContest(trx, { lock: true });
    const before = await settingsOf(trx, contest);
    const { results_computed_at: computedAt, ...current } = before;
    const next = { ...current, ...input };
    if (typeof next.name === 'string') next.name = next.name.trim();

    const problems: FieldErrors = { ...contestProblems(next) };
    const warnings: string[] = [];

    const changed = (Object.keys(input) as (keyof ContestUpdate)[]).filter((key) => {
      const value = key.endsWith('_at') && !problems[key] ? new Date(next[key] as string).toISOString() : next[key];
      return !same(value, current[key]);
    });

    const prizesChanged = changed.includes('prize_tiers') || changed.includes('class_min_participants');
    if (prizesChanged && computedAt) {
      // Once published, families have seen their prizes: the prize rules no longer change.
      if (resultsPublished(await getResultRun(trx, contest.id))) {
        for (const key of ['prize_tiers', 'class_min_participants'] as const) if (changed.includes(key)) problems[key] = contestMessages.resultsPublished;
      } else warnings.push(contestMessages.recompute);
    }

    // The banks against the exam's size, when something that bears on it is set.
    const bankField = (['questions_per_exam', 'exam_starts_at', 'exam_ends_at'] as const).find((key) => key in input);
    if (bankField && !problems.questions_per_exam && !problems.exam_starts_at && !problems.exam_ends_at) {
      const ends = new Date(next.exam_ends_at);
      if (now < ends) {
        const short = await contests.booksWithFewerQuestions(trx, next.questions_per_exam);
        if (short.length) {
          const list = short.map((book) => `${book.name} (${book.questions} câu)`).join(', ');
          if (new Date(next.exam_starts_at) <= now) problems[bankField] = contestMessages.shortBanks(list);
          else warnings.push(contestMessages.shortBanksWarning(list));
        }
      }
    }
    if (Object.keys(problems).length) throw appError('invalid_settings', contestMessages.invalid, problems);
    if (changed.length === 0) return { settings: before, warnings };

    const dates = Object.fromEntries(contestDateFields.map((field) => [field, new Date(next[field])])) as Record<(typeof contestDateFields)[number], Date>;
    await contests.updateContest(trx, contest.id, {
      name: next.name,
      ...dates,
      exam_duration_seconds: next.exam_duration_seconds,
      questions_per_exam: next.questions_per_exam,
      attempts_per_contestant: next.attempts_per_contestant,
      retention_months: next.retention_months,
      review_correct_answers: next.review_correct_answers,
      unit_level: next.unit_level,
    });
    if (changed.includes('prize_tiers')) await contests.replacePrizeTiers(trx, contest.id, tierRows(next.prize_tiers));
    if (changed.includes('class_min_participants')) await contests.saveClassMinParticipants(trx, contest.id, next.class_min_participants);
    // Certificates print the contest's name, its year and the results' date: the job redraws them.
    if (changed.some((key) => key === 'name' || key === 'results_at' || key === 'exam_starts_at')) await recheckCertificates(trx);

    const settings = await settingsOf(trx, await contests.requireCurrentContest(trx));
    const pick = (from: ContestSettings) => Object.fromEntries(changed.map((key) => [key, from[key]]));
    await recordAudit(trx, actor, {
      kind: 'contest.update',
      movesResults: prizesChanged,
      summary: `Sửa cài đặt cuộc thi: ${changed.map((key) => contestFieldLabels[key].toLowerCase()).join(', ')}`,
      details: { before: pick(before), after: pick(settings) },
    });
    return { settings, warnings };
  });
}

// The footer ------------------------------------------------------------------------------------

export async function getSiteFooter({ db, config }: Pick<Services, 'db' | 'config'>) {
  return loadFooter(db, config.site);
}

export async function saveSiteFooter({ db, config }: Pick<Services, 'db' | 'config'>, actor: Actor, footer: SiteFooter) {
  return db.transaction().execute(async (trx) => {
    // Serialises two organisers saving at once, so each audit entry's "before" is what it replaced.
    await trx.selectFrom('site_settings').select('id').forUpdate().execute();
    const before = await loadFooter(trx, config.site);
    if (!same(before.footer, footer) || before.fromConfig) {
      await saveFooter(trx, footer);
      await recordAudit(trx, actor, { kind: 'site.update', summary: 'Sửa thông tin chân trang', details: { before: before.footer, after: footer } });
    }
    return { footer, fromConfig: false };
  });
}

/** A sponsor's logo, re-encoded (at most 320 px wide); its path goes into the footer on save. */
export async function storeSponsorLogo({ db }: Pick<Services, 'db'>, actor: Actor, file: { fileName: string; bytes: Buffer }) {
  return db.transaction().execute(async (trx) => {
    const path = await storeImage(trx, file.bytes, { maxWidth: 320 });
    await recordAudit(trx, actor, { kind: 'site.sponsor_logo', summary: `Tải lên logo đơn vị đồng hành (${file.fileName})`, details: { file: file.fileName, path } });
    return path;
  });
}

/**
 * The organiser's signature or seal printed on every certificate (a PNG with transparency): stored,
 * and the certificates not yet downloaded drawn again with it (recheckCertificates, as a rename).
 */
export async function storeCertificateImage({ db, clock }: Pick<Services, 'db' | 'clock'>, actor: Actor, kind: CertificateImageKind, file: { fileName: string; bytes: Buffer }) {
  return db.transaction().execute(async (trx) => {
    // One upload at a time: the audit's order is the settings' order.
    await trx.selectFrom('certificate_images').select('kind').where('kind', '=', kind).forUpdate().execute();
    const stored = await saveCertificateImage(trx, kind, file, actor.id, clock.now());
    await recheckCertificates(trx);
    await recordAudit(trx, actor, {
      kind: `site.certificate_${kind}`,
      summary: `Tải lên ${certificateImageLabels[kind].toLowerCase()} in trên giấy chứng nhận (${file.fileName})`,
      details: { file: file.fileName, path: stored.path, width: stored.width, height: stored.height },
    });
    return stored;
  });
}
