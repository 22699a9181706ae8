// Results-day benchmark (issue 13): a province-sized contest on PostgreSQL, closed and ranked,
// its certificates issued and drawn, and the families' certificate page under load.
//
//   npm run bench:results -- [--contestants 200000] [--exams 500000] [--schools 600]
//                            [--processes 2] [--seconds 20] [--concurrency 32] [--draw-limit 0]
//
// In a fresh database on the PostgreSQL server named by BENCH_DATABASE_URL (default
// postgres://postgres@127.0.0.1:5432/postgres; loopback only), dropped at the end unless
// BENCH_KEEP=1:
//   1. generation, set-based (generate_series): schools, one parent per contestant, contestants
//      with Vietnamese names, finished exams (2-3 per contestant) with questions and answers
//      consistent with their points; the exam window is then closed;
//   2. computeResults: time and peak memory of this process;
//   3. regrading one question used by many exams: stepRegrade (the place for previewRegrade and
//      commitRegrade, dry run and commit);
//   4. publishing, then the background job's work: issuing every certificate (one process) and
//      drawing every PDF with --processes drawer processes (the job's own functions, FOR UPDATE
//      SKIP LOCKED); also the CPU cost of one PDF and one PNG preview without the database;
//   5. results day: the app (one process, the compiled server) serves GET /api/chilren-certificate and the PDF it
//      links to, for --seconds at --concurrency, first for certificates drawn in advance, then
//      for certificates not drawn yet (drawn on the request). The parents' sessions are written
//      straight into the database: logging in (scrypt) is not what is measured.
// --draw-limit N stops the drawing step after N certificates (the rate is what matters; 0 = all).
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import type { Db } from '../src/server/db/client';
import { compiledServer, productionAppEnv } from './lib/bench-app';

const SCRIPT = fileURLToPath(import.meta.url);
const ROOT = fileURLToPath(new URL('..', import.meta.url));

const { values: options } = parseArgs({
  options: {
    contestants: { type: 'string', default: '200000' },
    exams: { type: 'string' },
    schools: { type: 'string', default: '600' },
    processes: { type: 'string', default: '2' },
    seconds: { type: 'string', default: '20' },
    concurrency: { type: 'string', default: '32' },
    'draw-limit': { type: 'string', default: '0' },
    role: { type: 'string' },
    database: { type: 'string' },
  },
});

const bounded = (name: string, value: string | undefined, min: number, max: number) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`--${name} must be an integer in ${min}..${max}`);
  return n;
};
const fmt = (value: number, digits = 1) => value.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const mb = (bytes: number) => `${fmt(bytes / 1024 / 1024, 0)} MB`;
const seconds = (ms: number) => `${fmt(ms / 1000, 1)} s`;

