// The screening run (decision 027): the response model's counts from one aggregation, then one
// streaming pass over the finished exams in (book, school) order (screen-pass.ts), its school
// groups shared among worker threads (screen-worker.ts) while this thread reads the next page; then
// the exams that shared a login (lockstep). The flags at the family-wise rate asked, split over
// four families, set over every worker's part (combineParts).
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { connectionCount, type Db } from '../../../db/client';
import * as repo from './repo';
import { combineParts, groupDealer, type PassInput, type ScreeningResult } from './screen-pass';
import type { FromScreenWorker, ToScreenWorker } from './screen-worker';
import { alternations, saveInstants, timelineOf, LOCKSTEP_MIN_ALTERNATIONS } from './signals';

export type { ScreeningResult } from './screen-pass';
export const DEFAULT_FAMILY_RATE = 0.01;
const PAGE = 20_000;
const WORKER_URL = new URL('./screen-worker.mjs', import.meta.url);
/**
 * The pass makes much short-lived garbage (each exam's parsed answers, the pairs' terms) and keeps
 * only a school group of exams at a time: a larger young generation than V8's default collects it
 * with fewer scavenges (measured: decision 027, "Cost").
 */
const WORKER_YOUNG_GENERATION_MB = 64;
/**
 * The pass's worker threads: one per core, at most four. The school groups are independent, so
 * they share out with no coordination but the final thresholds; a run is a back-office action before
 * publishing, not an exam-day one, and the app's thread only reads pages meanwhile (decision 027).
 */
const WORKERS = Math.max(1, Math.min(4, availableParallelism()));

/** The worker of one run: `send` answers when the worker has taken the message's work (a page compared, or the result). */
function startWorker(input: PassInput) {
  // execArgv: []: the entry loads its TypeScript itself, whether or not the app runs under --import tsx.
  const worker = new Worker(WORKER_URL, { workerData: input, execArgv: [], resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_GENERATION_MB } });
  const waiting: { resolve: (message: FromScreenWorker) => void; reject: (error: Error) => void }[] = [];
  let broken: Error | undefined;
  const fail = (error: Error) => {
    broken ??= error;
    for (const wait of waiting.splice(0)) wait.reject(broken);
  };
  worker.on('message', (message: FromScreenWorker) => {
    if ('failed' in message) fail(new Error(`integrity screening worker: ${message.failed}`));
    else waiting.shift()?.resolve(message);
  });
  worker.on('error', fail);
  worker.on('exit', (code) => fail(new Error(`integrity screening worker exited with code ${code}`)));
  const send = (message: ToScreenWorker) => {
    const answered = new Promise<FromScreenWorker>((resolve, reject) => {
      if (broken) return reject(broken);
      waiting.push({ resolve, reject });
      worker.postMessage(message);
    });
    // A page in flight when the run fails elsewhere (the database gone mid-read) is never awaited:
    // its rejection at the worker's stop must not surface as an unhandled rejection.
    answered.catch(() => {});
    return answered;
  };
  return { send, stop: () => void worker.terminate() };
}

/**
 * Runs the screening of a contest inside `trx` (the cursor needs a transaction); stores nothing.
 * `pool` (the database outside the transaction) reads the model's counts one book per connection
 * when it has several (PostgreSQL); with one (PGlite) the transaction holds it, so `trx` reads them.
 */
export async function screenContest(trx: Db, contestId: number, familyRate: number, pool: Db = trx): Promise<ScreeningResult> {
  const cells = pool !== trx && connectionCount(pool) > 1 ? await repo.responseCellsOfBooks(pool, contestId) : await repo.responseCells(trx, contestId);
  const bank = await repo.bankAnswers(trx, [...new Set(cells.map((cell) => cell.questionId))]);
  const crossPairs = await repo.crossSchoolPairs(trx, contestId);
  // The first worker also compares the cross-school pairs: it keeps their exams, the others' included.
  const keep = new Set(crossPairs.flatMap((pair) => [pair.a, pair.b]));
  const workers = Array.from({ length: WORKERS }, (_, k) => startWorker({ cells, bank: [...bank], keep: k === 0 ? [...keep] : [], familyRate }));
  let result: ScreeningResult;
  try {
    // One page compared while the next is read here: at most two in memory.
    let compared: Promise<unknown> = Promise.resolve();
    const deal = groupDealer(workers.length, keep);
    await repo.streamExams(trx, contestId, PAGE, async (rows) => {
      await compared;
      const shares = deal(rows);
      compared = Promise.all(workers.map((worker, k) => worker.send(shares[k]!)));
    });
    await compared;
    const parts = await Promise.all(workers.map((worker, k) => worker.send({ finish: k === 0 ? crossPairs : [] })));
    result = combineParts(
      parts.map((answer) => {
        if (!('part' in answer)) throw new Error('integrity screening worker: no result');
        return answer.part;
      }),
      familyRate,
    );
  } finally {
    for (const worker of workers) worker.stop();
  }

  for (const pair of await repo.sharedLoginPairs(trx, contestId)) {
    const turns = alternations(saveInstants(timelineOf(pair.times_a, pair.answers_a)), saveInstants(timelineOf(pair.times_b, pair.answers_b)));
    if (turns < LOCKSTEP_MIN_ALTERNATIONS) continue;
    const contact = ['device'];
    if (pair.same_class) contact.push('class');
    else if (pair.same_school) contact.push('school');
    if (pair.same_account) contact.push('account');
    result.flags.push({
      kind: 'lockstep',
      exam_id: pair.a,
      other_exam_id: pair.b,
      contestant_id: pair.contestant_a,
      other_contestant_id: pair.contestant_b,
      // On the scale of −log10 p: 8 turns rank with 10^-6, 20 or more with 10^-12.
      strength: 6 + Math.min(6, (turns - LOCKSTEP_MIN_ALTERNATIONS) / 2),
      evidence: { turns },
      contact,
    });
  }
  return result;
}
