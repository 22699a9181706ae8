// Exam-day benchmark (issues 4 and 20): the app on PostgreSQL, loopback only, bounded in count and time.
//
//   npm run bench:exam -- [--held 100000,200000] [--hold 60] [--starts 5000] [--processes 1] [--saturate 15]
//                         [--overload 2,4] [--overload-seconds 15] [--overload-connections 4096] [--concurrency 64]
//                         [--pool-size 10] [--dashboard] [--timeline] [--connections 256] [--pin] [--compressed --contestants 5000]
//                         [--only start] [--tcp] [--noise PCT] [--nginx] [--help]
//
// PostgreSQL: a throwaway cluster of its own (initdb in a temp folder, a free loopback port,
// pg_stat_statements loaded), removed at the end, which the app reaches over its Unix socket (--tcp:
// over loopback TCP); with BENCH_DATABASE_URL, a database created (and dropped) on that server instead.
// Phases:
//   1. ceilings: a bare node:http JSON server, and a minimal Fastify route doing one primary-key
//      UPDATE of a jsonb row in the same PostgreSQL (the physical limit of a durable save here);
//   2. a start storm: --starts contestants press 'Vào thi' (POST /api/start-exam), then load the exam;
//   3. the held load, at each level of --held: that many exams really in progress (the rest of them
//      inserted set-based in SQL, with papers drawn from the books as the app draws them), each
//      contestant saving every 30 s and re-syncing every 60 s in real time, at a random phase, open
//      loop, for --hold seconds, over --overload-connections per app process as in the overload
//      below (200,000 phones are as many connections to nginx, which opens an upstream connection
//      per request beyond its kept-alive ones: a level above capacity is then held, or refused, by
//      the app, not queued in this process; --overload-connections 256 for a bounded set). With --compressed the old way instead: --contestants exams whose
//      rhythm is compressed to the level's request rate (fewer rows than contestants stood for).
//      With --dashboard each level runs twice, the second time with an organiser polling the
//      back office's live dashboard every 2 s; each level prints the listen-queue overflows the
//      kernel counted meanwhile, and with --timeline its answers second by second;
//   4. autosave saturation: --concurrency clients saving back to back (the measured capacity);
//   5. overload: saves sent open loop at each multiple of --overload of that capacity, over
//      --overload-connections per app process (as nginx opens an upstream connection per request
//      beyond its kept-alive ones: the app itself holds the excess, and must refuse it), while this
//      process probes /healthz and /readyz every 100 ms: client-side p99 of the accepted saves,
//      time to a 503, probe latency, the app's refusals by reason;
//   6. a check that every acknowledged answer is stored, then the start storm's contestants submit.
// With --noise PCT, a CPU burner in a process of its own takes PCT % of one core for the whole run
// (busy PCT ms in every 100 ms), as other work on a real machine would: the figures then show what
// the exam path keeps when it does not have the cores to itself (not pinned with --pin).
// Contestants whose start (or the first load of their exam) failed have no exam: they send no save
// and no re-sync, and are counted apart ("left out"), not as errors of the held load.
// With --nginx every client request (starts, loads, saves, re-syncs, submits, probes) goes through
// the repository's nginx site (deploy/nginx.conf as shipped, its TLS listener made a plain one:
// scripts/lib/nginx-site.ts) in front of the app processes, as in production: the saturation is
// then the site's, and under overload nginx refuses what its upstream limit (max_conns) does not
// let through, before the app reads it. nginx's CPU is counted apart. Needs nginx (nginx-light).
// With --only start, phase 2 alone (no ceilings, no exams inserted in SQL): --starts contestants.
// Each phase prints the CPU per request of the load generator, the app and PostgreSQL, the app's
// event-loop delay p99 (from its metrics port) and, on its own cluster, the statements that took
// PostgreSQL the most time (pg_stat_statements).
// The load generator (bench-exam-load.ts), the app (--processes processes, the contestants spread
// over them as a load balancer would; the compiled server, built at the start as production runs
// it, decision 022) and the ceilings are child processes. With --pin the load generator and this
// process run on the last core, the app, the ceilings and PostgreSQL on the others (taskset), for
// the whole run: the capacity and the overload are then measured on the same cores, and the
// generator's own work is not taken from the app's (without it, 4 x the capacity asks more CPU of
// the generator than the machine has left).
// For investigation: BENCH_KEEP=1 keeps the database (and the cluster's folder); BENCH_APP_NODE_ARGS
// (e.g. "--cpu-prof --cpu-prof-dir=.tmp/prof") is passed to the app and ceiling processes.
import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { agent, answerOf, call, GENERATOR_FLAG, type Command, type LoadSetup, type Paper, type Tally } from './bench-exam-load';
import { freePort } from './chaos/apps';
import { startCluster, type Cluster } from './chaos/cluster';
import { fmt, Stats } from './lib/bench-stats';
import { compiledServer, productionAppEnv, runBenchmark } from './lib/bench-app';
import { startNginxSite } from './lib/nginx-site';

const SCRIPT = fileURLToPath(import.meta.url);
const ROOT = fileURLToPath(new URL('..', import.meta.url));

