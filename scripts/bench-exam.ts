// Exam-day benchmark (issue 4): the app on PostgreSQL, loopback only, bounded in count and time.
//
//   npm run bench:exam -- [--contestants 5000] [--processes 2] [--held 50000,100000] [--hold 30] [--saturate 15] [--concurrency 64] [--pool-size 10] [--dashboard]
//
// In a fresh database it creates (and drops at the end) on the PostgreSQL server named by
// BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres):
//   1. ceilings: a bare node:http JSON server, and a minimal Fastify route doing one primary-key
//      UPDATE of a jsonb row in the same PostgreSQL (the physical limit of a durable save here);
//   2. a start storm: every contestant presses 'Vào thi' (POST /api/start-exam), then loads the exam;
//   3. the held load, at each level of --held: every contestant autosaves every 30 s and re-syncs
//      the time every 60 s, both compressed so that the request rate is that of the level's number
//      of contestants in real time (contestants held = autosaves per second x 30), open loop, for
//      --hold seconds;
//      With --dashboard each level runs twice, the second time with an organiser polling the
//      back office's live dashboard (GET /api/admin/exam-days/dashboard) every 2 s, and the save
//      p99 of both runs is reported side by side (issue 13: the dashboard must not slow saves);
//   4. autosave saturation: --concurrency clients saving back to back (compared with ceiling 1b);
//   5. a check that every acknowledged answer is stored, then every contestant submits.
// The app (--processes processes on one database, the contestants spread over them as a load
// balancer would), the ceilings and this load generator run as separate processes on the same machine.
// For investigation: BENCH_KEEP=1 keeps the database; BENCH_APP_NODE_ARGS (e.g. "--cpu-prof
// --cpu-prof-dir=.tmp/prof") is passed to the app and ceiling processes.
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';

const SCRIPT = fileURLToPath(import.meta.url);
const ROOT = fileURLToPath(new URL('..', import.meta.url));

const { values: options } = parseArgs({
  options: {
    contestants: { type: 'string', default: '5000' },
    processes: { type: 'string', default: '2' },
    held: { type: 'string', default: '50000,100000' },
    hold: { type: 'string', default: '30' },
    saturate: { type: 'string', default: '15' },
    ceiling: { type: 'string', default: '10' },
    concurrency: { type: 'string', default: '64' },
    'pool-size': { type: 'string', default: '10' },
    dashboard: { type: 'boolean', default: false },
    role: { type: 'string' },
    database: { type: 'string' },
  },
});

const bounded = (name: string, value: string | undefined, min: number, max: number) => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`--${name} must be an integer in ${min}..${max}`);
  return n;
};

// Ceiling servers (child processes of the benchmark) -----------------------------------------

async function runBareHttpCeiling() {
  const body = JSON.stringify({ success: true, saved: true });
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) });
      response.end(body);
    });
  });
  server.keepAliveTimeout = 65_000;
  server.listen(0, '127.0.0.1', () => {
    const address = server.address();
    process.stdout.write(JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 }) + '\n');
  });
}

async function runFastifyUpdateCeiling(databaseUrl: string, poolSize: number) {
  const { default: Fastify } = await import('fastify');
  const pool = new pg.Pool({ connectionString: databaseUrl, max: poolSize });
  const app = Fastify({ logger: false });
  app.post('/save', async (request) => {
    const body = request.body as { id: number; answers: unknown };
    await pool.query('UPDATE bench_ceiling SET answers = $1::jsonb, seq = seq + 1 WHERE id = $2', [JSON.stringify(body.answers), body.id]);
    return { success: true, saved: true };
  });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  process.stdout.write(JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 }) + '\n');
}

// HTTP client ----------------------------------------------------------------------------------

const agent = new http.Agent({ keepAlive: true, maxSockets: 1024, maxFreeSockets: 1024 });

interface Reply {
  status: number;
  json: any;
}

function call(port: number, method: string, path: string, body?: unknown, token?: string): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const request = http.request(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        agent,
        headers: {
          accept: 'application/json',
          ...(payload !== undefined ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown = text;
          try {
            json = JSON.parse(text);
          } catch {
            // not JSON: keep the text for the error sample
          }
          resolve({ status: response.statusCode ?? 0, json });
        });
        response.on('error', reject);
      },
    );
    request.setTimeout(30_000, () => request.destroy(new Error('timeout')));
    request.on('error', reject);
    request.end(payload);
  });
}

