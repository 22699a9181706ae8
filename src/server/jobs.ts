// Periodic work of an app process. Every job must be safe when several processes run it at once.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Db } from './db/client';
import type { Clock } from './lib/clock';
import { finaliseOverdueExams } from './features/exams/finalise';

export function startBackgroundJobs(deps: { config: Config; db: Db; clock: Clock; logger: FastifyBaseLogger }) {
  const timers: NodeJS.Timeout[] = [];
  if (deps.config.examSweepSeconds > 0) {
    const sweep = async () => {
      try {
        const count = await finaliseOverdueExams(deps.db, deps.clock);
        if (count) deps.logger.info({ count }, 'overdue exams finalised');
      } catch (error) {
        deps.logger.error({ err: error }, 'exam sweep failed');
      }
    };
    timers.push(setInterval(sweep, deps.config.examSweepSeconds * 1000).unref());
  }
  return { stop: () => timers.forEach(clearInterval) };
}
