// Exam day under faults (issue 9): `npm run chaos [-- --only sigkill,restart,idle] [--contestants 200] [--seconds 25]`
//
// Starts its own throwaway PostgreSQL cluster (a temp dir, a free loopback port: the machine's
// server is never touched), then for each fault a fresh database, two app processes and
// --contestants contestants saving about every second through a failover balancer:
//   sigkill  one app process is killed (SIGKILL) mid-run; its contestants move to the other one;
//            a replacement is started later, as a supervisor would;
//   restart  PostgreSQL is stopped for a few seconds and started again: both processes must stay
//            up, answer 503 with a Vietnamese "try again" while it is away and serve again by themselves;
//   idle     the app's idle database connections are terminated by the server: no effect.
// After each run every save that got a success answer must be in `exams`, and every exam must
// submit and be scored. One verdict line per fault; the exit code is 1 on any loss, crash or 500.
// Bounded in time (about 2-3 minutes), loopback only; processes and the temp dir are removed at the
// end, on failure and on Ctrl-C (CHAOS_KEEP=1 keeps the temp dir with the logs).
//
// `npm run chaos -- --failover [--only sync,async] [--wal-delay 200]`: the failover drill instead
// (scripts/chaos/failover.ts, issue 27): a primary and a standby, PgBouncer, the primary's machine
// dies mid-load, the standby is promoted and PgBouncer repointed; acknowledged saves lost, time
// without writes, 5xx other than 503, processes alive. `--wal-delay` ms: the link to the standby
// holds the WAL that long (0: loopback as it is); a list (`--wal-delay 1,5,20,200`) runs the
// modes at each delay and ends with a table of the saves' times and commits per second.
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { AppProcess, freePort } from './chaos/apps';
import { lostSaves, recoverySeconds, unscored } from './chaos/check';
import { startCluster, type Cluster } from './chaos/cluster';
import { FAILOVER_AT_MS, FAILOVER_MODES, runFailover, type FailoverMode, type FailoverResult } from './chaos/failover';
import { pgbouncerVersion } from './chaos/pgbouncer';
import { Balancer, createContestants, runLoad, startExams, submitAll, Tally, type Contestant } from './chaos/contestants';

const { values: options } = parseArgs({
  options: {
    only: { type: 'string' },
    contestants: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '25' },
    failover: { type: 'boolean', default: false },
    'wal-delay': { type: 'string', default: '200' },
  },
});
const CONTESTANTS = Math.min(2000, Math.max(2, Number(options.contestants) || 200));
const LOAD_SECONDS = Math.min(120, Math.max(20, Number(options.seconds) || 25));
const SAVE_PERIOD_MS = 1000;
/** The fault comes this long after the load starts (the load is warm by then). */
const FAULT_AT_MS = 8000;
/** How long PostgreSQL stays away in the restart run. */
const DATABASE_DOWN_MS = 4000;
/** "Serve again within seconds": every contestant must have a save acknowledged within this. */
const RECOVERY_LIMIT_SECONDS = 10;
/** Delays of the WAL link of the failover drill, ms: one run of each mode per delay. */
const WAL_DELAYS_MS = [...new Set(options['wal-delay'].split(',').map((ms) => Math.min(5000, Math.max(0, Math.round(Number(ms) || 0)))))];
// Each failover run (one mode at one delay) takes 40-60 s.
const WHOLE_RUN_LIMIT_MS = options.failover ? Math.max(6, 1.5 * 2 * WAL_DELAYS_MS.length) * 60_000 : 6 * 60_000;
const VIETNAMESE = /[ăâđêôơưàáạảãằắặẳẵầấậẩẫèéẹẻẽềếệểễìíịỉĩòóọỏõồốộổỗờớợởỡùúụủũừứựửữỳýỵỷỹ]/i;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const fmt = (n: number) => n.toLocaleString('en-US');

// Everything to clean up, whatever happens -----------------------------------------------------

const dir = mkdtempSync(join(tmpdir(), 'chaos-'));
const apps: AppProcess[] = [];
let cluster: Cluster | undefined;
/** The failover drill's servers (two clusters and a PgBouncer per mode). */
const moreCleanUps: (() => void)[] = [];
let cleaned = false;

