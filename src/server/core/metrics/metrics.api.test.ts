// The metrics of a real app on a real database: a few requests through an app built with them,
// exam saves through the exam wiring, then the text the metrics port serves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AggregatorRegistry } from 'prom-client';
import { createServer } from 'node:net';
import type { App } from '../../app';
import { poolStats } from '../../db/client';
import { hashToken } from '../../lib/tokens';
import { createAuth } from '../guard';
import { startExam } from '../../test/exam-fixtures';
import * as examRepo from '../../features/exams/repo';
import { createExamDeps } from '../../features/exams/service';
import { appOnServer, startTestServer, type TestServer } from '../../test/harness';
import { createMetrics, type Metrics } from './metrics';
import { registrySource } from './cluster-metrics';
import { startMetricsServer, type MetricsServer } from './server';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer().once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** The value of one sample line of the exposition (name with its labels as written), or undefined. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(series + ' '));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('metrics', () => {
  let server: TestServer;
  let app: App;
  let metrics: Metrics;
  let metricsServer: MetricsServer;
  let text: string;
  let newsSlug: string;
  let examsInProgress: number;

  beforeAll(async () => {
    server = await startTestServer();
    // An exam in progress, started through the harness's own app.
    const exam = await startExam(server);

    metrics = createMetrics({ db: server.db });
    app = await appOnServer(server, { onShed: metrics.requestShed, metrics });
    const post = await server.db.selectFrom('news_posts').select('slug').limit(1).executeTakeFirstOrThrow();
    newsSlug = post.slug;
    expect((await app.inject({ method: 'GET', url: `/api/blog/${newsSlug}` })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/blog/no-such-post-anywhere' })).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/api/children/123456/books' })).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: '/api/no-such-route' })).statusCode).toBe(404);
    // The public app never serves the metrics.
    const publicMetrics = await app.inject({ method: 'GET', url: '/metrics' });
    expect(publicMetrics.statusCode).toBe(404);
    expect(publicMetrics.body).not.toContain('contest_');
    metrics.requestShed('db_pool');

    // Two saves through the exam wiring with these metrics: one applies, one fails its checks.
    const deps = createExamDeps({ ...server, auth: createAuth(server.db, server.clock), metrics });
    const [questionId, answerId] = Object.entries(exam.key)[0]!;
    const encoded = examRepo.answerPairs([{ question_id: Number(questionId), answer_id: answerId }]);
    if (encoded.problem) throw new Error(encoded.problem);
    const now = server.clock.now();
    const input = {
      examId: exam.examId,
      slug: exam.slug,
      tokenHash: hashToken(exam.token),
      now,
      endTimeAtLeast: new Date(now.getTime() - 30_000),
      answersJson: encoded.json,
      pairsJson: encoded.pairs,
      prediction: null,
      seq: 1,
    };
    expect(await deps.saves.save(input)).toBe(1);
    expect(await deps.saves.save({ ...input, tokenHash: hashToken('not-the-token') })).toBeUndefined();

    const row = await server.db.selectFrom('exams').select((eb) => eb.fn.countAll<number>().as('count')).where('status', '=', 2).executeTakeFirstOrThrow();
    examsInProgress = Number(row.count);

    metricsServer = (await startMetricsServer({ port: await freePort(), host: '127.0.0.1' }, registrySource(metrics.registry)))!;
    const response = await fetch(`http://127.0.0.1:${metricsServer.port}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/plain');
    text = await response.text();
  });

  afterAll(async () => {
    await metricsServer?.close();
    await app?.close();
    await server?.close();
  });

  it('times requests by method, route pattern and status class, never by raw URL', () => {
    expect(sample(text, 'contest_http_request_duration_seconds_count{method="GET",route="/api/blog/:slug",status_class="2xx"}')).toBe(1);
    expect(sample(text, 'contest_http_request_duration_seconds_count{method="GET",route="/api/blog/:slug",status_class="4xx"}')).toBe(1);
    expect(sample(text, 'contest_http_request_duration_seconds_count{method="GET",route="/api/children/:id/books",status_class="4xx"}')).toBe(1);
    // /api/no-such-route and the public /metrics matched no route.
    expect(sample(text, 'contest_http_request_duration_seconds_count{method="GET",route="unmatched",status_class="4xx"}')).toBe(2);
    expect(text).not.toContain(newsSlug);
    expect(text).not.toContain('no-such');
    expect(text).not.toContain('123456');
  });

  it('counts shed requests by reason', () => {
    expect(sample(text, 'contest_http_requests_shed_total{reason="db_pool"}')).toBe(1);
  });

  it('counts exam saves acknowledged, their batches, lag and queue', () => {
    expect(sample(text, 'contest_exam_saves_acknowledged_total')).toBe(1);
    expect(sample(text, 'contest_exam_save_batch_size_count')).toBe(2);
    expect(sample(text, 'contest_exam_save_ack_seconds_count')).toBe(1);
    expect(sample(text, 'contest_exam_save_queue_length')).toBe(0);
    expect(text).toContain('# TYPE contest_exam_saves_rejected_total counter');
  });

  it('reports the exams in progress, read from the database', () => {
    expect(examsInProgress).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'contest_exams_in_progress')).toBe(examsInProgress);
  });

  it('reports the database pool on PostgreSQL (PGlite has none) and the process', () => {
    const stats = poolStats(server.db);
    if (stats) expect(sample(text, 'contest_db_pool_max')).toBe(stats.max);
    else expect(sample(text, 'contest_db_pool_max')).toBeUndefined();
    expect(text).toContain('process_cpu_user_seconds_total');
    expect(text).toContain('nodejs_eventloop_lag_seconds');
  });

  it('adds up the workers of a cluster, but counts the exams in progress once', async () => {
    // Two processes' registries as the cluster primary receives them.
    const other = createMetrics({ db: server.db });
    other.requestShed('db_pool');
    const aggregated = await AggregatorRegistry.aggregate([await metrics.registry.getMetricsAsJSON(), await other.registry.getMetricsAsJSON()]).metrics();
    expect(sample(aggregated, 'contest_http_requests_shed_total{reason="db_pool"}')).toBe(2);
    expect(sample(aggregated, 'contest_exams_in_progress')).toBe(examsInProgress);
  });

  it('serves GET /metrics only', async () => {
    const base = `http://127.0.0.1:${metricsServer.port}`;
    expect((await fetch(`${base}/`)).status).toBe(404);
    expect((await fetch(`${base}/api/blog/${newsSlug}`)).status).toBe(404);
    expect((await fetch(`${base}/metrics`, { method: 'POST' })).status).toBe(405);
  });

  it('serves nothing when its port is 0', async () => {
    expect(await startMetricsServer({ port: 0, host: '127.0.0.1' }, registrySource(metrics.registry))).toBeUndefined();
  });
});