const { values: options } = parseArgs({
  options: {
    held: { type: 'string', default: '100000,200000' },
    hold: { type: 'string', default: '60' },
    starts: { type: 'string', default: '5000' },
    processes: { type: 'string', default: '1' },
    saturate: { type: 'string', default: '15' },
    ceiling: { type: 'string', default: '10' },
    overload: { type: 'string', default: '2,4' },
    'overload-seconds': { type: 'string', default: '15' },
    'overload-connections': { type: 'string', default: '4096' },
    pin: { type: 'boolean', default: false },
    tcp: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
    concurrency: { type: 'string', default: '64' },
    connections: { type: 'string', default: '256' },
    'pool-size': { type: 'string', default: '10' },
    dashboard: { type: 'boolean', default: false },
    timeline: { type: 'boolean', default: false },
    compressed: { type: 'boolean', default: false },
    contestants: { type: 'string', default: '5000' },
    only: { type: 'string' },
    noise: { type: 'string', default: '0' },
    nginx: { type: 'boolean', default: false },
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

/** --noise: busy `percent` ms of every 100 ms, for as long as the benchmark runs (it is killed at the end). */
function runNoise(percent: number) {
  const busy = () => {
    const until = performance.now() + percent;
    while (performance.now() < until) {
      // spin: this process's share of one core is the noise
    }
    setTimeout(busy, 100 - percent);
  };
  if (percent >= 100) for (;;) performance.now();
  busy();
  process.stdout.write(JSON.stringify({ port: 0 }) + '\n');
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

// Measurements ---------------------------------------------------------------------------------

/**
 * The kernel's count of connections dropped because a listen queue was full (TcpExt ListenOverflows,
 * all sockets of the machine): each is a SYN the client sends again after 1, 3, 7, 15 or 31 s.
 */
function listenOverflows(): number {
  const [names, values] = readFileSync('/proc/net/netstat', 'utf8').split('\n').filter((line) => line.startsWith('TcpExt:'));
  const index = names?.split(' ').indexOf('ListenOverflows') ?? -1;
  return index > 0 ? Number(values?.split(' ')[index] ?? 0) : 0;
}

/** The tallies' answers per second of due time, and of them those over 100 ms. */
function perSecond(tallies: Tally[]) {
  const answered: number[] = [];
  const over: number[] = [];
  for (const t of tallies) {
    t.timeline?.answered.forEach((n, second) => (answered[second] = (answered[second] ?? 0) + (n ?? 0)));
    t.timeline?.over100.forEach((n, second) => (over[second] = (over[second] ?? 0) + (n ?? 0)));
  }
  return { answered, over };
}

/** The held phase second by second (of due time): answers, and of them those over 100 ms. */
function timelineBySecond(...tallies: Tally[]) {
  const { answered, over } = perSecond(tallies);
  return `second: answered/over 100 ms  ${[...answered.keys()].map((second) => `${second}: ${answered[second] ?? 0}/${over[second] ?? 0}`).join(', ')}`;
}

/** Where the held phase's tail comes from: the seconds (of due time) with the most answers over 100 ms. */
function tailBySecond(...tallies: Tally[]) {
  const { answered, over } = perSecond(tallies);
  const total = over.reduce((a, b) => a + (b ?? 0), 0);
  const worst = [...over.keys()].filter((second) => over[second]).sort((a, b) => over[b]! - over[a]!).slice(0, 8);
  const seconds = worst.map((second) => `s${second} ${over[second]}/${answered[second] ?? 0}`).join(', ');
  const spread = over.filter((n) => n).length;
  return `answers over 100 ms: ${total} in ${spread} of ${answered.length} seconds${seconds ? `; worst seconds (over 100 ms / answered): ${seconds}` : ''}`;
}

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

/**
 * CPU seconds of the PostgreSQL processes that serve this benchmark, by pid: with a cluster of its
 * own, its postmaster and every child of it (backends, autovacuum, WAL writer, checkpointer);
 * otherwise every postgres process on the machine (others' work included).
 */
let postmasterPid = 0;
/** What each PostgreSQL process is: a backend (a client's connection) or one of the server's own. */
const postgresKinds = new Map<number, string>();
const AUXILIARY = ['checkpointer', 'background writer', 'walwriter', 'autovacuum launcher', 'autovacuum worker', 'logical replication launcher', 'archiver', 'stats collector', 'walsender'];
function postgresKindOf(pid: number): string {
  if (pid === postmasterPid) return 'postmaster';
  const title = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').replace(/^postgres: (\S+\/\S+: )?/, '');
  return AUXILIARY.find((name) => title.startsWith(name)) ?? 'backends';
}

function postgresCpuSeconds(): Map<number, number> {
  const byPid = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
      const parent = Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
      if (postmasterPid && Number(entry) !== postmasterPid && parent !== postmasterPid) continue;
      byPid.set(Number(entry), cpuSecondsOf(Number(entry)));
      postgresKinds.set(Number(entry), postgresKindOf(Number(entry)));
    } catch {
      // the process ended meanwhile
    }
  }
  return byPid;
}

/** The load generator's process, once started (its CPU counts as the load generator's). */
let generatorPid = 0;

/** Where the CPU went during a phase: ms of CPU per request for the load generator (its process and this one), the server and PostgreSQL. */
/** nginx's processes when --nginx runs it (their CPU is counted apart). */
let nginxPids: () => number[] = () => [];

function cpuMeter(serverPids: number | number[], throughNginx = true) {
  const pids = [serverPids].flat();
  const nginxOf = () => (throughNginx ? nginxPids() : []);
  const nginxSeconds = () => nginxOf().reduce((sum, pid) => sum + cpuSecondsOf(pid), 0);
  const serverSplit = () =>
    pids.map(cpuSplitOf).reduce((sum, split) => ({ user: sum.user + split.user, system: sum.system + split.system }), { user: 0, system: 0 });
  const generatorSeconds = () => (generatorPid ? cpuSecondsOf(generatorPid) : 0);
  const start = { self: process.cpuUsage(), generator: generatorSeconds(), server: serverSplit(), postgres: postgresCpuSeconds(), nginx: nginxSeconds() };
  return (requests: number) => {
    const self = process.cpuUsage(start.self);
    const generator = generatorSeconds() - start.generator;
    const server = serverSplit();
    const nginx = nginxSeconds() - start.nginx;
    let postgres = 0;
    const byKind = new Map<string, number>();
    for (const [pid, seconds] of postgresCpuSeconds()) {
      const used = seconds - (start.postgres.get(pid) ?? 0);
      postgres += used;
      const kind = postgresKinds.get(pid) ?? 'backends';
      byKind.set(kind, (byKind.get(kind) ?? 0) + used);
    }
    const perRequest = (seconds: number) => fmt((seconds * 1000) / Math.max(1, requests), 3);
    const serverUser = server.user - start.server.user;
    const serverSystem = server.system - start.server.system;
    // PostgreSQL's share by process, largest first: the app's backends, the WAL writer, the checkpointer...
    const kinds = [...byKind].filter(([, used]) => used > 0).sort((a, b) => b[1] - a[1]).map(([kind, used]) => `${kind} ${perRequest(used)}`);
    return (
      `CPU per request: load generator ${perRequest((self.user + self.system) / 1e6 + generator)} ms, server ${perRequest(serverUser + serverSystem)} ms (kernel ${perRequest(serverSystem)}), ` +
      `${nginxOf().length > 0 ? `nginx ${perRequest(nginx)} ms, ` : ''}PostgreSQL ${perRequest(postgres)} ms` +
      (kinds.length > 1 ? ` (${kinds.join(', ')})` : '')
    );
  };
}

/** Transactions committed so far in a database (PostgreSQL publishes them within about a second). */
async function commitsOf(admin: pg.Client, database: string, settle = false): Promise<number> {
  if (settle) await new Promise((resolve) => setTimeout(resolve, 1500));
  await admin.query('SELECT pg_stat_clear_snapshot()');
  return Number((await admin.query('SELECT xact_commit FROM pg_stat_database WHERE datname = $1', [database])).rows[0].xact_commit);
}

// Processes ------------------------------------------------------------------------------------

/** With --pin: the cores of the load generator and of this process (the last), and of the app, the ceilings and PostgreSQL (the others). */
const cores = availableParallelism();
const pinning = options.pin ? { generator: String(cores - 1), server: cores > 2 ? `0-${cores - 2}` : '0' } : undefined;

/** Puts every thread of these processes on these cores (taskset; children forked later inherit it). */
function pin(pids: number[], cpus: string | undefined) {
  if (!cpus) return;
  for (const pid of pids) {
    try {
      execFileSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' });
    } catch (error) {
      // A process that ended meanwhile (a PostgreSQL backend) needs no pinning; another failure does.
      if (existsSync(`/proc/${pid}`)) throw error;
    }
  }
}

const children: ChildProcess[] = [];


/** A node process: the compiled app (plain JavaScript), or this script in a role (through tsx). */
function spawnNode(args: string[], env: Record<string, string>, nodeArgs: string[] = []): ChildProcess {
  const loader = args[0]!.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const child = spawn(process.execPath, [...nodeArgs, ...loader, ...args], {
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
      if (buffered.includes('\n') && line) {
        pin([child.pid!], pinning?.server);
        resolve({ port: JSON.parse(line).port, pid: child.pid! });
      }
    });
    child.once('exit', (code) => reject(new Error(`${role} exited with ${code}`)));
  });
}

