// What the app gives its features: the dependencies built at start-up. Its own module so that
// features import these types without importing app.ts, which imports every feature.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config';
import type { Db } from './db/client';
import type { ReadRouting } from './db/replicas';
import type { Clock } from './lib/clock';
import type { ShedReason } from './core/load-shedding';
import type { SmsSender } from './lib/sms';
import type { Auth } from './core/guard';
import type { Metrics } from './core/metrics/metrics';
import type { HotLane } from './core/hot-lane';

export interface AppDeps {
  config: Config;
  db: Db;
  /** Read replicas for reads that may lag (db/replicas.ts, readDb); none: every read on `db`. */
  reads?: ReadRouting;
  clock: Clock;
  sms: SmsSender;
  logger?: FastifyBaseLogger | boolean;
  /** Folder of the built front end; the API alone is served when it does not exist. */
  webRoot?: string;
  /** Told of every request shed with a 503 (for metrics). */
  onShed?: (reason: ShedReason) => void;
  /** Prometheus metrics of this process (request timings, exam saves); served apart, never by this app. */
  metrics?: Metrics;
}

/** The app's dependencies, with what buildApp makes: the session guard and the hot lane (core/hot-lane.ts). */
export type Services = AppDeps & { auth: Auth; hotLane: HotLane };