// Measurements ---------------------------------------------------------------------------------

class Stats {
  readonly latencies: number[] = [];
  errors = 0;
  readonly samples: string[] = [];
  startedAt = performance.now();
  endedAt = 0;
  constructor(readonly name: string) {}

  async time(fn: () => Promise<Reply>, ok: (reply: Reply) => boolean = (reply) => reply.status === 200): Promise<Reply | undefined> {
    const start = performance.now();
    try {
      const reply = await fn();
      this.latencies.push(performance.now() - start);
      if (!ok(reply)) this.fail(`${reply.status} ${JSON.stringify(reply.json).slice(0, 160)}`);
      return reply;
    } catch (error) {
      this.latencies.push(performance.now() - start);
      this.fail(String(error));
      return undefined;
    }
  }

  fail(sample: string) {
    this.errors += 1;
    if (this.samples.length < 3) this.samples.push(sample);
  }

  stop() {
    this.endedAt = performance.now();
    return this;
  }

  get seconds() {
    return ((this.endedAt || performance.now()) - this.startedAt) / 1000;
  }

  get rate() {
    return this.latencies.length / this.seconds;
  }

  percentile(p: number) {
    if (this.latencies.length === 0) return 0;
    const sorted = [...this.latencies].sort((a, b) => a - b);
    return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
  }
}

const fmt = (n: number, digits = 1) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

function printTable(title: string, rows: Stats[]) {
  console.log(`\n${title}`);
  console.log('  endpoint                          requests    req/s    p50 ms   p99 ms   max ms  errors   seconds');
  for (const s of rows) {
    const max = s.latencies.reduce((a, b) => Math.max(a, b), 0);
    console.log(
      `  ${s.name.padEnd(32)} ${String(s.latencies.length).padStart(9)} ${fmt(s.rate, 0).padStart(8)} ${fmt(s.percentile(50)).padStart(9)} ${fmt(s.percentile(99)).padStart(8)} ${fmt(max).padStart(8)} ${String(s.errors).padStart(7)} ${fmt(s.seconds).padStart(9)}`,
    );
    for (const sample of s.samples) console.log(`      error sample: ${sample}`);
  }
}

/** Runs `count` jobs with at most `concurrency` at a time. */
async function runAll(count: number, concurrency: number, job: (index: number) => Promise<unknown>) {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, count) }, async () => {
      while (next < count) await job(next++);
    }),
  );
}

/** `concurrency` workers calling `job` back to back for `seconds`. */
async function closedLoop(seconds: number, concurrency: number, job: (worker: number) => Promise<unknown>) {
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      while (performance.now() < until) await job(worker);
    }),
  );
}

function memoryOf(pid: number) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
    return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
  } catch {
    return { rssMb: 0, peakMb: 0 };
  }
}

/** CPU seconds used so far by a process (user + system), from /proc. */
function cpuSecondsOf(pid: number): number {
  const { user, system } = cpuSplitOf(pid);
  return user + system;
}

/** User and system (kernel) CPU seconds used so far by a process, from /proc. */
function cpuSplitOf(pid: number): { user: number; system: number } {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return { user: Number(fields[11]) / 100, system: Number(fields[12]) / 100 }; // utime, stime in clock ticks (100/s)
  } catch {
    return { user: 0, system: 0 };
  }
}

/** CPU seconds of each PostgreSQL server process on this machine, by pid. */
function postgresCpuSeconds(): Map<number, number> {
  const byPid = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'postgres') byPid.set(Number(entry), cpuSecondsOf(Number(entry)));
    } catch {
      // the process ended meanwhile
    }
  }
  return byPid;
}

/** Where the CPU went during a phase: ms of CPU per request for the load generator, the server and PostgreSQL. */
/** CPU of this process, of the server processes (summed) and of PostgreSQL from now on. */
function cpuMeter(serverPids: number | number[]) {
  const pids = [serverPids].flat();
  const serverSplit = () =>
    pids.map(cpuSplitOf).reduce((sum, split) => ({ user: sum.user + split.user, system: sum.system + split.system }), { user: 0, system: 0 });
  const start = { self: process.cpuUsage(), server: serverSplit(), postgres: postgresCpuSeconds() };
  return (requests: number) => {
    const self = process.cpuUsage(start.self);
    const server = serverSplit();
    let postgres = 0;
    for (const [pid, seconds] of postgresCpuSeconds()) postgres += seconds - (start.postgres.get(pid) ?? 0);
    const perRequest = (seconds: number) => fmt((seconds * 1000) / Math.max(1, requests), 3);
    const serverUser = server.user - start.server.user;
    const serverSystem = server.system - start.server.system;
    return `CPU per request: load generator ${perRequest((self.user + self.system) / 1e6)} ms, server ${perRequest(serverUser + serverSystem)} ms (kernel ${perRequest(serverSystem)}), PostgreSQL ${perRequest(postgres)} ms`;
  };
}