/** Synchronous, so that it also runs from an exit handler: kill the apps, stop PostgreSQL, remove the temp dir. */
function cleanUp() {
  if (cleaned) return;
  cleaned = true;
  for (const app of apps) app.kill('SIGKILL');
  cluster?.stopNow();
  for (const cleanUpMore of moreCleanUps) cleanUpMore();
  if (process.env.CHAOS_KEEP) console.log(`kept ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
process.on('exit', cleanUp);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    console.error(`\n${signal}: cleaning up`);
    process.exit(130);
  });
}
setTimeout(() => {
  console.error(`chaos: still running after ${WHOLE_RUN_LIMIT_MS / 60_000} minutes, giving up`);
  process.exit(1);
}, WHOLE_RUN_LIMIT_MS).unref();

// The faults ---------------------------------------------------------------------------------------

interface Run {
  cluster: Cluster;
  database: string;
  databaseUrl: string;
  /** The app processes of this run, in balancer order (a replacement is appended). */
  apps: AppProcess[];
  balancer: Balancer;
  tally: Tally;
  loadStartedAt: number;
}

interface FaultResult {
  /** The moment from which recovery is measured (performance.now()). */
  from: number;
  notes: string[];
  failures: string[];
}

const faults: Record<string, (run: Run) => Promise<FaultResult>> = {
  async sigkill(run) {
    await sleep(run.loadStartedAt + FAULT_AT_MS - performance.now());
    const victim = run.apps[1]!;
    victim.kill('SIGKILL');
    const from = performance.now();
    // A supervisor brings a replacement some seconds later; meanwhile the survivor serves everyone.
    await sleep(6000);
    const replacement = await AppProcess.start(`${run.database}-c`, await freePort(), run.databaseUrl, dir);
    apps.push(replacement);
    run.apps.push(replacement);
    run.balancer.targets[1] = replacement.url;
    return { from, notes: [`replacement serving ${((performance.now() - from) / 1000).toFixed(1)} s after the kill`], failures: [] };
  },

  async restart(run) {
    await sleep(run.loadStartedAt + FAULT_AT_MS - performance.now());
    const { stoppedAt, startedAt } = await run.cluster.restart(DATABASE_DOWN_MS);
    const failures: string[] = [];
    if (run.tally.count('503') === 0) failures.push('no 503 answer while the database was away');
    for (const message of run.tally.unavailableMessages) {
      if (!VIETNAMESE.test(message)) failures.push(`503 without a Vietnamese message: ${message}`);
    }
    return { from: startedAt, notes: [`database away ${((startedAt - stoppedAt) / 1000).toFixed(1)} s`], failures };
  },

  async idle(run) {
    const from = run.loadStartedAt + FAULT_AT_MS - 2000;
    let terminated = 0;
    for (let at = from; at < run.loadStartedAt + FAULT_AT_MS + 8000; at += 2000) {
      await sleep(at - performance.now());
      terminated += await run.cluster.terminateIdle(run.database);
    }
    const failures: string[] = [];
    const notes = [`${terminated} idle connections terminated`];
    if (terminated === 0) failures.push('no idle connection of the app was found to terminate');
    // A process whose event loop fell behind (a busy machine: CI runs this after the browser tests)
    // sheds requests whatever its connections do: that is the machine, not the fault, and is noted.
    const shedForLoop = (await unavailableCauses(run.apps)).get('shed event_loop') ?? 0;
    if (shedForLoop > 0) notes.push(`${shedForLoop} shed while an event loop lagged`);
    const unavailable = run.tally.count('503') + run.tally.count('timeout') - shedForLoop;
    if (unavailable > 0) failures.push(`${unavailable} requests answered 503 or timed out: a killed idle connection should be invisible`);
    return { from, notes, failures };
  },
};

/** 503 answers by cause (see AppProcess.unavailableCauses), summed over the processes still running. */
async function unavailableCauses(processes: AppProcess[]): Promise<Map<string, number>> {
  const total = new Map<string, number>();
  for (const causes of await Promise.all(processes.map((app) => app.unavailableCauses().catch(() => new Map<string, number>())))) {
    for (const [cause, n] of causes) total.set(cause, (total.get(cause) ?? 0) + n);
  }
  return total;
}

// One run: fresh database, two processes, the load, the fault, the checks ------------------------

async function runFault(name: string, fault: (run: Run) => Promise<FaultResult>): Promise<boolean> {
  const database = `chaos_${name}`;
  await cluster!.createDatabase(database);
  const databaseUrl = cluster!.urlOf(database);
  // The first process migrates and seeds the demo contest; the second starts on a ready database.
  const first = await AppProcess.start(`${database}-a`, await freePort(), databaseUrl, dir);
  apps.push(first);
  const second = await AppProcess.start(`${database}-b`, await freePort(), databaseUrl, dir);
  apps.push(second);
  const runApps = [first, second];
  const balancer = new Balancer([first.url, second.url]);
  const tally = new Tally();

  const contestants: Contestant[] = await createContestants(databaseUrl, CONTESTANTS);
  const notStarted = await startExams(contestants, balancer, tally);
  const loadStartedAt = performance.now();
  const run: Run = { cluster: cluster!, database, databaseUrl, apps: runApps, balancer, tally, loadStartedAt };
  const [, result] = await Promise.all([runLoad(contestants, balancer, tally, SAVE_PERIOD_MS, loadStartedAt + LOAD_SECONDS * 1000), fault(run)]);

  const lost = await lostSaves(databaseUrl, contestants);
  const submitted = await submitAll(contestants, balancer, tally, 30_000);
  const problems = await unscored(databaseUrl, contestants);
  const recovery = recoverySeconds(contestants, result.from);
  const crashed = runApps.filter((app) => app.crashed);
  const acknowledged = contestants.reduce((sum, c) => sum + c.ackCount, 0);
  const serverErrors = [...tally.counts].filter(([kind]) => kind.endsWith('!'));

  const failures = [...result.failures];
  if (notStarted) failures.push(`${notStarted} contestants could not start their exam`);
  if (lost.length) failures.push(`acknowledged saves lost: ${lost.slice(0, 5).join('; ')}`);
  for (const app of crashed) failures.push(`${app.name} (pid ${app.pid}) exited by itself (${app.exit?.signal ?? `code ${app.exit?.code}`}):\n${app.logTail()}`);
  for (const [kind, n] of serverErrors) failures.push(`${n} answers ${kind.replace('!', '')} (a fault is a 503, not a 500): ${tally.samples.get(kind)}`);
  if (problems.length) failures.push(`not submitted and scored: ${problems.slice(0, 5).join('; ')}`);
  if (!(recovery <= RECOVERY_LIMIT_SECONDS)) failures.push(`not every contestant was served again within ${RECOVERY_LIMIT_SECONDS} s`);

  const verdict = failures.length ? 'FAIL' : 'PASS';
  console.log(
    `${verdict} ${name}: ${fmt(CONTESTANTS)} contestants, ${fmt(acknowledged)} saves acknowledged, ${lost.length} lost, ${crashed.length} crashed, ` +
      `${submitted}/${CONTESTANTS} submitted, recovery ${Number.isFinite(recovery) ? recovery.toFixed(1) + ' s' : 'never'}` +
      ` (${[...result.notes, `failed requests: ${tally.summary()}`].join('; ')})`,
  );
  for (const failure of failures) console.log(`  - ${failure}`);
  if (failures.length) {
    for (const [kind, sample] of tally.samples) if (kind !== 'ok') console.log(`    sample ${kind}: ${sample}`);
    const causes = [...(await unavailableCauses(runApps))].map(([cause, n]) => `${cause} ${n}`);
    if (causes.length) console.log(`    503 answers by cause (processes still running): ${causes.join(', ')}`);
  }

  await Promise.all(runApps.map((app) => app.stop()));
  return failures.length === 0;
}

async function failoverDrill() {
  const modes = (options.only ?? FAILOVER_MODES.join(',')).split(',').map((name) => name.trim()).filter(Boolean);
  for (const mode of modes) if (!FAILOVER_MODES.includes(mode as FailoverMode)) throw new Error(`unknown failover mode "${mode}" (sync, async)`);
  if (!pgbouncerVersion()) {
    console.error('chaos --failover: needs pgbouncer (Debian: apt-get install pgbouncer)');
    process.exitCode = 2;
    return;
  }
  const began = performance.now();
  console.log(
    `chaos --failover: ${CONTESTANTS} contestants saving every ${SAVE_PERIOD_MS / 1000} s for ${LOAD_SECONDS} s per mode over two app processes ` +
      `and PgBouncer; the primary's machine dies at ${FAILOVER_AT_MS / 1000} s; load average ${loadavg().map((n) => n.toFixed(1)).join(' ')} on ${availableParallelism()} cores`,
  );
  let passed = true;
  const table: { walDelayMs: number; mode: string; result: FailoverResult }[] = [];
  for (const walDelayMs of WAL_DELAYS_MS) {
    for (const mode of modes) {
      try {
        const result = await runFailover(mode as FailoverMode, {
          dir,
          apps,
          onCleanUp: (fn) => moreCleanUps.push(fn),
          contestants: CONTESTANTS,
          loadSeconds: LOAD_SECONDS,
          walDelayMs,
        });
        passed = result.passed && passed;
        table.push({ walDelayMs, mode, result });
      } catch (error) {
        passed = false;
        console.log(`FAIL failover ${mode}: the run itself failed: ${error instanceof Error ? error.stack : String(error)}`);
        for (const app of apps) app.kill('SIGKILL');
      }
    }
  }
  if (WAL_DELAYS_MS.length > 1) {
    console.log('\nWAL held (ms) | mode  | saves p50 (ms) | saves p99 (ms) | saves/s | commits/s | first process serving (s) | acknowledged saves lost');
    for (const { walDelayMs, mode, result: r } of table) {
      console.log(
        `${String(walDelayMs).padStart(13)} | ${mode.padEnd(5)} | ${r.saveP50Ms.toFixed(0).padStart(14)} | ${r.saveP99Ms.toFixed(0).padStart(14)} | ` +
          `${r.savesPerSecond.toFixed(0).padStart(7)} | ${r.commitsPerSecond.toFixed(0).padStart(9)} | ${(r.startupMs / 1000).toFixed(1).padStart(25)} | ${r.lostSaves}`,
      );
    }
  }
  console.log(`chaos --failover: ${passed ? 'every target met' : 'FAILED'} in ${((performance.now() - began) / 1000).toFixed(0)} s`);
  process.exitCode = passed ? 0 : 1;
}