function withDatabase(url: string, database: string) {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

// 1. Generation ----------------------------------------------------------------------------------

const FAMILY = ['Nguyễn', 'Trần', 'Lê', 'Phạm', 'Hoàng', 'Huỳnh', 'Phan', 'Vũ', 'Võ', 'Đặng', 'Bùi', 'Đỗ', 'Hồ', 'Ngô', 'Dương', 'Lý'];
const MIDDLE = ['Văn', 'Thị', 'Minh', 'Ngọc', 'Đức', 'Thu', 'Quốc', 'Gia', 'Bảo', 'Thanh', 'Hữu', 'Khánh'];
const GIVEN = ['An', 'Bình', 'Châu', 'Dũng', 'Giang', 'Hà', 'Hải', 'Hương', 'Khánh', 'Linh', 'Mai', 'Nam', 'Phúc', 'Quân', 'Sơn', 'Trang', 'Tú', 'Uyên', 'Vy', 'Yến', 'Thảo', 'Đạt', 'Ngân'];

async function generate(client: pg.Client, counts: { contestants: number; exams: number; schools: number }) {
  const step = async (label: string, text: string, values: unknown[] = []) => {
    const started = performance.now();
    const result = await client.query(text, values);
    console.log(`  ${label}: ${fmt(result.rowCount ?? 0, 0)} rows in ${seconds(performance.now() - started)}`);
  };
  // The window: closed yesterday, results published from an hour ago.
  await client.query(`UPDATE contests SET reading_starts_at = now() - interval '40 days', reading_ends_at = now() - interval '11 days',
    exam_starts_at = now() - interval '10 days', exam_ends_at = now() - interval '1 day', results_at = now() - interval '1 hour',
    ceremony_starts_at = now() + interval '1 day', ceremony_ends_at = now() + interval '3 days'`);
  await step(
    'schools',
    `INSERT INTO schools (district_id, name, address, pupil_count)
     SELECT d.ids[1 + i % array_length(d.ids, 1)], 'Trường Tiểu học Số ' || i, 'Số ' || i || ' đường Lê Lợi', 300 + (i * 37) % 900
     FROM generate_series(1, $1::int) i, (SELECT array_agg(id ORDER BY id) AS ids FROM districts) d`,
    [counts.schools],
  );
  await step(
    'parents',
    `INSERT INTO users (phone, password_hash, role) SELECT '07' || lpad(i::text, 8, '0'), 'bench', 'parent' FROM generate_series(1, $1::int) i`,
    [counts.contestants],
  );
  await client.query(`CREATE TEMP TABLE bench_schools AS SELECT id, district_id, (row_number() OVER (ORDER BY id)) - 1 AS idx FROM schools WHERE name LIKE 'Trường Tiểu học Số %'`);
  await client.query(`CREATE TEMP TABLE bench_rooms AS SELECT r.id, r.class_group_id, (row_number() OVER (ORDER BY r.id)) - 1 AS idx FROM class_rooms r`);
  await step(
    'contestants',
    `INSERT INTO contestants (user_id, position, fullname, district_id, school_id, class_group_id, class_room_id)
     SELECT u.id, 1, ($2::text[])[1 + u.rn % $5] || ' ' || ($3::text[])[1 + (u.rn / $5) % $6] || ' ' || ($4::text[])[1 + (u.rn / 7) % $7],
            s.district_id, s.id, r.class_group_id, r.id
     FROM (SELECT id, row_number() OVER (ORDER BY id) AS rn FROM users WHERE password_hash = 'bench') u
     JOIN bench_schools s ON s.idx = u.rn % $1
     JOIN bench_rooms r ON r.idx = (u.rn / 3) % (SELECT count(*) FROM bench_rooms)`,
    [counts.schools, FAMILY, MIDDLE, GIVEN, FAMILY.length, MIDDLE.length, GIVEN.length],
  );
  // Each book's first 20 questions and key, and for each number of right answers (0..20) the
  // answers of an exam with that many right: the exams' answers then match their points.
  await client.query(`CREATE TEMP TABLE bench_books AS
    SELECT b.id AS book_id, b.class_group_id, (row_number() OVER (PARTITION BY b.class_group_id ORDER BY b.id)) - 1 AS idx,
           q.questions, q.answer_key, q.ids, q.right_ids, q.wrong_ids
    FROM books b
    JOIN LATERAL (
      SELECT jsonb_agg(jsonb_build_object('id', qq.id, 'value', qq.value, 'answers', qq.answers) ORDER BY qq.id) AS questions,
             jsonb_object_agg(qq.id::text, qq.right_id) AS answer_key,
             array_agg(qq.id ORDER BY qq.id) AS ids, array_agg(qq.right_id ORDER BY qq.id) AS right_ids, array_agg(qq.wrong_id ORDER BY qq.id) AS wrong_ids
      FROM (
        SELECT q.id, q.value,
               (SELECT jsonb_agg(jsonb_build_object('id', a.id, 'value', a.value) ORDER BY a.id) FROM answers a WHERE a.question_id = q.id) AS answers,
               (SELECT a.id FROM answers a WHERE a.question_id = q.id AND a.is_correct) AS right_id,
               (SELECT min(a.id) FROM answers a WHERE a.question_id = q.id AND NOT a.is_correct) AS wrong_id
        FROM questions q WHERE q.book_id = b.id ORDER BY q.id LIMIT 20
      ) qq
    ) q ON true
    WHERE q.questions IS NOT NULL`);
  await client.query(`CREATE TEMP TABLE bench_answers AS
    SELECT bb.book_id, c AS correct,
           (SELECT jsonb_object_agg(bb.ids[k]::text, CASE WHEN k <= c THEN bb.right_ids[k] ELSE coalesce(bb.wrong_ids[k], bb.right_ids[k]) END)
            FROM generate_series(1, array_length(bb.ids, 1)) k) AS answers
    FROM bench_books bb, generate_series(0, 20) c`);
  await client.query(`CREATE TEMP TABLE bench_group_books AS SELECT class_group_id, count(*) AS n FROM bench_books GROUP BY class_group_id`);
  // 2 or 3 attempts each (exams / contestants on average), spread over the window.
  await step(
    'finished exams',
    `INSERT INTO exams (slug, contest_id, contestant_id, user_id, book_id, attempt, status, start_time, end_time, questions, answer_key, answers,
                        prediction, saved_at, submitted_at, correct_count, points, duration_seconds)
     SELECT md5(c.id::text || ':' || a), k.id, c.id, c.user_id, bb.book_id, a, 1,
            t.submitted - make_interval(secs => t.duration), t.submitted - make_interval(secs => t.duration) + interval '20 minutes',
            bb.questions, bb.answer_key, ba.answers,
            CASE WHEN c.id % 5 = 0 THEN NULL ELSE (c.id * 7919) % 1000 END,
            t.submitted, t.submitted, t.correct, t.correct * 5, t.duration
     FROM (SELECT id, user_id, class_group_id, row_number() OVER (ORDER BY id) - 1 AS rn FROM contestants WHERE user_id IN (SELECT id FROM users WHERE password_hash = 'bench')) c
     CROSS JOIN (SELECT id, exam_starts_at, exam_ends_at FROM contests WHERE is_current) k
     JOIN bench_group_books gb ON gb.class_group_id = c.class_group_id
     CROSS JOIN LATERAL generate_series(1, LEAST(3, $1::int / $2::int + CASE WHEN c.rn < $1::int % $2::int THEN 1 ELSE 0 END)) a
     JOIN bench_books bb ON bb.class_group_id = c.class_group_id AND bb.idx = (c.rn + a) % gb.n
     CROSS JOIN LATERAL (SELECT 8 + ((c.rn * 7 + a * 13) % 13) AS correct,
                                180 + ((c.rn * 37 + a * 11) % 1000) AS duration,
                                k.exam_starts_at + interval '1 hour' + make_interval(secs => ((c.rn * 131 + a * 977) % (extract(epoch FROM k.exam_ends_at - k.exam_starts_at)::int - 7200))) AS submitted) t
     JOIN bench_answers ba ON ba.book_id = bb.book_id AND ba.correct = t.correct`,
    [counts.exams, counts.contestants],
  );
  await client.query('ANALYZE');
}

// 3. Regrading ---------------------------------------------------------------------------------

/**
 * Regrading the question most finished exams carry: the dry run (previewRegrade, with both
 * rankings) and the commit (commitRegrade: the rule, every exam rescored in one UPDATE, the audit
 * entry, then the results computed again), each timed. 'Accept both' with a wrong answer, so that
 * points move.
 */
/** The benchmark's organiser (the audit log names who acted). */
async function benchOrganiser(client: pg.Client): Promise<{ id: number; phone: string }> {
  const { rows } = await client.query(
    `INSERT INTO users (phone, name, password_hash, role) VALUES ('0900000999', 'Ban tổ chức (bench)', 'bench', 'organiser')
     ON CONFLICT (phone) DO UPDATE SET role = 'organiser' RETURNING id, phone`,
  );
  return rows[0] as { id: number; phone: string };
}

async function stepRegrade(client: pg.Client, db: Db): Promise<void> {
  // The wrong answer most finished exams chose, and its question: points move.
  const { rows } = await client.query(
    `SELECT kv.key::int AS question_id, kv.value::int AS answer_id, count(*)::int AS n
     FROM exams e CROSS JOIN LATERAL jsonb_each_text(e.answers) kv
     JOIN answers a ON a.id = kv.value::int AND NOT a.is_correct
     WHERE e.status = 1 GROUP BY 1, 2 ORDER BY 3 DESC LIMIT 1`,
  );
  const choice = rows[0] as { question_id: number; answer_id: number; n: number } | undefined;
  if (!choice) return console.log('  no finished exam chose a wrong answer: nothing to regrade');
  const used = (await client.query(`SELECT count(*)::int AS exams FROM exams WHERE status = 1 AND questions @> $1::jsonb`, [JSON.stringify([{ id: choice.question_id }])])).rows[0] as { exams: number };
  const target = { question_id: choice.question_id, exams: used.exams };
  const wrong = { id: choice.answer_id };
  const organiser = await benchOrganiser(client);
  const { previewRegrade, commitRegrade } = await import('../src/server/features/admin/regrade/service');
  const { systemClock } = await import('../src/server/lib/clock');
  const deps = { db, clock: systemClock };
  const rule = { question_id: target.question_id, mode: 'accept_both' as const, answer_id: wrong.id };
  const previewStarted = performance.now();
  const preview = await previewRegrade(deps, rule);
  const previewMs = performance.now() - previewStarted;
  const { summary } = preview;
  console.log(`  question ${target.question_id}, in ${fmt(target.exams, 0)} finished exams; accept both answers`);
  console.log(
    `  dry run: ${seconds(previewMs)} (${fmt(summary.exams_gained, 0)} exams gain, ${fmt(summary.exams_lost, 0)} lose; ` +
      `${fmt(preview.ranking?.prize_changes.length ?? 0, 0)} prize changes from two rankings in memory)`,
  );
  const commitStarted = performance.now();
  const committed = await commitRegrade(deps, organiser, { ...rule, reason: 'Benchmark: chấm lại một câu hỏi' });
  console.log(`  commit and results computed again: ${seconds(performance.now() - commitStarted)} (results recomputed: ${committed.results_recomputed ? 'yes' : 'no'})`);
}

// 4. Drawing ------------------------------------------------------------------------------------

/** A drawer process: the job's drawing function until nothing is left (or the limit is reached). */
async function runDrawer(databaseUrl: string, limit: number) {
  const { openDatabase } = await import('../src/server/db/client');
  const { systemClock } = await import('../src/server/lib/clock');
  const { renderPendingCertificates } = await import('../src/server/features/certificates/background');
  const database = await openDatabase({ databaseUrl, dataDir: tmpdir(), poolSize: 2 });
  const started = performance.now();
  const cpuStart = process.cpuUsage();
  let drawn = 0;
  for (;;) {
    const tried = await renderPendingCertificates({ db: database.db, clock: systemClock });
    drawn += tried;
    if (tried === 0 || (limit > 0 && drawn >= limit)) break;
  }
  const cpu = process.cpuUsage(cpuStart);
  process.stdout.write(JSON.stringify({ drawn, ms: performance.now() - started, cpuMs: (cpu.user + cpu.system) / 1000 }) + '\n');
  await database.close();
}

const children: ChildProcess[] = [];

/** A node process: the compiled app (plain JavaScript), or this script in a role (through tsx). */
function spawnNode(args: string[], env: Record<string, string>): ChildProcess {
  const loader = args[0]!.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const child = spawn(process.execPath, [...loader, ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(`[${args.at(-1)}] ${chunk}`));
  return child;
}

function drawerResult(child: ChildProcess): Promise<{ drawn: number; ms: number; cpuMs: number }> {
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(output.trim().split('\n').at(-1)!)) : reject(new Error(`drawer exited with ${code}`))));
  });
}