async function spawnApp(databaseUrl: string, poolSize: number): Promise<{ port: number; pid: number; metricsPort: number }> {
  const port = await freePort();
  const metricsPort = await freePort();
  const child = spawnNode([compiledServer()], {
    // One process each (WORKERS 1): --processes plays the several processes (or machines) behind a balancer.
    ...productionAppEnv(port, databaseUrl, 'bench-exam'),
    DATABASE_POOL_SIZE: String(poolSize),
    EXAM_SWEEP_SECONDS: '30',
    // The event-loop delay of each phase is read from there (nodejs_eventloop_lag_p99_seconds).
    METRICS_PORT: String(metricsPort),
  }, (process.env.BENCH_APP_NODE_ARGS ?? '').split(' ').filter(Boolean));
  child.stdout!.resume();
  pin([child.pid!], pinning?.server);
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error('the app exited while starting');
    try {
      if ((await call(port, 'GET', '/readyz')).status === 200) return { port, pid: child.pid!, metricsPort };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('the app did not become ready within 60 s');
}


// The simulation ---------------------------------------------------------------------------------

function withDatabase(url: string, database: string) {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

/** The load generator (bench-exam-load.ts) in a process of its own: one command at a time over its IPC channel. */
function startLoadGenerator(setup: LoadSetup) {
  const child = fork(fileURLToPath(new URL('./bench-exam-load.ts', import.meta.url)), [GENERATOR_FLAG], {
    cwd: ROOT,
    execArgv: ['--import', 'tsx'],
    // Typed arrays (the exams, the acknowledged answers) cross as they are.
    serialization: 'advanced',
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  children.push(child);
  generatorPid = child.pid!;
  pin([child.pid!], pinning?.generator);
  let pending: { resolve(value: unknown): void; reject(error: unknown): void } | undefined;
  let failure: unknown;
  let ready: () => void = () => {};
  const started = new Promise<void>((resolve) => (ready = resolve));
  child.on('message', (message) => {
    if (message === 'ready') return ready();
    const waiting = pending;
    pending = undefined;
    waiting?.resolve(message);
  });
  child.on('exit', (code, signal) => {
    failure = new Error(`the load generator exited (${signal ?? code})`);
    pending?.reject(failure);
    ready();
  });
  child.send(setup);
  return {
    run: async <T>(command: Command) => {
      await started;
      return new Promise<T>((resolve, reject) => {
        if (failure) return reject(failure);
        pending = { resolve: resolve as (value: unknown) => void, reject };
        child.send(command);
      });
    },
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
    },
  };
}

interface HeldResult {
  saves: Tally;
  syncs: Tally;
  skipped: number;
  lateMs: number;
  /** The generator's connections opened and closed since the previous phase, by why. */
  connections: Record<string, number>;
}

/**
 * The metrics ports are read on connections of their own, closed after each read: a kept-alive one,
 * idle for about the server's keep-alive timeout (5 s) between two reads, can be closed by the
 * server just as it is reused (ECONNRESET).
 */
const metricsAgent = new http.Agent({ keepAlive: false });

/** Each app process's event-loop delay p99 (ms) since the previous read (prom-client resets it at each scrape). */
async function eventLoopP99(metricsPorts: number[]): Promise<number[]> {
  return Promise.all(
    metricsPorts.map(async (port) => {
      const text = String((await call(port, 'GET', '/metrics', undefined, undefined, 30_000, undefined, metricsAgent)).json);
      return Number(/^nodejs_eventloop_lag_p99_seconds (\S+)/m.exec(text)?.[1] ?? NaN) * 1000;
    }),
  );
}

/**
 * The saves the app processes accepted so far, by bucket of their own timing (Fastify's, from the
 * request's start to its answer; the metrics' histogram, summed): upper bound in seconds -> count.
 */
async function savesTimedByApp(metricsPorts: number[]): Promise<Map<string, number>> {
  const buckets = new Map<string, number>();
  for (const port of metricsPorts) {
    const text = String((await call(port, 'GET', '/metrics', undefined, undefined, 30_000, undefined, metricsAgent)).json);
    for (const [, labels, count] of text.matchAll(/^contest_http_request_duration_seconds_bucket\{([^}]*)\} (\S+)/gm)) {
      if (!labels!.includes('method="POST"') || !labels!.includes('route="/api/store-answers-exam"') || !labels!.includes('status_class="2xx"')) continue;
      const le = /le="([^"]+)"/.exec(labels!)![1]!;
      buckets.set(le, (buckets.get(le) ?? 0) + Number(count));
    }
  }
  return buckets;
}

/** "p99 <= x s" of the saves accepted between two reads of savesTimedByApp (the histogram's resolution). */
function appP99(before: Map<string, number>, after: Map<string, number>): string {
  const total = (after.get('+Inf') ?? 0) - (before.get('+Inf') ?? 0);
  if (total === 0) return 'none accepted';
  for (const [le, count] of after) {
    if (le !== '+Inf' && count - (before.get(le) ?? 0) >= 0.99 * total) return `p99 <= ${le} s`;
  }
  return 'p99 above the last bucket (15 s)';
}

/**
 * Requests the app processes have refused so far, summed by reason: their load shedder's
 * (contest_http_requests_shed_total) and the save batcher's (contest_exam_saves_rejected_total).
 */
async function refusedSoFar(metricsPorts: number[]): Promise<Record<string, number>> {
  const refused: Record<string, number> = {};
  for (const port of metricsPorts) {
    const text = String((await call(port, 'GET', '/metrics', undefined, undefined, 30_000, undefined, metricsAgent)).json);
    for (const [, metric, reason, count] of text.matchAll(/^contest_(http_requests_shed|exam_saves_rejected)_total\{reason="(\w+)"\} (\S+)/gm)) {
      const key = `${metric === 'http_requests_shed' ? 'shedder' : 'save queue'} ${reason}`;
      refused[key] = (refused[key] ?? 0) + Number(count);
    }
  }
  return refused;
}

