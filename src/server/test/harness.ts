// API test harness: the real app on a real port, over a fresh schema of PGlite (default) or of
// the PostgreSQL server named by TEST_DATABASE_URL. One call per test file (beforeAll).
import { mkdtempSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { sql } from 'kysely';
import pino from 'pino';
import { buildApp, type App } from '../app';
import type { AppDeps } from '../services';
import { loadConfig, type Config } from '../config';
import { openDatabase, type Db } from '../db/client';
import { migrate } from '../db/migrate';
import { openReplicas, type ReadRouting } from '../db/replicas';
import { seed } from '../db/seed/seed';
import { createManualClock, type ManualClock } from '../lib/clock';
import { createLogSmsSender } from '../features/auth/sms-drivers';
import { privateLogOptions } from '../features/privacy/log-privacy';

export interface TestServer {
  url: string;
  app: App;
  db: Db;
  clock: ManualClock;
  config: Config;
  dataDir: string;
  /** The read routing when replicaUrls were given. */
  reads?: ReadRouting;
  /** JSON request; returns the status and parsed body. */
  request<T = any>(method: string, path: string, options?: RequestOptions): Promise<{ status: number; body: T; headers: Headers }>;
  /** Messages written by the log SMS driver, oldest first. */
  outbox(): { phone: string; message: string; created_at: string }[];
  close(): Promise<void>;
}

/**
 * Closes a test's app: Fastify's close waits for every connection it does not see idle. Once a
 * full run's close waited past the 60 s hook timeout, all tests of the file done (app.api.test.ts
 * on PostgreSQL; not reproduced in six runs under load since). The tests are over, so after 10 s
 * what is still open is named and closed instead of failing the file.
 */
export async function closeTestApp(app: App, name = 'app') {
  let timer: NodeJS.Timeout | undefined;
  const closed = app.close();
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), 10_000)));
  if ((await Promise.race([closed, late])) === 'late') {
    const open = await new Promise<number>((resolve) => app.server.getConnections((_error, count) => resolve(count)));
    console.warn(`test server close: ${name} still open after 10 s with ${open} connection(s); closing them`);
    app.server.closeAllConnections();
    await closed;
  }
  clearTimeout(timer);
}

export interface RequestOptions {
  body?: unknown;
  token?: string;
  headers?: Record<string, string>;
}

export interface TestServerOptions {
  /** Environment overrides for loadConfig (NODE_ENV is 'test'). */
  env?: Record<string, string>;
  /** Load the demo content (default true). */
  seed?: boolean;
  /** Start time of the manual clock (default: real now). */
  now?: Date | string;
  /** Where the server log goes (default: stdout at TEST_LOG_LEVEL or 'warn'), e.g. a buffer to scan. */
  log?: { stream: NodeJS.WritableStream; level?: string };
  /** The PostgreSQL server to use instead of TEST_DATABASE_URL's (e.g. the primary of replica-pair.ts). */
  databaseUrl?: string;
  /** Read replicas of that server (db/replicas.ts), with REPLICA_MAX_LAG_SECONDS from `env`. */
  replicaUrls?: string[];
}

export const usingPostgres = () => Boolean(process.env.TEST_DATABASE_URL);

/**
 * Another app on a test server's database, config and clock (a silent log, SMS to the server's
 * outbox), not listening: for a test that watches a seam of its own through app.inject, e.g. the
 * metrics given in `deps`.
 */
export function appOnServer(server: TestServer, deps: Partial<AppDeps> = {}): Promise<App> {
  const logger = pino({ level: 'silent' });
  return buildApp({
    config: server.config,
    db: server.db,
    clock: server.clock,
    sms: createLogSmsSender(server.dataDir, logger, server.clock.now),
    logger,
    webRoot: join(server.dataDir, 'no-web'),
    ...deps,
  });
}

export async function startTestServer(options: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'contest-test-'));
  // Event-loop shedding off unless a test asks for it: PGlite runs on the test server's own event
  // loop, so a long statement (a demo simulation, a 10,000-row import) reads as a saturated process.
  // The password hashing queue unbounded too (decision 031): tests that send tens of logins at once
  // on a machine running other suites would meet it; password-hashing.api.test.ts sets it.
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, EXAM_SWEEP_SECONDS: '0', SHED_EVENT_LOOP_DELAY_MS: '0', PASSWORD_HASH_QUEUE_MS: '0', ...options.env });
  const schema = `t_${process.pid}_${randomBytes(4).toString('hex')}`;
  const database = await openDatabase({
    databaseUrl: options.databaseUrl ?? process.env.TEST_DATABASE_URL,
    dataDir: 'memory://test',
    schema,
    poolSize: 5,
  });
  const db = database.db;
  await migrate(db);
  const clock = createManualClock(options.now ?? new Date());
  if (options.seed ?? true) await seed(db, { clock, demoWindow: true });

  // The production log rules (no full phone, password, code or token), to any stream asked for.
  const logOptions = privateLogOptions(options.log?.level ?? process.env.TEST_LOG_LEVEL ?? 'warn');
  const logger = options.log ? pino(logOptions, options.log.stream) : pino(logOptions);
  const sms = createLogSmsSender(dataDir, logger, clock.now);
  const reads = options.replicaUrls
    ? await openReplicas({ urls: options.replicaUrls, primary: db, maxLagSeconds: config.replicaMaxLagSeconds, poolSize: 2, queryTimeoutMs: config.replicaQueryTimeoutMs, schema })
    : undefined;
  const app = await buildApp({ config, db, reads, clock, sms, logger, webRoot: join(dataDir, 'no-web') });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  return {
    url,
    app,
    db,
    clock,
    config,
    dataDir,
    reads,
    async request(method, path, { body, token, headers } = {}) {
      const response = await fetch(url + path, {
        method,
        headers: {
          ...(body !== undefined && !(body instanceof FormData) ? { 'content-type': 'application/json' } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...headers,
        },
        // A FormData body is sent as multipart (uploads); anything else as JSON.
        body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
      });
      const text = await response.text();
      let parsed: any = text;
      try {
        parsed = JSON.parse(text);
      } catch {
        // not JSON: keep the text
      }
      return { status: response.status, body: parsed, headers: response.headers };
    },
    outbox() {
      const file = join(dataDir, 'sms-outbox.jsonl');
      if (!existsSync(file)) return [];
      return readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((line) => JSON.parse(line));
    },
    async close() {
      // A close once hung past the 60 s hook timeout in a full run (certificates, on PostgreSQL;
      // not reproduced since): a step still running after 10 s names itself in the output.
      const step = async (name: string, run: () => Promise<unknown>) => {
        const slow = setTimeout(() => console.warn(`test server close: ${name} still running after 10 s`), 10_000);
        try {
          await run();
        } finally {
          clearTimeout(slow);
        }
      };
      // Not a step: closeTestApp names a close still running after 10 s and closes what is left.
      await closeTestApp(app);
      await step('replicas', async () => reads?.close());
      await step('DROP SCHEMA', () => sql`DROP SCHEMA ${sql.id(schema)} CASCADE`.execute(db));
      // The delivery queue's jobs (pg-boss) of a file that sent messages live beside its schema.
      await step('DROP SCHEMA _pgboss', () => sql`DROP SCHEMA IF EXISTS ${sql.id(`${schema}_pgboss`)} CASCADE`.execute(db));
      if (database.kind === 'pglite') await sql`SET search_path TO public`.execute(db);
      await step('database.close', () => database.close());
    },
  };
}