/** Transactions committed so far in a database (PostgreSQL publishes them within about a second). */
async function commitsOf(admin: pg.Client, database: string, settle = false): Promise<number> {
  if (settle) await new Promise((resolve) => setTimeout(resolve, 1500));
  await admin.query('SELECT pg_stat_clear_snapshot()');
  return Number((await admin.query('SELECT xact_commit FROM pg_stat_database WHERE datname = $1', [database])).rows[0].xact_commit);
}

// Processes ------------------------------------------------------------------------------------

const children: ChildProcess[] = [];

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function spawnNode(args: string[], env: Record<string, string>, nodeArgs: string[] = []): ChildProcess {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(`[${args.at(-1)}] ${chunk}`));
  return child;
}

function spawnCeiling(role: string, extra: string[] = []): Promise<{ port: number; pid: number }> {
  const child = spawnNode([SCRIPT, '--role', role, ...extra], {}, (process.env.BENCH_APP_NODE_ARGS ?? '').split(' ').filter(Boolean));
  return new Promise((resolve, reject) => {
    let buffered = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const line = buffered.split('\n')[0];
      if (buffered.includes('\n') && line) resolve({ port: JSON.parse(line).port, pid: child.pid! });
    });
    child.once('exit', (code) => reject(new Error(`${role} exited with ${code}`)));
  });
}

