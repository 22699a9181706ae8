// The exam-day background of the benchmarks that measure something else beside it (imports,
// logins): exams started the way a child's phone starts one, then autosaves at a steady rate.
import { call } from '../bench-exam-load';
import { growingSave, type Contestant as SeededContestant } from '../chaos/contestants';
import type { Stats } from './bench-stats';

export type Contestant = SeededContestant & { saving: boolean };

/** Starts an exam for each contestant and reads its paper, as the exam screen does. */
export async function startExams(port: number, contestants: Contestant[]): Promise<void> {
  for (const c of contestants) {
    const started = await call(port, 'POST', '/api/start-exam', { book_id: c.bookId, child_id: c.childId }, c.token);
    if (started.status !== 200) throw new Error(`start-exam: ${started.status} ${JSON.stringify(started.json).slice(0, 200)}`);
    c.examId = started.json.exam_id;
    c.slug = started.json.slug;
    const exam = await call(port, 'GET', `/api/examing?book_id=${c.bookId}&child_id=${c.childId}&slug_exam=${c.slug}`, undefined, c.token);
    c.questions = exam.json.data.data_questions;
  }
}

/**
 * Autosaves `perSecond`, the contestants in turn, one save in flight per contestant (a save due
 * while the previous one runs is skipped and counted); each is counted in the Stats `current()`
 * gives when it is due (none: not counted).
 */
export function steadySaves(port: number, contestants: Contestant[], perSecond: number, current: () => Stats | undefined) {
  let cursor = 0;
  let skipped = 0;
  const timer =
    contestants.length && perSecond
      ? setInterval(() => {
          const c = contestants[cursor++ % contestants.length]!;
          if (c.saving) return void (skipped += 1);
          c.saving = true;
          const stats = current();
          const t0 = performance.now();
          call(port, 'POST', '/api/store-answers-exam', growingSave(c), c.token)
            .then((reply) => {
              stats?.latencies.push(performance.now() - t0);
              if (reply.status !== 200 || reply.json?.saved !== true) stats?.fail(`${reply.status} ${JSON.stringify(reply.json).slice(0, 160)}`);
            })
            .catch((error) => {
              stats?.latencies.push(performance.now() - t0);
              stats?.fail(String(error));
            })
            .finally(() => (c.saving = false));
        }, 1000 / perSecond)
      : undefined;
  return {
    stop: () => clearInterval(timer),
    skipped: () => skipped,
  };
}
