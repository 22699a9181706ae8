// Prometheus metrics of one app process, in a registry of its own (prom-client's global one is
// left alone). Request timings come from an onResponse hook (app.ts), shed requests from the load
// shedder, exam saves from the save batcher's observer; database figures are read at scrape time.
// In cluster mode the primary sums the workers' registries (cluster-metrics.ts).
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { poolStats, type Db } from '../../db/client';
import type { ReadRouting } from '../../db/replicas';
import type { ShedReason } from '../load-shedding';
import { countExamsInProgress } from './repo';
import { createRequestDurations } from './request-durations';

/** How long a count of exams in progress is reused (ms): scrapes from several servers cost one query. */
const EXAMS_IN_PROGRESS_CACHE_MS = 10_000;

export interface Metrics {
  registry: Registry;
  /** Fastify onResponse hook: one observation per answered request. */
  requestDone(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void;
  /** The same observation for a request the hot lane answered (core/hot-lane.ts): `route` is its path. */
  requestAnswered(method: string, statusCode: number, route: string, seconds: number): void;
  /** AppDeps.onShed: a request answered 503 by the load shedder. */
  requestShed(reason: ShedReason): void;
  /** The save batcher's observer, and its queue length read at scrape time. */
  saves: SavesObserver & { watchQueue(length: () => number): void };
  /** This process's autosave counters since it started (the back office's dashboard sums the processes'). */
  autosaveTotals(): AutosaveTotals;
}

/**
 * What the exam save batcher tells (features/exams/save-batcher.ts takes it as its
 * SaveBatcherObserver; the compiler checks the two agree where the exams wire them).
 */
export interface SavesObserver {
  batchSent(size: number): void;
  saveAcknowledged(waitMs: number): void;
  saveRejected(reason: 'queue_full' | 'queue_timeout' | 'connection_lost'): void;
}

export interface AutosaveTotals {
  /** Saves acknowledged, and those of them acknowledged within 2 s. */
  acknowledged: number;
  within_2s: number;
  /** Saves answered 503 by the save batcher. */
  rejected: number;
  /** Requests answered 503 by the load shedder (saves among them). */
  shed: number;
}

/** "Acknowledged within 2 s": the bound of the dashboard's autosave health (a bucket of the ack histogram too). */
const ACK_TARGET_MS = 2_000;

export function createMetrics({ db, reads }: { db: Db; reads?: ReadRouting }): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];

  // Labels method, route and status_class; counted in plain numbers (request-durations.ts).
  const requestDuration = createRequestDurations({
    name: 'contest_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, route pattern and status class (2xx, 4xx, 5xx...)',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 15],
    registers,
  });
  const requestsShed = new Counter({
    name: 'contest_http_requests_shed_total',
    help: 'Requests answered 503 at once by the load shedder, by reason (in_flight, event_loop, db_pool)',
    labelNames: ['reason'] as const,
    registers,
  });

  const savesAcknowledged = new Counter({
    name: 'contest_exam_saves_acknowledged_total',
    help: 'Exam autosaves applied and committed (answered saved)',
    registers,
  });
  const savesRejected = new Counter({
    name: 'contest_exam_saves_rejected_total',
    help: 'Exam autosaves answered 503 by the save batcher, by reason (queue_full, queue_timeout, connection_lost)',
    labelNames: ['reason'] as const,
    registers,
  });
  const saveBatchSize = new Histogram({
    name: 'contest_exam_save_batch_size',
    help: 'Autosaves per statement sent to the database',
    buckets: [1, 2, 5, 10, 20, 50, 100, 200],
    registers,
  });
  const saveAckSeconds = new Histogram({
    name: 'contest_exam_save_ack_seconds',
    help: 'Time from an autosave reaching the save batcher to its commit (queue wait plus statement)',
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 4, 8, 15],
    registers,
  });
  const saveQueues: (() => number)[] = [];
  new Gauge({
    name: 'contest_exam_save_queue_length',
    help: 'Autosaves waiting to be sent to the database',
    registers,
    collect() {
      this.set(saveQueues.reduce((sum, length) => sum + length(), 0));
    },
  });

  // Every process counts the same exams: in cluster mode the primary keeps one value, not the sum.
  let examsInProgress: { value: number; at: number } | undefined;
  let counting: Promise<void> | undefined;
  const countExams = () =>
    (counting ??= countExamsInProgress(db)
      .then((value) => void (examsInProgress = { value, at: Date.now() }))
      // The database is away: the last value stays; the pool gauges and the logs tell why.
      .catch(() => {})
      .finally(() => (counting = undefined)));
  new Gauge({
    name: 'contest_exams_in_progress',
    help: 'Exams started and not yet submitted or finalised (counted at most every 10 s; past 10,000 read from the statistics, about a minute old)',
    aggregator: 'max',
    registers,
    async collect() {
      // Stale: the scrape gets the last value and a new count starts, so a slow or busy database
      // never holds the scrape up (only the very first scrape waits for its count).
      if (!examsInProgress) await countExams();
      else if (Date.now() - examsInProgress.at > EXAMS_IN_PROGRESS_CACHE_MS) void countExams();
      if (examsInProgress) this.set(examsInProgress.value);
    },
  });

  // The pg pool; none on PGlite (one statement at a time, no pool to watch).
  if (poolStats(db)) registerPoolGauges(db, registers);
  if (reads) registerReplicaMetrics(reads, registers);

  // Plain numbers beside the prom-client series: read every few seconds without serialising the registry.
  const totals: AutosaveTotals = { acknowledged: 0, within_2s: 0, rejected: 0, shed: 0 };

  function requestAnswered(method: string, statusCode: number, route: string, seconds: number) {
    const statusClass = `${Math.floor(statusCode / 100)}xx`;
    requestDuration.observe(`${method} ${statusClass} ${route}`, () => ({ method, route, status_class: statusClass }), seconds);
  }

  return {
    registry,
    requestDone(request, reply, done) {
      // The route's pattern (/api/exam/:slug), never the raw URL: one series per route, whatever
      // the ids, slugs and queries; requests that matched no route share one value.
      requestAnswered(request.method, reply.statusCode, request.routeOptions.url ?? 'unmatched', reply.elapsedTime / 1000);
      done();
    },
    requestAnswered,
    requestShed(reason) {
      totals.shed += 1;
      requestsShed.inc({ reason });
    },
    saves: {
      batchSent: (size) => saveBatchSize.observe(size),
      saveAcknowledged(waitMs) {
        totals.acknowledged += 1;
        if (waitMs <= ACK_TARGET_MS) totals.within_2s += 1;
        savesAcknowledged.inc();
        saveAckSeconds.observe(waitMs / 1000);
      },
      saveRejected(reason) {
        totals.rejected += 1;
        savesRejected.inc({ reason });
      },
      watchQueue: (length) => saveQueues.push(length),
    },
    autosaveTotals: () => ({ ...totals }),
  };
}