async function spawnApp(databaseUrl: string, poolSize: number): Promise<{ port: number; pid: number }> {
  const port = await freePort();
  const child = spawnNode(['src/server/main.ts'], {
    NODE_ENV: 'production',
    HOST: '127.0.0.1',
    PORT: String(port),
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DEVICE_COOKIE_SECRET: 'bench-only-device-cookie-secret-0123456789',
    DATABASE_URL: databaseUrl,
    DATABASE_POOL_SIZE: String(poolSize),
    DATA_DIR: join(tmpdir(), `bench-exam-${process.pid}`),
    SEED_DEMO: '0',
    LOG_LEVEL: 'warn',
    SMS_DRIVER: 'log',
    ALLOW_LOG_SMS_IN_PRODUCTION: '1',
    EXAM_SWEEP_SECONDS: '30',
    // One process each: --processes plays the several processes (or machines) behind a balancer.
    WORKERS: '1',
  }, (process.env.BENCH_APP_NODE_ARGS ?? '').split(' ').filter(Boolean));
  child.stdout!.resume();
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error('the app exited while starting');
    try {
      if ((await call(port, 'GET', '/readyz')).status === 200) return { port, pid: child.pid! };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('the app did not become ready within 60 s');
}

// The simulation ---------------------------------------------------------------------------------

interface Contestant {
  index: number;
  childId: number;
  token: string;
  bookId: number;
  examId: number;
  slug: string;
  questions: { id: number; answers: { id: number }[] }[];
  answers: Record<string, number>;
  seq: number;
  acked: { seq: number; answers: Record<string, number> };
  saving: boolean;
}

function withDatabase(url: string, database: string) {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** The next save of a contestant: one more question answered (or the same state again once all are). */
function nextSave(c: Contestant) {
  const unanswered = c.questions.find((question) => c.answers[question.id] === undefined);
  if (unanswered) c.answers = { ...c.answers, [unanswered.id]: unanswered.answers[c.seq % unanswered.answers.length]!.id };
  c.seq += 1;
  return {
    seq: c.seq,
    answers: c.answers,
    body: {
      exam_id: c.examId,
      slug: c.slug,
      answers: Object.entries(c.answers).map(([question_id, answer_id]) => ({ question_id: Number(question_id), answer_id })),
      prediction: 1000 + c.index,
      seq: c.seq,
    },
  };
}

async function saveFor(port: number, stats: Stats, c: Contestant) {
  if (c.saving) return false;
  c.saving = true;
  const save = nextSave(c);
  const reply = await stats.time(() => call(port, 'POST', '/api/store-answers-exam', save.body, c.token), (r) => r.status === 200 && r.json?.saved === true);
  if (reply?.status === 200 && reply.json?.saved === true && save.seq > c.acked.seq) c.acked = { seq: save.seq, answers: save.answers };
  c.saving = false;
  return true;
}

async function main() {
  // Ceilings end on SIGTERM through exit(), so that a --cpu-prof profile is written.
  if (options.role) process.on('SIGTERM', () => process.exit(0));
  if (options.role === 'ceiling-http') return runBareHttpCeiling();
  if (options.role === 'ceiling-fastify') return runFastifyUpdateCeiling(options.database!, bounded('pool-size', options['pool-size'], 1, 200));

  const contestantCount = bounded('contestants', options.contestants, 10, 20_000);
  const processes = bounded('processes', options.processes, 1, 16);
  const heldLevels = options.held.split(',').map((level) => bounded('held', level.trim(), 10, 10_000_000));
  const holdSeconds = bounded('hold', options.hold, 5, 600);
  const saturateSeconds = bounded('saturate', options.saturate, 3, 120);
  const ceilingSeconds = bounded('ceiling', options.ceiling, 3, 60);
  const concurrency = bounded('concurrency', options.concurrency, 1, 512);
  const poolSize = bounded('pool-size', options['pool-size'], 1, 200);

  const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  if (!/^postgres(ql)?:\/\/[^/]*@?(127\.0\.0\.1|localhost)(:\d+)?\//.test(adminUrl)) {
    throw new Error('BENCH_DATABASE_URL must point at a PostgreSQL server on loopback');
  }
  const databaseName = `bench_exam_${process.pid}`;
  const databaseUrl = withDatabase(adminUrl, databaseName);
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${databaseName}`);
  console.log(
    `Exam-day benchmark: ${contestantCount} contestants, ${processes} app process(es), held loads ${heldLevels.map((level) => fmt(level, 0)).join(' and ')} ` +
      `for ${holdSeconds} s each, concurrency ${concurrency}, pool ${poolSize} per process`,
  );
  console.log(`Database ${databaseName} (dropped at the end); ${(await admin.query('SHOW server_version')).rows[0].server_version} PostgreSQL, synchronous_commit=${(await admin.query('SHOW synchronous_commit')).rows[0].synchronous_commit}`);

  try {
    // Content and contestants, straight into the database (the SMS flow is not what is measured).
    const { openDatabase } = await import('../src/server/db/client');
    const { migrate } = await import('../src/server/db/migrate');
    const { seed } = await import('../src/server/db/seed/seed');
    const { systemClock } = await import('../src/server/lib/clock');
    const { hashToken, newToken } = await import('../src/server/lib/tokens');
    const database = await openDatabase({ databaseUrl, dataDir: tmpdir(), poolSize: 4 });
    await migrate(database.db);
    await seed(database.db, { clock: systemClock, demoWindow: true, demoAccounts: false });
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
    const school = (await pool.query('SELECT id, district_id FROM schools ORDER BY id LIMIT 1')).rows[0];
    const groups = (
      await pool.query(`SELECT g.id, min(r.id) AS room, array_agg(DISTINCT b.id) AS books
                        FROM class_groups g JOIN class_rooms r ON r.class_group_id = g.id JOIN books b ON b.class_group_id = g.id
                        GROUP BY g.id ORDER BY g.id`)
    ).rows as { id: number; room: number; books: number[] }[];
    const contestants: Contestant[] = [];
    for (let from = 0; from < contestantCount; from += 1000) {
      const count = Math.min(1000, contestantCount - from);
      const tokens = Array.from({ length: count }, () => newToken());
      const phones = Array.from({ length: count }, (_, i) => `08${String(from + i).padStart(8, '0')}`);
      const users = (
        await pool.query(`INSERT INTO users (phone, password_hash, role) SELECT unnest($1::text[]), 'bench', 'parent' RETURNING id`, [phones])
      ).rows.map((row) => row.id as number);
      await pool.query(
        `INSERT INTO sessions (user_id, token_hash, expires_at) SELECT unnest($1::int[]), unnest($2::text[]), now() + interval '1 day'`,
        [users, tokens.map(hashToken)],
      );
      const groupOf = users.map((_, i) => groups[(from + i) % groups.length]!);
      const children = (
        await pool.query(
          `INSERT INTO contestants (user_id, position, fullname, district_id, school_id, class_group_id, class_room_id)
           SELECT u, 1, 'Thí sinh ' || u, $2, $3, g, r FROM unnest($1::int[], $4::int[], $5::int[]) AS t(u, g, r) RETURNING id`,
          [users, school.district_id, school.id, groupOf.map((g) => g.id), groupOf.map((g) => g.room)],
        )
      ).rows.map((row) => row.id as number);
      children.forEach((childId, i) => {
        const group = groupOf[i]!;
        contestants.push({
          index: from + i,
          childId,
          token: tokens[i]!,
          bookId: group.books[(from + i) % group.books.length]!,
          examId: 0,
          slug: '',
          questions: [],
          answers: {},
          seq: 0,
          acked: { seq: 0, answers: {} },
          saving: false,
        });
      });
    }
    // The organiser whose browser polls the dashboard during the held load (--dashboard).
    const organiserToken = newToken();
    const organiser = (await pool.query(`INSERT INTO users (phone, password_hash, role) VALUES ('0799999999', 'bench', 'organiser') RETURNING id`)).rows[0].id;
    await pool.query(`INSERT INTO sessions (user_id, token_hash, expires_at) VALUES ($1, $2, now() + interval '1 day')`, [organiser, hashToken(organiserToken)]);
    await pool.query(`CREATE TABLE bench_ceiling (id integer PRIMARY KEY, answers jsonb NOT NULL DEFAULT '{}', seq bigint NOT NULL DEFAULT 0)`);
    await pool.query(`INSERT INTO bench_ceiling (id) SELECT generate_series(1, $1::int)`, [contestantCount]);
    await pool.query('VACUUM ANALYZE');
    await database.close();

    const apps = await Promise.all(Array.from({ length: processes }, () => spawnApp(databaseUrl, poolSize)));
    const appPids = apps.map((app) => app.pid);
    /** The app process of a contestant (a balancer's sticky choice: any process would do). */
    const portOf = (c: Contestant) => apps[c.index % apps.length]!.port;
    const appMemory = () =>
      appPids.map(memoryOf).reduce((sum, memory) => ({ rssMb: sum.rssMb + memory.rssMb, peakMb: sum.peakMb + memory.peakMb }), { rssMb: 0, peakMb: 0 });
    const bare = await spawnCeiling('ceiling-http');
    const fastify = await spawnCeiling('ceiling-fastify', ['--database', databaseUrl, '--pool-size', String(poolSize)]);
    const memoryPeaks: Record<string, number> = {};
    const sampleMemory = (phase: string) => {
      const timer = setInterval(() => {
        memoryPeaks[phase] = Math.max(memoryPeaks[phase] ?? 0, appMemory().rssMb);
      }, 250);
      return () => clearInterval(timer);
    };
    console.log(`App pids ${appPids.join(', ')} on ${apps.map((app) => ':' + app.port).join(', ')}; idle RSS ${fmt(appMemory().rssMb)} MB in all`);

    // 1. Ceilings --------------------------------------------------------------------------------
    const sampleAnswers = Array.from({ length: 20 }, (_, i) => ({ question_id: 100 + i, answer_id: 400 + i }));
    const bareStats = new Stats('bare node:http');
    const bareJob = () => call(bare.port, 'POST', '/save', { id: 1, answers: sampleAnswers });
    await closedLoop(2, concurrency, bareJob); // warm-up
    bareStats.startedAt = performance.now();
    let cpu = cpuMeter(bare.pid);
    await closedLoop(ceilingSeconds, concurrency, () => bareStats.time(bareJob));
    bareStats.stop();
    printTable('Ceiling 1a: bare node:http answering a small JSON', [bareStats]);
    console.log(`  ${cpu(bareStats.latencies.length)}`);
    const ceilingSaves = new Stats('fastify + 1 PK UPDATE (jsonb)');
    let ceilingRow = 0;
    const ceilingJob = () => call(fastify.port, 'POST', '/save', { id: (ceilingRow++ % contestantCount) + 1, answers: sampleAnswers });
    await closedLoop(2, concurrency, ceilingJob);
    ceilingSaves.startedAt = performance.now();
    cpu = cpuMeter(fastify.pid);
    await closedLoop(ceilingSeconds, concurrency, () => ceilingSaves.time(ceilingJob));
    ceilingSaves.stop();
    printTable('Ceiling 1b: minimal Fastify route, one primary-key UPDATE of a jsonb row', [ceilingSaves]);
    const ceilingCpu = cpu(ceilingSaves.latencies.length);
    console.log(`  ${ceilingCpu}`);

    // 2. Start storm -----------------------------------------------------------------------------
    let stop = sampleMemory('start storm');
    const starts = new Stats('POST /api/start-exam');
    await runAll(contestants.length, concurrency, async (i) => {
      const c = contestants[i]!;
      const reply = await starts.time(() => call(portOf(c), 'POST', '/api/start-exam', { book_id: c.bookId, child_id: c.childId }, c.token));
      if (reply?.status === 200) {
        c.examId = reply.json.exam_id;
        c.slug = reply.json.slug;
      }
    });
    starts.stop();
    const loads = new Stats('GET /api/examing');
    await runAll(contestants.length, concurrency, async (i) => {
      const c = contestants[i]!;
      if (!c.slug) return;
      const reply = await loads.time(() => call(portOf(c), 'GET', `/api/examing?book_id=${c.bookId}&child_id=${c.childId}&slug_exam=${c.slug}`, undefined, c.token));
      if (reply?.status === 200) c.questions = reply.json.data.data_questions;
    });
    loads.stop();
    stop();
    printTable(`Start storm: ${contestants.length} contestants press 'Vào thi', then load the exam`, [starts, loads]);
    const ready = contestants.filter((c) => c.questions.length > 0);

    // 3. Held load (open loop), at each level ---------------------------------------------------------
    const heldRuns: { level: number; dashboard: Stats | undefined; saves: Stats; syncs: Stats; mix: Stats; cpu: string; skipped: number; maxLagMs: number }[] = [];
    const heldPasses = heldLevels.flatMap((level) => (options.dashboard ? [{ level, dashboard: false }, { level, dashboard: true }] : [{ level, dashboard: false }]));
    for (const { level, dashboard } of heldPasses) {
      // Each contestant stands for level / ready contestants: its rhythm is compressed that much.
      const compress = level / ready.length;
      if (compress < 1 || compress > 60) throw new Error(`--held ${level} needs --contestants between ${Math.ceil(level / 60)} and ${level}`);
      stop = sampleMemory(`held ${fmt(level, 0)}`);
      const saveEveryMs = 30_000 / compress;
      const syncEveryMs = 60_000 / compress;
      cpu = cpuMeter(appPids);
      const heldSaves = new Stats('POST /api/store-answers-exam');
      const heldSyncs = new Stats('GET /api/examing/get-time');
      type Event = { at: number; c: Contestant; kind: 'save' | 'sync' };
      const events: Event[] = [];
      for (const c of ready) {
        for (let at = Math.random() * saveEveryMs; at < holdSeconds * 1000; at += saveEveryMs) events.push({ at, c, kind: 'save' });
        for (let at = Math.random() * syncEveryMs; at < holdSeconds * 1000; at += syncEveryMs) events.push({ at, c, kind: 'sync' });
      }
      events.sort((a, b) => a.at - b.at);
      let skipped = 0;
      let maxLagMs = 0;
      let inFlight = 0;
      const MAX_IN_FLIGHT = 4096;
      // An organiser's dashboard, polled every 2 s on each app process in turn, as a browser would.
      // Each process answers it once before the timing (its first answer compiles the route's
      // serializer, as on a server that has been up for a while).
      const dashboardStats = dashboard ? new Stats('GET /api/admin/exam-days/dashboard') : undefined;
      if (dashboard) await Promise.all(apps.map((app) => call(app.port, 'GET', '/api/admin/exam-days/dashboard', undefined, organiserToken)));
      let polls = 0;
      const poller = dashboardStats
        ? setInterval(() => {
            const port = apps[polls++ % apps.length]!.port;
            void dashboardStats.time(() => call(port, 'GET', '/api/admin/exam-days/dashboard', undefined, organiserToken));
          }, 2_000)
        : undefined;
      if (dashboardStats) dashboardStats.startedAt = performance.now();
      await new Promise<void>((resolve) => {
        const t0 = performance.now();
        heldSaves.startedAt = t0;
        heldSyncs.startedAt = t0;
        let next = 0;
        const tick = setInterval(() => {
          const now = performance.now() - t0;
          while (next < events.length && events[next]!.at <= now) {
            const event = events[next++]!;
            maxLagMs = Math.max(maxLagMs, now - event.at);
            if (inFlight >= MAX_IN_FLIGHT) {
              skipped += 1;
              continue;
            }
            inFlight += 1;
            const done = () => {
              inFlight -= 1;
            };
            if (event.kind === 'save') {
              void saveFor(portOf(event.c), heldSaves, event.c).then((sent) => {
                if (!sent) skipped += 1;
                done();
              });
            } else {
              void heldSyncs
                .time(() => call(portOf(event.c), 'GET', `/api/examing/get-time?exam_id=${event.c.examId}`, undefined, event.c.token))
                .then(done);
            }
          }
          if (next >= events.length && inFlight === 0) {
            clearInterval(tick);
            resolve();
          }
        }, 2);
      });
      heldSaves.endedAt = heldSyncs.endedAt = heldSaves.startedAt + holdSeconds * 1000;
      clearInterval(poller);
      dashboardStats?.stop();
      stop();
      const heldMix = new Stats('mix (saves + re-syncs)');
      for (const latency of [heldSaves.latencies, heldSyncs.latencies].flat()) heldMix.latencies.push(latency);
      heldMix.errors = heldSaves.errors + heldSyncs.errors;
      heldMix.startedAt = heldSaves.startedAt;
      heldMix.endedAt = heldSaves.endedAt;
      printTable(
        `Held load of ${fmt(level, 0)} contestants: autosave every ${fmt(saveEveryMs / 1000, 2)} s, re-sync every ${fmt(syncEveryMs / 1000, 2)} s ` +
          `(30 s / 60 s compressed x${fmt(compress)}) over ${processes} process(es)${dashboard ? ', the dashboard polled every 2 s' : ''}`,
        [heldSaves, heldSyncs, heldMix, ...(dashboardStats ? [dashboardStats] : [])],
      );
      const heldCpu = cpu(heldMix.latencies.length);
      console.log(`  ${heldCpu}`);
      console.log(`  contestants held (real time) = autosaves/s x 30 = ${fmt(heldSaves.rate * 30, 0)}; late dispatch max ${fmt(maxLagMs)} ms; skipped ${skipped}`);
      heldRuns.push({ level, dashboard: dashboardStats, saves: heldSaves, syncs: heldSyncs, mix: heldMix, cpu: heldCpu, skipped, maxLagMs });
    }

    // 4. Autosave saturation ---------------------------------------------------------------------
    stop = sampleMemory('saturation');
    const saturated = new Stats('POST /api/store-answers-exam');
    const commitsBefore = await commitsOf(admin, databaseName);
    cpu = cpuMeter(appPids);
    let cursor = 0;
    await closedLoop(saturateSeconds, concurrency, async () => {
      for (;;) {
        const c = ready[cursor++ % ready.length]!;
        if (await saveFor(portOf(c), saturated, c)) return;
      }
    });
    saturated.stop();
    stop();
    printTable(`Autosave saturation: ${concurrency} clients saving back to back`, [saturated]);
    const saturatedCpu = cpu(saturated.latencies.length);
    console.log(`  ${saturatedCpu}`);
    const savesPerCommit = saturated.latencies.length / Math.max(1, (await commitsOf(admin, databaseName, true)) - commitsBefore);
    console.log(`  about ${fmt(savesPerCommit)} saves per commit (the app writes the saves that arrive together in one statement)`);

    // 5. Every acknowledged answer stored? Then submit. -------------------------------------------
    const check = new pg.Client({ connectionString: databaseUrl });
    await check.connect();
    const stored = new Map<number, { answers: Record<string, number>; save_seq: number }>(
      (await check.query('SELECT id, answers, save_seq FROM exams')).rows.map((row) => [row.id, row]),
    );
    let acknowledgedAnswers = 0;
    let lost = 0;
    for (const c of ready) {
      const row = stored.get(c.examId);
      for (const [questionId, answerId] of Object.entries(c.acked.answers)) {
        acknowledgedAnswers += 1;
        if (!row || row.answers[questionId] !== answerId || row.save_seq < c.acked.seq) lost += 1;
      }
    }
    console.log(`\nDurability: ${acknowledgedAnswers} acknowledged answers checked in the database, ${lost} lost`);

    stop = sampleMemory('submit');
    const submits = new Stats('POST /api/submit-exam');
    await runAll(ready.length, concurrency, async (i) => {
      const c = ready[i]!;
      for (const question of c.questions) if (c.answers[question.id] === undefined) c.answers[question.id] = question.answers[0]!.id;
      c.seq += 1;
      await submits.time(() =>
        call(
          portOf(c),
          'POST',
          '/api/submit-exam',
          {
            exam_id: c.examId,
            slug: c.slug,
            answers: Object.entries(c.answers).map(([question_id, answer_id]) => ({ question_id: Number(question_id), answer_id })),
            prediction: 1000 + c.index,
            seq: c.seq,
          },
          c.token,
        ),
      );
    });
    submits.stop();
    stop();
    printTable('Submit: every contestant submits', [submits]);
    const finished = Number((await check.query('SELECT count(*) FROM exams WHERE status = 1 AND points IS NOT NULL')).rows[0].count);
    await check.end();
    const memory = appMemory();

    // Summary ------------------------------------------------------------------------------------
    const heldErrors = heldRuns.reduce((sum, run) => sum + run.mix.errors + (run.dashboard?.errors ?? 0), 0);
    const errors = starts.errors + loads.errors + heldErrors + saturated.errors + submits.errors;
    console.log('\nSummary');
    console.log(`  start storm: ${starts.latencies.length} starts in ${fmt(starts.seconds)} s (${fmt(starts.rate, 0)}/s), p99 ${fmt(starts.percentile(99))} ms, ${starts.errors} errors`);
    for (const run of heldRuns) {
      console.log(
        `  held ${fmt(run.level, 0)} contestants${run.dashboard ? ' + dashboard every 2 s' : ''}: ${fmt(run.mix.rate, 0)} req/s (${fmt(run.saves.rate, 0)} saves/s), p50 ${fmt(run.mix.percentile(50))} ms, ` +
          `p99 ${fmt(run.mix.percentile(99))} ms, ${run.mix.errors} errors, ${run.skipped} skipped; ` +
          `${fmt((run.mix.rate / ceilingSaves.rate) * 100, 0)}% of the single-UPDATE ceiling's throughput`,
      );
    }
    if (options.dashboard) {
      for (const level of heldLevels) {
        const [without, withDashboard] = heldRuns.filter((run) => run.level === level);
        console.log(
          `  dashboard at ${fmt(level, 0)} contestants: save p99 ${fmt(without!.saves.percentile(99))} ms without, ${fmt(withDashboard!.saves.percentile(99))} ms with ` +
            `(dashboard p50 ${fmt(withDashboard!.dashboard!.percentile(50))} ms, p99 ${fmt(withDashboard!.dashboard!.percentile(99))} ms, ${withDashboard!.dashboard!.errors} errors)`,
        );
      }
    }
    console.log(`  autosave saturation over ${processes} process(es): ${fmt(saturated.rate, 0)} saves/s, p50 ${fmt(saturated.percentile(50))} ms, p99 ${fmt(saturated.percentile(99))} ms`);
    console.log(`    = ${fmt((saturated.rate / ceilingSaves.rate) * 100, 0)}% of the single-UPDATE ceiling (${fmt(ceilingSaves.rate, 0)}/s)`);
    console.log(`    = ${fmt((saturated.rate / bareStats.rate) * 100, 0)}% of the bare node:http ceiling (${fmt(bareStats.rate, 0)}/s)`);
    console.log(`    single-UPDATE ceiling = ${fmt((ceilingSaves.rate / bareStats.rate) * 100, 0)}% of bare node:http`);
    console.log(`    autosave ${saturatedCpu}; about ${fmt(savesPerCommit)} saves per commit`);
    console.log(`    ceiling  ${ceilingCpu}`);
    console.log(`  durability: ${lost} of ${acknowledgedAnswers} acknowledged answers lost; ${finished}/${ready.length} exams finished and scored`);
    console.log(`  errors (all phases): ${errors}`);
    console.log(
      `  app memory: RSS peak ${Object.entries(memoryPeaks).map(([phase, mb]) => `${phase} ${fmt(mb, 0)} MB`).join(', ')}; high-water mark ${fmt(memory.peakMb, 0)} MB`,
    );
    process.exitCode = errors > 0 || lost > 0 ? 1 : 0;
  } finally {
    for (const child of children) child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    if (!process.env.BENCH_KEEP) await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`).catch((error) => console.error('drop failed', error));
    await admin.end();
    agent.destroy();
  }
}

process.on('SIGINT', () => {
  for (const child of children) child.kill('SIGTERM');
  process.exit(130);
});

main().catch((error) => {
  console.error(error);
  for (const child of children) child.kill('SIGTERM');
  process.exit(1);
});