// 5. Results day ----------------------------------------------------------------------------------

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 512 });

function call(port: number, path: string, token?: string): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port, path, method: 'GET', agent, headers: token ? { authorization: `Bearer ${token}` } : {} }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks) }));
    });
    request.on('error', reject);
    request.end();
  });
}

async function spawnApp(databaseUrl: string): Promise<number> {
  const port = await freePort();
  const child = spawnNode([compiledServer()], {
    ...productionAppEnv(port, databaseUrl, 'bench-results'),
    DATABASE_POOL_SIZE: '10',
  });
  child.stdout!.resume();
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error('the app exited while starting');
    try {
      if ((await call(port, '/readyz')).status === 200) return port;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('the app did not start within 60 s');
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;

/** Families open the certificate page and download the PDF it links to, back to back. */
async function certificateLoad(port: number, families: { childId: number; token: string }[], durationMs: number, concurrency: number) {
  const latencies: number[] = [];
  let failures = 0;
  const failedStatuses = new Map<string, number>();
  let next = 0;
  const stopAt = performance.now() + durationMs;
  const worker = async () => {
    while (performance.now() < stopAt && next < families.length) {
      const family = families[next++]!;
      const started = performance.now();
      const page = await call(port, `/api/chilren-certificate?child_id=${family.childId}`, family.token);
      const pdfUrl = page.status === 200 ? (JSON.parse(page.body.toString()).data.path_certificate as string | null) : null;
      const pdf = pdfUrl ? await call(port, pdfUrl, family.token) : undefined;
      if (!pdf || pdf.status !== 200 || pdf.body.subarray(0, 5).toString() !== '%PDF-') {
        failures++;
        const what = page.status !== 200 ? `page ${page.status}` : !pdf ? 'no PDF link' : `PDF ${pdf.status}`;
        failedStatuses.set(what, (failedStatuses.get(what) ?? 0) + 1);
      } else latencies.push(performance.now() - started);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: concurrency }, worker));
  const elapsed = performance.now() - started;
  latencies.sort((a, b) => a - b);
  const failed = [...failedStatuses].map(([what, count]) => `${count} ${what}`).join(', ');
  return { families: latencies.length, failures, failed, perSecond: latencies.length / (elapsed / 1000), p50: percentile(latencies, 0.5), p95: percentile(latencies, 0.95), exhausted: next >= families.length };
}

// Main --------------------------------------------------------------------------------------------

async function main() {
  const contestants = bounded('contestants', options.contestants, 100, 5_000_000);
  const exams = bounded('exams', options.exams ?? String(Math.round(contestants * 2.5)), contestants, contestants * 3);
  const schools = bounded('schools', options.schools, 1, 100_000);
  const processes = bounded('processes', options.processes, 1, 16);
  const loadSeconds = bounded('seconds', options.seconds, 3, 600);
  const concurrency = bounded('concurrency', options.concurrency, 1, 512);
  const drawLimit = bounded('draw-limit', options['draw-limit'], 0, 100_000_000);

  const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  if (!/^postgres(ql)?:\/\/[^/]*@?(127\.0\.0\.1|localhost)(:\d+)?\//.test(adminUrl)) throw new Error('BENCH_DATABASE_URL must point at a PostgreSQL server on loopback');
  const databaseName = `bench_results_${process.pid}`;
  const databaseUrl = withDatabase(adminUrl, databaseName);
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${databaseName}`);
  console.log(`Results-day benchmark: ${fmt(contestants, 0)} contestants, ${fmt(exams, 0)} finished exams, ${fmt(schools, 0)} schools; ${processes} drawer process(es)`);
  console.log(`Database ${databaseName}${process.env.BENCH_KEEP ? ' (kept)' : ' (dropped at the end)'}; PostgreSQL ${(await admin.query('SHOW server_version')).rows[0].server_version}`);

  const { openDatabase } = await import('../src/server/db/client');
  const { migrate } = await import('../src/server/db/migrate');
  const { seed } = await import('../src/server/db/seed/seed');
  const { systemClock } = await import('../src/server/lib/clock');
  const { loadConfig } = await import('../src/server/config');
  const database = await openDatabase({ databaseUrl, dataDir: tmpdir(), poolSize: 4 });
  const client = new pg.Client({ connectionString: databaseUrl });
  try {
    await migrate(database.db);
    await seed(database.db, { clock: systemClock, demoWindow: true, demoAccounts: false });
    await client.connect();

    console.log('\n1. Generation');
    const generationStarted = performance.now();
    await generate(client, { contestants, exams, schools });
    console.log(`  total ${seconds(performance.now() - generationStarted)}`);

    console.log('\n2. Ranking and prizes (computeResults)');
    const { computeResults, publishResults } = await import('../src/server/features/results/compute');
    let peakRss = process.memoryUsage().rss;
    let peakHeap = process.memoryUsage().heapUsed;
    const baseRss = peakRss;
    const sampler = setInterval(() => {
      const usage = process.memoryUsage();
      peakRss = Math.max(peakRss, usage.rss);
      peakHeap = Math.max(peakHeap, usage.heapUsed);
    }, 20);
    const computeStarted = performance.now();
    const summary = await computeResults({ db: database.db, clock: systemClock });
    const computeMs = performance.now() - computeStarted;
    clearInterval(sampler);
    console.log(`  ${fmt(summary.participants, 0)} participants ranked from ${fmt(summary.examPapers, 0)} exam papers in ${seconds(computeMs)}`);
    console.log(`  peak memory of the process: RSS ${mb(peakRss)} (+${mb(peakRss - baseRss)} over the start), heap ${mb(peakHeap)}`);
    console.log(`  winners: ${summary.individualWinners.length} individual, ${summary.schoolWinners.length} schools, ${fmt(summary.schoolPupilWinners, 0)} top-30 pupils`);

    console.log('\n3. Regrading one question');
    await stepRegrade(client, database.db);

    console.log('\n4. Publishing, issuing and drawing the certificates');
    const contest = await database.db.selectFrom('contests').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
    // Ties crossing a prize boundary are the organiser's to decide before publishing: shared here.
    const { decideTie } = await import('../src/server/features/admin/results/ties');
    const { storedTies } = await import('../src/server/features/results/compute');
    const run = await database.db.selectFrom('result_runs').selectAll().where('contest_id', '=', contest.id).executeTakeFirstOrThrow();
    const crossing = storedTies(run).filter((tie) => tie.crosses_prize);
    const organiser = await benchOrganiser(client);
    for (const tie of crossing) {
      await decideTie({ db: database.db, clock: systemClock }, organiser, {
        scope: tie.scope,
        school_id: tie.school_id ?? null,
        ids: tie.ids,
        decision: 'share',
        reason: 'Benchmark: đồng hạng cùng nhận giải',
      });
    }
    if (crossing.length) await computeResults({ db: database.db, clock: systemClock });
    console.log(`  ${crossing.length} ties crossing a prize boundary decided (shared) and applied`);
    await publishResults(database.db, contest, systemClock.now(), null);
    const { issueCertificates } = await import('../src/server/features/certificates/background');
    const config = loadConfig();
    const issueStarted = performance.now();
    while ((await issueCertificates({ db: database.db, clock: systemClock, config })) > 0);
    const issueMs = performance.now() - issueStarted;
    const issued = Number((await client.query('SELECT count(*) FROM certificates')).rows[0].count);
    const byKind = (await client.query('SELECT kind, count(*)::int AS n FROM certificates GROUP BY kind ORDER BY kind')).rows.map((r) => `${r.kind} ${fmt(r.n, 0)}`).join(', ');
    console.log(`  issued ${fmt(issued, 0)} certificates (${byKind}) in ${seconds(issueMs)}: ${fmt(issued / (issueMs / 1000), 0)}/s, one process`);

    // CPU of one drawing, without the database.
    const { renderCertificatePdf, renderCertificatePng } = await import('../src/server/features/certificates/render');
    const { certificateLayout } = await import('../src/server/features/certificates/layout');
    const { renderPdf } = await import('../src/server/features/certificates/render');
    const sample = (await client.query('SELECT content FROM certificates ORDER BY id LIMIT 500')).rows.map((row) => row.content);
    await renderCertificatePdf(sample[0]);
    let started = performance.now();
    for (const content of sample) await renderCertificatePdf(content);
    const pdfMs = (performance.now() - started) / sample.length;
    started = performance.now();
    for (const content of sample.slice(0, 20)) await renderPdf(certificateLayout(content), { title: content.title, code: content.code });
    const pdfkitMs = (performance.now() - started) / 20;
    started = performance.now();
    for (const content of sample.slice(0, 20)) await renderCertificatePng(content);
    const pngMs = (performance.now() - started) / 20;
    console.log(`  one PDF: ${fmt(pdfMs, 2)} ms (${fmt(1000 / pdfMs, 0)}/s per process; pdfkit drawing it all: ${fmt(pdfkitMs, 1)} ms); one PNG preview: ${fmt(pngMs, 1)} ms (${fmt(1000 / pngMs, 1)}/s), drawn on its first request only`);

    const drawStarted = performance.now();
    const drawers = Array.from({ length: processes }, () =>
      drawerResult(spawnNode([SCRIPT, '--role', 'drawer', '--database', databaseUrl, '--draw-limit', String(drawLimit > 0 ? Math.ceil(drawLimit / processes) : 0)], {})),
    );
    const results = await Promise.all(drawers);
    const drawMs = performance.now() - drawStarted;
    const drawn = results.reduce((sum, r) => sum + r.drawn, 0);
    const perSecond = drawn / (drawMs / 1000);
    const sizes = (await client.query('SELECT avg(octet_length(pdf))::int AS avg, sum(octet_length(pdf))::bigint AS total FROM certificates WHERE pdf IS NOT NULL')).rows[0];
    console.log(
      `  drawn ${fmt(drawn, 0)} PDFs with ${processes} process(es) in ${seconds(drawMs)}: ${fmt(perSecond, 0)}/s in all, ${results.map((r) => `${fmt(r.drawn / (r.ms / 1000), 0)}/s`).join(' + ')} per process ` +
        `(CPU ${results.map((r) => `${fmt(r.cpuMs / Math.max(1, r.drawn), 2)} ms`).join(', ')} per certificate, database writes included)`,
    );
    console.log(`  PDF size ${fmt(sizes.avg / 1024, 1)} KB on average, ${mb(Number(sizes.total))} stored`);
    const provinceCertificates = (issued / contestants) * 200_000;
    console.log(`  at this rate a province's ${fmt(provinceCertificates, 0)} certificates (200,000 contestants) take ${fmt(provinceCertificates / perSecond / 60, 1)} min`);

    console.log('\n5. Results day: the certificate page and its PDF');
    const { hashToken, newToken } = await import('../src/server/lib/tokens');
    // Sessions straight into the database (login's scrypt is not what is measured).
    const families = (
      await client.query(
        `SELECT c.id AS child_id, c.user_id FROM contestants c JOIN certificates k ON k.contestant_id = c.id AND k.kind = 'participation'
         WHERE k.files_hash = k.content_hash ORDER BY random() LIMIT 40000`,
      )
    ).rows.map((row) => ({ childId: row.child_id as number, userId: row.user_id as number, token: newToken() }));
    await client.query(`INSERT INTO sessions (user_id, token_hash, expires_at) SELECT unnest($1::int[]), unnest($2::text[]), now() + interval '1 day'`, [
      families.map((f) => f.userId),
      families.map((f) => hashToken(f.token)),
    ]);
    const half = Math.floor(families.length / 2);
    const drawnAhead = families.slice(0, half);
    const notDrawn = families.slice(half);
    // Not drawn yet, and not reached by the app's own job during the run (render_after ahead).
    await client.query(`UPDATE certificates SET files_hash = NULL, pdf = NULL, render_after = now() + interval '1 day' WHERE contestant_id = ANY($1::int[])`, [notDrawn.map((f) => f.childId)]);
    const port = await spawnApp(databaseUrl);
    // Warm-up of both paths (JIT, caches), not counted.
    await certificateLoad(port, drawnAhead.slice(0, 200), 3_000, 8);
    await certificateLoad(port, notDrawn.slice(0, 200), 3_000, 8);
    for (const [label, set] of [
      ['drawn in advance', drawnAhead.slice(200)],
      ['drawn on the request', notDrawn.slice(200)],
    ] as const) {
      const load = await certificateLoad(port, set, loadSeconds * 1000, concurrency);
      console.log(
        `  ${label}: ${fmt(load.perSecond, 1)} families/s (page + PDF, ${fmt(load.perSecond * 2, 1)} requests/s), p50 ${fmt(load.p50, 0)} ms, p95 ${fmt(load.p95, 0)} ms, ` +
          `${load.failures} failed${load.failed ? ` (${load.failed})` : ''}${load.exhausted ? ' (ran out of families before the time)' : ''}`,
      );
    }
  } finally {
    for (const child of children) if (child.exitCode === null) child.kill('SIGTERM');
    await client.end().catch(() => undefined);
    await database.close();
    await new Promise((resolve) => setTimeout(resolve, 500));
    if (!process.env.BENCH_KEEP) await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
    await admin.end();
    agent.destroy();
  }
}

if (options.role === 'drawer') {
  await runDrawer(options.database!, Number(options['draw-limit'] ?? 0));
} else {
  await main();
}