async function main() {
  if (options.help) {
    // The comment at the top of this file is the usage.
    const lines = readFileSync(SCRIPT, 'utf8').split('\n');
    console.log(lines.slice(0, lines.findIndex((line) => !line.startsWith('//'))).map((line) => line.replace(/^\/\/ ?/, '')).join('\n'));
    return;
  }
  // Ceilings end on SIGTERM through exit(), so that a --cpu-prof profile is written.
  if (options.role) process.on('SIGTERM', () => process.exit(0));
  if (options.role === 'ceiling-http') return runBareHttpCeiling();
  if (options.role === 'noise') return runNoise(bounded('noise', options.noise, 1, 100));
  if (options.role === 'ceiling-fastify') return runFastifyUpdateCeiling(options.database!, bounded('pool-size', options['pool-size'], 1, 200));

  const processes = bounded('processes', options.processes, 1, 16);
  const heldLevels = options.held.split(',').map((level) => bounded('held', level.trim(), 10, 1_000_000));
  const holdSeconds = bounded('hold', options.hold, 5, 600);
  const startCount = bounded('starts', options.starts, 10, 50_000);
  const saturateSeconds = bounded('saturate', options.saturate, 3, 120);
  const ceilingSeconds = bounded('ceiling', options.ceiling, 3, 60);
  const overloadSeconds = bounded('overload-seconds', options['overload-seconds'], 3, 120);
  const overloadFactors = options.overload === '0' ? [] : options.overload.split(',').map((factor) => Number(factor));
  if (overloadFactors.some((factor) => !(factor > 0 && factor <= 20))) throw new Error('--overload takes multiples of the capacity between 0 and 20 (0 = no overload phase)');
  const noise = bounded('noise', options.noise, 0, 100);
  const concurrency = bounded('concurrency', options.concurrency, 1, 512);
  const connections = bounded('connections', options.connections, 1, 8192);
  const overloadConnections = bounded('overload-connections', options['overload-connections'], 1, 16_384);
  if (pinning && cores < 2) throw new Error('--pin needs at least 2 cores');
  const poolSize = bounded('pool-size', options['pool-size'], 1, 200);
  const compressed = options.compressed;
  if (options.only !== undefined && options.only !== 'start') throw new Error('--only takes "start" (the start storm alone)');
  const onlyStart = options.only === 'start';
  const contestantCount = onlyStart ? startCount : compressed ? bounded('contestants', options.contestants, 10, 50_000) : Math.max(...heldLevels);
  if (startCount > contestantCount) throw new Error('--starts must not exceed the contestants');

  // PostgreSQL: a cluster of our own, or a database on BENCH_DATABASE_URL's server.
  let cluster: Cluster | undefined;
  let clusterDir: string | undefined;
  let adminUrl = process.env.BENCH_DATABASE_URL;
  if (adminUrl) {
    if (!/^postgres(ql)?:\/\/[^/]*@?(127\.0\.0\.1|localhost)(:\d+)?\//.test(adminUrl)) throw new Error('BENCH_DATABASE_URL must point at a PostgreSQL server on loopback');
  } else {
    clusterDir = mkdtempSync(join(tmpdir(), 'bench-exam-pg-'));
    // shared_buffers sized for the exams in progress (the default 128 MB holds about 60,000 rows
    // with their TOAST), as a database server for this load would be.
    cluster = await startCluster(clusterDir, await freePort(), ['shared_preload_libraries=pg_stat_statements', 'shared_buffers=1GB', 'pg_stat_statements.track=all']);
    // Whatever happens, the cluster does not outlive this process.
    process.on('exit', () => cluster?.stopNow());
    postmasterPid = Number(readFileSync(join(clusterDir, 'pgdata', 'postmaster.pid'), 'utf8').split('\n')[0]);
    adminUrl = cluster.urlOf('postgres');
    // Its backends, forked later by the postmaster, inherit the postmaster's cores.
    pin([...postgresCpuSeconds().keys()], pinning?.server);
  }
  pin([process.pid], pinning?.generator);
  const databaseName = `bench_exam_${process.pid}`;
  // The app (and the ceiling's route) reach their own cluster over its Unix socket, as an app on
  // the database's machine would be set up (README, Running on PostgreSQL); --tcp for loopback TCP.
  const databaseUrl = cluster && !options.tcp ? cluster.socketUrlOf(databaseName) : withDatabase(adminUrl, databaseName);
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${databaseName}`);
  let load: ReturnType<typeof startLoadGenerator> | undefined;
  let stopSite: (() => Promise<void>) | undefined;
  console.log(
    `Exam-day benchmark: ${compressed ? `${contestantCount} exams standing for` : 'exams in progress ='} held loads of ${heldLevels.map((level) => fmt(level, 0)).join(' and ')} contestants ` +
      `for ${holdSeconds} s each, ${startCount} starts, ${processes} app process(es), concurrency ${concurrency}, pool ${poolSize} per process, ${connections} load-generator connections per process ` +
      `(${overloadConnections} in the held loads and the overload)`,
  );
  console.log(
    pinning
      ? `Pinned (taskset): the load generator and this process on core ${pinning.generator}, the app, the ceilings and ${cluster ? 'PostgreSQL' : 'nothing else (PostgreSQL is not ours)'} on ${pinning.server}`
      : `Not pinned: the load generator, the app and PostgreSQL share the ${cores} cores`,
  );
  if (noise > 0) {
    // Not through spawnCeiling: no BENCH_APP_NODE_ARGS (a profile of the burner is of no use), not pinned.
    spawnNode([SCRIPT, '--role', 'noise', '--noise', String(noise)], {}).stdout!.resume();
    console.log(`Noise: a CPU burner in a process of its own, busy ${noise} % of one core for the whole run`);
  }
  const setting = async (name: string) => (await admin.query(`SHOW ${name}`)).rows[0][name];
  console.log(
    `Database ${databaseName} on ${cluster ? `a cluster of its own (port ${cluster.port})` : 'BENCH_DATABASE_URL'}: PostgreSQL ${await setting('server_version')}, ` +
      `synchronous_commit=${await setting('synchronous_commit')}, shared_buffers=${await setting('shared_buffers')}; load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`,
  );

  try {
    // Content, contestants and sessions, straight into the database (the SMS flow is not what is measured).
    const { openDatabase } = await import('../src/server/db/client');
    const { migrate } = await import('../src/server/db/migrate');
    const { seed } = await import('../src/server/db/seed/seed');
    const { systemClock } = await import('../src/server/lib/clock');
    const { hashToken, newToken } = await import('../src/server/lib/tokens');
    const database = await openDatabase({ databaseUrl, dataDir: tmpdir(), poolSize: 4 });
    await migrate(database.db);
    await seed(database.db, { clock: systemClock, demoWindow: true, demoAccounts: false });
    await database.close();
    const pool = new pg.Pool({ connectionString: databaseUrl, max: 4 });
    pool.on('error', () => {}); // its idle connections end with the database at the end
    if (cluster) await pool.query('CREATE EXTENSION pg_stat_statements');
    // An exam of an hour, so that none ends during the run (the contest's setting, 10 s to 2 h).
    await pool.query('UPDATE contests SET exam_duration_seconds = 3600 WHERE is_current');
    const contest = (await pool.query('SELECT id, exam_duration_seconds, questions_per_exam FROM contests WHERE is_current')).rows[0];
    const schools = (await pool.query('SELECT id, district_id FROM schools ORDER BY id')).rows as { id: number; district_id: number }[];
    const groups = (
      await pool.query(`SELECT g.id, min(r.id) AS room, array_agg(DISTINCT b.id) AS books
                        FROM class_groups g JOIN class_rooms r ON r.class_group_id = g.id
                        JOIN books b ON b.class_group_id = g.id AND b.contest_id = (SELECT id FROM contests WHERE is_current)
                        GROUP BY g.id ORDER BY g.id`)
    ).rows as { id: number; room: number; books: number[] }[];
    const setupStarted = performance.now();
    // Contestant i: phone 08 + i, token secret + i (only its hash stored), spread over the schools and class groups.
    const secret = randomBytes(12).toString('base64url');
    const tokenOf = (i: number) => `${secret}${i}`;
    const groupOf = (i: number) => groups[i % groups.length]!;
    const bookOf = (i: number) => groupOf(i).books[Math.floor(i / groups.length) % groupOf(i).books.length]!;
    await pool.query(`INSERT INTO users (phone, password_hash, role) SELECT '08' || lpad(i::text, 8, '0'), 'bench', 'parent' FROM generate_series(0, $1::int - 1) i`, [contestantCount]);
    await pool.query(
      `INSERT INTO sessions (user_id, token_hash, expires_at)
       SELECT id, encode(sha256(convert_to($1 || substr(phone, 3)::int::text, 'UTF8')), 'hex'), now() + interval '1 day' FROM users WHERE phone LIKE '08%'`,
      [secret],
    );
    if (hashToken(tokenOf(7)) !== (await pool.query(`SELECT s.token_hash FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.phone = '0800000007'`)).rows[0].token_hash) {
      throw new Error('the tokens made in SQL do not match lib/tokens.ts');
    }
    await pool.query(
      `INSERT INTO contestants (user_id, position, fullname, district_id, school_id, class_group_id, class_room_id)
       SELECT u.id, 1, 'Thí sinh ' || t.i, ($4::int[])[t.i % $6 + 1], ($5::int[])[t.i % $6 + 1], ($1::int[])[t.i % $3 + 1], ($2::int[])[t.i % $3 + 1]
       FROM (SELECT substr(phone, 3)::int AS i, id FROM users WHERE phone LIKE '08%') t JOIN users u ON u.id = t.id`,
      [groups.map((g) => g.id), groups.map((g) => g.room), groups.length, schools.map((s) => s.district_id), schools.map((s) => s.id), schools.length],
    );
    await pool.query(`CREATE TABLE bench_people (i integer PRIMARY KEY, user_id integer NOT NULL, contestant_id integer NOT NULL, book_id integer NOT NULL)`);
    await pool.query(
      `INSERT INTO bench_people SELECT substr(u.phone, 3)::int, u.id, c.id, ($1::int[])[substr(u.phone, 3)::int + 1]
       FROM contestants c JOIN users u ON u.id = c.user_id WHERE u.phone LIKE '08%'`,
      [Array.from({ length: contestantCount }, (_, i) => bookOf(i))],
    );
    // Papers drawn as the app draws them (exams/repo.ts drawQuestions, service.ts paperOf): the
    // book's questions in a random order, each with its answers shuffled, the key apart; 100 per
    // book, each exam inserted in SQL takes one of them, so that its row has the real size.
    const PAPERS_PER_BOOK = 100;
    await pool.query(
      `CREATE TABLE bench_papers AS
       SELECT row_number() OVER () - 1 AS id, b.id AS book_id, q.questions, q.answer_key
       FROM (SELECT id FROM books WHERE contest_id = (SELECT id FROM contests WHERE is_current)) b CROSS JOIN generate_series(1, $2::int) n
       CROSS JOIN LATERAL (
         SELECT jsonb_agg(jsonb_build_object('id', p.id, 'value', p.value, 'answers', p.answers) ORDER BY random()) AS questions,
                jsonb_object_agg(p.id::text, p.correct) FILTER (WHERE p.correct IS NOT NULL) AS answer_key
         FROM (
           SELECT pq.id, pq.value,
                  (SELECT jsonb_agg(jsonb_build_object('id', a.id, 'value', a.value) ORDER BY random()) FROM answers a WHERE a.question_id = pq.id) AS answers,
                  (SELECT min(a.id) FROM answers a WHERE a.question_id = pq.id AND a.is_correct) AS correct
           FROM (SELECT id, value FROM questions WHERE book_id = b.id AND NOT is_practice AND n > 0 ORDER BY random() LIMIT $1) pq
         ) p
       ) q
       WHERE q.questions IS NOT NULL`,
      [contest.questions_per_exam, PAPERS_PER_BOOK],
    );
    const paperRows = (await pool.query(`SELECT id, book_id, questions FROM bench_papers ORDER BY id`)).rows as { id: number; book_id: number; questions: { id: number; answers: { id: number }[] }[] }[];
    const papers: Paper[] = paperRows.map((row) => ({ questions: row.questions.map((q) => q.id), answers: row.questions.map((q) => q.answers.map((a) => a.id)) }));
    const papersOfBook = new Map<number, number[]>();
    for (const row of paperRows) papersOfBook.set(row.book_id, [...(papersOfBook.get(row.book_id) ?? []), Number(row.id)]);
    const paperIndex = new Int32Array(contestantCount);
    for (let i = 0; i < contestantCount; i += 1) {
      const ofBook = papersOfBook.get(bookOf(i));
      if (!ofBook) throw new Error(`book ${bookOf(i)} has no questions`);
      paperIndex[i] = ofBook[i % ofBook.length]!;
    }
    // The organiser whose browser polls the dashboard during the held load (--dashboard).
    const organiserToken = newToken();
    const organiser = (await pool.query(`INSERT INTO users (phone, password_hash, role) VALUES ('0799999999', 'bench', 'organiser') RETURNING id`)).rows[0].id;
    await pool.query(`INSERT INTO sessions (user_id, token_hash, expires_at) VALUES ($1, $2, now() + interval '1 day')`, [organiser, hashToken(organiserToken)]);
    await pool.query(`CREATE TABLE bench_ceiling (id integer PRIMARY KEY, answers jsonb NOT NULL DEFAULT '{}', seq bigint NOT NULL DEFAULT 0)`);
    await pool.query(`INSERT INTO bench_ceiling (id) SELECT generate_series(1, $1::int)`, [contestantCount]);
    await pool.query('VACUUM ANALYZE');
    console.log(`Set-up: ${fmt(contestantCount, 0)} parents, sessions and contestants, ${papers.length} papers in ${fmt((performance.now() - setupStarted) / 1000)} s`);

    const apps = await Promise.all(Array.from({ length: processes }, () => spawnApp(databaseUrl, poolSize)));
    const appPids = apps.map((app) => app.pid);
    // The clients' way in: the app processes themselves, or nginx in front of them (--nginx).
    const site = options.nginx ? await startNginxSite(apps.map((app) => app.port), cores) : undefined;
    if (site) {
      stopSite = site.stop;
      nginxPids = site.pids;
      pin(site.pids(), pinning?.server);
      console.log(`nginx (deploy/nginx.conf, without TLS) on :${site.port} in front of them, ${cores} workers; every client request goes through it`);
    }
    const ports = site ? [site.port] : apps.map((app) => app.port);
    const portOf = (i: number) => ports[i % ports.length]!;
    const appMemory = () =>
      appPids.map(memoryOf).reduce((sum, memory) => ({ rssMb: sum.rssMb + memory.rssMb, peakMb: sum.peakMb + memory.peakMb }), { rssMb: 0, peakMb: 0 });
    const memoryPeaks: Record<string, number> = {};
    const sampleMemory = (phase: string) => {
      const timer = setInterval(() => {
        memoryPeaks[phase] = Math.max(memoryPeaks[phase] ?? 0, appMemory().rssMb);
      }, 250);
      return () => clearInterval(timer);
    };
    console.log(`App pids ${appPids.join(', ')} on ${apps.map((app) => ':' + app.port).join(', ')}; idle RSS ${fmt(appMemory().rssMb)} MB in all`);

    /** What a phase cost: CPU per request, the apps' event-loop delay p99, the exams table's writes and PostgreSQL's top statements. */
    const phaseMeter = async () => {
      const cpu = cpuMeter(appPids);
      await eventLoopP99(apps.map((app) => app.metricsPort));
      if (cluster) await pool.query('SELECT pg_stat_statements_reset()');
      const tableStats = async () => {
        await pool.query('SELECT pg_stat_clear_snapshot()');
        return (await pool.query(`SELECT n_tup_upd, n_tup_hot_upd, autovacuum_count, autoanalyze_count FROM pg_stat_user_tables WHERE relname = 'exams'`)).rows[0];
      };
      const before = await tableStats();
      return async (requests: number) => {
        const cpuLine = cpu(requests);
        const lag = await eventLoopP99(apps.map((app) => app.metricsPort));
        const after = await tableStats();
        const updates = Number(after.n_tup_upd) - Number(before.n_tup_upd);
        const hot = Number(after.n_tup_hot_upd) - Number(before.n_tup_hot_upd);
        const lines = [
          cpuLine,
          `event-loop delay p99 (app, prom-client): ${lag.map((ms) => fmt(ms)).join(' / ')} ms; exams updated ${updates} (${fmt((hot / Math.max(1, updates)) * 100, 0)}% HOT), ` +
            `autovacuum ${Number(after.autovacuum_count) - Number(before.autovacuum_count)}, autoanalyze ${Number(after.autoanalyze_count) - Number(before.autoanalyze_count)}`,
        ];
        if (cluster) {
          const top = await pool.query(
            `SELECT calls, total_exec_time AS total, mean_exec_time AS mean, left(regexp_replace(query, '\\s+', ' ', 'g'), 100) AS query
             FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = current_database()) ORDER BY total_exec_time DESC LIMIT 12`,
          );
          lines.push('PostgreSQL time by statement (pg_stat_statements):');
          for (const row of top.rows) lines.push(`  ${fmt(row.total, 0).padStart(8)} ms  ${String(row.calls).padStart(7)} calls  ${fmt(row.mean, 3).padStart(8)} ms each  ${row.query}`);
        }
        return { lines, lagP99: Math.max(...lag) };
      };
    };

    // 1. Ceilings --------------------------------------------------------------------------------
    const bareStats = new Stats('bare node:http');
    const ceilingSaves = new Stats('fastify + 1 PK UPDATE (jsonb)');
    let ceilingCpu = '';
    if (!onlyStart) {
      const bare = await spawnCeiling('ceiling-http');
      const fastify = await spawnCeiling('ceiling-fastify', ['--database', databaseUrl, '--pool-size', String(poolSize)]);
      const sampleAnswers = Array.from({ length: 20 }, (_, i) => ({ question_id: 100 + i, answer_id: 400 + i }));
      const bareJob = () => call(bare.port, 'POST', '/save', { id: 1, answers: sampleAnswers });
      await closedLoop(2, concurrency, bareJob); // warm-up
      bareStats.startedAt = performance.now();
      let cpu = cpuMeter(bare.pid, false);
      await closedLoop(ceilingSeconds, concurrency, () => bareStats.time(bareJob));
      bareStats.stop();
      printTable('Ceiling 1a: bare node:http answering a small JSON', [bareStats]);
      console.log(`  ${cpu(bareStats.latencies.length)}`);
      let ceilingRow = 0;
      const ceilingJob = () => call(fastify.port, 'POST', '/save', { id: (ceilingRow++ % contestantCount) + 1, answers: sampleAnswers });
      await closedLoop(2, concurrency, ceilingJob);
      ceilingSaves.startedAt = performance.now();
      cpu = cpuMeter(fastify.pid, false);
      await closedLoop(ceilingSeconds, concurrency, () => ceilingSaves.time(ceilingJob));
      ceilingSaves.stop();
      printTable('Ceiling 1b: minimal Fastify route, one primary-key UPDATE of a jsonb row', [ceilingSaves]);
      ceilingCpu = cpu(ceilingSaves.latencies.length);
      console.log(`  ${ceilingCpu}`);
      for (const child of children.slice(-2)) child.kill('SIGTERM'); // the ceilings are done: their processes would only take memory
    }

    // 2. Start storm: contestants 0 .. startCount-1 -------------------------------------------------
    let stop = sampleMemory('start storm');
    let meter = await phaseMeter();
    const starts = new Stats('POST /api/start-exam');
    const started: { examId: number; slug: string; paper: Paper | undefined }[] = Array.from({ length: startCount }, () => ({ examId: 0, slug: '', paper: undefined }));
    const childIdOf = new Map((await pool.query('SELECT i, contestant_id FROM bench_people WHERE i < $1', [startCount])).rows.map((row) => [row.i as number, row.contestant_id as number]));
    await runAll(startCount, concurrency, async (i) => {
      const reply = await starts.time(() => call(portOf(i), 'POST', '/api/start-exam', { book_id: bookOf(i), child_id: childIdOf.get(i) }, tokenOf(i)));
      if (reply?.status === 200) started[i] = { examId: reply.json.exam_id, slug: reply.json.slug, paper: undefined };
    });
    starts.stop();
    const startCpu = await meter(starts.latencies.length);
    const loads = new Stats('GET /api/examing');
    await runAll(startCount, concurrency, async (i) => {
      const exam = started[i]!;
      if (!exam.slug) return;
      const reply = await loads.time(() => call(portOf(i), 'GET', `/api/examing?book_id=${bookOf(i)}&child_id=${childIdOf.get(i)}&slug_exam=${exam.slug}`, undefined, tokenOf(i)));
      const questions = reply?.status === 200 ? (reply.json.data.data_questions as { id: number; answers: { id: number }[] }[]) : undefined;
      if (questions) exam.paper = { questions: questions.map((q) => q.id), answers: questions.map((q) => q.answers.map((a) => a.id)) };
    });
    loads.stop();
    stop();
    printTable(`Start storm: ${startCount} contestants press 'Vào thi', then load the exam`, [starts, loads]);
    // Their start (or its first load) failed: no exam to save, re-sync or submit (counted in the start storm's errors).
    const leftOut = started.filter((exam) => !exam.paper).length;
    if (leftOut > 0) console.log(`  ${leftOut} contestants without an exam (start or first load failed): left out of the held load, the saturation, the overload and the submits`);
    for (const line of startCpu.lines) console.log(`  ${line}`);
    if (onlyStart) {
      console.log(`\nSummary (load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')} at the end${noise > 0 ? `; noise ${noise} % of one core` : ''})`);
      console.log(`  start storm: ${starts.latencies.length} starts in ${fmt(starts.seconds)} s (${fmt(starts.rate, 0)}/s), p99 ${fmt(starts.percentile(99))} ms, ${starts.errors} errors`);
      console.log(`    ${startCpu.lines[0]}`);
      await pool.end();
      process.exitCode = starts.errors + loads.errors > 0 ? 1 : 0;
      return;
    }
    // The started exams' papers are their own (drawn by the app): appended to the papers.
    const firstOwnPaper = papers.length;
    for (const exam of started) if (exam.paper) papers.push(exam.paper);
    load = startLoadGenerator({ ports, connections, secret, total: contestantCount, papers });
    {
      let own = firstOwnPaper;
      const examIds = new Int32Array(startCount);
      const paperOfStarted = new Int32Array(startCount);
      started.forEach((exam, i) => {
        examIds[i] = exam.paper ? exam.examId : 0;
        paperOfStarted[i] = exam.paper ? own++ : 0;
        if (exam.paper) paperIndex[i] = paperOfStarted[i]!;
      });
      await load.run({ type: 'add', from: 0, examIds, slugs: started.map((exam) => exam.slug), papers: paperOfStarted });
    }

    /** Exams in progress for contestants below `count`, inserted set-based from the papers (those of the start storm exist). */
    let examsUpTo = startCount;
    const ensureExams = async (count: number) => {
      if (count <= examsUpTo) return;
      const began = performance.now();
      for (let from = examsUpTo; from < count; from += 20_000) {
        const to = Math.min(count, from + 20_000);
        const indices = Array.from({ length: to - from }, (_, k) => from + k);
        await pool.query(
          `INSERT INTO exams (slug, user_id, contest_id, contestant_id, book_id, attempt, start_time, end_time, questions, answer_key)
           SELECT md5(random()::text || x.i), x.user_id, $3, x.contestant_id, x.book_id, 1, x.started, x.started + make_interval(secs => $4), x.questions, x.answer_key
           FROM (SELECT p.i, p.user_id, p.contestant_id, bp.book_id, bp.questions, bp.answer_key, now() - random() * interval '2 minutes' AS started
                 FROM unnest($1::int[], $2::int[]) v(i, paper) JOIN bench_people p ON p.i = v.i JOIN bench_papers bp ON bp.id = v.paper) x`,
          [indices, indices.map((i) => paperIndex[i]!), contest.id, contest.exam_duration_seconds],
        );
        const rows = (
          await pool.query(`SELECT p.i, e.id, e.slug FROM bench_people p JOIN exams e ON e.contestant_id = p.contestant_id AND e.status = 2 WHERE p.i >= $1 AND p.i < $2 ORDER BY p.i`, [from, to])
        ).rows as { i: number; id: number; slug: string }[];
        if (rows.length !== to - from) throw new Error(`expected ${to - from} exams, found ${rows.length}`);
        await load!.run({ type: 'add', from, examIds: Int32Array.from(rows, (row) => row.id), slugs: rows.map((row) => row.slug), papers: Int32Array.from(indices, (i) => paperIndex[i]!) });
      }
      examsUpTo = count;
      // As on an exam morning once autovacuum has been by: visibility and statistics of the new rows.
      await pool.query('VACUUM ANALYZE exams');
      // The set-up's bulk of WAL written out now, not by a checkpoint in the middle of the held load
      // (over a morning it would have been spread out).
      await pool.query('CHECKPOINT');
      console.log(`\n${fmt(count, 0)} exams in progress now (${fmt(count - startCount, 0)} inserted in SQL, in ${fmt((performance.now() - began) / 1000)} s)`);
    };

    // 3. Held load (open loop), at each level ---------------------------------------------------------
    if (overloadConnections > connections && (heldLevels.length > 0 || overloadFactors.length > 0)) {
      const began = performance.now();
      const widened = await load.run<{ connections: number[] }>({ type: 'widen', connections: overloadConnections });
      console.log(`\nLoad generator: ${widened.connections.join(' + ')} connections open for the held loads and the overload (opened 64 at a time in ${fmt((performance.now() - began) / 1000)} s)`);
    }
    const heldRuns: { level: number; dashboard: Stats | undefined; saves: Stats; syncs: Stats; mix: Stats; lines: string[]; skipped: number; unsent: number; lateMs: number; refused: number; lagP99: number; shedding: string | undefined }[] = [];
    const heldPasses = heldLevels.flatMap((level) => (options.dashboard ? [{ level, dashboard: false }, { level, dashboard: true }] : [{ level, dashboard: false }]));
    // The set warm at the start of each level (and of the overload): the app closes connections idle
    // for its keep-alive timeout (72 s), and a level that follows a lighter one would otherwise open
    // thousands at once, a step no steady state has (README, exam day: that collapse, measured).
    const rewarm = async () => {
      if (overloadConnections > connections) await load!.run({ type: 'widen', connections: overloadConnections });
    };
    for (const { level, dashboard } of heldPasses) {
      const count = Math.min(level, contestantCount);
      await ensureExams(count);
      await rewarm();
      // Compressed: each exam stands for level / count contestants, its rhythm compressed that much.
      const compress = level / count;
      if (compress > 60) throw new Error(`--held ${level} needs at least ${Math.ceil(level / 60)} --contestants`);
      stop = sampleMemory(`held ${fmt(level, 0)}`);
      const saveEveryMs = 30_000 / compress;
      const syncEveryMs = 60_000 / compress;
      // An organiser's dashboard, polled every 2 s on each app process in turn, as a browser would.
      // Each process answers it once before the timing (its first answer compiles the route's serializer).
      const dashboardStats = dashboard ? new Stats('GET /api/admin/exam-days/dashboard') : undefined;
      if (dashboard) await Promise.all(ports.map((port) => call(port, 'GET', '/api/admin/exam-days/dashboard', undefined, organiserToken)));
      let polls = 0;
      const poller = dashboardStats
        ? setInterval(() => {
            const port = ports[polls++ % ports.length]!;
            void dashboardStats.time(() => call(port, 'GET', '/api/admin/exam-days/dashboard', undefined, organiserToken));
          }, 2_000)
        : undefined;
      if (dashboardStats) dashboardStats.startedAt = performance.now();
      meter = await phaseMeter();
      const overflowsBefore = listenOverflows();
      const result = await load.run<HeldResult>({ type: 'held', count, seconds: holdSeconds, saveEveryMs, syncEveryMs });
      clearInterval(poller);
      dashboardStats?.stop();
      stop();
      const heldSaves = Stats.of('POST /api/store-answers-exam', result.saves, holdSeconds);
      const heldSyncs = Stats.of('GET /api/examing/get-time', result.syncs, holdSeconds);
      const heldMix = Stats.of('mix (saves + re-syncs)', result.saves, holdSeconds, result.saves.latencies.concat(result.syncs.latencies));
      heldMix.errors += result.syncs.errors;
      const refused = result.saves.refused.length + result.syncs.refused.length;
      const measured = await meter(heldMix.latencies.length);
      printTable(
        `Held load of ${fmt(level, 0)} contestants${compress > 1 ? ` (${fmt(count, 0)} exams compressed x${fmt(compress)})` : ` = ${fmt(count, 0)} exams in progress`}: ` +
          `autosave every ${fmt(saveEveryMs / 1000, 2)} s, re-sync every ${fmt(syncEveryMs / 1000, 2)} s, open loop, over ${processes} process(es)${dashboard ? ', the dashboard polled every 2 s' : ''}`,
        [heldSaves, heldSyncs, heldMix, ...(dashboardStats ? [dashboardStats] : [])],
      );
      for (const line of measured.lines) console.log(`  ${line}`);
      const unsent = result.saves.unsent + result.syncs.unsent;
      console.log(
        `  contestants held = autosaves/s x 30 = ${fmt(heldSaves.rate * 30, 0)}; answered 503: ${refused}; not sent (no free connection within 30 s): ${unsent}; ` +
          `late dispatch max ${fmt(result.lateMs)} ms; skipped (the contestant's previous save unanswered) ${result.skipped}`,
      );
      console.log(`  ${tailBySecond(result.saves, result.syncs)}; listen-queue overflows (kernel, whole machine) ${listenOverflows() - overflowsBefore}`);
      console.log(`  generator's connections since the previous phase: ${Object.entries(result.connections).map(([event, n]) => `${event} ${n}`).join(', ')}`);
      if (options.timeline) console.log(`  ${timelineBySecond(result.saves, result.syncs)}`);
      // Shed cleanly: what was refused was refused quickly, and what was accepted was not held long.
      const refusals = Stats.of('503', { ...result.saves, errors: 0, samples: [] }, holdSeconds, result.saves.refused.concat(result.syncs.refused));
      const overOneSecond = heldMix.latencies.filter((ms) => ms > 1_000).length;
      const shedding = `accepted max ${fmt(heldMix.max)} ms, ${overOneSecond} accepted after more than 1 s; time to 503 p50 ${fmt(refusals.percentile(50))} ms, p99 ${fmt(refusals.percentile(99))} ms, max ${fmt(refusals.max)} ms`;
      if (refused > 0) console.log(`  shedding: ${shedding}`);
      heldRuns.push({ level, dashboard: dashboardStats, saves: heldSaves, syncs: heldSyncs, mix: heldMix, lines: measured.lines, skipped: result.skipped, unsent, lateMs: result.lateMs, refused, lagP99: measured.lagP99, shedding: refused > 0 ? shedding : undefined });
    }

    // 4. Autosave saturation ---------------------------------------------------------------------
    stop = sampleMemory('saturation');
    const commitsBefore = await commitsOf(admin, databaseName);
    meter = await phaseMeter();
    const saturatedResult = await load.run<{ saves: Tally }>({ type: 'saturate', count: examsUpTo, seconds: saturateSeconds, concurrency });
    const saturated = Stats.of('POST /api/store-answers-exam', saturatedResult.saves, saturateSeconds);
    saturated.errors += saturatedResult.saves.refused.length;
    stop();
    printTable(`Autosave saturation: ${concurrency} clients saving back to back over ${fmt(examsUpTo, 0)} exams`, [saturated]);
    const saturatedMeasure = await meter(saturated.latencies.length);
    for (const line of saturatedMeasure.lines) console.log(`  ${line}`);
    const savesPerCommit = saturated.latencies.length / Math.max(1, (await commitsOf(admin, databaseName, true)) - commitsBefore);
    console.log(`  about ${fmt(savesPerCommit)} saves per commit (the app writes the saves that arrive together in one statement)`);

    // 5. Overload: open loop at multiples of the measured capacity, probes meanwhile -----------------
    const overloadRuns: {
      factor: number;
      rate: number;
      accepted: Stats;
      acceptedSent: Stats;
      refused: Stats;
      refusedSent: Stats;
      healthz: Stats;
      readyz: Stats;
      sent: number;
      skipped: number;
      unsent: number;
      errors: number;
      lateMs: number;
      inApp: string;
      shed: string;
      loadAverage: string;
      lines: string[];
    }[] = [];
    const metricsPorts = apps.map((app) => app.metricsPort);
    if (overloadFactors.length > 0) await rewarm();
    for (const factor of overloadFactors) {
      const rate = Math.round(saturated.rate * factor);
      // A quiet pause first: the previous phase's backlog must not count against this one.
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      const healthz = new Stats('GET /healthz (probe every 100 ms)');
      const readyz = new Stats('GET /readyz (probe every 100 ms)');
      const probes: Promise<unknown>[] = [];
      const prober = setInterval(() => {
        probes.push(healthz.time(() => call(ports[0]!, 'GET', '/healthz')));
        probes.push(readyz.time(() => call(ports[0]!, 'GET', '/readyz')));
      }, 100);
      meter = await phaseMeter();
      const refusedBefore = await refusedSoFar(metricsPorts);
      const timedBefore = await savesTimedByApp(metricsPorts);
      const result = await load.run<{ saves: Tally; sent: number; skipped: number; lateMs: number }>({ type: 'overload', count: examsUpTo, seconds: overloadSeconds, savesPerSecond: rate });
      clearInterval(prober);
      const loadAverage = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
      const refusedAfter = await refusedSoFar(metricsPorts);
      const inApp = appP99(timedBefore, await savesTimedByApp(metricsPorts));
      const byApp = Object.entries(refusedAfter)
        .map(([reason, count]) => [reason, count - (refusedBefore[reason] ?? 0)] as const)
        .filter(([, count]) => count > 0);
      // Through nginx, the 503s the app did not give are nginx's (its upstream limit reached).
      const byNginx = site ? result.saves.refused.length - byApp.reduce((sum, [, count]) => sum + count, 0) : 0;
      const shed = [...byApp.map(([reason, count]) => `app ${reason} ${count}`), ...(byNginx > 0 ? [`nginx max_conns ${byNginx}`] : [])].join(', ') || 'none';
      await Promise.all(probes);
      healthz.stop();
      readyz.stop();
      const accepted = Stats.of('saves accepted (200 saved)', result.saves, overloadSeconds);
      const refused = Stats.of('saves refused (503)', { ...result.saves, errors: 0, samples: [] }, overloadSeconds, result.saves.refused);
      // The same from the moment each left the generator: the app's and the network's part alone.
      const acceptedSent = Stats.of('  accepted, from sent', { ...result.saves, errors: 0, samples: [] }, overloadSeconds, result.saves.fromSent.accepted);
      const refusedSent = Stats.of('  refused, from sent', { ...result.saves, errors: 0, samples: [] }, overloadSeconds, result.saves.fromSent.refused);
      const measured = await meter(result.sent);
      printTable(`Overload x${factor}: ${fmt(rate, 0)} saves/s sent open loop for ${overloadSeconds} s (${fmt(factor, 1)} x the saturation rate)`, [accepted, acceptedSent, refused, refusedSent, healthz, readyz]);
      for (const line of measured.lines) console.log(`  ${line}`);
      console.log(
        `  due ${result.sent}, not sent (no free connection within 30 s) ${result.saves.unsent}, skipped (the contestant's previous save unanswered) ${result.skipped}, other errors ${result.saves.errors}; ` +
          `the generator sent up to ${fmt(result.lateMs)} ms behind its schedule (counted in the latencies)`,
      );
      console.log(`  accepted saves timed by the app itself (from its reading the request): ${inApp}`);
      console.log(`  refused by: ${shed}; load average ${loadAverage}`);
      overloadRuns.push({
        factor,
        rate,
        accepted,
        acceptedSent,
        refused,
        refusedSent,
        healthz,
        readyz,
        sent: result.sent,
        skipped: result.skipped,
        unsent: result.saves.unsent,
        errors: result.saves.errors,
        lateMs: result.lateMs,
        inApp,
        shed,
        loadAverage,
        lines: measured.lines,
      });
    }

    // 6. Every acknowledged answer stored? Then the start storm's contestants submit. ----------------
    // After an overload, a quiet pause first: its backlog (and its refusals) must not count against the submits.
    if (overloadFactors.length > 0) await new Promise((resolve) => setTimeout(resolve, 3_000));
    const state = await load.run<{ ackedSeq: Int32Array; ackedAnswered: Int8Array }>({ type: 'state' });
    let acknowledgedAnswers = 0;
    let lost = 0;
    const stored = await pool.query(`SELECT p.i, e.id, e.status, e.answers, e.save_seq FROM bench_people p JOIN exams e ON e.contestant_id = p.contestant_id AND e.status = 2`);
    const rowOf = new Map<number, { id: number; answers: Record<string, number>; save_seq: number }>(stored.rows.map((row) => [row.i, row]));
    /** The first contestants with a lost answer, and why: to tell a lost write from an exam that left the check. */
    const losses: string[] = [];
    for (let i = 0; i < examsUpTo; i += 1) {
      const answered = state.ackedAnswered[i]!;
      if (answered === 0) continue;
      const paper = papers[paperIndex[i]!]!;
      const row = rowOf.get(i);
      let lostHere = 0;
      for (let j = 0; j < answered; j += 1) {
        acknowledgedAnswers += 1;
        if (!row || row.answers[String(paper.questions[j])] !== answerOf(paper, i, j) || row.save_seq < state.ackedSeq[i]!) lostHere += 1;
      }
      lost += lostHere;
      if (lostHere && losses.length < 10) {
        const why = !row ? 'no exam in progress' : row.save_seq < state.ackedSeq[i]! ? `save_seq ${row.save_seq} < acknowledged ${state.ackedSeq[i]}` : 'an answer differs';
        losses.push(`contestant ${i}${row ? ` (exam ${row.id})` : ''}: ${lostHere} of ${answered} answers, ${why}`);
      }
    }
    console.log(`\nDurability: ${acknowledgedAnswers} acknowledged answers checked in the database, ${lost} lost`);
    for (const line of losses) console.log(`  lost: ${line}`);
    if (losses.some((line) => line.includes('no exam in progress'))) {
      const ids = losses.map((line) => Number(/^contestant (\d+)/.exec(line)![1]));
      const { rows } = await pool.query(
        `SELECT p.i, e.id, e.status, e.save_seq, e.end_time, e.submitted_at FROM bench_people p JOIN exams e ON e.contestant_id = p.contestant_id WHERE p.i = ANY($1::int[]) ORDER BY p.i, e.id`,
        [ids],
      );
      for (const row of rows) console.log(`  lost, its exams: contestant ${row.i} exam ${row.id} status ${row.status} save_seq ${row.save_seq} end ${row.end_time?.toISOString?.()} submitted ${row.submitted_at?.toISOString?.() ?? '-'}`);
    }

    stop = sampleMemory('submit');
    const submits = new Stats('POST /api/submit-exam');
    const submitters = started.map((exam, i) => ({ exam, i })).filter(({ exam }) => exam.paper);
    await runAll(submitters.length, concurrency, async (k) => {
      const { exam, i } = submitters[k]!;
      const paper = exam.paper!;
      await submits.time(() =>
        call(
          portOf(i),
          'POST',
          '/api/submit-exam',
          {
            exam_id: exam.examId,
            slug: exam.slug,
            answers: paper.questions.map((question_id, j) => ({ question_id, answer_id: answerOf(paper, i, j) })),
            prediction: 1000 + (i % 1000),
            seq: 1_000_000_000,
          },
          tokenOf(i),
        ),
      );
    });
    submits.stop();
    stop();
    printTable("Submit: the start storm's contestants submit", [submits]);
    const finished = Number((await pool.query('SELECT count(*) FROM exams WHERE status = 1 AND points IS NOT NULL')).rows[0].count);
    await pool.end();
    const memory = appMemory();

    // Summary ------------------------------------------------------------------------------------
    const heldErrors = heldRuns.reduce((sum, run) => sum + run.mix.errors + (run.dashboard?.errors ?? 0), 0);
    const errors = starts.errors + loads.errors + heldErrors + saturated.errors + submits.errors;
    console.log(`\nSummary (load average ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')} at the end${noise > 0 ? `; noise ${noise} % of one core` : ''})`);
    console.log(`  start storm: ${starts.latencies.length} starts in ${fmt(starts.seconds)} s (${fmt(starts.rate, 0)}/s), p99 ${fmt(starts.percentile(99))} ms, ${starts.errors} errors`);
    for (const run of heldRuns) {
      console.log(
        `  held ${fmt(run.level, 0)} contestants${compressed ? ' (compressed)' : ' (as many exams in progress)'}${run.dashboard ? ' + dashboard every 2 s' : ''}: ${fmt(run.mix.rate, 0)} req/s (${fmt(run.saves.rate, 0)} saves/s), ` +
          `p50 ${fmt(run.mix.percentile(50))} ms, p99 ${fmt(run.mix.percentile(99))} ms, ${run.mix.errors} errors, ${run.refused} answered 503 (${fmt((run.refused * 100) / Math.max(1, run.mix.latencies.length + run.refused), 2)} %), ${run.unsent} not sent, ${run.skipped} skipped; event-loop p99 ${fmt(run.lagP99)} ms`,
      );
      console.log(`    ${run.lines[0]}`);
      if (run.shedding) console.log(`    shedding: ${run.shedding}`);
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
    console.log(`    = ${fmt((saturated.rate / ceilingSaves.rate) * 100, 0)}% of the single-UPDATE ceiling (${fmt(ceilingSaves.rate, 0)}/s); bare node:http ${fmt(bareStats.rate, 0)}/s`);
    console.log(`    autosave ${saturatedMeasure.lines[0]}; about ${fmt(savesPerCommit)} saves per commit`);
    console.log(`    ceiling  ${ceilingCpu}`);
    for (const run of overloadRuns) {
      console.log(
        `  overload x${run.factor} (${fmt(run.rate, 0)} saves/s due): accepted ${run.accepted.latencies.length} (${fmt(run.accepted.rate, 0)}/s) p50 ${fmt(run.accepted.percentile(50))} ms p99 ${fmt(run.accepted.percentile(99))} ms ` +
          `(from sent p99 ${fmt(run.acceptedSent.percentile(99))} ms, in the app ${run.inApp}); 503 ${run.refused.latencies.length}, time to 503 p50 ${fmt(run.refused.percentile(50))} ms p99 ${fmt(run.refused.percentile(99))} ms ` +
          `(from sent p50 ${fmt(run.refusedSent.percentile(50))} p99 ${fmt(run.refusedSent.percentile(99))} ms); other errors ${run.errors}; not sent ${run.unsent}; skipped ${run.skipped}; ` +
          `/healthz p50 ${fmt(run.healthz.percentile(50))} p99 ${fmt(run.healthz.percentile(99))} max ${fmt(Math.max(0, ...run.healthz.latencies))} ms; /readyz p99 ${fmt(run.readyz.percentile(99))} max ${fmt(Math.max(0, ...run.readyz.latencies))} ms; ` +
          `refused by: ${run.shed}; generator behind schedule up to ${fmt(run.lateMs)} ms; load average ${run.loadAverage}`,
      );
    }
    console.log(`  durability: ${lost} of ${acknowledgedAnswers} acknowledged answers lost; ${finished}/${submitters.length} submitted exams finished and scored`);
    if (leftOut > 0) console.log(`  left out: ${leftOut} of the ${startCount} start-storm contestants had no exam (their start or first load failed, counted in the start storm's errors)`);
    console.log(`  errors (all phases but the overload): ${errors}`);
    console.log(
      `  app memory: RSS peak ${Object.entries(memoryPeaks).map(([phase, mb]) => `${phase} ${fmt(mb, 0)} MB`).join(', ')}; high-water mark ${fmt(memory.peakMb, 0)} MB`,
    );
    process.exitCode = errors > 0 || lost > 0 ? 1 : (process.exitCode ?? 0);
  } finally {
    await load?.stop();
    await stopSite?.();
    for (const child of children) child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    if (!process.env.BENCH_KEEP) await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`).catch((error) => console.error('drop failed', error));
    await admin.end();
    agent.destroy();
    if (cluster && !process.env.BENCH_KEEP) {
      cluster.stopNow();
      rmSync(clusterDir!, { recursive: true, force: true });
    }
  }
}

runBenchmark(main, children);
