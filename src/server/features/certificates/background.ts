// Certificates issued and drawn in the background once the results are published (issue 13), so
// that results day serves files already drawn instead of drawing them while 100,000 families
// open the page. Safe with several app processes: one of them walks the holders (the result
// run's row is locked while it does a batch, the others skip it), and each draws the batches of
// PDFs it claims with FOR UPDATE SKIP LOCKED.
import { sql } from 'kysely';
import type { Db } from '../../db/client';
import type { CertificateKind, Contest } from '../../db/schema';
import type { Services } from '../../services';
import { contentHash, type CertificateContent } from './content';
import { renderCertificatePdf } from './render';
import { printImagesFor, type PrintImages } from './images';
import { findContestantCertificates, findContestants, insertCertificates, nextParticipants, prizedSchoolIds, storeCertificatePdfs, updateCertificateContent } from './repo';
import { contestantContent, contestantsFacts, ensureSchoolCertificate, newCertificateCode } from './service';

export type CertificateJobDeps = Pick<Services, 'db' | 'clock' | 'config'>;

const ISSUE_BATCH = 500;
const RENDER_BATCH = 25;
/** A drawing that fails this many times is left alone (and reported) until its content changes. */
export const MAX_RENDER_ATTEMPTS = 5;
const RETRY_BASE_MS = 30_000;
const CONTESTANT_KINDS: CertificateKind[] = ['participation', 'prize', 'top30'];

/**
 * Issues the certificates of the next batch of contestants of a published computation and brings
 * their content up to date (a recomputation or a regrade moves computed_at: the walk starts
 * again). Revoked certificates are left as they are (void); a holder still entitled is issued a new
 * one. Returns the holders handled (0: nothing to do).
 */
export async function issueCertificates(deps: CertificateJobDeps, batchSize = ISSUE_BATCH): Promise<number> {
  return deps.db.transaction().execute(async (trx) => {
    const run = await trx
      .selectFrom('result_runs')
      .selectAll()
      .where('published_at', 'is not', null)
      .where(sql<boolean>`certificates_synced_at IS DISTINCT FROM computed_at`)
      .orderBy('contest_id')
      .limit(1)
      .forUpdate()
      .skipLocked()
      .executeTakeFirst();
    if (!run) return 0;
    const contest: Contest = await trx.selectFrom('contests').selectAll().where('id', '=', run.contest_id).executeTakeFirstOrThrow();
    const scoped = { ...deps, db: trx };
    const now = deps.clock.now();
    const sameRun = run.certificates_sync_of?.getTime() === run.computed_at.getTime();
    const cursor = sameRun ? run.certificates_sync_cursor : 0;

    // The schools' certificates first (a few dozen), so the school reports show them within seconds.
    if (cursor === 0) for (const schoolId of await prizedSchoolIds(trx, contest.id)) await ensureSchoolCertificate(scoped, contest, schoolId);
    const ids = await nextParticipants(trx, contest.id, cursor, batchSize);
    const facts = await contestantsFacts(scoped, contest, await findContestants(trx, ids), true, run);
    const existing = new Map((await findContestantCertificates(trx, contest.id, ids)).map((row) => [`${row.contestant_id}:${row.kind}`, row]));
    const inserts: Parameters<typeof insertCertificates>[1][number][] = [];
    for (const fact of facts) {
      for (const kind of CONTESTANT_KINDS) {
        // The certificate in force; a revoked one is void, and its holder, still entitled, gets a new code.
        const row = existing.get(`${fact.contestant.id}:${kind}`);
        const code = row?.code ?? newCertificateCode();
        const content = contestantContent(scoped, contest, fact, kind, code);
        // Not (or no longer) entitled: nothing issued; an old row stays unconfirmed.
        if (!content) continue;
        const hash = contentHash(content);
        if (!row) inserts.push({ code, contestId: contest.id, contestantId: fact.contestant.id, kind, content, contentHash: hash, now });
        else if (row.content_hash !== hash) await updateCertificateContent(trx, row.id, content, hash, now);
      }
    }
    await insertCertificates(trx, inserts);

    const finished = ids.length < batchSize;
    await trx
      .updateTable('result_runs')
      .set({ certificates_sync_of: run.computed_at, certificates_sync_cursor: ids.at(-1) ?? cursor, certificates_synced_at: finished ? run.computed_at : null })
      .where('contest_id', '=', contest.id)
      .execute();
    return ids.length + (finished ? 1 : 0);
  });
}