function registerPoolGauges(db: Db, registers: Registry[]) {
  const stats = () => poolStats(db)!;
  new Gauge({
    name: 'contest_db_pool_connections',
    help: 'Connections of the database pool, by state (in_use, idle)',
    labelNames: ['state'] as const,
    registers,
    collect() {
      const { total, idle } = stats();
      this.set({ state: 'in_use' }, total - idle);
      this.set({ state: 'idle' }, idle);
    },
  });
  new Gauge({
    name: 'contest_db_pool_waiting',
    help: 'Queries waiting for a connection of the database pool',
    registers,
    collect() {
      this.set(stats().waiting);
    },
  });
  new Gauge({
    name: 'contest_db_pool_max',
    help: 'Size of the database pool (connections at most)',
    registers,
    collect() {
      this.set(stats().max);
    },
  });
}

/** Read replicas (db/replicas.ts): each one's lag at its last check, and where the reads went. */
function registerReplicaMetrics(reads: ReadRouting, registers: Registry[]) {
  new Gauge({
    name: 'contest_replica_lag_seconds',
    help: 'Seconds a read replica is behind the primary at its last check (-1: down or not a standby)',
    labelNames: ['replica'] as const,
    aggregator: 'max',
    registers,
    collect() {
      for (const state of reads.states()) this.set({ replica: state.name }, state.lagSeconds ?? -1);
    },
  });
  new Gauge({
    name: 'contest_replica_usable',
    help: 'Whether reads go to this replica now (1) or not (0: lagging more than REPLICA_MAX_LAG_SECONDS, or down)',
    labelNames: ['replica'] as const,
    aggregator: 'min',
    registers,
    collect() {
      for (const state of reads.states()) this.set({ replica: state.name }, state.usable ? 1 : 0);
    },
  });
  new Counter({
    name: 'contest_replica_reads_total',
    help: 'Reads that may lag (reports, exports, public pages), by where they went: a replica, or the primary when none was usable',
    labelNames: ['target'] as const,
    registers,
    collect() {
      this.reset();
      this.inc({ target: 'replica' }, reads.counts.replica);
      this.inc({ target: 'primary' }, reads.counts.primary);
    },
  });
}