async function main() {
  const names = (options.only ?? 'sigkill,restart,idle').split(',').map((name) => name.trim()).filter(Boolean);
  for (const name of names) if (!faults[name]) throw new Error(`unknown fault "${name}" (sigkill, restart, idle)`);
  const began = performance.now();
  cluster = await startCluster(dir, await freePort());
  console.log(
    `chaos: PostgreSQL ${cluster.version} of its own on 127.0.0.1:${cluster.port}; ${CONTESTANTS} contestants saving every ${SAVE_PERIOD_MS / 1000} s ` +
      `for ${LOAD_SECONDS} s per fault over two app processes; fault at ${FAULT_AT_MS / 1000} s`,
  );
  let passed = true;
  for (const name of names) {
    try {
      passed = (await runFault(name, faults[name]!)) && passed;
    } catch (error) {
      passed = false;
      console.log(`FAIL ${name}: the run itself failed: ${error instanceof Error ? error.message : String(error)}`);
      for (const app of apps) app.kill('SIGKILL');
    }
  }
  console.log(`chaos: ${passed ? 'every fault survived' : 'FAILED'} in ${((performance.now() - began) / 1000).toFixed(0)} s`);
  process.exitCode = passed ? 0 : 1;
}

(options.failover ? failoverDrill() : main())
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(cleanUp);