/**
 * Something a certificate prints has changed (a school or a class renamed or merged, a book
 * renamed): the next ticks of the job walk
 * every published computation's holders again, bring each certificate's content up to date (a new
 * one for a revoked one) and draw the files again. Called in the transaction of the change, so
 * that reading a certificate never has to.
 */
export async function recheckCertificates(db: Db): Promise<void> {
  await db.updateTable('result_runs').set({ certificates_synced_at: null, certificates_sync_cursor: 0 }).where('published_at', 'is not', null).execute();
}

export type RenderPdf = (content: CertificateContent, images: PrintImages) => Promise<Uint8Array>;

/** Lets requests in between two drawings: drawing is CPU work on the event loop. */
const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Draws the PDFs of a batch of certificates whose file is missing or stale. A failure is kept
 * with its error and retried later (30 s, 1 min, 2 min, ...) up to MAX_RENDER_ATTEMPTS times.
 * Returns how many certificates it tried (0: nothing to draw).
 */
export async function renderPendingCertificates(deps: Pick<Services, 'db' | 'clock'>, options: { batchSize?: number; render?: RenderPdf } = {}): Promise<number> {
  const render = options.render ?? renderCertificatePdf;
  return deps.db.transaction().execute(async (trx) => {
    const now = deps.clock.now();
    const rows = await trx
      .selectFrom('certificates')
      .select(['id', 'content', 'content_hash', 'render_failures'])
      .where(sql<boolean>`files_hash IS DISTINCT FROM content_hash`)
      .where('revoked_at', 'is', null)
      .where('render_failures', '<', MAX_RENDER_ATTEMPTS)
      .where((eb) => eb.or([eb('render_after', 'is', null), eb('render_after', '<=', now)]))
      .orderBy('id')
      .limit(options.batchSize ?? RENDER_BATCH)
      .forUpdate()
      .skipLocked()
      .execute();
    const drawn: { id: number; contentHash: string; pdf: Uint8Array }[] = [];
    const images = await printImagesFor(trx, rows.map((row) => row.content as CertificateContent));
    for (const row of rows) {
      try {
        drawn.push({ id: row.id, contentHash: row.content_hash, pdf: await render(row.content as CertificateContent, images) });
      } catch (error) {
        const failures = row.render_failures + 1;
        await trx
          .updateTable('certificates')
          .set({
            render_failures: failures,
            render_error: (error instanceof Error ? error.message : String(error)).slice(0, 500),
            render_after: new Date(now.getTime() + RETRY_BASE_MS * 2 ** (failures - 1)),
          })
          .where('id', '=', row.id)
          .execute();
      }
      await yieldToRequests();
    }
    await storeCertificatePdfs(trx, drawn, now);
    return rows.length;
  });
}

let running = false;

/**
 * The background job (jobs.ts): issues and draws for up to `budgetMs`, then lets the next tick
 * continue. Returns the certificates drawn.
 */
export async function drawCertificates(deps: CertificateJobDeps, budgetMs = 4000): Promise<number> {
  // A tick that outlasts the interval is not doubled in the same process.
  if (running) return 0;
  running = true;
  try {
    const started = performance.now();
    let drawn = 0;
    while (performance.now() - started < budgetMs) {
      const issued = await issueCertificates(deps);
      const tried = await renderPendingCertificates(deps);
      drawn += tried;
      if (issued === 0 && tried === 0) break;
    }
    return drawn;
  } finally {
    running = false;
  }
}
