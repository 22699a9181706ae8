// Periodic work of an app process. Every job must be safe when several processes run it at once.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Db } from './db/client';
import type { Clock } from './lib/clock';
import { finaliseOverdueExams } from './features/exams/finalise';
import { purgeExpiredAuthRows } from './features/auth/purge';
import { runRetentionJob } from './features/privacy/retention';
import { drawCertificates } from './features/certificates/background';
import { buildNextBundle } from './features/certificates/bundle';
import { purgeOldPractice } from './features/practice/service';
import { createAutosaveReporter, REPORT_INTERVAL_MS } from './features/admin/exam-days/autosave-reporter';
import { DASHBOARD_MAX_AGE_MS, refreshDashboard } from './features/admin/exam-days/service';
import type { ReadRouting } from './db/replicas';
import type { Metrics } from './core/metrics/metrics';

const PURGE_INTERVAL_MS = 3_600_000;

export function startBackgroundJobs(deps: { config: Config; db: Db; reads?: ReadRouting; clock: Clock; logger: FastifyBaseLogger; metrics?: Metrics }) {
  const timers: NodeJS.Timeout[] = [];
  /** Runs `job` every `intervalMs`; logs how many rows it handled, and its failures. */
  const every = (intervalMs: number, done: string, job: (db: Db, clock: Clock) => Promise<number>) => {
    const run = async () => {
      try {
        const count = await job(deps.db, deps.clock);
        if (count) deps.logger.info({ count }, done);
      } catch (error) {
        deps.logger.error({ err: error }, `${done}: failed`);
      }
    };
    timers.push(setInterval(run, intervalMs).unref());
  };

  if (deps.config.examSweepSeconds > 0) every(deps.config.examSweepSeconds * 1000, 'overdue exams finalised', finaliseOverdueExams);
  every(PURGE_INTERVAL_MS, 'old account rows purged', purgeExpiredAuthRows);
  // Hourly check; the retention itself runs once a day (retention.ts).
  every(PURGE_INTERVAL_MS, 'personal data past retention removed', runRetentionJob);
  every(5_000, 'certificates drawn', (db, clock) => drawCertificates({ db, clock, config: deps.config }));
  // A school's certificates in one PDF (issue 37): one bundle a tick per process, claimed in the database.
  every(2_000, 'certificate bundle built', (db, clock) => buildNextBundle({ db, clock, logger: deps.logger }));
  every(PURGE_INTERVAL_MS, 'old practice rounds purged', purgeOldPractice);
  // The autosave figures of the back office's dashboard (features/admin/exam-days).
  // The live dashboard's stored figures, counted on a replica when one is usable (one process at a time).
  every(DASHBOARD_MAX_AGE_MS, 'dashboard stored', (db, clock) => refreshDashboard({ db, clock, reads: deps.reads }));
  if (deps.metrics) every(REPORT_INTERVAL_MS, 'autosave counters written', createAutosaveReporter(deps.metrics.autosaveTotals, deps.clock));
  return { stop: () => timers.forEach(clearInterval) };
}
